// Reads of the waiting lists on PostgreSQL: queries.ts's answers, the same rows in the same order,
// over any reader (the pool, or the PgTx of a decision: an offer is read under the write lock).
import type { AsyncQueries } from '../db/store.ts'
import type { PgTx } from '../ledger/pg-ledger.ts'
import type { WaitlistEntryRow, WaitlistLine, WaitlistQueriesNow } from './queries.ts'

type PgReader = Pick<PgTx, 'query'>

export function pgWaitlistQueries(db: PgReader): AsyncQueries<WaitlistQueriesNow> {
  return {
    offeredTo: async (accountId, ticketTypeId) =>
      (
        await db.query<{ n: number }>(
          `SELECT quantity AS n FROM waitlist_entries WHERE account_id = $1 AND ticket_type_id = $2 AND status = 'offered'`,
          [accountId, ticketTypeId],
        )
      )[0]?.n ?? 0,
    entriesOf: (accountId) =>
      db.query<WaitlistEntryRow>(
        `SELECT entry_id AS "entryId", event_id AS "eventId", ticket_type_id AS "ticketTypeId",
           ticket_type AS "ticketType", quantity, status, offer_until AS "offerUntil",
           (SELECT count(*)::int FROM waitlist_entries o WHERE o.ticket_type_id = e.ticket_type_id
              AND o.status IN ('waiting', 'offered') AND o.seq <= e.seq) AS position
         FROM waitlist_entries e WHERE account_id = $1 AND status IN ('waiting', 'offered') ORDER BY seq`,
        [accountId],
      ),
    async lines(ticketTypeIds) {
      const lines = new Map<string, WaitlistLine>()
      if (ticketTypeIds.length === 0) return lines
      const rows = await db.query<{ ticketTypeId: string; offered: number; waiting: boolean }>(
        `SELECT ticket_type_id AS "ticketTypeId",
           coalesce(sum(quantity) FILTER (WHERE status = 'offered'), 0)::int AS offered,
           bool_or(status = 'waiting') AS waiting
         FROM waitlist_entries WHERE ticket_type_id = ANY($1::text[]) AND status IN ('waiting', 'offered')
         GROUP BY ticket_type_id`,
        [[...new Set(ticketTypeIds)]],
      )
      for (const row of rows) lines.set(row.ticketTypeId, { offered: row.offered, waiting: row.waiting })
      return lines
    },
  }
}
