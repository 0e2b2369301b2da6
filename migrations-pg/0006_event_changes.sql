ALTER TABLE "events" ADD COLUMN "cancelled_at" text;--> statement-breakpoint
ALTER TABLE "events" ADD COLUMN "cancel_reason" text;