DROP INDEX `seat_rows_by_rank`;--> statement-breakpoint
CREATE INDEX `seat_rows_with_room` ON `seat_rows` (`event_id`,`ticket_type_id`,`rank`,`ord`,`free`,`row_label`) WHERE "seat_rows"."free" > 0;