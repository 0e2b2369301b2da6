CREATE TABLE `event_ticket_types` (
	`id` text PRIMARY KEY NOT NULL,
	`event_id` text NOT NULL,
	`rank` integer NOT NULL,
	`type` text NOT NULL,
	`price` real NOT NULL,
	`quantity` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `event_ticket_types_event` ON `event_ticket_types` (`event_id`,`rank`);--> statement-breakpoint
CREATE INDEX `event_ticket_types_price` ON `event_ticket_types` (`price`);--> statement-breakpoint
CREATE TABLE `events` (
	`id` text PRIMARY KEY NOT NULL,
	`organizer_id` text NOT NULL,
	`title` text NOT NULL,
	`description` text NOT NULL,
	`date` text NOT NULL,
	`time` text NOT NULL,
	`location` text NOT NULL,
	`category` text NOT NULL,
	`approval_status` text NOT NULL,
	`images` text NOT NULL,
	`videos` text NOT NULL,
	`version` integer NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `events_status_date` ON `events` (`approval_status`,`date`,`time`);--> statement-breakpoint
CREATE INDEX `events_organizer` ON `events` (`organizer_id`);