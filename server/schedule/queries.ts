import { asc, eq, inArray } from 'drizzle-orm'
import type { Db } from '../db/connection.ts'
import { sessions } from './tables.ts'

export type SessionRow = typeof sessions.$inferSelect

export const scheduleQueries = (db: Db) => ({
  ofEvents: (eventIds: string[]): SessionRow[] =>
    eventIds.length === 0
      ? []
      : db
          .select()
          .from(sessions)
          .where(inArray(sessions.eventId, eventIds))
          .orderBy(asc(sessions.startTime))
          .all(),
  byId: (id: string): SessionRow | undefined => db.select().from(sessions).where(eq(sessions.id, id)).get(),
})

export type ScheduleQueries = ReturnType<typeof scheduleQueries>
