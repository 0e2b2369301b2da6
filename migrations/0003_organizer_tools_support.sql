CREATE TABLE `sales_by_hour` (
	`event_id` text NOT NULL,
	`hour` text NOT NULL,
	`tickets` integer NOT NULL,
	`revenue` real NOT NULL,
	PRIMARY KEY(`event_id`, `hour`)
);
--> statement-breakpoint
CREATE TABLE `sales_by_ticket_type` (
	`ticket_type_id` text PRIMARY KEY NOT NULL,
	`event_id` text NOT NULL,
	`ticket_type` text NOT NULL,
	`pending` integer NOT NULL,
	`completed` integer NOT NULL,
	`failed` integer NOT NULL,
	`tickets_sold` integer NOT NULL,
	`revenue` real NOT NULL
);
--> statement-breakpoint
CREATE TABLE `sales_orders` (
	`order_id` text PRIMARY KEY NOT NULL,
	`event_id` text NOT NULL,
	`ticket_type_id` text NOT NULL,
	`ticket_type` text NOT NULL,
	`quantity` integer NOT NULL,
	`amount` real NOT NULL,
	`status` text NOT NULL
);
--> statement-breakpoint
CREATE TABLE `sessions` (
	`id` text PRIMARY KEY NOT NULL,
	`event_id` text NOT NULL,
	`organizer_id` text NOT NULL,
	`session_title` text NOT NULL,
	`description` text NOT NULL,
	`start_time` text NOT NULL,
	`end_time` text NOT NULL,
	`speakers` text NOT NULL,
	`location` text NOT NULL,
	`created_at` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `sessions_event` ON `sessions` (`event_id`,`start_time`);--> statement-breakpoint
CREATE TABLE `inquiries` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`subject` text NOT NULL,
	`inquiry` text NOT NULL,
	`status` text NOT NULL,
	`reply` text,
	`created_at` text NOT NULL,
	`replied_at` text
);
--> statement-breakpoint
CREATE INDEX `inquiries_user` ON `inquiries` (`user_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `inquiries_created` ON `inquiries` (`created_at`);--> statement-breakpoint
ALTER TABLE `orders` ADD `issued_at` text;