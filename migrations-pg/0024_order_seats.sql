ALTER TABLE "orders" ADD COLUMN "seats_held" text;--> statement-breakpoint
-- Backfill (written by hand): each seated order's seats as its hold named them (TicketsHeld.seats),
-- the JSON text of the fact's own array (json keeps its text, as booking/project.ts wrote it).
UPDATE "orders" SET "seats_held" = h."seats"
FROM (
	SELECT "data"::json->>'orderId' AS "id", ("data"::json->'seats')::text AS "seats"
	FROM "ledger" WHERE "type" = 'TicketsHeld' AND json_typeof("data"::json->'seats') = 'array'
		AND json_array_length("data"::json->'seats') > 0
) AS h
WHERE "orders"."id" = h."id";
