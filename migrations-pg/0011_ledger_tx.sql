-- Each fact carries the transaction that appended it (server/ledger/pg-ledger.ts): readers tail the
-- ledger in (tx, position) order, up to the oldest transaction still running. The facts already
-- stored all take this migration's own transaction id, so among themselves they keep their order
-- by position, and every fact appended later comes after them. A consumer's checkpoint (the
-- position of the last fact it handled) stands at that fact's (tx, position).
ALTER TABLE "ledger" ADD COLUMN "tx" "xid8" DEFAULT pg_current_xact_id() NOT NULL;--> statement-breakpoint
CREATE INDEX "ledger_tx_position" ON "ledger" USING btree ("tx","position");