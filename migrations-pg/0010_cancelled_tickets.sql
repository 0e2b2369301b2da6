ALTER TABLE "orders" ADD COLUMN "cancelled_at" text;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "cancelled_by" text;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "refund_requested_paise" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "refunded_paise" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "refunded_at" text;--> statement-breakpoint
-- Backfill (written by hand): the tickets a database already holds get what the booking projection
-- would have folded from their ledger: when and why each cancelled ticket ended (its event called
-- off or its holder), and the refunds asked for and paid out (facts from before money was kept in
-- paise carry rupees in `amount`).
UPDATE "orders" o SET "cancelled_at" = c."at",
	"cancelled_by" = CASE WHEN c."data"::jsonb ? 'eventCancelled' THEN 'event' ELSE 'holder' END
FROM (
	SELECT DISTINCT ON ("stream") substr("stream", 7) AS "order_id", "at", "data" FROM "ledger"
	WHERE "type" = 'TicketCancelled' ORDER BY "stream", "version" DESC
) c
WHERE c."order_id" = o."id" AND o."status" = 'cancelled';--> statement-breakpoint
UPDATE "orders" o SET "refund_requested_paise" = r."requested", "refunded_paise" = r."refunded", "refunded_at" = r."refunded_at"
FROM (
	SELECT substr("stream", 7) AS "order_id",
		coalesce(sum(coalesce(("data"::jsonb ->> 'amountPaise')::bigint, round(("data"::jsonb ->> 'amount')::numeric * 100)::bigint)) FILTER (WHERE "type" = 'RefundRequested'), 0) AS "requested",
		coalesce(sum(coalesce(("data"::jsonb ->> 'amountPaise')::bigint, round(("data"::jsonb ->> 'amount')::numeric * 100)::bigint)) FILTER (WHERE "type" = 'PaymentRefunded'), 0) AS "refunded",
		max("at") FILTER (WHERE "type" = 'PaymentRefunded') AS "refunded_at"
	FROM "ledger" WHERE "type" IN ('RefundRequested', 'PaymentRefunded') GROUP BY "stream"
) r
WHERE r."order_id" = o."id";
