CREATE TABLE "admissions" (
	"event_id" text NOT NULL,
	"ticket_type_id" text NOT NULL,
	"admitted" integer NOT NULL,
	CONSTRAINT "admissions_event_id_ticket_type_id_pk" PRIMARY KEY("event_id","ticket_type_id")
);
--> statement-breakpoint
CREATE TABLE "admissions_by_minute" (
	"event_id" text NOT NULL,
	"minute" text NOT NULL,
	"admitted" integer NOT NULL,
	CONSTRAINT "admissions_by_minute_event_id_minute_pk" PRIMARY KEY("event_id","minute")
);
--> statement-breakpoint
CREATE TABLE "door_staff" (
	"event_id" text NOT NULL,
	"account_id" text NOT NULL,
	"added_at" text NOT NULL,
	CONSTRAINT "door_staff_event_id_account_id_pk" PRIMARY KEY("event_id","account_id")
);
--> statement-breakpoint
CREATE TABLE "double_entries" (
	"scan_id" text PRIMARY KEY NOT NULL,
	"event_id" text NOT NULL,
	"order_id" text NOT NULL,
	"admission" integer NOT NULL,
	"pass_id" text NOT NULL,
	"device" text NOT NULL,
	"scanned_at" text NOT NULL,
	"first_device" text NOT NULL,
	"first_admitted_at" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "passes" (
	"id" text PRIMARY KEY NOT NULL,
	"event_id" text NOT NULL,
	"order_id" text NOT NULL,
	"ticket_type_id" text NOT NULL,
	"ticket_type" text NOT NULL,
	"admission" integer NOT NULL,
	"version" integer NOT NULL,
	"owner_id" text NOT NULL,
	"status" text NOT NULL,
	"admitted_at" text,
	"device" text
);
--> statement-breakpoint
CREATE INDEX "double_entries_event" ON "double_entries" USING btree ("event_id","scanned_at");--> statement-breakpoint
CREATE INDEX "passes_event" ON "passes" USING btree ("event_id","id");--> statement-breakpoint
CREATE INDEX "passes_order" ON "passes" USING btree ("order_id");--> statement-breakpoint
-- Backfill (written by hand): a database that already holds tickets gets the passes the check-in
-- projection would have folded from its ledger: one per admission of every issued or cancelled
-- ticket, at the version its transfers reached (void when cancelled). Nothing was scanned before.
INSERT INTO "passes" ("id", "event_id", "order_id", "ticket_type_id", "ticket_type", "admission", "version", "owner_id", "status", "admitted_at", "device")
SELECT o."id" || '.' || a || '.' || coalesce(t."transfers", 0), o."event_id", o."id", o."ticket_type_id", o."ticket_type", a, coalesce(t."transfers", 0), coalesce(o."owner_id", o."buyer_id"), CASE WHEN o."status" = 'cancelled' THEN 'void' ELSE 'valid' END, NULL, NULL
FROM "orders" o CROSS JOIN LATERAL generate_series(1, o."quantity") AS a
LEFT JOIN (
	SELECT substr("stream", 7) AS "order_id", count(*)::int AS "transfers" FROM "ledger"
	WHERE "type" = 'TicketTransferred' GROUP BY "stream"
) t ON t."order_id" = o."id"
WHERE o."status" IN ('issued', 'cancelled');
