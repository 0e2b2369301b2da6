CREATE TABLE "queue_places" (
	"event_id" text NOT NULL,
	"account_id" text NOT NULL,
	"draw" text,
	"line" integer,
	"joined_at" text NOT NULL,
	"admitted_at" text,
	"expires_at" text,
	CONSTRAINT "queue_places_event_id_account_id_pk" PRIMARY KEY("event_id","account_id")
);
--> statement-breakpoint
CREATE TABLE "queue_rooms" (
	"event_id" text PRIMARY KEY NOT NULL,
	"organizer_id" text NOT NULL,
	"opens_at" text NOT NULL,
	"waiting_room" boolean NOT NULL,
	"admit_per_minute" integer,
	"version" integer NOT NULL,
	"early" integer NOT NULL,
	"opened_at" text,
	"next_line" integer NOT NULL,
	"admitted_through" integer NOT NULL,
	"credit_at" text,
	"paused" boolean NOT NULL,
	"closed_at" text
);
--> statement-breakpoint
CREATE INDEX "queue_places_line" ON "queue_places" USING btree ("event_id","line");