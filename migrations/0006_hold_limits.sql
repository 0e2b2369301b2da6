ALTER TABLE `orders` ADD `client_key` text;--> statement-breakpoint
CREATE INDEX `orders_buyer_event` ON `orders` (`buyer_id`,`event_id`);--> statement-breakpoint
CREATE INDEX `orders_held_by_client` ON `orders` (`client_key`,`event_id`) WHERE "orders"."status" = 'held';