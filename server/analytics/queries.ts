// Sales figures per event: by ticket type (API.md's analytics rows), totals, and over time. Money
// here is integer paise, summed in SQL; the routes turn it into rupees for the reply.
import { type AnyColumn, asc, eq, sql } from 'drizzle-orm'
import type { Db } from '../db/connection.ts'
import type { AsyncQueries } from '../db/store.ts'
import { salesByHour, salesByTicketType } from './tables.ts'

export function analyticsQueries(db: Db) {
  const t = salesByTicketType
  const total = (column: AnyColumn) => sql<number>`coalesce(sum(${column}), 0)`
  return {
    byTicketType: (eventId: string) => db.select().from(t).where(eq(t.eventId, eventId)).all(),
    /** the event's figures over all its ticket types */
    totals: (eventId: string) =>
      db
        .select({
          ticketsSold: total(t.ticketsSold),
          revenuePaise: total(t.revenuePaise),
          pending: total(t.pending),
          completed: total(t.completed),
          failed: total(t.failed),
        })
        .from(t)
        .where(eq(t.eventId, eventId))
        .get() ?? { ticketsSold: 0, revenuePaise: 0, pending: 0, completed: 0, failed: 0 },
    timeline: (eventId: string) =>
      db
        .select({
          at: salesByHour.hour,
          tickets: salesByHour.tickets,
          revenuePaise: salesByHour.revenuePaise,
        })
        .from(salesByHour)
        .where(eq(salesByHour.eventId, eventId))
        .orderBy(asc(salesByHour.hour))
        .all(),
  }
}

/** the SQLite reads as they answer, at once */
export type AnalyticsQueriesNow = ReturnType<typeof analyticsQueries>
/** the reads on either store, awaited (db/store.ts) */
export type AnalyticsQueries = AsyncQueries<AnalyticsQueriesNow>
