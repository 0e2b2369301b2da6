DROP INDEX "invoice_documents_buyer";--> statement-breakpoint
ALTER TABLE "invoice_documents" ADD COLUMN "issued_at" text DEFAULT '' NOT NULL;--> statement-breakpoint
CREATE INDEX "invoice_documents_buyer" ON "invoice_documents" USING btree ("buyer_id","issued_at");--> statement-breakpoint
-- Backfill (written by hand): each document's time of issue, its fact's (InvoiceIssued or
-- CreditNoteIssued, found by its series' key); the day of issue where no fact names it.
UPDATE "invoice_documents" SET "issued_at" = f."at"
FROM (
	SELECT "data"::json->>'supplierId' AS "supplier_id",
		CASE "type" WHEN 'InvoiceIssued' THEN 'invoice' ELSE 'credit-note' END AS "series",
		"data"::json->>'fy' AS "fy", ("data"::json->>'seq')::integer AS "seq", "at"
	FROM "ledger" WHERE "type" IN ('InvoiceIssued', 'CreditNoteIssued')
) AS f
WHERE "invoice_documents"."supplier_id" = f."supplier_id" AND "invoice_documents"."series" = f."series"
	AND "invoice_documents"."fy" = f."fy" AND "invoice_documents"."seq" = f."seq";--> statement-breakpoint
UPDATE "invoice_documents" SET "issued_at" = "issued_on" WHERE "issued_at" = '';
