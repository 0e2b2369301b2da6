// Sales figures per event on PostgreSQL (issue 15): what queries.ts answers, for the same rows.
// Sums of paise come back as bigint (numbers, see pg-connection.ts), never numeric.
import type { PgReader } from '../booking/pg-queries.ts'
import type { AsyncQueries } from '../db/store.ts'
import type { AnalyticsQueries } from './queries.ts'

type TicketTypeRow = Awaited<ReturnType<AnalyticsQueries['byTicketType']>>[number]
type Totals = ReturnType<AnalyticsQueries['totals']>

export function pgAnalyticsQueries(db: PgReader): AsyncQueries<AnalyticsQueries> {
  return {
    byTicketType: (eventId) =>
      db.query<TicketTypeRow>(
        `SELECT ticket_type_id AS "ticketTypeId", event_id AS "eventId", ticket_type AS "ticketType",
           pending, completed, failed, tickets_sold AS "ticketsSold", revenue_paise AS "revenuePaise"
         FROM sales_by_ticket_type WHERE event_id = $1`,
        [eventId],
      ),
    /** the event's figures over all its ticket types */
    totals: async (eventId) => {
      const [row] = await db.query<Totals>(
        `SELECT coalesce(sum(tickets_sold), 0)::bigint AS "ticketsSold",
           coalesce(sum(revenue_paise), 0)::bigint AS "revenuePaise", coalesce(sum(pending), 0)::bigint AS pending,
           coalesce(sum(completed), 0)::bigint AS completed, coalesce(sum(failed), 0)::bigint AS failed
         FROM sales_by_ticket_type WHERE event_id = $1`,
        [eventId],
      )
      return row ?? { ticketsSold: 0, revenuePaise: 0, pending: 0, completed: 0, failed: 0 }
    },
    timeline: (eventId) =>
      db.query(
        `SELECT hour AS at, tickets, revenue_paise AS "revenuePaise" FROM sales_by_hour
         WHERE event_id = $1 ORDER BY hour COLLATE "C"`,
        [eventId],
      ),
  }
}
