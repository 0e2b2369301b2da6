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
CREATE INDEX "seats_in_row" ON "seats" USING btree ("event_id","ticket_type_id","row_label");