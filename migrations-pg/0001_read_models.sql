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
CREATE TABLE "attendance" (
	"event_id" text NOT NULL,
	"account_id" text NOT NULL,
	"tickets" integer NOT NULL,
	CONSTRAINT "attendance_event_id_account_id_pk" PRIMARY KEY("event_id","account_id")
);
--> statement-breakpoint
CREATE TABLE "event_sales" (
	"event_id" text PRIMARY KEY NOT NULL,
	"organizer_id" text NOT NULL,
	"pending" integer NOT NULL,
	"completed" integer NOT NULL,
	"failed" integer NOT NULL,
	"tickets_sold" integer NOT NULL,
	"revenue_paise" bigint NOT NULL,
	"attendees" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sales_by_hour" (
	"event_id" text NOT NULL,
	"hour" text NOT NULL,
	"tickets" integer NOT NULL,
	"revenue_paise" bigint NOT NULL,
	CONSTRAINT "sales_by_hour_event_id_hour_pk" PRIMARY KEY("event_id","hour")
);
--> statement-breakpoint
CREATE TABLE "sales_by_ticket_type" (
	"ticket_type_id" text PRIMARY KEY NOT NULL,
	"event_id" text NOT NULL,
	"ticket_type" text NOT NULL,
	"pending" integer NOT NULL,
	"completed" integer NOT NULL,
	"failed" integer NOT NULL,
	"tickets_sold" integer NOT NULL,
	"revenue_paise" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sales_totals" (
	"organizer_id" text PRIMARY KEY NOT NULL,
	"tickets_sold" bigint NOT NULL,
	"revenue_paise" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "held_by_client" (
	"client_key" text NOT NULL,
	"event_id" text NOT NULL,
	"seats" integer NOT NULL,
	CONSTRAINT "held_by_client_client_key_event_id_pk" PRIMARY KEY("client_key","event_id")
);
--> statement-breakpoint
CREATE TABLE "inventory" (
	"ticket_type_id" text PRIMARY KEY NOT NULL,
	"event_id" text NOT NULL,
	"held" integer NOT NULL,
	"sold" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "orders" (
	"id" text PRIMARY KEY NOT NULL,
	"event_id" text NOT NULL,
	"organizer_id" text NOT NULL,
	"ticket_type_id" text NOT NULL,
	"ticket_type" text NOT NULL,
	"buyer_id" text NOT NULL,
	"owner_id" text,
	"quantity" integer NOT NULL,
	"unit_price_paise" integer NOT NULL,
	"amount_paise" bigint NOT NULL,
	"provider" text NOT NULL,
	"provider_order_id" text NOT NULL,
	"status" text NOT NULL,
	"payment_status" text NOT NULL,
	"payment_id" text,
	"held_until" text NOT NULL,
	"client_key" text,
	"refund" text,
	"issued_at" text,
	"created_at" text NOT NULL,
	"updated_at" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "event_ticket_types" (
	"id" text PRIMARY KEY NOT NULL,
	"event_id" text NOT NULL,
	"rank" integer NOT NULL,
	"type" text NOT NULL,
	"price_paise" bigint NOT NULL,
	"quantity" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "events" (
	"id" text PRIMARY KEY NOT NULL,
	"organizer_id" text NOT NULL,
	"title" text NOT NULL,
	"description" text NOT NULL,
	"date" text NOT NULL,
	"time" text NOT NULL,
	"location" text NOT NULL,
	"category" text NOT NULL,
	"approval_status" text NOT NULL,
	"images" text NOT NULL,
	"videos" text NOT NULL,
	"sales_end" text,
	"review_reason" text,
	"version" integer NOT NULL,
	"created_at" text NOT NULL,
	"updated_at" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "events_search" (
	"event_id" text PRIMARY KEY NOT NULL,
	"title" text NOT NULL,
	"description" text NOT NULL,
	"location" text NOT NULL,
	"category" text NOT NULL,
	"title_tokens" text[] NOT NULL,
	"description_tokens" text[] NOT NULL,
	"location_tokens" text[] NOT NULL,
	"category_tokens" text[] NOT NULL,
	"lexemes" "tsvector" NOT NULL
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
CREATE INDEX "event_sales_organizer" ON "event_sales" USING btree ("organizer_id");--> statement-breakpoint
CREATE INDEX "inventory_event" ON "inventory" USING btree ("event_id");--> statement-breakpoint
CREATE UNIQUE INDEX "orders_provider_order" ON "orders" USING btree ("provider_order_id");--> statement-breakpoint
CREATE INDEX "orders_owner" ON "orders" USING btree ("owner_id","status") WHERE "orders"."owner_id" IS NOT NULL;--> statement-breakpoint
CREATE INDEX "orders_issued_by_event" ON "orders" USING btree ("event_id","id") WHERE "orders"."status" = 'issued';--> statement-breakpoint
CREATE INDEX "orders_held_until" ON "orders" USING btree ("held_until") WHERE "orders"."status" = 'held';--> statement-breakpoint
CREATE INDEX "orders_buyer_event" ON "orders" USING btree ("buyer_id","event_id");--> statement-breakpoint
CREATE INDEX "event_ticket_types_event" ON "event_ticket_types" USING btree ("event_id","rank");--> statement-breakpoint
CREATE INDEX "event_ticket_types_price" ON "event_ticket_types" USING btree ("price_paise");--> statement-breakpoint
CREATE INDEX "events_status_date" ON "events" USING btree ("approval_status","date","time");--> statement-breakpoint
CREATE INDEX "events_organizer" ON "events" USING btree ("organizer_id");--> statement-breakpoint
CREATE INDEX "events_search_lexemes" ON "events_search" USING gin ("lexemes");--> statement-breakpoint
CREATE INDEX "sessions_event" ON "sessions" USING btree ("event_id","start_time");--> statement-breakpoint
CREATE INDEX "inquiries_user" ON "inquiries" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "inquiries_created" ON "inquiries" USING btree ("created_at");