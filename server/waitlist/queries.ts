// Reads of the waiting lists (issue 17), on either store; other areas read them only through these.
import { sql } from 'drizzle-orm'
import { after, type Now, type Sql, statement } from '../db/sql.ts'
import type { AsyncQueries } from '../db/store.ts'

/** an entry of a waiting list as its person sees it */
export type WaitlistEntryRow = {
  entryId: string
  eventId: string
  ticketTypeId: string
  ticketType: string
  quantity: number
  status: 'waiting' | 'offered' | 'served' | 'left' | 'lapsed'
  offerUntil: string | null
  position: number
}

/** a ticket type's waiting list as its seats see it: seats offered now, and whether anyone waits */
export type WaitlistLine = { offered: number; waiting: boolean }

/**
 * The seats of a ticket type (`ticketTypeId`: an expression or parameter of the embedding statement)
 * offered to its waiting list now, as a subquery, in SQL both stores read. Booking's seats on sale
 * embed it (and waitingSql) in the one statement the hold reads under the write lock.
 */
export const offeredSeatsSql = (ticketTypeId: string) =>
  `coalesce((SELECT sum(w.quantity) FROM waitlist_entries w WHERE w.ticket_type_id = ${ticketTypeId} AND w.status = 'offered'), 0)`

/** whether anyone waits for a ticket type (`ticketTypeId` as in offeredSeatsSql), as a subquery */
export const waitingSql = (ticketTypeId: string) =>
  `EXISTS (SELECT 1 FROM waitlist_entries w WHERE w.ticket_type_id = ${ticketTypeId} AND w.status = 'waiting')`

// on every hold and order
const offerOf = statement<{ accountId: string; ticketTypeId: string }, { quantity: number }>(
  (p) => sql`SELECT quantity FROM waitlist_entries
    WHERE account_id = ${p.accountId} AND ticket_type_id = ${p.ticketTypeId} AND status = 'offered'`,
)

const entries = statement<{ accountId: string }, WaitlistEntryRow>(
  (p) => sql`SELECT entry_id AS "entryId", event_id AS "eventId", ticket_type_id AS "ticketTypeId",
      ticket_type AS "ticketType", quantity, status, offer_until AS "offerUntil",
      (SELECT CAST(count(*) AS integer) FROM waitlist_entries o WHERE o.ticket_type_id = e.ticket_type_id
        AND o.status IN ('waiting', 'offered') AND o.seq <= e.seq) AS position
    FROM waitlist_entries e WHERE e.account_id = ${p.accountId} AND e.status IN ('waiting', 'offered')
    ORDER BY e.seq`,
)

const linesOf = statement<
  { ticketTypeIds: string[] },
  { ticketTypeId: string; offered: number; waiting: number | boolean }
>(
  (p, d) => sql`SELECT ticket_type_id AS "ticketTypeId",
      CAST(coalesce(sum(CASE WHEN status = 'offered' THEN quantity END), 0) AS integer) AS offered,
      max(CASE WHEN status = 'waiting' THEN 1 ELSE 0 END) AS waiting
    FROM waitlist_entries WHERE ${d.inList(sql`ticket_type_id`, p.ticketTypeIds)} AND status IN ('waiting', 'offered')
    GROUP BY ticket_type_id`,
)

export function waitlistQueries(x: Sql) {
  return {
    /** seats of this ticket type offered to the account now (its waiting list's offer), or 0 */
    offeredTo: (accountId: string, ticketTypeId: string) =>
      after(x.get(offerOf, { accountId, ticketTypeId }), (row) => row?.quantity ?? 0),

    /** the account's entries still waiting or offered, each with its place in line (1: next) */
    entriesOf: (accountId: string) => x.all(entries, { accountId }),

    /** the lines of these ticket types that anyone waits or is offered seats in (none: left out) */
    lines: (ticketTypeIds: readonly string[]) => {
      if (ticketTypeIds.length === 0) return new Map<string, WaitlistLine>()
      return after(x.all(linesOf, { ticketTypeIds: [...new Set(ticketTypeIds)] }), (rows) => {
        const lines = new Map<string, WaitlistLine>()
        for (const row of rows)
          lines.set(row.ticketTypeId, { offered: Number(row.offered), waiting: Boolean(Number(row.waiting)) })
        return lines
      })
    },
  }
}

/** the reads on SQLite, as they answer: at once */
export type WaitlistQueriesNow = Now<ReturnType<typeof waitlistQueries>>
/** the reads on either store, awaited (db/store.ts) */
export type WaitlistQueries = AsyncQueries<ReturnType<typeof waitlistQueries>>
