// Sessions as they are scheduled, on either store.
import { sql } from 'drizzle-orm'
import { statement } from '../db/sql.ts'
import { readProjection } from '../ledger/read-projection.ts'
import type { ScheduleFact } from './facts.ts'
import { type SessionRow, sessions } from './tables.ts'

const insertSession = statement<Omit<SessionRow, 'speakers'> & { speakers: string }>(
  (p) => sql`INSERT INTO sessions (id, event_id, organizer_id, session_title, description, start_time,
      end_time, speakers, location, created_at)
    VALUES (${p.id}, ${p.eventId}, ${p.organizerId}, ${p.sessionTitle}, ${p.description}, ${p.startTime},
      ${p.endTime}, ${p.speakers}, ${p.location}, ${p.createdAt})`,
)

export const scheduleProjection = readProjection<ScheduleFact>({
  name: 'schedule',
  tables: [sessions],
  handlers: {
    SessionScheduled: (fact, x) => {
      const { sessionId, speakers, ...rest } = fact.data
      return x.run(insertSession, {
        id: sessionId,
        ...rest,
        speakers: JSON.stringify(speakers),
        createdAt: fact.at,
      })
    },
    // a notice is mail and a live push, not a row
    ScheduleNoticePosted: () => {},
  },
})
