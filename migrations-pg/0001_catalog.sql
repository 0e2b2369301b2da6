CREATE TABLE "event_ticket_types" (
	"id" text PRIMARY KEY NOT NULL,
	"event_id" text NOT NULL,
	"rank" integer NOT NULL,
	"type" text NOT NULL,
	"price_paise" bigint NOT NULL,
	"quantity" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "events" (
	"id" text PRIMARY KEY NOT NULL,
	"organizer_id" text NOT NULL,
	"title" text NOT NULL,
	"description" text NOT NULL,
	"date" text NOT NULL,
	"time" text NOT NULL,
	"location" text NOT NULL,
	"category" text NOT NULL,
	"approval_status" text NOT NULL,
	"images" text NOT NULL,
	"videos" text NOT NULL,
	"sales_end" text,
	"review_reason" text,
	"version" integer NOT NULL,
	"created_at" text NOT NULL,
	"updated_at" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "events_search" (
	"event_id" text PRIMARY KEY NOT NULL,
	"title" text NOT NULL,
	"description" text NOT NULL,
	"location" text NOT NULL,
	"category" text NOT NULL,
	"title_tokens" text[] NOT NULL,
	"description_tokens" text[] NOT NULL,
	"location_tokens" text[] NOT NULL,
	"category_tokens" text[] NOT NULL,
	"lexemes" "tsvector" NOT NULL
);
--> statement-breakpoint
CREATE INDEX "event_ticket_types_event" ON "event_ticket_types" USING btree ("event_id","rank");--> statement-breakpoint
CREATE INDEX "event_ticket_types_price" ON "event_ticket_types" USING btree ("price_paise");--> statement-breakpoint
CREATE INDEX "events_status_date" ON "events" USING btree ("approval_status","date","time");--> statement-breakpoint
CREATE INDEX "events_organizer" ON "events" USING btree ("organizer_id");--> statement-breakpoint
CREATE INDEX "events_search_lexemes" ON "events_search" USING gin ("lexemes");