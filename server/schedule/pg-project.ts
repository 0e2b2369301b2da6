// project.ts on PostgreSQL (issue 15): the same rows from the same facts, in the append's transaction.
import type { StoredFact } from '../ledger/ledger.ts'
import type { PgProjection, PgTx } from '../ledger/pg-ledger.ts'
import type { ScheduleFact } from './facts.ts'

type Handlers = {
  [T in ScheduleFact['type']]: (
    fact: StoredFact<Extract<ScheduleFact, { type: T }>>,
    tx: PgTx,
  ) => Promise<void>
}

const handlers: Handlers = {
  async SessionScheduled(fact, tx) {
    const d = fact.data
    await tx.query(
      `INSERT INTO sessions (id, event_id, organizer_id, session_title, description, start_time, end_time,
         speakers, location, created_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
      [
        d.sessionId,
        d.eventId,
        d.organizerId,
        d.sessionTitle,
        d.description,
        d.startTime,
        d.endTime,
        JSON.stringify(d.speakers),
        d.location,
        fact.at,
      ],
    )
  },
  // a notice is mail and a live push, not a row
  ScheduleNoticePosted: async () => {},
}

export const pgScheduleProjection: PgProjection = {
  name: 'schedule',
  handlers: handlers as PgProjection['handlers'],
}
