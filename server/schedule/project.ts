import { projection } from '../ledger/ledger.ts'
import type { ScheduleFact } from './facts.ts'
import { sessions } from './tables.ts'

export const scheduleProjection = projection<ScheduleFact>({
  name: 'schedule',
  tables: [sessions],
  handlers: {
    SessionScheduled(fact, db) {
      const { sessionId, ...rest } = fact.data
      db.insert(sessions)
        .values({ id: sessionId, ...rest, createdAt: fact.at })
        .run()
    },
    ScheduleNoticePosted: () => {},
  },
})
