DROP INDEX "orders_issued_by_event";--> statement-breakpoint
CREATE INDEX "orders_issued_by_event" ON "orders" USING btree ("event_id","id","owner_id") WHERE "orders"."status" = 'issued';