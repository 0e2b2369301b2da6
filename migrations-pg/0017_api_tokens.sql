CREATE TABLE "api_tokens" (
	"id" text PRIMARY KEY NOT NULL,
	"account_id" text NOT NULL,
	"name" text NOT NULL,
	"scopes" text NOT NULL,
	"event_ids" text,
	"expires_at" text,
	"secret_hash" text NOT NULL,
	"created_at" text NOT NULL,
	"revoked_at" text
);
--> statement-breakpoint
CREATE INDEX "api_tokens_account" ON "api_tokens" USING btree ("account_id");