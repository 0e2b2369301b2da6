// The schedule's reads, on either store.
import { sql } from 'drizzle-orm'
import { after, type Sql, statement } from '../db/sql.ts'
import type { AsyncQueries } from '../db/store.ts'
import { streams } from '../ids.ts'
import { type SessionRow, sessions } from './tables.ts'

export type { SessionRow }

/**
 * By start time (text compared byte by byte), then by event, then by arrival: the position of the
 * session's first fact (the ledger's (stream, version) key).
 */
const ofEvents = statement<{ eventIds: string[] }, SessionRow>(
  (p, d) => sql`SELECT ${sessions.columns()} FROM sessions
    WHERE ${d.inList(sql`event_id`, p.eventIds)}
    ORDER BY ${d.bytes(sql`start_time`)}, ${d.bytes(sql`event_id`)},
      (SELECT l.position FROM ledger l WHERE l.stream = ${streams.session('')} || sessions.id AND l.version = 1)`,
)

const byId = statement<{ id: string }, SessionRow>(
  (p) => sql`SELECT ${sessions.columns()} FROM sessions WHERE id = ${p.id}`,
)

export const scheduleQueries = (x: Sql) => {
  const row = sessions.decode(x.dialect)
  return {
    ofEvents: (eventIds: string[]) =>
      eventIds.length === 0 ? [] : after(x.all(ofEvents, { eventIds }), (rows) => rows.map(row)),
    byId: (id: string) => after(x.get(byId, { id }), (found) => (found ? row(found) : undefined)),
  }
}

/** the reads on either store, awaited (db/store.ts) */
export type ScheduleQueries = AsyncQueries<ReturnType<typeof scheduleQueries>>
