// Sales figures per event, on either store: by ticket type (API.md's analytics rows), totals, and
// over time. Money here is integer paise, summed in SQL (as a bigint: PostgreSQL's sum of a bigint
// is numeric); the routes turn it into rupees for the reply.
import { sql } from 'drizzle-orm'
import { after, type Sql, statement } from '../db/sql.ts'
import type { AsyncQueries } from '../db/store.ts'
import { type SalesByTicketTypeRow, salesByTicketType } from './tables.ts'

type Totals = {
  ticketsSold: number
  revenuePaise: number
  pending: number
  completed: number
  failed: number
}

/** by ticket type id, byte by byte (the routes key them by id: any total order would do) */
const byTicketType = statement<{ eventId: string }, SalesByTicketTypeRow>(
  (p, d) => sql`SELECT ${salesByTicketType.columns()} FROM sales_by_ticket_type WHERE event_id = ${p.eventId}
    ORDER BY ${d.bytes(sql`ticket_type_id`)}`,
)

const totals = statement<{ eventId: string }, Totals>(
  (p) => sql`SELECT CAST(coalesce(sum(tickets_sold), 0) AS bigint) AS "ticketsSold",
      CAST(coalesce(sum(revenue_paise), 0) AS bigint) AS "revenuePaise",
      CAST(coalesce(sum(pending), 0) AS bigint) AS pending, CAST(coalesce(sum(completed), 0) AS bigint) AS completed,
      CAST(coalesce(sum(failed), 0) AS bigint) AS failed
    FROM sales_by_ticket_type WHERE event_id = ${p.eventId}`,
)

const timeline = statement<{ eventId: string }, { at: string; tickets: number; revenuePaise: number }>(
  (p, d) => sql`SELECT hour AS at, tickets, revenue_paise AS "revenuePaise" FROM sales_by_hour
    WHERE event_id = ${p.eventId} ORDER BY ${d.bytes(sql`hour`)}`,
)

export const analyticsQueries = (x: Sql) => {
  const row = salesByTicketType.decode(x.dialect)
  return {
    byTicketType: (eventId: string) => after(x.all(byTicketType, { eventId }), (rows) => rows.map(row)),
    /** the event's figures over all its ticket types */
    totals: (eventId: string) =>
      after(
        x.get(totals, { eventId }),
        (found): Totals => found ?? { ticketsSold: 0, revenuePaise: 0, pending: 0, completed: 0, failed: 0 },
      ),
    timeline: (eventId: string) => x.all(timeline, { eventId }),
  }
}

/** the reads on either store, awaited (db/store.ts) */
export type AnalyticsQueries = AsyncQueries<ReturnType<typeof analyticsQueries>>
