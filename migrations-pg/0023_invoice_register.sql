DROP INDEX "invoice_documents_supplier_day";--> statement-breakpoint
ALTER TABLE "invoice_documents" ADD COLUMN "credit" integer GENERATED ALWAYS AS (CASE WHEN series = 'credit-note' THEN 1 ELSE 0 END) STORED NOT NULL;--> statement-breakpoint
CREATE INDEX "invoice_documents_register" ON "invoice_documents" USING btree ("supplier_id","issued_on","credit","fy","seq");