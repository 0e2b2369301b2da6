CREATE TABLE "booking_fees" (
	"id" text PRIMARY KEY NOT NULL,
	"per_ticket_paise" integer NOT NULL,
	"percent" double precision NOT NULL,
	"rate_percent" double precision NOT NULL,
	"updated_at" text NOT NULL,
	"updated_by" text NOT NULL
);
--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "fee_paise" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
-- Backfill (written by hand): each order's booking fee, its GST included, from the terms its hold
-- kept (TicketsHeld.fee), as billing/tax.ts's orderMoney prices it: a fee only on a paid price,
-- each division rounded half up, CGST and SGST at half the rate each when the platform has a GSTIN.
UPDATE "orders" SET "fee_paise" = f."total"
FROM (
	SELECT h."id", CASE WHEN h."gstin" IS NULL OR h."fee" = 0 THEN h."fee"
		ELSE h."fee" + 2 * ((2 * h."fee" * h."bp" + 20000) / 40000) END AS "total"
	FROM (
		SELECT l."d"->>'orderId' AS "id",
			CASE WHEN l."amount" > 0 THEN (l."d"->'fee'->>'perTicketPaise')::bigint * (l."d"->>'quantity')::bigint
				+ (2 * l."amount" * round((l."d"->'fee'->>'percent')::numeric * 100)::bigint + 10000) / 20000
			ELSE 0 END AS "fee",
			round((l."d"->'fee'->>'ratePercent')::numeric * 100)::bigint AS "bp",
			l."d"->'fee'->>'platformGstin' AS "gstin"
		FROM (
			SELECT "data"::jsonb AS "d", ("data"::jsonb->>'unitPricePaise')::bigint * ("data"::jsonb->>'quantity')::bigint
				- coalesce(("data"::jsonb->>'discountPaise')::bigint, 0) AS "amount"
			FROM "ledger" WHERE "type" = 'TicketsHeld' AND jsonb_typeof("data"::jsonb->'fee') = 'object'
		) AS l
	) AS h
) AS f
WHERE "orders"."id" = f."id";