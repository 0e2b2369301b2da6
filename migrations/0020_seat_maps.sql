CREATE TABLE `seat_maps` (
	`event_id` text PRIMARY KEY NOT NULL,
	`version` integer NOT NULL,
	`stage` text,
	`sections` text NOT NULL
);
--> statement-breakpoint
CREATE TABLE `seat_rows` (
	`event_id` text NOT NULL,
	`ticket_type_id` text NOT NULL,
	`row_label` text NOT NULL,
	`y` real NOT NULL,
	`ord` integer NOT NULL,
	`free` integer NOT NULL,
	PRIMARY KEY(`event_id`, `ticket_type_id`, `row_label`)
);
--> statement-breakpoint
CREATE TABLE `seats` (
	`event_id` text NOT NULL,
	`seat_id` text NOT NULL,
	`section` text NOT NULL,
	`ticket_type_id` text NOT NULL,
	`row_label` text NOT NULL,
	`number` text NOT NULL,
	`x` real NOT NULL,
	`y` real NOT NULL,
	`blocked` integer NOT NULL,
	`accessible` text,
	`ord` integer NOT NULL,
	`plan_version` integer NOT NULL,
	`status` text NOT NULL,
	`order_id` text,
	PRIMARY KEY(`event_id`, `seat_id`)
);
--> statement-breakpoint
CREATE INDEX `seats_in_order` ON `seats` (`event_id`,`ord`);--> statement-breakpoint
CREATE INDEX `seats_of_order` ON `seats` (`order_id`);--> statement-breakpoint
CREATE INDEX `seats_in_row` ON `seats` (`event_id`,`ticket_type_id`,`row_label`);--> statement-breakpoint
CREATE INDEX `seats_taken` ON `seats` (`event_id`,`seat_id`,`status`) WHERE "seats"."status" <> 'free';