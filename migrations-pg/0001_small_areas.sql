CREATE TABLE "accounts" (
	"id" text PRIMARY KEY NOT NULL,
	"username" text NOT NULL,
	"email" text NOT NULL,
	"role" text NOT NULL,
	"phone" text,
	"password_hash" text NOT NULL,
	"password_changed_at" bigint NOT NULL,
	"created_at" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "password_reset_links" (
	"token_hash" text PRIMARY KEY NOT NULL,
	"account_id" text NOT NULL,
	"expires_at" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sessions" (
	"id" text PRIMARY KEY NOT NULL,
	"event_id" text NOT NULL,
	"organizer_id" text NOT NULL,
	"session_title" text NOT NULL,
	"description" text NOT NULL,
	"start_time" text NOT NULL,
	"end_time" text NOT NULL,
	"speakers" text NOT NULL,
	"location" text NOT NULL,
	"created_at" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "inquiries" (
	"id" text PRIMARY KEY NOT NULL,
	"user_id" text NOT NULL,
	"subject" text NOT NULL,
	"inquiry" text NOT NULL,
	"status" text NOT NULL,
	"reply" text,
	"created_at" text NOT NULL,
	"replied_at" text
);
--> statement-breakpoint
CREATE UNIQUE INDEX "accounts_email" ON "accounts" USING btree ("email");--> statement-breakpoint
CREATE INDEX "accounts_role" ON "accounts" USING btree ("role");--> statement-breakpoint
CREATE INDEX "sessions_event" ON "sessions" USING btree ("event_id","start_time");--> statement-breakpoint
CREATE INDEX "inquiries_user" ON "inquiries" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "inquiries_created" ON "inquiries" USING btree ("created_at");