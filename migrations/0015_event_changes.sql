ALTER TABLE `events` ADD `cancelled_at` text;--> statement-breakpoint
ALTER TABLE `events` ADD `cancel_reason` text;