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
CREATE INDEX "event_sales_organizer" ON "event_sales" USING btree ("organizer_id");--> statement-breakpoint
CREATE INDEX "inventory_event" ON "inventory" USING btree ("event_id");--> statement-breakpoint
CREATE UNIQUE INDEX "orders_provider_order" ON "orders" USING btree ("provider_order_id");--> statement-breakpoint
CREATE INDEX "orders_owner" ON "orders" USING btree ("owner_id","status") WHERE "orders"."owner_id" IS NOT NULL;--> statement-breakpoint
CREATE INDEX "orders_issued_by_event" ON "orders" USING btree ("event_id","id") WHERE "orders"."status" = 'issued';--> statement-breakpoint
CREATE INDEX "orders_held_until" ON "orders" USING btree ("held_until") WHERE "orders"."status" = 'held';--> statement-breakpoint
CREATE INDEX "orders_buyer_event" ON "orders" USING btree ("buyer_id","event_id");