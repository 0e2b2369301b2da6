import { asc, eq, inArray } from 'drizzle-orm'
import type { Db } from '../db/connection.ts'
import type { AsyncQueries } from '../db/store.ts'
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

/** the SQLite reads as they answer, at once */
export type ScheduleQueriesNow = ReturnType<typeof scheduleQueries>
/** the reads on either store, awaited (db/store.ts) */
export type ScheduleQueries = AsyncQueries<ScheduleQueriesNow>
