// Folds seat maps and the seats' sales into seat_maps and seats (issue 40), on either store. A plan
// saved upserts its seats (a seat held or sold keeps its sale: the plan may not move it) and drops
// the seats it no longer has; a hold, a sale and a release move the seats the order names. A seat
// released keeps the order it was last with, so the live room can say which seats came back.
import { type SQL, sql } from 'drizzle-orm'
import type { BookingFact, SeatsHeld } from '../booking/facts.ts'
import type { SeatMapPlaced } from '../catalog/facts.ts'
import { type DialectKit, type Params, type Sql, type Statement, statement } from '../db/sql.ts'
import { wait } from '../db/store.ts'
import { readProjection } from '../ledger/read-projection.ts'
import { ROW_SEAT, seatMaps, seatRows, seats } from './tables.ts'

/** seats written per statement when a plan is saved (a stadium's 100,000 in 50) */
const SEATS_PER_STATEMENT = 2000

const putMap = statement<{ eventId: string; version: number; stage: string | null; sections: string }>(
  (p) => sql`INSERT INTO seat_maps (event_id, version, stage, sections)
    VALUES (${p.eventId}, ${p.version}, ${p.stage}, ${p.sections})
    ON CONFLICT (event_id) DO UPDATE SET version = excluded.version, stage = excluded.stage,
      sections = excluded.sections`,
)

// Many rows in one statement, from one JSON text: json_each on SQLite, json_to_recordset on
// PostgreSQL (the one place seating speaks each dialect: a plan is up to 100,000 rows).
const putSeats = statement<{ eventId: string; version: number; seats: string }>((p, d) =>
  d.dialect === 'sqlite'
    ? sql`INSERT INTO seats (event_id, seat_id, section, ticket_type_id, row_label, number, x, y, blocked,
          accessible, ord, slot, plan_version, status, order_id)
        SELECT ${p.eventId}, json_extract(s.value, '$.id'), json_extract(s.value, '$.section'),
          json_extract(s.value, '$.type'), json_extract(s.value, '$.row'), json_extract(s.value, '$.number'),
          json_extract(s.value, '$.x'), json_extract(s.value, '$.y'), json_extract(s.value, '$.blocked'),
          json_extract(s.value, '$.accessible'), json_extract(s.value, '$.ord'), json_extract(s.value, '$.slot'),
          ${p.version}, 'free', NULL
        FROM json_each(${p.seats}) AS s WHERE true
        ON CONFLICT (event_id, seat_id) DO UPDATE SET section = excluded.section,
          ticket_type_id = excluded.ticket_type_id, row_label = excluded.row_label, number = excluded.number,
          x = excluded.x, y = excluded.y, blocked = excluded.blocked, accessible = excluded.accessible,
          ord = excluded.ord, slot = excluded.slot, plan_version = excluded.plan_version`
    : sql`INSERT INTO seats (event_id, seat_id, section, ticket_type_id, row_label, number, x, y, blocked,
          accessible, ord, slot, plan_version, status, order_id)
        SELECT ${p.eventId}, r.id, r.section, r.type, r.row, r.number, r.x, r.y, r.blocked, r.accessible,
          r.ord, r.slot, ${p.version}, 'free', NULL
        FROM json_to_recordset(CAST(${p.seats} AS json)) AS r(id text, section text, type text, "row" text,
          number text, x double precision, y double precision, blocked boolean, accessible text, ord integer,
          slot integer)
        ON CONFLICT (event_id, seat_id) DO UPDATE SET section = excluded.section,
          ticket_type_id = excluded.ticket_type_id, row_label = excluded.row_label, number = excluded.number,
          x = excluded.x, y = excluded.y, blocked = excluded.blocked, accessible = excluded.accessible,
          ord = excluded.ord, slot = excluded.slot, plan_version = excluded.plan_version`,
)

const dropSeats = statement<{ eventId: string; version: number }>(
  (p) => sql`DELETE FROM seats WHERE event_id = ${p.eventId} AND plan_version <> ${p.version}`,
)

/** a record's character as an SQL literal */
const char = (c: string) => sql.raw(`'${c}'`)

// a row's record: its seats' characters (ROW_SEAT) in their order, as they are now
const placeRows = statement<{ eventId: string; stageY: number }>(
  (p, d) => sql`INSERT INTO seat_rows (event_id, ticket_type_id, row_label, y, ord, rank, free, taken)
    SELECT event_id, ticket_type_id, row_label, min(y), min(ord), abs(min(y) - ${p.stageY}),
      sum(CASE WHEN status = 'free' AND NOT blocked THEN 1 ELSE 0 END),
      ${d.dialect === 'sqlite' ? sql`group_concat` : sql`string_agg`}(CASE WHEN status <> 'free' THEN ${char(ROW_SEAT.taken)}
        WHEN blocked THEN ${char(ROW_SEAT.blocked)} ELSE ${char(ROW_SEAT.free)} END, '' ORDER BY slot)
    FROM seats WHERE event_id = ${p.eventId} GROUP BY event_id, ticket_type_id, row_label`,
)

const dropRows = statement<{ eventId: string }>(
  (p) => sql`DELETE FROM seat_rows WHERE event_id = ${p.eventId}`,
)

// A fact that moves seats sets their characters in their rows' records (seat_rows.taken), each at
// its slot, and counts the row's free seats again from the record: the record and the count agree
// whatever the seats were before (a sale after a lapse takes seats that may have come back or not).
// On SQLite the seats' own update does it: a trigger (seats_row_record, migration 0035) sets the
// record of each seat that becomes taken or free again, in the same statement (the seats were read
// where they were, updated, then each row's record written: three statements a fact through
// better-sqlite3, where an UPDATE … RETURNING cost 35-50 µs a run). On PostgreSQL one statement
// does both (the update in a WITH, each moved row's record made again character by character in
// the database).
type Moving<P extends object> = {
  /** SQLite: the seats' update (the trigger sets their rows' records) */
  update: Statement<P>
  /** PostgreSQL: their update and their rows' records, in one statement */
  together: Statement<P>
}

function moving<P extends object>(
  set: (p: Params<P>) => SQL,
  where: (p: Params<P>, d: DialectKit) => SQL,
): Moving<P> {
  const update = (p: Params<P>, d: DialectKit) => sql`UPDATE seats SET ${set(p)} WHERE ${where(p, d)}`
  return {
    update: statement<P>(update),
    together: statement<P>((p, d) => togetherWithRows(update(p, d))),
  }
}

const togetherWithRows = (update: SQL) =>
  sql`WITH moved AS (${update} RETURNING event_id, ticket_type_id, row_label, slot,
          CASE WHEN status <> 'free' THEN ${char(ROW_SEAT.taken)} WHEN blocked THEN ${char(ROW_SEAT.blocked)}
            ELSE ${char(ROW_SEAT.free)} END AS c)
        UPDATE seat_rows SET taken = g.taken, free = length(g.taken) - length(replace(g.taken, ${char(ROW_SEAT.free)}, ''))
        FROM (SELECT r.event_id, r.ticket_type_id, r.row_label,
            string_agg(coalesce(m.c, substr(r.taken, i, 1)), '' ORDER BY i) AS taken
          FROM seat_rows r
          JOIN (SELECT DISTINCT event_id, ticket_type_id, row_label FROM moved) k
            ON r.event_id = k.event_id AND r.ticket_type_id = k.ticket_type_id AND r.row_label = k.row_label
          CROSS JOIN LATERAL generate_series(1, length(r.taken)) AS i
          LEFT JOIN moved m ON m.event_id = r.event_id AND m.ticket_type_id = r.ticket_type_id
            AND m.row_label = r.row_label AND m.slot = i - 1
          GROUP BY r.event_id, r.ticket_type_id, r.row_label) AS g
        WHERE seat_rows.event_id = g.event_id AND seat_rows.ticket_type_id = g.ticket_type_id
          AND seat_rows.row_label = g.row_label`

/** most seats a hold names one placeholder each (more: a list, as a sale's) */
const NAMED_SEATS = 16

type HoldSeats = { eventId: string; orderId: string } & Record<`s${number}`, string>
/** a hold's seats by their number: a list through json_each cost more than the update itself */
const holdSeatsOf = new Map<number, Moving<HoldSeats>>()
const holdSeats = (n: number) => {
  let made = holdSeatsOf.get(n)
  if (!made) {
    made = moving<HoldSeats>(
      (p) => sql`status = 'held', order_id = ${p.orderId}`,
      (p) =>
        sql`event_id = ${p.eventId} AND seat_id IN (${sql.join(
          Array.from({ length: n }, (_, i) => p[`s${i}`]),
          sql`, `,
        )})`,
    )
    holdSeatsOf.set(n, made)
  }
  return made
}

type ListedSeats = { eventId: string; orderId: string; ids: string[] }

const holdListed = moving<ListedSeats>(
  (p) => sql`status = 'held', order_id = ${p.orderId}`,
  (p, d) => sql`event_id = ${p.eventId} AND ${d.inList(sql`seat_id`, p.ids)}`,
)

// a sale of the order's held seats leaves them taken: its rows' records stay as they are
const sellSeats = statement<{ eventId: string; orderId: string; ids: string[] }>(
  (p, d) => sql`UPDATE seats SET status = 'sold', order_id = ${p.orderId}
    WHERE event_id = ${p.eventId} AND ${d.inList(sql`seat_id`, p.ids)}`,
)

// taken again after a lapse: where they are, to be taken in their rows' records too
const sellLapsed = moving<ListedSeats>(
  (p) => sql`status = 'sold', order_id = ${p.orderId}`,
  (p, d) => sql`event_id = ${p.eventId} AND ${d.inList(sql`seat_id`, p.ids)}`,
)

const freeSeats = moving<{ orderId: string }>(
  () => sql`status = 'free'`,
  (p) => sql`order_id = ${p.orderId} AND status <> 'free'`,
)

function* placed(fact: { data: SeatMapPlaced['data'] }, x: Sql) {
  const { eventId, version, stage, sections } = fact.data
  yield* wait(
    x.run(putMap, {
      eventId,
      version,
      stage: stage ? JSON.stringify(stage) : null,
      sections: JSON.stringify(sections.map((s) => ({ name: s.name, ticketTypeId: s.ticketTypeId }))),
    }),
  )
  const sqlite = x.dialect === 'sqlite'
  let ord = 0
  let batch: unknown[] = []
  const flush = function* () {
    if (batch.length === 0) return
    yield* wait(x.run(putSeats, { eventId, version, seats: JSON.stringify(batch) }))
    batch = []
  }
  for (const section of sections) {
    for (const row of section.rows) {
      for (const [slot, seat] of row.seats.entries()) {
        batch.push({
          id: seat.id,
          section: section.name,
          type: section.ticketTypeId,
          row: row.label,
          // kept as JSON text: a number stays a number, "12A" a string
          number: JSON.stringify(seat.number),
          x: seat.x,
          y: seat.y,
          blocked: sqlite ? (seat.blocked ? 1 : 0) : seat.blocked,
          accessible: seat.accessible || null,
          ord: ord++,
          slot,
        })
        if (batch.length >= SEATS_PER_STATEMENT) yield* flush()
      }
    }
  }
  yield* flush()
  yield* wait(x.run(dropSeats, { eventId, version }))
  yield* wait(x.run(dropRows, { eventId }))
  // rows nearest the stage's middle first; without a stage, the front (least y) first
  yield* wait(x.run(placeRows, { eventId, stageY: stage ? stage.y + stage.h / 2 : -1e9 }))
}

/** the seat ids an order's hold names (none: not a seated order) */
const idsOf = (seatsHeld: SeatsHeld | undefined) => (seatsHeld ?? []).map((s) => s.id)

/** Moves a fact's seats and sets them in their rows' records (Moving) */
function* move<P extends object>(x: Sql, statements: Moving<P>, params: P) {
  yield* wait(x.run(x.dialect === 'postgres' ? statements.together : statements.update, params))
}

function* release(fact: { data: { orderId: string } }, x: Sql) {
  yield* move(x, freeSeats, { orderId: fact.data.orderId })
}

type SeatingFact =
  | SeatMapPlaced
  | Extract<
      BookingFact,
      { type: 'TicketsHeld' | 'TicketsIssued' | 'PaymentFailed' | 'HoldExpired' | 'TicketCancelled' }
    >

export const seatingProjection = readProjection<SeatingFact>({
  name: 'seating',
  tables: [seatMaps, seats, seatRows],
  handlers: {
    SeatMapPlaced: placed,
    *TicketsHeld(fact, x) {
      const ids = idsOf(fact.data.seats)
      if (ids.length === 0) return
      const { eventId, orderId } = fact.data
      if (ids.length > NAMED_SEATS) yield* move(x, holdListed, { eventId, orderId, ids })
      else {
        const named: HoldSeats = { eventId, orderId }
        ids.forEach((id, i) => {
          named[`s${i}`] = id
        })
        yield* move(x, holdSeats(ids.length), named)
      }
    },
    *TicketsIssued(fact, x) {
      const ids = fact.data.seats ?? []
      if (ids.length === 0) return
      const { eventId, orderId } = fact.data
      if (fact.data.afterExpiry) {
        // taken again after a lapse: the rows the seats came back to have them taken again
        yield* move(x, sellLapsed, { eventId, orderId, ids })
      } else yield* wait(x.run(sellSeats, { eventId, orderId, ids }))
    },
    PaymentFailed: release,
    HoldExpired: release,
    TicketCancelled: release,
  },
})
