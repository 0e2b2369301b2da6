CREATE TABLE `waitlist_entries` (
	`entry_id` text PRIMARY KEY NOT NULL,
	`event_id` text NOT NULL,
	`ticket_type_id` text NOT NULL,
	`ticket_type` text NOT NULL,
	`account_id` text NOT NULL,
	`quantity` integer NOT NULL,
	`status` text NOT NULL,
	`seq` integer NOT NULL,
	`offer_until` text,
	`joined_at` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `waitlist_entries_type` ON `waitlist_entries` (`ticket_type_id`,`status`,`seq`);--> statement-breakpoint
CREATE INDEX `waitlist_entries_account` ON `waitlist_entries` (`account_id`,`status`);