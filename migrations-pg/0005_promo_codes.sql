CREATE TABLE "promo_codes" (
	"event_id" text NOT NULL,
	"code" text NOT NULL,
	"percent_off" integer,
	"amount_off_paise" bigint,
	"ticket_type_ids" jsonb,
	"max_uses" integer,
	"starts_at" text,
	"ends_at" text,
	"disabled" boolean NOT NULL,
	"held" integer NOT NULL,
	"paid" integer NOT NULL,
	"created_at" text NOT NULL,
	CONSTRAINT "promo_codes_event_id_code_pk" PRIMARY KEY("event_id","code")
);
--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "promo_code" text;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "discount_paise" bigint DEFAULT 0 NOT NULL;