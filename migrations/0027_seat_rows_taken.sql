-- The defaults (written by hand) let the columns be added to rows that exist; the backfill below
-- gives every row its value, as the seating projection would have folded it.
ALTER TABLE `seat_rows` ADD `taken` text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE `seats` ADD `slot` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
-- Backfill (written by hand): each seat's place in its row, in the plan's order, and each row's
-- record of its seats in that order: '.' free, '#' blocked (and free), 'x' taken
-- (held or sold).
UPDATE `seats` SET `slot` = r.`slot`
FROM (SELECT `event_id`, `seat_id`, row_number() OVER (PARTITION BY `event_id`, `ticket_type_id`, `row_label` ORDER BY `ord`) - 1 AS `slot` FROM `seats`) AS r
WHERE `seats`.`event_id` = r.`event_id` AND `seats`.`seat_id` = r.`seat_id`;--> statement-breakpoint
UPDATE `seat_rows` SET `taken` = coalesce((
	SELECT group_concat(CASE s.`status` WHEN 'free' THEN CASE WHEN s.`blocked` THEN '#' ELSE '.' END ELSE 'x' END, '' ORDER BY s.`slot`)
	FROM `seats` s
	WHERE s.`event_id` = `seat_rows`.`event_id` AND s.`ticket_type_id` = `seat_rows`.`ticket_type_id` AND s.`row_label` = `seat_rows`.`row_label`
), '');
