CREATE TABLE "billing_profiles" (
	"organizer_id" text PRIMARY KEY NOT NULL,
	"legal_name" text NOT NULL,
	"gstin" text,
	"address" text NOT NULL,
	"state" text NOT NULL,
	"invoice_prefix" text NOT NULL,
	"updated_at" text NOT NULL
);
