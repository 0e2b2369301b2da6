CREATE TABLE "seat_maps" (
	"event_id" text PRIMARY KEY NOT NULL,
	"version" integer NOT NULL,
	"stage" text,
	"sections" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "seat_rows" (
	"event_id" text NOT NULL,
	"ticket_type_id" text NOT NULL,
	"row_label" text NOT NULL,
	"y" double precision NOT NULL,
	"ord" integer NOT NULL,
	"free" integer NOT NULL,
	CONSTRAINT "seat_rows_event_id_ticket_type_id_row_label_pk" PRIMARY KEY("event_id","ticket_type_id","row_label")
);
--> statement-breakpoint
CREATE TABLE "seats" (
	"event_id" text NOT NULL,
	"seat_id" text NOT NULL,
	"section" text NOT NULL,
	"ticket_type_id" text NOT NULL,
	"row_label" text NOT NULL,
	"number" text NOT NULL,
	"x" double precision NOT NULL,
	"y" double precision NOT NULL,
	"blocked" boolean NOT NULL,
	"accessible" text,
	"ord" integer NOT NULL,
	"plan_version" integer NOT NULL,
	"status" text NOT NULL,
	"order_id" text,
	CONSTRAINT "seats_event_id_seat_id_pk" PRIMARY KEY("event_id","seat_id")
);
--> statement-breakpoint
CREATE INDEX "seats_in_order" ON "seats" USING btree ("event_id","ord");--> statement-breakpoint
CREATE INDEX "seats_of_order" ON "seats" USING btree ("order_id");--> statement-breakpoint
CREATE INDEX "seats_in_row" ON "seats" USING btree ("event_id","ticket_type_id","row_label");--> statement-breakpoint
CREATE INDEX "seats_taken" ON "seats" USING btree ("event_id","seat_id","status") WHERE "seats"."status" <> 'free';