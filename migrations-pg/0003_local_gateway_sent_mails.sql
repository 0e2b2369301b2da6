CREATE TABLE "sent_mails" (
	"job_id" text PRIMARY KEY NOT NULL,
	"sent_at" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "gateway_orders" (
	"id" text PRIMARY KEY NOT NULL,
	"amount" bigint NOT NULL,
	"currency" text NOT NULL,
	"receipt" text NOT NULL,
	"notes" text NOT NULL,
	"status" text NOT NULL,
	"created_at" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "gateway_payments" (
	"id" text PRIMARY KEY NOT NULL,
	"order_id" text NOT NULL,
	"amount" bigint NOT NULL,
	"currency" text NOT NULL,
	"status" text NOT NULL,
	"method" text,
	"amount_refunded" bigint DEFAULT 0 NOT NULL,
	"error_description" text,
	"created_at" bigint NOT NULL,
	"arrival" bigint GENERATED ALWAYS AS IDENTITY (sequence name "gateway_payments_arrival_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1)
);
--> statement-breakpoint
CREATE TABLE "gateway_refunds" (
	"id" text PRIMARY KEY NOT NULL,
	"payment_id" text NOT NULL,
	"amount" bigint NOT NULL,
	"created_at" bigint NOT NULL,
	"arrival" bigint GENERATED ALWAYS AS IDENTITY (sequence name "gateway_refunds_arrival_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1)
);
--> statement-breakpoint
CREATE INDEX "gateway_payments_order" ON "gateway_payments" USING btree ("order_id","created_at","arrival");--> statement-breakpoint
CREATE INDEX "gateway_refunds_payment" ON "gateway_refunds" USING btree ("payment_id","arrival");--> statement-breakpoint
-- Written by hand, as SQLite's 0005 does: mails of facts recorded before this table existed (a
-- ledger copied in from SQLite, whose mails were sent there) are not owed again: the repair of owed
-- mails looks only at facts from this moment on.
INSERT INTO "sent_mails" ("job_id", "sent_at") VALUES ('~recorded-since', to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')) ON CONFLICT DO NOTHING;
