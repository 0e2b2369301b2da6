CREATE TABLE "webhook_deliveries" (
	"id" text PRIMARY KEY NOT NULL,
	"endpoint_id" text NOT NULL,
	"seq" bigint NOT NULL,
	"position" bigint NOT NULL,
	"kind" text NOT NULL,
	"at" text NOT NULL,
	"payload" text NOT NULL,
	"status" text NOT NULL,
	"attempts" integer NOT NULL,
	"last_code" integer,
	"last_at" text,
	"next_at" text NOT NULL,
	"queued_at" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "webhook_endpoints" (
	"id" text PRIMARY KEY NOT NULL,
	"organizer_id" text NOT NULL,
	"url" text NOT NULL,
	"kinds" text NOT NULL,
	"event_ids" text,
	"created_at" text NOT NULL,
	"disabled_at" text,
	"removed_at" text
);
--> statement-breakpoint
CREATE INDEX "webhook_deliveries_endpoint" ON "webhook_deliveries" USING btree ("endpoint_id","status","seq");--> statement-breakpoint
CREATE INDEX "webhook_deliveries_due" ON "webhook_deliveries" USING btree ("status","next_at");--> statement-breakpoint
CREATE INDEX "webhook_endpoints_organizer" ON "webhook_endpoints" USING btree ("organizer_id");