CREATE TABLE `booking_fees` (
	`id` text PRIMARY KEY NOT NULL,
	`per_ticket_paise` integer NOT NULL,
	`percent` real NOT NULL,
	`rate_percent` real NOT NULL,
	`updated_at` text NOT NULL,
	`updated_by` text NOT NULL
);
--> statement-breakpoint
ALTER TABLE `orders` ADD `fee_paise` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
-- Backfill (written by hand): each order's booking fee, its GST included, from the terms its hold
-- kept (TicketsHeld.fee), as billing/tax.ts's orderMoney prices it: a fee only on a paid price,
-- each division rounded half up, CGST and SGST at half the rate each when the platform has a GSTIN.
UPDATE `orders` SET `fee_paise` = f.`total`
FROM (
	SELECT h.`id`, CASE WHEN h.`gstin` IS NULL OR h.`fee` = 0 THEN h.`fee`
		ELSE h.`fee` + 2 * ((2 * h.`fee` * h.`bp` + 20000) / 40000) END AS `total`
	FROM (
		SELECT json_extract(l.`data`, '$.orderId') AS `id`,
			CASE WHEN l.`amount` > 0 THEN json_extract(l.`data`, '$.fee.perTicketPaise') * json_extract(l.`data`, '$.quantity')
				+ (2 * l.`amount` * CAST(round(json_extract(l.`data`, '$.fee.percent') * 100) AS integer) + 10000) / 20000
			ELSE 0 END AS `fee`,
			CAST(round(json_extract(l.`data`, '$.fee.ratePercent') * 100) AS integer) AS `bp`,
			json_extract(l.`data`, '$.fee.platformGstin') AS `gstin`
		FROM (
			SELECT `data`, json_extract(`data`, '$.unitPricePaise') * json_extract(`data`, '$.quantity')
				- coalesce(json_extract(`data`, '$.discountPaise'), 0) AS `amount`
			FROM `ledger` WHERE `type` = 'TicketsHeld' AND json_type(`data`, '$.fee') = 'object'
		) AS l
	) AS h
) AS f
WHERE `orders`.`id` = f.`id`;