DROP TABLE `sales_orders`;--> statement-breakpoint
DROP INDEX `ledger_type`;--> statement-breakpoint
DROP INDEX `orders_event`;--> statement-breakpoint
DROP INDEX `orders_ticket_type`;--> statement-breakpoint
DROP INDEX `orders_held`;--> statement-breakpoint
DROP INDEX `orders_organizer`;--> statement-breakpoint
DROP INDEX `orders_owner`;--> statement-breakpoint
CREATE INDEX `orders_issued_by_event` ON `orders` (`event_id`,`id`) WHERE "orders"."status" = 'issued';--> statement-breakpoint
CREATE INDEX `orders_held_until` ON `orders` (`held_until`) WHERE "orders"."status" = 'held';--> statement-breakpoint
CREATE INDEX `orders_owner` ON `orders` (`owner_id`,`status`) WHERE "orders"."owner_id" IS NOT NULL;