CREATE TABLE `checkpoints` (
	`name` text PRIMARY KEY NOT NULL,
	`position` integer NOT NULL,
	`at` text NOT NULL
);
--> statement-breakpoint
CREATE TABLE `ledger` (
	`position` integer PRIMARY KEY NOT NULL,
	`stream` text NOT NULL,
	`version` integer NOT NULL,
	`type` text NOT NULL,
	`data` text NOT NULL,
	`meta` text NOT NULL,
	`at` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `ledger_stream_version` ON `ledger` (`stream`,`version`);--> statement-breakpoint
CREATE INDEX `ledger_type` ON `ledger` (`type`);--> statement-breakpoint
CREATE TABLE `accounts` (
	`id` text PRIMARY KEY NOT NULL,
	`username` text NOT NULL,
	`email` text NOT NULL,
	`role` text NOT NULL,
	`phone` text,
	`password_hash` text NOT NULL,
	`password_changed_at` integer NOT NULL,
	`created_at` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `accounts_email` ON `accounts` (`email`);--> statement-breakpoint
CREATE INDEX `accounts_role` ON `accounts` (`role`);--> statement-breakpoint
CREATE TABLE `password_reset_links` (
	`token_hash` text PRIMARY KEY NOT NULL,
	`account_id` text NOT NULL,
	`expires_at` text NOT NULL
);
