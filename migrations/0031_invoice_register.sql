DROP INDEX `invoice_documents_supplier_day`;--> statement-breakpoint
ALTER TABLE `invoice_documents` ADD `credit` integer GENERATED ALWAYS AS (CASE WHEN series = 'credit-note' THEN 1 ELSE 0 END) VIRTUAL NOT NULL;--> statement-breakpoint
CREATE INDEX `invoice_documents_register` ON `invoice_documents` (`supplier_id`,`issued_on`,`credit`,`fy`,`seq`);