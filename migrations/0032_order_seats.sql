ALTER TABLE `orders` ADD `seats_held` text;--> statement-breakpoint
-- Backfill (written by hand): each seated order's seats as its hold named them (TicketsHeld.seats),
-- the JSON text of the fact's own array, as booking/project.ts keeps it.
UPDATE `orders` SET `seats_held` = h.`seats`
FROM (
	SELECT json_extract(`data`, '$.orderId') AS `id`, json_extract(`data`, '$.seats') AS `seats`
	FROM `ledger` WHERE `type` = 'TicketsHeld' AND json_type(`data`, '$.seats') = 'array'
		AND json_array_length(`data`, '$.seats') > 0
) AS h
WHERE `orders`.`id` = h.`id`;
