// Folds seat maps and the seats' sales into seat_maps and seats (issue 40), on either store. A plan
// saved upserts its seats (a seat held or sold keeps its sale: the plan may not move it) and drops
// the seats it no longer has; a hold, a sale and a release move the seats the order names. A seat
// released keeps the order it was last with, so the live room can say which seats came back.
import { sql } from 'drizzle-orm'
import type { BookingFact, SeatsHeld } from '../booking/facts.ts'
import type { SeatMapPlaced } from '../catalog/facts.ts'
import { type Sql, type Statement, statement } from '../db/sql.ts'
import { wait } from '../db/store.ts'
import { readProjection } from '../ledger/read-projection.ts'
import { listed } from './queries.ts'
import { seatMaps, seatRows, seats } from './tables.ts'

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
          accessible, ord, plan_version, status, order_id)
        SELECT ${p.eventId}, json_extract(s.value, '$.id'), json_extract(s.value, '$.section'),
          json_extract(s.value, '$.type'), json_extract(s.value, '$.row'), json_extract(s.value, '$.number'),
          json_extract(s.value, '$.x'), json_extract(s.value, '$.y'), json_extract(s.value, '$.blocked'),
          json_extract(s.value, '$.accessible'), json_extract(s.value, '$.ord'), ${p.version}, 'free', NULL
        FROM json_each(${p.seats}) AS s WHERE true
        ON CONFLICT (event_id, seat_id) DO UPDATE SET section = excluded.section,
          ticket_type_id = excluded.ticket_type_id, row_label = excluded.row_label, number = excluded.number,
          x = excluded.x, y = excluded.y, blocked = excluded.blocked, accessible = excluded.accessible,
          ord = excluded.ord, plan_version = excluded.plan_version`
    : sql`INSERT INTO seats (event_id, seat_id, section, ticket_type_id, row_label, number, x, y, blocked,
          accessible, ord, plan_version, status, order_id)
        SELECT ${p.eventId}, r.id, r.section, r.type, r.row, r.number, r.x, r.y, r.blocked, r.accessible,
          r.ord, ${p.version}, 'free', NULL
        FROM json_to_recordset(CAST(${p.seats} AS json)) AS r(id text, section text, type text, "row" text,
          number text, x double precision, y double precision, blocked boolean, accessible text, ord integer)
        ON CONFLICT (event_id, seat_id) DO UPDATE SET section = excluded.section,
          ticket_type_id = excluded.ticket_type_id, row_label = excluded.row_label, number = excluded.number,
          x = excluded.x, y = excluded.y, blocked = excluded.blocked, accessible = excluded.accessible,
          ord = excluded.ord, plan_version = excluded.plan_version`,
)

const dropSeats = statement<{ eventId: string; version: number }>(
  (p) => sql`DELETE FROM seats WHERE event_id = ${p.eventId} AND plan_version <> ${p.version}`,
)

const placeRows = statement<{ eventId: string; stageY: number }>(
  (p) => sql`INSERT INTO seat_rows (event_id, ticket_type_id, row_label, y, ord, rank, free)
    SELECT event_id, ticket_type_id, row_label, min(y), min(ord), abs(min(y) - ${p.stageY}),
      sum(CASE WHEN status = 'free' AND NOT blocked THEN 1 ELSE 0 END)
    FROM seats WHERE event_id = ${p.eventId} GROUP BY event_id, ticket_type_id, row_label`,
)

const dropRows = statement<{ eventId: string }>(
  (p) => sql`DELETE FROM seat_rows WHERE event_id = ${p.eventId}`,
)

// A row's free seats move by as many as a fact moves: a hold's seats were free when it was decided
// (under the event's lock, the buyer's own given back first), so each leaves its row's count; a
// sale after a lapse counts those of its seats free now (not blocked), before they are taken, and
// a release gives back those of the order's seats held or sold now. No row's seats are counted again.
const heldFromRow = statement<{ eventId: string; ticketTypeId: string; row: string; n: number }>(
  (p) => sql`UPDATE seat_rows SET free = free - ${p.n}
    WHERE event_id = ${p.eventId} AND ticket_type_id = ${p.ticketTypeId} AND row_label = ${p.row}`,
)

const takeFromRows = statement<{ eventId: string; ids: string[] }>(
  (p, d) => sql`UPDATE seat_rows SET free = seat_rows.free - g.n
    FROM (SELECT seats.event_id, seats.ticket_type_id, seats.row_label, count(*) AS n
      FROM ${listed(d, p.ids)} ON seats.event_id = ${p.eventId} AND seats.seat_id = j.value
      WHERE seats.status = 'free' AND NOT seats.blocked
      GROUP BY seats.event_id, seats.ticket_type_id, seats.row_label) AS g
    WHERE seat_rows.event_id = g.event_id AND seat_rows.ticket_type_id = g.ticket_type_id
      AND seat_rows.row_label = g.row_label`,
)

const giveToRows = statement<{ orderId: string }>(
  (p) => sql`UPDATE seat_rows SET free = seat_rows.free + g.n
    FROM (SELECT event_id, ticket_type_id, row_label, count(*) AS n FROM seats
      WHERE order_id = ${p.orderId} AND status <> 'free' AND NOT blocked
      GROUP BY event_id, ticket_type_id, row_label) AS g
    WHERE seat_rows.event_id = g.event_id AND seat_rows.ticket_type_id = g.ticket_type_id
      AND seat_rows.row_label = g.row_label`,
)

/** most seats a hold names one placeholder each (more: a list, as a sale's) */
const NAMED_SEATS = 16

type HoldSeats = { eventId: string; orderId: string } & Record<`s${number}`, string>
/** a hold's seats by their number: a list through json_each cost more than the update itself */
const holdSeatsOf = new Map<number, Statement<HoldSeats>>()
const holdSeats = (n: number) => {
  let made = holdSeatsOf.get(n)
  if (!made) {
    made = statement<HoldSeats>(
      (p) => sql`UPDATE seats SET status = 'held', order_id = ${p.orderId}
        WHERE event_id = ${p.eventId} AND seat_id IN (${sql.join(
          Array.from({ length: n }, (_, i) => p[`s${i}`]),
          sql`, `,
        )})`,
    )
    holdSeatsOf.set(n, made)
  }
  return made
}

const holdListed = statement<{ eventId: string; orderId: string; ids: string[] }>(
  (p, d) => sql`UPDATE seats SET status = 'held', order_id = ${p.orderId}
    WHERE event_id = ${p.eventId} AND ${d.inList(sql`seat_id`, p.ids)}`,
)

const sellSeats = statement<{ eventId: string; orderId: string; ids: string[] }>(
  (p, d) => sql`UPDATE seats SET status = 'sold', order_id = ${p.orderId}
    WHERE event_id = ${p.eventId} AND ${d.inList(sql`seat_id`, p.ids)}`,
)

const freeSeats = statement<{ orderId: string }>(
  (p) => sql`UPDATE seats SET status = 'free' WHERE order_id = ${p.orderId} AND status <> 'free'`,
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
      for (const seat of row.seats) {
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

function* release(fact: { data: { orderId: string } }, x: Sql) {
  yield* wait(x.run(giveToRows, { orderId: fact.data.orderId }))
  yield* wait(x.run(freeSeats, { orderId: fact.data.orderId }))
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
      const { eventId, orderId, ticketTypeId } = fact.data
      const perRow = new Map<string, number>()
      for (const seat of fact.data.seats ?? []) perRow.set(seat.row, (perRow.get(seat.row) ?? 0) + 1)
      for (const [row, n] of perRow) yield* wait(x.run(heldFromRow, { eventId, ticketTypeId, row, n }))
      if (ids.length > NAMED_SEATS) yield* wait(x.run(holdListed, { eventId, orderId, ids }))
      else {
        const named: HoldSeats = { eventId, orderId }
        ids.forEach((id, i) => {
          named[`s${i}`] = id
        })
        yield* wait(x.run(holdSeats(ids.length), named))
      }
    },
    *TicketsIssued(fact, x) {
      const ids = fact.data.seats ?? []
      if (ids.length === 0) return
      // taken again after a lapse: the rows the seats came back to count them gone again
      if (fact.data.afterExpiry) yield* wait(x.run(takeFromRows, { eventId: fact.data.eventId, ids }))
      yield* wait(x.run(sellSeats, { eventId: fact.data.eventId, orderId: fact.data.orderId, ids }))
    },
    PaymentFailed: release,
    HoldExpired: release,
    TicketCancelled: release,
  },
})
