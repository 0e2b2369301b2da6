// Folds the waiting rooms' facts into queue_rooms and queue_places (issue 41), on either store, in
// the append's transaction: the room's row is what the next decision reads under the room's lock.
import { sql } from 'drizzle-orm'
import { type Sql, statement } from '../db/sql.ts'
import { wait } from '../db/store.ts'
import { readProjection } from '../ledger/read-projection.ts'
import type { QueueFact } from './facts.ts'
import { queuePlaces, queueRooms } from './tables.ts'

const setOnSale = statement<{
  eventId: string
  organizerId: string
  opensAt: string
  waitingRoom: boolean
  admitPerMinute: number | null
  /** JSON text, or null */
  typeOpens: string | null
  version: number
}>(
  (
    p,
  ) => sql`INSERT INTO queue_rooms (event_id, organizer_id, opens_at, waiting_room, admit_per_minute, type_opens,
      version, early, opened_at, next_line, admitted_through, credit_at, paused, closed_at)
    VALUES (${p.eventId}, ${p.organizerId}, ${p.opensAt}, ${p.waitingRoom}, ${p.admitPerMinute}, ${p.typeOpens},
      ${p.version}, 0, NULL, 1, 0, NULL, (1 = 0), NULL)
    ON CONFLICT (event_id) DO UPDATE SET opens_at = excluded.opens_at, waiting_room = excluded.waiting_room,
      admit_per_minute = excluded.admit_per_minute, type_opens = excluded.type_opens, version = excluded.version`,
)

const joinEarly = statement<{ eventId: string; accountId: string; draw: string; at: string }>(
  (p) => sql`INSERT INTO queue_places (event_id, account_id, draw, line, joined_at, admitted_at, expires_at)
    VALUES (${p.eventId}, ${p.accountId}, ${p.draw}, NULL, ${p.at}, NULL, NULL)`,
)

const joinLate = statement<{ eventId: string; accountId: string; line: number; at: string }>(
  (p) => sql`INSERT INTO queue_places (event_id, account_id, draw, line, joined_at, admitted_at, expires_at)
    VALUES (${p.eventId}, ${p.accountId}, NULL, ${p.line}, ${p.at}, NULL, NULL)`,
)

const roomJoined = statement<{ eventId: string; early: number; nextLine: number; version: number }>(
  (p) => sql`UPDATE queue_rooms SET early = early + ${p.early}, next_line = next_line + ${p.nextLine},
      version = ${p.version}
    WHERE event_id = ${p.eventId}`,
)

/** the pre-queue's places: the rank of each one's draw (ties, which a 48-bit draw hardly has, by account) */
const drawPlaces = statement<{ eventId: string }>(
  (p) => sql`UPDATE queue_places SET line = r.n
    FROM (SELECT account_id, row_number() OVER (ORDER BY draw, account_id) AS n
      FROM queue_places WHERE event_id = ${p.eventId} AND line IS NULL) AS r
    WHERE queue_places.event_id = ${p.eventId} AND queue_places.account_id = r.account_id`,
)

const roomOpened = statement<{ eventId: string; at: string; early: number; version: number }>(
  (p) => sql`UPDATE queue_rooms SET opened_at = ${p.at}, credit_at = ${p.at}, next_line = ${p.early} + 1,
      version = ${p.version}
    WHERE event_id = ${p.eventId}`,
)

const admitPlaces = statement<{
  eventId: string
  from: number
  through: number
  at: string
  expiresAt: string
}>(
  (p) => sql`UPDATE queue_places SET admitted_at = ${p.at}, expires_at = ${p.expiresAt}
    WHERE event_id = ${p.eventId} AND line >= ${p.from} AND line <= ${p.through}`,
)

const roomAdmitted = statement<{ eventId: string; through: number; creditAt: string; version: number }>(
  (p) => sql`UPDATE queue_rooms SET admitted_through = ${p.through}, credit_at = ${p.creditAt},
      version = ${p.version}
    WHERE event_id = ${p.eventId}`,
)

const roomPaused = statement<{ eventId: string; paused: boolean; creditAt: string | null; version: number }>(
  (p) => sql`UPDATE queue_rooms SET paused = ${p.paused}, credit_at = coalesce(${p.creditAt}, credit_at),
      version = ${p.version}
    WHERE event_id = ${p.eventId}`,
)

const roomClosed = statement<{ eventId: string; at: string; version: number }>(
  (p) =>
    sql`UPDATE queue_rooms SET closed_at = ${p.at}, version = ${p.version} WHERE event_id = ${p.eventId}`,
)

const bool = (x: Sql, value: boolean) => (x.dialect === 'sqlite' ? Number(value) : value) as boolean

export const queueProjection = readProjection<QueueFact>({
  name: 'queue',
  tables: [queueRooms, queuePlaces],
  handlers: {
    OnSaleSet: (fact, x) =>
      x.run(setOnSale, {
        ...fact.data,
        waitingRoom: bool(x, fact.data.waitingRoom),
        typeOpens: fact.data.typeOpens?.length ? JSON.stringify(fact.data.typeOpens) : null,
        version: fact.version,
      }),
    *QueueJoined(fact, x) {
      const { eventId, accountId, at } = fact.data
      if (fact.data.early) {
        yield* wait(x.run(joinEarly, { eventId, accountId, draw: fact.data.draw, at }))
        yield* wait(x.run(roomJoined, { eventId, early: 1, nextLine: 0, version: fact.version }))
      } else {
        yield* wait(x.run(joinLate, { eventId, accountId, line: fact.data.line, at }))
        yield* wait(x.run(roomJoined, { eventId, early: 0, nextLine: 1, version: fact.version }))
      }
    },
    *QueueOpened(fact, x) {
      const { eventId, at, early } = fact.data
      yield* wait(x.run(drawPlaces, { eventId }))
      yield* wait(x.run(roomOpened, { eventId, at, early, version: fact.version }))
    },
    *QueueAdmitted(fact, x) {
      const { eventId, from, through, at, expiresAt, creditAt } = fact.data
      yield* wait(x.run(admitPlaces, { eventId, from, through, at, expiresAt }))
      yield* wait(x.run(roomAdmitted, { eventId, through, creditAt, version: fact.version }))
    },
    QueuePaused: (fact, x) =>
      x.run(roomPaused, {
        eventId: fact.data.eventId,
        paused: bool(x, true),
        creditAt: null,
        version: fact.version,
      }),
    // admissions are due again from the resumption: none for the time paused
    QueueResumed: (fact, x) =>
      x.run(roomPaused, {
        eventId: fact.data.eventId,
        paused: bool(x, false),
        creditAt: fact.data.at,
        version: fact.version,
      }),
    QueueClosed: (fact, x) =>
      x.run(roomClosed, { eventId: fact.data.eventId, at: fact.data.at, version: fact.version }),
  },
})
