CREATE TABLE "invoice_documents" (
	"supplier_id" text NOT NULL,
	"series" text NOT NULL,
	"fy" text NOT NULL,
	"seq" integer NOT NULL,
	"number" text NOT NULL,
	"order_id" text NOT NULL,
	"organizer_id" text NOT NULL,
	"buyer_id" text NOT NULL,
	"of" text NOT NULL,
	"issued_on" text NOT NULL,
	"document" text NOT NULL,
	CONSTRAINT "invoice_documents_supplier_id_series_fy_seq_pk" PRIMARY KEY("supplier_id","series","fy","seq")
);
--> statement-breakpoint
ALTER TABLE "event_ticket_types" ADD COLUMN "tax_rate_bp" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "events" ADD COLUMN "gst_state" text;--> statement-breakpoint
ALTER TABLE "events" ADD COLUMN "prices_include_tax" boolean DEFAULT true NOT NULL;--> statement-breakpoint
CREATE INDEX "invoice_documents_order" ON "invoice_documents" USING btree ("order_id");--> statement-breakpoint
CREATE INDEX "invoice_documents_supplier_day" ON "invoice_documents" USING btree ("supplier_id","issued_on");