CREATE TABLE "checkpoints" (
	"name" text PRIMARY KEY NOT NULL,
	"position" bigint NOT NULL,
	"at" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "ledger" (
	"position" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "ledger_position_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"stream" text NOT NULL,
	"version" integer NOT NULL,
	"type" text NOT NULL,
	"data" text NOT NULL,
	"meta" text NOT NULL,
	"at" text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX "ledger_stream_version" ON "ledger" USING btree ("stream","version");