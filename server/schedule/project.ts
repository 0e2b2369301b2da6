import { sql } from 'drizzle-orm'
import { projection } from '../ledger/ledger.ts'
import type { ScheduleFact } from './facts.ts'
import { sessions } from './tables.ts'

const p = sql.placeholder

export const scheduleProjection = projection<ScheduleFact>({
  name: 'schedule',
  tables: [sessions],
  handlers(db) {
    const insertSession = db
      .insert(sessions)
      .values({
        id: p('id'),
        eventId: p('eventId'),
        organizerId: p('organizerId'),
        sessionTitle: p('sessionTitle'),
        description: p('description'),
        startTime: p('startTime'),
        endTime: p('endTime'),
        speakers: p('speakers'),
        location: p('location'),
        createdAt: p('createdAt'),
      })
      .prepare()
    return {
      SessionScheduled(fact) {
        const { sessionId, ...rest } = fact.data
        insertSession.run({ id: sessionId, ...rest, createdAt: fact.at })
      },
      ScheduleNoticePosted: () => {},
    }
  },
})
