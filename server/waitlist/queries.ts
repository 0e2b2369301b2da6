// Reads of the waiting lists (issue 17); other areas read them only through these.
import { and, asc, eq, inArray, sql } from 'drizzle-orm'
import type { Db } from '../db/connection.ts'
import type { AsyncQueries } from '../db/store.ts'
import { waitlistEntries } from './tables.ts'

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

/** past this many ticket types, their lines are read in one pass over the open entries */
const LINES_BY_ID_MAX = 500

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

export function waitlistQueries(db: Db) {
  // on every hold and order (prepared: building the query each time cost the flash sale dearly)
  const offerOf = db
    .select({ quantity: waitlistEntries.quantity })
    .from(waitlistEntries)
    .where(
      and(
        eq(waitlistEntries.accountId, sql.placeholder('accountId')),
        eq(waitlistEntries.ticketTypeId, sql.placeholder('ticketTypeId')),
        eq(waitlistEntries.status, 'offered'),
      ),
    )
    .prepare()
  const open = inArray(waitlistEntries.status, ['waiting', 'offered'])
  const lineColumns = {
    ticketTypeId: waitlistEntries.ticketTypeId,
    offered: sql<number>`coalesce(sum(CASE WHEN ${waitlistEntries.status} = 'offered' THEN ${waitlistEntries.quantity} END), 0)`,
    waiting: sql<number>`max(${waitlistEntries.status} = 'waiting')`,
  }
  const allLines = db
    .select(lineColumns)
    .from(waitlistEntries)
    .where(open)
    .groupBy(waitlistEntries.ticketTypeId)
    .prepare()

  return {
    /** seats of this ticket type offered to the account now (its waiting list's offer), or 0 */
    offeredTo: (accountId: string, ticketTypeId: string): number =>
      offerOf.get({ accountId, ticketTypeId })?.quantity ?? 0,

    /** the account's entries still waiting or offered, each with its place in line (1: next) */
    entriesOf: (accountId: string): WaitlistEntryRow[] =>
      db
        .select({
          entryId: waitlistEntries.entryId,
          eventId: waitlistEntries.eventId,
          ticketTypeId: waitlistEntries.ticketTypeId,
          ticketType: waitlistEntries.ticketType,
          quantity: waitlistEntries.quantity,
          status: waitlistEntries.status,
          offerUntil: waitlistEntries.offerUntil,
          // qualified by hand: drizzle names a one-table query's columns without their table
          position: sql<number>`(SELECT count(*) FROM waitlist_entries o WHERE o.ticket_type_id = "waitlist_entries"."ticket_type_id"
            AND o.status IN ('waiting', 'offered') AND o.seq <= "waitlist_entries"."seq")`,
        })
        .from(waitlistEntries)
        .where(and(eq(waitlistEntries.accountId, accountId), open))
        .orderBy(asc(waitlistEntries.seq))
        .all(),

    /** the lines of these ticket types that anyone waits or is offered seats in (none: left out) */
    lines(ticketTypeIds: readonly string[]): Map<string, WaitlistLine> {
      const lines = new Map<string, WaitlistLine>()
      if (ticketTypeIds.length === 0) return lines
      const wanted = new Set(ticketTypeIds)
      const rows =
        ticketTypeIds.length > LINES_BY_ID_MAX
          ? allLines.all().filter((row) => wanted.has(row.ticketTypeId))
          : db
              .select(lineColumns)
              .from(waitlistEntries)
              .where(and(inArray(waitlistEntries.ticketTypeId, [...wanted]), open))
              .groupBy(waitlistEntries.ticketTypeId)
              .all()
      for (const row of rows)
        lines.set(row.ticketTypeId, { offered: row.offered, waiting: Boolean(row.waiting) })
      return lines
    },
  }
}

/** the SQLite reads as they answer, at once */
export type WaitlistQueriesNow = ReturnType<typeof waitlistQueries>
/** the reads on either store, awaited (db/store.ts) */
export type WaitlistQueries = AsyncQueries<WaitlistQueriesNow>
