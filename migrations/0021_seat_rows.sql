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
CREATE INDEX `seats_in_row` ON `seats` (`event_id`,`ticket_type_id`,`row_label`);