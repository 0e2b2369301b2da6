// Sales figures per event: by ticket type (API.md's analytics rows), totals, and over time.
import { asc, eq } from 'drizzle-orm'
import type { Db } from '../db/connection.ts'
import { salesByHour, salesByTicketType } from './tables.ts'

export function analyticsQueries(db: Db) {
  return {
    byTicketType: (eventId: string) =>
      db.select().from(salesByTicketType).where(eq(salesByTicketType.eventId, eventId)).all(),
    timeline: (eventId: string) =>
      db
        .select({ at: salesByHour.hour, tickets: salesByHour.tickets, revenue: salesByHour.revenue })
        .from(salesByHour)
        .where(eq(salesByHour.eventId, eventId))
        .orderBy(asc(salesByHour.hour))
        .all(),
  }
}

export type AnalyticsQueries = ReturnType<typeof analyticsQueries>
