CREATE TABLE `attendance` (
	`event_id` text NOT NULL,
	`account_id` text NOT NULL,
	`tickets` integer NOT NULL,
	PRIMARY KEY(`event_id`, `account_id`)
);
--> statement-breakpoint
CREATE TABLE `event_sales` (
	`event_id` text PRIMARY KEY NOT NULL,
	`organizer_id` text NOT NULL,
	`pending` integer NOT NULL,
	`completed` integer NOT NULL,
	`failed` integer NOT NULL,
	`tickets_sold` integer NOT NULL,
	`revenue_paise` integer NOT NULL,
	`attendees` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `event_sales_organizer` ON `event_sales` (`organizer_id`);--> statement-breakpoint
CREATE TABLE `sales_totals` (
	`organizer_id` text PRIMARY KEY NOT NULL,
	`tickets_sold` integer NOT NULL,
	`revenue_paise` integer NOT NULL
);
--> statement-breakpoint
-- Backfill (written by hand): a database that already holds sales gets the same rows the
-- analytics projection would have folded, from the read models it already keeps.
INSERT INTO `event_sales` (`event_id`, `organizer_id`, `pending`, `completed`, `failed`, `tickets_sold`, `revenue_paise`, `attendees`)
SELECT s.`event_id`, e.`organizer_id`, sum(s.`pending`), sum(s.`completed`), sum(s.`failed`), sum(s.`tickets_sold`), sum(s.`revenue_paise`), 0
FROM `sales_by_ticket_type` s JOIN `events` e ON e.`id` = s.`event_id`
GROUP BY s.`event_id`;
--> statement-breakpoint
INSERT INTO `attendance` (`event_id`, `account_id`, `tickets`)
SELECT `event_id`, `owner_id`, sum(`quantity`) FROM `orders`
WHERE `status` = 'issued' AND `owner_id` IS NOT NULL
GROUP BY `event_id`, `owner_id`;
--> statement-breakpoint
UPDATE `event_sales` SET `attendees` = (
  SELECT count(*) FROM `attendance` a WHERE a.`event_id` = `event_sales`.`event_id` AND a.`tickets` > 0
);
--> statement-breakpoint
INSERT INTO `sales_totals` (`organizer_id`, `tickets_sold`, `revenue_paise`)
SELECT `organizer_id`, sum(`tickets_sold`), sum(`revenue_paise`) FROM `event_sales` GROUP BY `organizer_id`;
--> statement-breakpoint
INSERT INTO `sales_totals` (`organizer_id`, `tickets_sold`, `revenue_paise`)
SELECT '*', sum(`tickets_sold`), sum(`revenue_paise`) FROM `event_sales` HAVING count(*) > 0;
