CREATE TABLE `promo_codes` (
	`event_id` text NOT NULL,
	`code` text NOT NULL,
	`percent_off` integer,
	`amount_off_paise` integer,
	`ticket_type_ids` text,
	`max_uses` integer,
	`starts_at` text,
	`ends_at` text,
	`disabled` integer NOT NULL,
	`held` integer NOT NULL,
	`paid` integer NOT NULL,
	`created_at` text NOT NULL,
	PRIMARY KEY(`event_id`, `code`)
);
--> statement-breakpoint
ALTER TABLE `orders` ADD `promo_code` text;--> statement-breakpoint
ALTER TABLE `orders` ADD `discount_paise` integer DEFAULT 0 NOT NULL;