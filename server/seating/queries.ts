// Reads of the seat maps (issue 40), on either store; other areas read seats only through these.
import { sql } from 'drizzle-orm'
import type { Box, SeatLabel, SeatNumber, SeatStatus } from '../../contracts/seating.ts'
import { MAX_SEATS_PER_ORDER } from '../../contracts/seating-limits.ts'
import {
  after,
  afterThat,
  type DialectKit,
  perLimit,
  perWholeNumber,
  type Sql,
  statement,
} from '../db/sql.ts'
import { type Awaitable, together } from '../db/store.ts'
import type { RowOfSeats } from './best.ts'
import { ROW_SEAT, type SeatSale } from './tables.ts'

/** a seat as the map shows it, in the plan's order */
export type MapSeat = {
  id: string
  section: string
  ticketTypeId: string
  row: string
  number: SeatNumber
  x: number
  y: number
  status: SeatStatus
  accessible: false | 'wheelchair' | 'companion'
  /** the order holding or owning it, or the last one that did (never shown to the public) */
  orderId: string | null
}

export type SeatMapRead = {
  version: number
  stage: Box | null
  sections: Array<{ name: string; ticketTypeId: string }>
  seats: MapSeat[]
}

const mapOf = statement<
  { eventId: string },
  {
    version: number
    stage: string | Box | null
    sections: string | Array<{ name: string; ticketTypeId: string }>
  }
>((p) => sql`SELECT version, stage, sections FROM seat_maps WHERE event_id = ${p.eventId}`)

type RawSeat = {
  id: string
  section: string
  ticketTypeId: string
  row: string
  number: string
  x: number
  y: number
  blocked: number | boolean
  accessible: 'wheelchair' | 'companion' | null
  status: SeatSale
  orderId: string | null
}

const seatColumns = sql`seat_id AS id, section, ticket_type_id AS "ticketTypeId", row_label AS "row", number, x, y,
  blocked, accessible, status, order_id AS "orderId"`

const seatsOf = statement<{ eventId: string }, RawSeat>(
  (p) => sql`SELECT ${seatColumns} FROM seats WHERE event_id = ${p.eventId} ORDER BY ord`,
)

// A short list drives the lookup (json_each / unnest as the outer loop): SQLite's planner, given
// `seat_id IN (SELECT value FROM json_each(?))`, scanned the event's seats (15 ms a hold on 50,000).
export const listed = (d: DialectKit, list: unknown) =>
  d.dialect === 'sqlite'
    ? sql`json_each(${list}) AS j CROSS JOIN seats`
    : sql`unnest(CAST(${list} AS text[])) AS j(value) JOIN seats`

const seatsNamed = statement<{ eventId: string; ids: string[] }, RawSeat>(
  (p, d) => sql`SELECT ${seatColumns} FROM ${listed(d, p.ids)}
    ON seats.event_id = ${p.eventId} AND seats.seat_id = j.value ORDER BY ord`,
)

// up to MAX_SEATS_PER_ORDER seats by their ids, one placeholder each, a statement for each number of
// them (a checkout's choice: through json_each it cost about twice as much)
type SeatIds = { eventId: string } & Record<`s${number}`, string>
const seatsNamedOf = perWholeNumber((n) =>
  statement<SeatIds, RawSeat>(
    (p) =>
      sql`SELECT ${seatColumns} FROM seats WHERE event_id = ${p.eventId} AND seat_id IN (${sql.join(
        Array.from({ length: n }, (_, i) => p[`s${i}`]),
        sql`, `,
      )}) ORDER BY ord`,
  ),
)

/** a list of seat ids as the parameters of a statement of each number of them */
function idParams(eventId: string, ids: readonly string[]): SeatIds {
  const params: SeatIds = { eventId }
  ids.forEach((id, i) => {
    params[`s${i}`] = id
  })
  return params
}

const seatsOfSection = statement<{ eventId: string; ticketTypeId: string }, RawSeat>(
  (
    p,
  ) => sql`SELECT ${seatColumns} FROM seats WHERE event_id = ${p.eventId} AND ticket_type_id = ${p.ticketTypeId}
    ORDER BY ord`,
)

// the rows of a section where n seats side by side may be taken without leaving one alone: those
// whose record (seat_rows.taken, which knows no aisles) holds n free seats in a run. First the rows
// whose record has a run of exactly n (bounded by taken or blocked seats or the row's ends) or of
// n + 2 or more, nearest the stage first, then the rest (a run of n + 1 an aisle may split into n
// and one): each row's seats are judged whole after (choiceWithoutSingle). Each is read in the order
// of the rows with room (their index) and stops at its limit, not a section's rows sorted whole.
// The patterns and the limit are written into the text, a statement for each n and limit (n is at
// most MAX_SEATS_PER_ORDER): bound as parameters, SQLite prepares a LIKE's statement again at every
// run, as it does a LIMIT's.
type RowsWithRun = { eventId: string; ticketTypeId: string; n: number }
type RunKind = 'likely' | 'rest'
const rowsWithRunOf = (kind: RunKind) =>
  perWholeNumber((n) => {
    const free = ROW_SEAT.free
    // the patterns are made of ROW_SEAT's characters, '|' and '%' alone: safe as literals
    const like = (pattern: string) => sql.raw(`'${pattern}'`)
    const likely = sql`(taken LIKE ${like(`%${free.repeat(n + 2)}%`)}
      OR '|' || replace(replace(taken, ${like(ROW_SEAT.taken)}, '|'), ${like(ROW_SEAT.blocked)}, '|') || '|'
        LIKE ${like(`%|${free.repeat(n)}|%`)})`
    const which =
      kind === 'likely' ? likely : sql`taken LIKE ${like(`%${free.repeat(n)}%`)} AND NOT ${likely}`
    return perLimit((limit) =>
      statement<RowsWithRun, { label: string }>(
        (p) => sql`SELECT row_label AS label FROM seat_rows
          WHERE event_id = ${p.eventId} AND ticket_type_id = ${p.ticketTypeId} AND free > 0 AND free >= ${p.n}
            AND ${which}
          ORDER BY rank, ord LIMIT ${limit}`,
      ),
    )
  })
const rowsWithRun = { likely: rowsWithRunOf('likely'), rest: rowsWithRunOf('rest') }

// named seats' statuses now, where a hold decides: their ids one placeholder each, a statement for
// each number of them (a list through json_each, and each seat's every column, cost twice as much)
type SeatNow = { id: string; row: string; status: SeatStatus }
// a blocked seat is not for sale: blocked, as the map shows it
const seatNow = sql`SELECT seat_id AS id, row_label AS "row",
    CASE WHEN blocked AND status = 'free' THEN 'blocked' ELSE status END AS status FROM seats`
const statusOf = perWholeNumber((n) =>
  statement<SeatIds, SeatNow>(
    (p) =>
      sql`${seatNow} WHERE event_id = ${p.eventId} AND seat_id IN (${sql.join(
        Array.from({ length: n }, (_, i) => p[`s${i}`]),
        sql`, `,
      )})`,
  ),
)

const statusOfListed = statement<{ eventId: string; ids: string[] }, SeatNow>(
  (p, d) => sql`${seatNow} WHERE event_id = ${p.eventId} AND ${d.inList(sql`seat_id`, p.ids)}`,
)

// a few rows' records now (seat_rows.taken: a character a seat, at its slot), and the version of
// the plan they are of
const recordsOfRows = statement<
  { eventId: string; ticketTypeId: string; labels: string[] },
  { label: string; taken: string; version: number }
>(
  (p, d) => sql`SELECT row_label AS label, taken,
      (SELECT version FROM seat_maps WHERE event_id = ${p.eventId}) AS version
    FROM seat_rows
    WHERE event_id = ${p.eventId} AND ticket_type_id = ${p.ticketTypeId} AND ${d.inList(sql`row_label`, p.labels)}`,
)

// the seats these orders hold now (a buyer's own, which count as free for them)
const heldBy = statement<{ orderIds: string[] }, { id: string }>(
  (p, d) =>
    sql`SELECT seat_id AS id FROM seats WHERE ${d.inList(sql`order_id`, p.orderIds)} AND status = 'held'`,
)

// whether a ticket type is a section of its event's seat map now (its rows are the section's)
const seatedType = statement<{ eventId: string; ticketTypeId: string }, { one: number }>(
  (
    p,
  ) => sql`SELECT 1 AS one FROM seat_rows WHERE event_id = ${p.eventId} AND ticket_type_id = ${p.ticketTypeId}
    LIMIT 1`,
)

// the rows of a section with at least n seats free, nearest the stage's front first (where the best
// n seats are found; a buyer's own held seats are not counted back here: their rows may be passed
// over, never oversold), each with its record of its seats now (seat_rows.taken, one character a
// seat in the row's order), and the version of the plan they are of: all a hold reads to choose the best
// seats, their places kept (a row's taken seats, read as rows, were most of a hold's reading)
const roomNow = perLimit((limit) =>
  statement<
    { eventId: string; ticketTypeId: string; n: number },
    { label: string; version: number; taken: string }
  >(
    (p) => sql`SELECT row_label AS label, taken,
        (SELECT version FROM seat_maps WHERE event_id = ${p.eventId}) AS version
      FROM seat_rows
      WHERE event_id = ${p.eventId} AND ticket_type_id = ${p.ticketTypeId} AND free > 0 AND free >= ${p.n}
      ORDER BY rank, ord LIMIT ${limit}`,
  ),
)

// a few rows' seats as a plan version placed them (what no sale moves), kept per version (Places)
const placesOfRows = statement<
  { eventId: string; ticketTypeId: string; version: number; labels: string[] },
  {
    id: string
    row: string
    section: string
    number: string
    x: number
    y: number
    blocked: number | boolean
    ord: number
    slot: number
  }
>(
  (p, d) => sql`SELECT seats.seat_id AS id, seats.row_label AS "row", seats.section, seats.number, seats.x,
      seats.y, seats.blocked, seats.ord, seats.slot
    FROM ${listed(d, p.labels)}
    ON seats.event_id = ${p.eventId} AND seats.ticket_type_id = ${p.ticketTypeId} AND seats.row_label = j.value
    WHERE seats.plan_version = ${p.version}
    ORDER BY seats.ord`,
)

const takenOf = statement<{ eventId: string }, { id: string; status: 'held' | 'sold' }>(
  (p) => sql`SELECT seat_id AS id, status FROM seats WHERE event_id = ${p.eventId} AND status <> 'free'`,
)

// the seats each order's hold named, as the orders read model keeps them (cancelled, released or
// replaced orders keep them too: a ticket names the seats it was sold with)
const ofOrders = statement<{ orderIds: string[] }, { orderId: string; seats: string | null }>(
  (p, d) =>
    sql`SELECT id AS "orderId", seats_held AS seats FROM orders WHERE ${d.inList(sql`id`, p.orderIds)}`,
)

// the seats orders hold now: those of orders written without seats_held (by a process of the
// version before it, during an upgrade, or by its rebuild)
const heldByOrders = statement<{ orderIds: string[] }, RawSeat>(
  (p, d) => sql`SELECT ${seatColumns} FROM seats
    WHERE ${d.inList(sql`order_id`, p.orderIds)} AND status <> 'free' ORDER BY ord`,
)

const lastOfOrder = statement<{ orderId: string }, RawSeat>(
  (p) => sql`SELECT ${seatColumns} FROM seats WHERE order_id = ${p.orderId} ORDER BY ord`,
)

const json = <T>(value: unknown): T => (typeof value === 'string' ? JSON.parse(value) : value) as T

/** a seat as read, with its status as the map shows it (blocked is the plan's) */
function seatOf(raw: RawSeat): MapSeat {
  const blocked = raw.blocked === true || raw.blocked === 1
  return {
    id: raw.id,
    section: raw.section,
    ticketTypeId: raw.ticketTypeId,
    row: raw.row,
    number: json<SeatNumber>(raw.number),
    x: Number(raw.x),
    y: Number(raw.y),
    status: blocked && raw.status === 'free' ? 'blocked' : raw.status,
    accessible: raw.accessible ?? false,
    orderId: raw.orderId,
  }
}

const labelOf = (seat: MapSeat): SeatLabel => ({
  id: seat.id,
  section: seat.section,
  row: seat.row,
  number: seat.number,
})

/**
 * A section's seats row by row, as best.ts reads them; the seats of `ownOrders` (a buyer's unpaid
 * holds, which a new checkout replaces) count as free.
 */
export function rowsOf(
  seatsOfSection: readonly MapSeat[],
  ownOrders: ReadonlySet<string> = new Set(),
): RowOfSeats[] {
  const rows = new Map<string, RowOfSeats>()
  for (const seat of seatsOfSection) {
    let row = rows.get(seat.row)
    if (!row) {
      row = { label: seat.row, seats: [] }
      rows.set(seat.row, row)
    }
    const own = seat.status === 'held' && seat.orderId !== null && ownOrders.has(seat.orderId)
    row.seats.push({ id: seat.id, x: seat.x, y: seat.y, status: own ? 'free' : seat.status })
  }
  return [...rows.values()]
}

/**
 * The seat at `slot` as its row's record (roomNow) has it: held or sold is taken either way, and a
 * seat the record does not name is not offered.
 */
export function seatInRow(record: string, slot: number): 'free' | 'blocked' | 'held' {
  const c = record[slot]
  return c === ROW_SEAT.free ? 'free' : c === ROW_SEAT.blocked ? 'blocked' : 'held'
}

/** a seat as a plan version placed it: what no sale moves */
export type Place = {
  id: string
  row: string
  section: string
  number: SeatNumber
  x: number
  y: number
  blocked: boolean
  /** its place in the plan's order */
  ord: number
  /** its place in its row: its character in the row's record (seat_rows.taken) */
  slot: number
}

/** sections whose places are kept (an LRU: a stadium's section is some 10 MB when all its rows are read) */
const SECTIONS_KEPT = 8

/**
 * The seats' places of the sections held from lately, by event, plan version and ticket type, row by
 * row as they are read: a plan version's places never change, so a hold reads only its candidate
 * rows' seats held or sold. One per store (every process keeps its own).
 */
export class Places {
  private readonly sections = new Map<string, Map<string, Place[]>>()

  /** a section's rows read so far, by label */
  of(eventId: string, version: number, ticketTypeId: string): Map<string, Place[]> {
    const key = `${eventId}/${version}/${ticketTypeId}`
    let rows = this.sections.get(key)
    if (rows) this.sections.delete(key)
    else rows = new Map()
    this.sections.set(key, rows)
    if (this.sections.size > SECTIONS_KEPT) this.sections.delete(this.sections.keys().next().value as string)
    return rows
  }
}

export function seatingQueries(x: Sql, places: Places = new Places()) {
  const placesOf = (eventId: string, ticketTypeId: string, version: number, labels: readonly string[]) => {
    const kept = places.of(eventId, version, ticketTypeId)
    const missing = [...new Set(labels.filter((label) => !kept.has(label)))]
    const rowsOf = () => labels.map((label) => ({ label, seats: kept.get(label) ?? [] }))
    if (missing.length === 0) return rowsOf()
    return after(x.all(placesOfRows, { eventId, ticketTypeId, version, labels: missing }), (read) => {
      const rows = new Map<string, Place[]>(missing.map((label) => [label, []]))
      for (const r of read)
        rows.get(r.row)?.push({
          id: r.id,
          row: r.row,
          section: r.section,
          number: json<SeatNumber>(r.number),
          x: Number(r.x),
          y: Number(r.y),
          blocked: r.blocked === true || r.blocked === 1,
          ord: Number(r.ord),
          slot: Number(r.slot),
        })
      for (const [label, row] of rows) kept.set(label, row)
      return rowsOf()
    })
  }

  /**
   * Named seats' rows and statuses now (held or sold: taken, blocked or not): those of `ids` that
   * are on the map (up to MAX_SEATS_PER_ORDER of them, one placeholder each).
   */
  const statusNow = (eventId: string, ids: readonly string[]): Awaitable<SeatNow[]> => {
    const unique = [...new Set(ids)]
    if (unique.length === 0) return []
    if (unique.length > MAX_SEATS_PER_ORDER) return x.all(statusOfListed, { eventId, ids: unique })
    return x.all(statusOf(unique.length), idParams(eventId, unique))
  }

  const rowsNow = (
    eventId: string,
    ticketTypeId: string,
    labels: readonly string[],
    freeSeats: ReadonlySet<string> = new Set(),
  ): Awaitable<RowOfSeats[]> => {
    if (labels.length === 0) return []
    const read = x.all(recordsOfRows, { eventId, ticketTypeId, labels: [...new Set(labels)] })
    return afterThat(read, (records) => {
      const first = records[0]
      if (!first) return []
      const placed = placesOf(
        eventId,
        ticketTypeId,
        Number(first.version),
        records.map((r) => r.label),
      )
      return after(placed, (rows) =>
        rows.map((row, r) => {
          const record = (records[r] as { taken: string }).taken
          return {
            label: row.label,
            seats: row.seats.map((seat) => ({
              id: seat.id,
              x: seat.x,
              y: seat.y,
              status: freeSeats.has(seat.id) ? 'free' : seatInRow(record, seat.slot),
            })),
          }
        }),
      )
    })
  }

  return {
    /** the event's whole plan with each seat's status now, or null when it has none */
    map: (eventId: string) =>
      after(
        together([x.get(mapOf, { eventId }), x.all(seatsOf, { eventId })] as const),
        ([plan, rows]): SeatMapRead | null =>
          plan
            ? {
                version: Number(plan.version),
                stage: json<Box | null>(plan.stage),
                sections: json<Array<{ name: string; ticketTypeId: string }>>(plan.sections),
                seats: rows.map(seatOf),
              }
            : null,
      ),

    /** the event's plan without its seats (version, stage, sections in order), or null */
    plan: (eventId: string) =>
      after(x.get(mapOf, { eventId }), (plan): Omit<SeatMapRead, 'seats'> | null =>
        plan
          ? {
              version: Number(plan.version),
              stage: json<Box | null>(plan.stage),
              sections: json<Array<{ name: string; ticketTypeId: string }>>(plan.sections),
            }
          : null,
      ),

    /** where the event's stage is (null: no stage drawn, or no map) */
    stage: (eventId: string) =>
      after(x.get(mapOf, { eventId }), (plan) => (plan ? json<Box | null>(plan.stage) : null)),

    /** the seats of the event with these ids (unknown ids are left out) */
    named: (eventId: string, ids: readonly string[]) => {
      const unique = [...new Set(ids)]
      const read =
        unique.length === 0 || unique.length > MAX_SEATS_PER_ORDER
          ? x.all(seatsNamed, { eventId, ids: [...ids] })
          : x.all(seatsNamedOf(unique.length), idParams(eventId, unique))
      return after(read, (rows) => rows.map(seatOf))
    },

    /**
     * Named seats' rows and statuses now (held or sold: taken, blocked or not), as a hold decides
     * them: those of `ids` that are on the map (up to MAX_SEATS_PER_ORDER of them, one placeholder each).
     */
    statusNow,

    /** a seated ticket type's seats, in the plan's order */
    section: (eventId: string, ticketTypeId: string) =>
      after(x.all(seatsOfSection, { eventId, ticketTypeId }), (rows) => rows.map(seatOf)),

    /**
     * A section's seats in these rows now, in the plan's order, as the best seats and the single
     * seat rule read them: each row's record and its places (kept per plan version), not each seat's
     * row. The seats of `freeSeats` (a buyer's own last hold's, seatsOfHolds) count as free.
     */
    rowsNow,

    /**
     * The seats these unpaid holds hold now, by id: as each order's hold named them
     * (orders.seats_held); read from the seats only for an order written without them (general
     * admission's, or one written by the version before during an upgrade).
     */
    seatsOfHolds: (
      orders: ReadonlyArray<{ id: string; seatsHeld: string | null }>,
    ): Awaitable<Set<string>> => {
      const ids = new Set<string>()
      const unknown: string[] = []
      for (const order of orders) {
        if (order.seatsHeld === null) unknown.push(order.id)
        else for (const seat of JSON.parse(order.seatsHeld) as SeatLabel[]) ids.add(seat.id)
      }
      if (unknown.length === 0) return ids
      return after(x.all(heldBy, { orderIds: unknown }), (rows) => {
        for (const row of rows) ids.add(row.id)
        return ids
      })
    },

    /**
     * Named seats as a hold decides them, under the event's lock: their rows now (rowsNow, the rows
     * the order's labels name, of its ticket type) and the status of each seat found in them (free,
     * blocked or taken). A seat not found there is not the order's to hold: a new plan removed it,
     * or made its section another ticket type's, since the checkout read it.
     */
    namedNow: (
      eventId: string,
      ticketTypeId: string,
      seats: readonly SeatLabel[],
    ): Awaitable<{ rows: RowOfSeats[] | null; statuses: SeatNow[] }> => {
      const labels = [...new Set(seats.map((seat) => seat.row))]
      return after(rowsNow(eventId, ticketTypeId, labels), (rows) => {
        const ids = new Set(seats.map((seat) => seat.id))
        const statuses: SeatNow[] = []
        for (const row of rows)
          for (const seat of row.seats)
            if (ids.has(seat.id)) statuses.push({ id: seat.id, row: row.label, status: seat.status })
        return { rows, statuses }
      })
    },

    /** whether a ticket type is a section of its event's seat map now: its tickets are seats */
    seatedType: (eventId: string, ticketTypeId: string) =>
      after(x.get(seatedType, { eventId, ticketTypeId }), (found) => found !== undefined),

    /** the labels of the first `limit` rows where n seats side by side may fit without leaving one
     * seat alone as the rows' records are now (rowsWithRun): the likeliest first, then nearest the stage */
    rowsWithRun: (eventId: string, ticketTypeId: string, n: number, limit: number): Awaitable<string[]> => {
      const labels = (rows: ReadonlyArray<{ label: string }>) => rows.map((r) => r.label)
      const read = (kind: RunKind, rows: number) =>
        x.all(rowsWithRun[kind](n)(rows), { eventId, ticketTypeId, n })
      return afterThat(read('likely', limit), (found) =>
        found.length >= limit
          ? labels(found)
          : after(read('rest', limit - found.length), (more) => labels([...found, ...more])),
      )
    },

    /**
     * The first `limit` rows of a section with `n` seats or more free, nearest the stage first,
     * each row with its record of its seats now (ROW_SEAT: a character a seat, at
     * its slot), and the version of the plan they are of (null: no row has room).
     */
    roomNow: (eventId: string, ticketTypeId: string, n: number, limit: number) =>
      after(x.all(roomNow(limit), { eventId, ticketTypeId, n }), (rows) => ({
        version: rows.length > 0 ? Number(rows[0]?.version) : null,
        rows: rows.map((r) => ({ label: r.label, taken: r.taken })),
      })),

    /**
     * A few rows of a section as a plan version placed them, each row's seats in the plan's order:
     * kept per version, so only the rows not seen yet are read.
     */
    placesOf,

    /** the ids of the event's seats held or sold now */
    takenIds: (eventId: string) => after(x.all(takenOf, { eventId }), (rows) => rows.map((r) => r.id)),

    /** the event's seats held or sold now, and which */
    taken: (eventId: string) => x.all(takenOf, { eventId }),

    /** the seats each of these orders' holds named, by order id (those of general admission left
     * out); for an order written without them (by the version before, during an upgrade), the seats
     * it holds now */
    labelsOf: (orderIds: readonly string[]) => {
      if (orderIds.length === 0) return new Map<string, SeatLabel[]>()
      // the second read, when there is one, answers as the first (a promise on PostgreSQL)
      return afterThat(x.all(ofOrders, { orderIds: [...new Set(orderIds)] }), (rows) => {
        const byOrder = new Map<string, SeatLabel[]>()
        const unknown: string[] = []
        for (const row of rows) {
          if (row.seats) byOrder.set(row.orderId, JSON.parse(row.seats) as SeatLabel[])
          else unknown.push(row.orderId)
        }
        if (unknown.length === 0) return byOrder
        return after(x.all(heldByOrders, { orderIds: unknown }), (seats) => {
          for (const seat of seats) {
            const orderId = seat.orderId as string
            byOrder.set(orderId, [...(byOrder.get(orderId) ?? []), labelOf(seatOf(seat))])
          }
          return byOrder
        })
      })
    },

    /** the seats an order was last with, and their status now (what its fact changed) */
    lastOfOrder: (orderId: string) => after(x.all(lastOfOrder, { orderId }), (rows) => rows.map(seatOf)),
  }
}

export type SeatingQueries = ReturnType<typeof seatingQueries>
