// Reads of the waiting rooms (issue 41), on either store; other areas read them only through these.
// The checkouts in progress and the tickets sold are read from booking's orders (what a room admits
// against), in the one statement each.
import { sql } from 'drizzle-orm'
import { after, type Now, type Sql, statement } from '../db/sql.ts'
import type { AsyncQueries } from '../db/store.ts'
import type { LinePlace, Place, Room } from './decide.ts'
import { queuePlaces, queueRooms } from './tables.ts'

const room = statement<{ eventId: string }, Record<string, unknown>>(
  (p) => sql`SELECT ${queueRooms.columns()} FROM queue_rooms WHERE event_id = ${p.eventId}`,
)

const place = statement<{ eventId: string; accountId: string }, Record<string, unknown>>(
  (p) => sql`SELECT ${queuePlaces.columns()} FROM queue_places
    WHERE event_id = ${p.eventId} AND account_id = ${p.accountId}`,
)

/**
 * the places from a line on, and the pre-queue's (line null): only what a place's message is made
 * of (a line of 20,000 is read once a second while it moves; its other columns were half the read)
 */
const placesFrom = statement<{ eventId: string; line: number }, LinePlace>(
  (p) => sql`SELECT account_id AS "accountId", line, expires_at AS "expiresAt" FROM queue_places
    WHERE event_id = ${p.eventId} AND (line >= ${p.line} OR line IS NULL)`,
)

/** the places of lines from..through (an admission's) */
const placesIn = statement<{ eventId: string; from: number; through: number }, Record<string, unknown>>(
  (p) => sql`SELECT ${queuePlaces.columns()} FROM queue_places
    WHERE event_id = ${p.eventId} AND line >= ${p.from} AND line <= ${p.through}`,
)

/**
 * Rooms with something to do (what the admitter ticks): due to open, or open with people waiting
 * (to admit, or to tell of a sell-out). A room nobody waits in is left alone until someone joins.
 */
const dueRooms = statement<{ until: string }, { eventId: string; rate: number | null; opensAt: string }>(
  (p) => sql`SELECT event_id AS "eventId", admit_per_minute AS rate, opens_at AS "opensAt" FROM queue_rooms
    WHERE waiting_room AND closed_at IS NULL AND opens_at <= ${p.until}
      AND (opened_at IS NULL OR next_line - 1 > admitted_through)`,
)

/** admitted, the admission running, and no ticket of the event bought since */
const inCheckout = statement<{ eventId: string; now: string }, { n: number }>(
  (p) => sql`SELECT CAST(count(*) AS integer) AS n FROM queue_places q
    WHERE q.event_id = ${p.eventId} AND q.expires_at > ${p.now}
      AND NOT EXISTS (SELECT 1 FROM orders o WHERE o.event_id = q.event_id AND o.buyer_id = q.account_id
        AND o.status = 'issued' AND o.issued_at >= q.admitted_at)`,
)

const sold = statement<{ eventId: string }, { n: number }>(
  (p) => sql`SELECT CAST(coalesce(sum(quantity), 0) AS integer) AS n FROM orders
    WHERE event_id = ${p.eventId} AND status = 'issued'`,
)

export function queueQueries(x: Sql) {
  const roomRow = queueRooms.decode(x.dialect)
  const placeRow = queuePlaces.decode(x.dialect)
  return {
    /** the event's sale time and room as its decisions read it, or undefined when none is set */
    room: (eventId: string) =>
      after(x.get(room, { eventId }), (row): Room | undefined => (row ? (roomRow(row) as Room) : undefined)),

    /** the account's place in the event's line, or undefined */
    place: (eventId: string, accountId: string) =>
      after(x.get(place, { eventId, accountId }), (row): Place | undefined =>
        row ? (placeRow(row) as Place) : undefined,
      ),

    /** everyone from a line on, and the pre-queue: whose place a change of the line moves */
    placesFrom: (eventId: string, line: number) => x.all(placesFrom, { eventId, line }),

    /** the places of lines from..through */
    placesIn: (eventId: string, from: number, through: number) =>
      after(x.all(placesIn, { eventId, from, through }), (rows) => rows.map((row) => placeRow(row) as Place)),

    /** the events whose rooms are due to open or admit by `until`: whether each follows capacity
     * (no set rate), and its sale time */
    dueRooms: (until: string) =>
      after(x.all(dueRooms, { until }), (rows) =>
        rows.map((r) => ({ eventId: r.eventId, followsCapacity: r.rate === null, opensAt: r.opensAt })),
      ),

    inCheckout: (eventId: string, now: string) =>
      after(x.get(inCheckout, { eventId, now }), (row) => Number(row?.n ?? 0)),

    sold: (eventId: string) => after(x.get(sold, { eventId }), (row) => Number(row?.n ?? 0)),
  }
}

/** the reads on SQLite, as they answer: at once */
export type QueueQueriesNow = Now<ReturnType<typeof queueQueries>>
/** the reads on either store, awaited (db/store.ts) */
export type QueueQueries = AsyncQueries<ReturnType<typeof queueQueries>>
