DROP INDEX "seat_rows_by_rank";--> statement-breakpoint
DROP INDEX "seats_in_row";--> statement-breakpoint
DROP INDEX "seats_taken";--> statement-breakpoint
CREATE INDEX "seat_rows_with_room" ON "seat_rows" USING btree ("event_id","ticket_type_id","rank","ord","free","row_label") WHERE "seat_rows"."free" > 0;--> statement-breakpoint
CREATE INDEX "seats_in_row" ON "seats" USING btree ("event_id","ticket_type_id","row_label","ord");--> statement-breakpoint
CREATE INDEX "seats_taken" ON "seats" USING btree ("event_id","ticket_type_id","row_label","seat_id","status") WHERE "seats"."status" <> 'free';