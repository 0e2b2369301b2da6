ALTER TABLE `orders` ADD `cancelled_at` text;--> statement-breakpoint
ALTER TABLE `orders` ADD `cancelled_by` text;--> statement-breakpoint
ALTER TABLE `orders` ADD `refund_requested_paise` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `orders` ADD `refunded_paise` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `orders` ADD `refunded_at` text;--> statement-breakpoint
-- Backfill (written by hand): the tickets a database already holds get what the booking projection
-- would have folded from their ledger: when and why each cancelled ticket ended (its event called
-- off or its holder), and the refunds asked for and paid out (facts from before money was kept in
-- paise carry rupees in `amount`).
UPDATE `orders` SET
	`cancelled_at` = (SELECT l.`at` FROM `ledger` l WHERE l.`stream` = 'order-' || `orders`.`id` AND l.`type` = 'TicketCancelled' ORDER BY l.`version` DESC LIMIT 1),
	`cancelled_by` = (SELECT CASE WHEN json_extract(l.`data`, '$.eventCancelled') IS NULL THEN 'holder' ELSE 'event' END FROM `ledger` l WHERE l.`stream` = 'order-' || `orders`.`id` AND l.`type` = 'TicketCancelled' ORDER BY l.`version` DESC LIMIT 1)
WHERE `status` = 'cancelled';--> statement-breakpoint
UPDATE `orders` SET
	`refund_requested_paise` = (SELECT coalesce(sum(coalesce(json_extract(l.`data`, '$.amountPaise'), CAST(round(json_extract(l.`data`, '$.amount') * 100) AS INTEGER))), 0) FROM `ledger` l WHERE l.`stream` = 'order-' || `orders`.`id` AND l.`type` = 'RefundRequested'),
	`refunded_paise` = (SELECT coalesce(sum(coalesce(json_extract(l.`data`, '$.amountPaise'), CAST(round(json_extract(l.`data`, '$.amount') * 100) AS INTEGER))), 0) FROM `ledger` l WHERE l.`stream` = 'order-' || `orders`.`id` AND l.`type` = 'PaymentRefunded'),
	`refunded_at` = (SELECT max(l.`at`) FROM `ledger` l WHERE l.`stream` = 'order-' || `orders`.`id` AND l.`type` = 'PaymentRefunded')
WHERE `refund` IS NOT NULL;
