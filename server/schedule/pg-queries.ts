// queries.ts on PostgreSQL (issue 15): the same answers from the same rows, awaited.
import { asc, eq, inArray, type SQL, sql } from 'drizzle-orm'
import type { NodePgDatabase } from 'drizzle-orm/node-postgres'
import type { AsyncQueries } from '../db/store.ts'
import { streams } from '../ids.ts'
import { pgSessions } from './pg-tables.ts'
import type { ScheduleQueries } from './queries.ts'

/**
 * By start time, text compared byte by byte as SQLite does. Sessions starting together come out
 * on SQLite as its plan reads them (sessions_event: by event, then by arrival); the same order is
 * spelled out here, arrival being the position of the session's first fact (the ledger's
 * (stream, version) key), since PostgreSQL has no stable row order of its own.
 */
const byStart: SQL[] = [
  asc(sql`${pgSessions.startTime} collate "C"`),
  asc(sql`${pgSessions.eventId} collate "C"`),
  asc(
    sql`(select l.position from ledger l where l.stream = ${streams.session('')} || ${pgSessions.id} and l.version = 1)`,
  ),
]

export const pgScheduleQueries = (db: NodePgDatabase): AsyncQueries<ScheduleQueries> => ({
  ofEvents: async (eventIds) =>
    eventIds.length === 0
      ? []
      : db
          .select()
          .from(pgSessions)
          .where(inArray(pgSessions.eventId, eventIds))
          .orderBy(...byStart),
  byId: async (id) => (await db.select().from(pgSessions).where(eq(pgSessions.id, id)))[0],
})
