CREATE TABLE `held_by_client` (
	`client_key` text NOT NULL,
	`event_id` text NOT NULL,
	`seats` integer NOT NULL,
	PRIMARY KEY(`client_key`, `event_id`)
);
--> statement-breakpoint
DROP INDEX `orders_held_by_client`;