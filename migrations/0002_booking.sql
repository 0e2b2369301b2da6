CREATE TABLE `inventory` (
	`ticket_type_id` text PRIMARY KEY NOT NULL,
	`event_id` text NOT NULL,
	`held` integer NOT NULL,
	`sold` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `inventory_event` ON `inventory` (`event_id`);--> statement-breakpoint
CREATE TABLE `orders` (
	`id` text PRIMARY KEY NOT NULL,
	`event_id` text NOT NULL,
	`organizer_id` text NOT NULL,
	`ticket_type_id` text NOT NULL,
	`ticket_type` text NOT NULL,
	`buyer_id` text NOT NULL,
	`owner_id` text,
	`quantity` integer NOT NULL,
	`unit_price` real NOT NULL,
	`amount` real NOT NULL,
	`provider` text NOT NULL,
	`provider_order_id` text NOT NULL,
	`status` text NOT NULL,
	`payment_status` text NOT NULL,
	`payment_id` text,
	`held_until` text NOT NULL,
	`refund` text,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `orders_provider_order` ON `orders` (`provider_order_id`);--> statement-breakpoint
CREATE INDEX `orders_owner` ON `orders` (`owner_id`,`status`);--> statement-breakpoint
CREATE INDEX `orders_event` ON `orders` (`event_id`,`status`);--> statement-breakpoint
CREATE INDEX `orders_ticket_type` ON `orders` (`ticket_type_id`);--> statement-breakpoint
CREATE INDEX `orders_held` ON `orders` (`status`,`held_until`);--> statement-breakpoint
CREATE INDEX `orders_organizer` ON `orders` (`organizer_id`);