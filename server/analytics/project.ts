// Folds booking's facts into sales figures (this area's own read model), on either store. What a
// fact does not carry (an order's ticket type, amount and organizer) is read from booking's order
// summaries (handed in by the composition root: onSqlite/onPostgres's readsOf), whose read model
// the booking projection has already brought up to date for this fact: the projection declares it
// runs after booking's.
import { sql } from 'drizzle-orm'
import type { BookingFact } from '../booking/facts.ts'
import { type OrderSummary, orderFieldSql } from '../booking/queries.ts'
import { after, answered, type Sql, type Statement, statement } from '../db/sql.ts'
import { type Awaitable, type Step, wait } from '../db/store.ts'
import type { StoredFact } from '../ledger/ledger.ts'
import { type ReadHandlers, readProjection } from '../ledger/read-projection.ts'
import { replayRows } from '../ledger/replay-rows.ts'
import {
  type AttendanceRow,
  attendance,
  type EventSalesRow,
  eventSales,
  type SalesByHourRow,
  type SalesByTicketTypeRow,
  type SalesTotalsRow,
  salesByHour,
  salesByTicketType,
  salesTotals,
} from './tables.ts'

/** what analytics reads of booking: an order's summary, as booking's read model has it now */
export type OrderSummaries = { summary(orderId: string): Awaitable<OrderSummary | undefined> }

const hourOf = (at: string) => `${at.slice(0, 13)}:00:00.000Z`
const ignore = () => {}
/** the totals row of the whole site, beside one per organizer */
export const SITE = '*'

/**
 * A move of every count, always in this one shape: a replay adds up a million moves, and moves of
 * several shapes made adding them up ~8% of a rebuild (a megamorphic read of each field). Revenue
 * in integer paise, so any number of them adds up exactly. An event's figures also move with who
 * attends.
 */
const move = (
  pending: number,
  completed: number,
  failed: number,
  ticketsSold = 0,
  revenuePaise = 0,
  attendees = 0,
) => ({ pending, completed, failed, ticketsSold, revenuePaise, attendees })

type Move = ReturnType<typeof move>

/**
 * Where the figures are kept: the tables, one statement per move (as sales happen, on either
 * store), or memory during SQLite's rebuild replay, written once at its end. Both keep the same
 * rules: a ticket type's and an event's rows are opened by a hold, and a move of a row not opened
 * changes nothing.
 */
type Figures = {
  openTicketType(x: Sql, ticketTypeId: string, eventId: string, ticketType: string, by: Move): Awaitable<void>
  moveTicketType(x: Sql, ticketTypeId: string, by: Move): Awaitable<void>
  openEvent(x: Sql, eventId: string, organizerId: string): Awaitable<void>
  moveEvent(x: Sql, eventId: string, by: Move): Awaitable<void>
  /** moves the rows of an order's ticket type and event (found by the order) */
  moveOrder(x: Sql, orders: OrderSummaries, orderId: string, by: Move): Awaitable<void>
  /** moves one person's seats at an event; answers the seats they hold now */
  attend(x: Sql, eventId: string, accountId: string, seats: number): Awaitable<number>
  /** an organizer's totals and the site's move together */
  sold(x: Sql, organizerId: string, tickets: number, revenuePaise: number): Awaitable<void>
  addToHour(x: Sql, eventId: string, hour: string, tickets: number, revenuePaise: number): Awaitable<void>
}

type Counts = {
  pending: number
  completed: number
  failed: number
  ticketsSold: number
  revenuePaise: number
}

// A hold opens its ticket type's row on first use; every later move finds it.
const openTicketType = statement<Omit<SalesByTicketTypeRow, keyof Counts> & Counts>(
  (p) => sql`INSERT INTO sales_by_ticket_type (ticket_type_id, event_id, ticket_type, pending, completed,
      failed, tickets_sold, revenue_paise)
    VALUES (${p.ticketTypeId}, ${p.eventId}, ${p.ticketType}, ${p.pending}, ${p.completed}, ${p.failed},
      ${p.ticketsSold}, ${p.revenuePaise})
    ON CONFLICT (ticket_type_id) DO UPDATE SET pending = sales_by_ticket_type.pending + excluded.pending,
      completed = sales_by_ticket_type.completed + excluded.completed,
      failed = sales_by_ticket_type.failed + excluded.failed,
      tickets_sold = sales_by_ticket_type.tickets_sold + excluded.tickets_sold,
      revenue_paise = sales_by_ticket_type.revenue_paise + excluded.revenue_paise`,
)

const moveTicketType = statement<Counts & { ticketTypeId: string }>(
  (p) => sql`UPDATE sales_by_ticket_type SET pending = pending + ${p.pending},
      completed = completed + ${p.completed}, failed = failed + ${p.failed},
      tickets_sold = tickets_sold + ${p.ticketsSold}, revenue_paise = revenue_paise + ${p.revenuePaise}
    WHERE ticket_type_id = ${p.ticketTypeId}`,
)

// Moves by order: the order's ticket type and event found by the statement, with no read first
const moveTicketTypeOfOrder = statement<Counts & { orderId: string }>(
  (p) => sql`UPDATE sales_by_ticket_type SET pending = pending + ${p.pending},
      completed = completed + ${p.completed}, failed = failed + ${p.failed},
      tickets_sold = tickets_sold + ${p.ticketsSold}, revenue_paise = revenue_paise + ${p.revenuePaise}
    WHERE ticket_type_id = ${orderFieldSql('ticketTypeId', p.orderId)}`,
)
const moveEventOfOrder = statement<Move & { orderId: string }>(
  (p) => sql`UPDATE event_sales SET pending = pending + ${p.pending}, completed = completed + ${p.completed},
      failed = failed + ${p.failed}, tickets_sold = tickets_sold + ${p.ticketsSold},
      revenue_paise = revenue_paise + ${p.revenuePaise}, attendees = attendees + ${p.attendees}
    WHERE event_id = ${orderFieldSql('eventId', p.orderId)}`,
)

const openEvent = statement<{ eventId: string; organizerId: string }>(
  (p) => sql`INSERT INTO event_sales (event_id, organizer_id, pending, completed, failed, tickets_sold,
      revenue_paise, attendees) VALUES (${p.eventId}, ${p.organizerId}, 0, 0, 0, 0, 0, 0)
    ON CONFLICT (event_id) DO NOTHING`,
)

const moveEvent = statement<Move & { eventId: string }>(
  (p) => sql`UPDATE event_sales SET pending = pending + ${p.pending}, completed = completed + ${p.completed},
      failed = failed + ${p.failed}, tickets_sold = tickets_sold + ${p.ticketsSold},
      revenue_paise = revenue_paise + ${p.revenuePaise}, attendees = attendees + ${p.attendees}
    WHERE event_id = ${p.eventId}`,
)

const attend = statement<AttendanceRow, { tickets: number }>(
  (p) =>
    sql`INSERT INTO attendance (event_id, account_id, tickets) VALUES (${p.eventId}, ${p.accountId}, ${p.tickets})
    ON CONFLICT (event_id, account_id) DO UPDATE SET tickets = attendance.tickets + excluded.tickets
    RETURNING tickets`,
)

const sold = statement<{ organizerId: string; site: string; tickets: number; revenuePaise: number }>(
  (p) => sql`INSERT INTO sales_totals (organizer_id, tickets_sold, revenue_paise)
    VALUES (${p.organizerId}, ${p.tickets}, ${p.revenuePaise}), (${p.site}, ${p.tickets}, ${p.revenuePaise})
    ON CONFLICT (organizer_id) DO UPDATE SET tickets_sold = sales_totals.tickets_sold + excluded.tickets_sold,
      revenue_paise = sales_totals.revenue_paise + excluded.revenue_paise`,
)

const addToHour = statement<SalesByHourRow>(
  (p) => sql`INSERT INTO sales_by_hour (event_id, hour, tickets, revenue_paise)
    VALUES (${p.eventId}, ${p.hour}, ${p.tickets}, ${p.revenuePaise})
    ON CONFLICT (event_id, hour) DO UPDATE SET tickets = sales_by_hour.tickets + excluded.tickets,
      revenue_paise = sales_by_hour.revenue_paise + excluded.revenue_paise`,
)

const tableFigures: Figures = {
  openTicketType: (x, ticketTypeId, eventId, ticketType, by) =>
    x.run(openTicketType, { ticketTypeId, eventId, ticketType, ...by }),
  moveTicketType: (x, ticketTypeId, by) => x.run(moveTicketType, { ticketTypeId, ...by }),
  openEvent: (x, eventId, organizerId) => x.run(openEvent, { eventId, organizerId }),
  moveEvent: (x, eventId, by) => x.run(moveEvent, { eventId, ...by }),
  moveOrder: (x, _, orderId, by) => {
    const first = x.run(moveTicketTypeOfOrder, { orderId, ...by })
    const second = () => x.run(moveEventOfOrder, { orderId, ...by })
    return first instanceof Promise ? first.then(second) : second()
  },
  attend: (x, eventId, accountId, tickets) =>
    after(x.get(attend, { eventId, accountId, tickets }), (row) => row?.tickets ?? 0),
  sold: (x, organizerId, tickets, revenuePaise) =>
    x.run(sold, { organizerId, site: SITE, tickets, revenuePaise }),
  addToHour: (x, eventId, hour, tickets, revenuePaise) =>
    x.run(addToHour, { eventId, hour, tickets, revenuePaise }),
}

// A replay's rows, each written once (an upsert of the whole row: it may have been written before).
const upsertTicketType = statement<SalesByTicketTypeRow>(
  (p) => sql`INSERT INTO sales_by_ticket_type (ticket_type_id, event_id, ticket_type, pending, completed,
      failed, tickets_sold, revenue_paise)
    VALUES (${p.ticketTypeId}, ${p.eventId}, ${p.ticketType}, ${p.pending}, ${p.completed}, ${p.failed},
      ${p.ticketsSold}, ${p.revenuePaise})
    ON CONFLICT (ticket_type_id) DO UPDATE SET pending = excluded.pending, completed = excluded.completed,
      failed = excluded.failed, tickets_sold = excluded.tickets_sold, revenue_paise = excluded.revenue_paise`,
)
const upsertEvent = statement<EventSalesRow>(
  (p) => sql`INSERT INTO event_sales (event_id, organizer_id, pending, completed, failed, tickets_sold,
      revenue_paise, attendees)
    VALUES (${p.eventId}, ${p.organizerId}, ${p.pending}, ${p.completed}, ${p.failed}, ${p.ticketsSold},
      ${p.revenuePaise}, ${p.attendees})
    ON CONFLICT (event_id) DO UPDATE SET pending = excluded.pending, completed = excluded.completed,
      failed = excluded.failed, tickets_sold = excluded.tickets_sold, revenue_paise = excluded.revenue_paise,
      attendees = excluded.attendees`,
)
const upsertTotal = statement<SalesTotalsRow>(
  (p) => sql`INSERT INTO sales_totals (organizer_id, tickets_sold, revenue_paise)
    VALUES (${p.organizerId}, ${p.ticketsSold}, ${p.revenuePaise})
    ON CONFLICT (organizer_id) DO UPDATE SET tickets_sold = excluded.tickets_sold,
      revenue_paise = excluded.revenue_paise`,
)
const upsertHour = statement<SalesByHourRow>(
  (p) => sql`INSERT INTO sales_by_hour (event_id, hour, tickets, revenue_paise)
    VALUES (${p.eventId}, ${p.hour}, ${p.tickets}, ${p.revenuePaise})
    ON CONFLICT (event_id, hour) DO UPDATE SET tickets = excluded.tickets, revenue_paise = excluded.revenue_paise`,
)
const upsertSeats = statement<AttendanceRow>(
  (p) =>
    sql`INSERT INTO attendance (event_id, account_id, tickets) VALUES (${p.eventId}, ${p.accountId}, ${p.tickets})
    ON CONFLICT (event_id, account_id) DO UPDATE SET tickets = excluded.tickets`,
)
// and read back, once rows were written
const readTicketType = statement<{ ticketTypeId: string }, SalesByTicketTypeRow>(
  (p) =>
    sql`SELECT ${salesByTicketType.columns()} FROM sales_by_ticket_type WHERE ticket_type_id = ${p.ticketTypeId}`,
)
const readEvent = statement<{ eventId: string }, EventSalesRow>(
  (p) => sql`SELECT ${eventSales.columns()} FROM event_sales WHERE event_id = ${p.eventId}`,
)
const readTotal = statement<{ organizerId: string }, SalesTotalsRow>(
  (p) => sql`SELECT ${salesTotals.columns()} FROM sales_totals WHERE organizer_id = ${p.organizerId}`,
)
const readHour = statement<{ eventId: string; hour: string }, SalesByHourRow>(
  (p) =>
    sql`SELECT ${salesByHour.columns()} FROM sales_by_hour WHERE event_id = ${p.eventId} AND hour = ${p.hour}`,
)
const readSeats = statement<{ eventId: string; accountId: string }, AttendanceRow>(
  (p) =>
    sql`SELECT ${attendance.columns()} FROM attendance WHERE event_id = ${p.eventId} AND account_id = ${p.accountId}`,
)

/** what a SQLite statement answered (a replay runs on SQLite only) */
const now = answered

/** the move's counts added to a row's */
const add = (row: Counts, by: Move) => {
  row.pending += by.pending
  row.completed += by.completed
  row.failed += by.failed
  row.ticketsSold += by.ticketsSold
  row.revenuePaise += by.revenuePaise
}

/** The figures of SQLite's rebuild replay, in memory (replay-rows.ts): a row is written once. */
function replayFigures(x: Sql, rowsHeld: number): Figures & { flush(): void } {
  const held = replayRows(rowsHeld)
  const writes = <Row extends object>(upsert: Statement<Row, unknown>) => ({
    run: (row: Row) => x.run(upsert, row),
  })
  const ticketTypes = held.table(writes<SalesByTicketTypeRow>(upsertTicketType))
  const events = held.table(writes<EventSalesRow>(upsertEvent))
  const totals = held.table(writes<SalesTotalsRow>(upsertTotal))
  const hours = held.table(writes<SalesByHourRow>(upsertHour))
  const seats = held.table(writes<AttendanceRow>(upsertSeats))
  const total = (organizerId: string, tickets: number, revenuePaise: number) => {
    const row = totals.ensure(
      organizerId,
      () => now(x.get(readTotal, { organizerId })),
      () => ({ organizerId, ticketsSold: 0, revenuePaise: 0 }),
    )
    row.ticketsSold += tickets
    row.revenuePaise += revenuePaise
  }
  return {
    openTicketType(_, ticketTypeId, eventId, ticketType, by) {
      // the closures handed over are anonymous: tsx names a named one again at every call
      const row = ticketTypes.ensure(
        ticketTypeId,
        () => now(x.get(readTicketType, { ticketTypeId })),
        () => ({
          ticketTypeId,
          eventId,
          ticketType,
          pending: 0,
          completed: 0,
          failed: 0,
          ticketsSold: 0,
          revenuePaise: 0,
        }),
      )
      add(row, by)
    },
    moveTicketType(_, ticketTypeId, by) {
      const row = ticketTypes.find(ticketTypeId, () => now(x.get(readTicketType, { ticketTypeId })))
      if (row) add(row, by)
    },
    openEvent(_, eventId, organizerId) {
      events.ensure(
        eventId,
        () => now(x.get(readEvent, { eventId })),
        () => ({
          eventId,
          organizerId,
          pending: 0,
          completed: 0,
          failed: 0,
          ticketsSold: 0,
          revenuePaise: 0,
          attendees: 0,
        }),
      )
    },
    moveEvent(_, eventId, by) {
      const row = events.find(eventId, () => now(x.get(readEvent, { eventId })))
      if (!row) return
      add(row, by)
      row.attendees += by.attendees
    },
    moveOrder(_, orders, orderId, by) {
      const order = now(orders.summary(orderId))
      if (!order) throw new Error(`order ${orderId} is missing from the read model`)
      this.moveTicketType(x, order.ticketTypeId, by)
      this.moveEvent(x, order.eventId, by)
    },
    attend(_, eventId, accountId, moved) {
      const row = seats.ensure(
        `${eventId} ${accountId}`,
        () => now(x.get(readSeats, { eventId, accountId })),
        () => ({ eventId, accountId, tickets: 0 }),
      )
      row.tickets += moved
      return row.tickets
    },
    sold(_, organizerId, tickets, revenuePaise) {
      total(organizerId, tickets, revenuePaise)
      total(SITE, tickets, revenuePaise)
    },
    addToHour(_, eventId, hour, tickets, revenuePaise) {
      const row = hours.ensure(
        `${eventId} ${hour}`,
        () => now(x.get(readHour, { eventId, hour })),
        () => ({ eventId, hour, tickets: 0, revenuePaise: 0 }),
      )
      row.tickets += tickets
      row.revenuePaise += revenuePaise
    },
    flush: held.flush,
  }
}

/** The handlers, the same whichever way the figures are kept. */
function handlersOver(figures: Figures): ReadHandlers<BookingFact, OrderSummaries> {
  /** moves one person's seats; answers how the event's count of attendees moves (-1, 0, 1) */
  function* attendees(x: Sql, eventId: string, accountId: string, seats: number): Step<number> {
    const now = yield* wait(figures.attend(x, eventId, accountId, seats))
    return Number(now > 0) - Number(now - seats > 0)
  }
  function* orderOf(orders: OrderSummaries, orderId: string): Step<OrderSummary> {
    const order = yield* wait(orders.summary(orderId))
    if (!order) throw new Error(`order ${orderId} is missing from the read model`)
    return order
  }
  // The order decider emits these only for a held order: it moves from Pending to Failed, or, a
  // checkout released unpaid (closed, replaced, lapsed: no payment failed), out of Pending alone.
  function* unpaid(
    fact: StoredFact<{ type: string; data: { orderId: string; released?: boolean } }>,
    x: Sql,
    orders: OrderSummaries,
  ): Step<void> {
    const by = fact.data.released ? move(-1, 0, 0) : move(-1, 0, 1)
    yield* wait(figures.moveOrder(x, orders, fact.data.orderId, by))
  }
  return {
    *TicketsHeld(fact, x) {
      const { ticketTypeId, eventId, ticketType, organizerId } = fact.data
      const by = move(1, 0, 0)
      yield* wait(figures.openTicketType(x, ticketTypeId, eventId, ticketType, by))
      yield* wait(figures.openEvent(x, eventId, organizerId))
      yield* wait(figures.moveEvent(x, eventId, by))
    },
    *TicketsIssued(fact, x, orders) {
      const d = fact.data
      // A payment after the hold lapsed turns a Failed order (or one released, counted nowhere) into
      // a Completed one.
      const lapsed = d.afterExpiry === true
      const wasFailed = lapsed && d.fromReleased !== true
      const by = move(lapsed ? 0 : -1, 1, wasFailed ? -1 : 0, d.quantity, d.amountPaise)
      yield* wait(figures.moveTicketType(x, d.ticketTypeId, by))
      by.attendees = yield* attendees(x, d.eventId, d.ownerId, d.quantity)
      yield* wait(figures.moveEvent(x, d.eventId, by))
      const order = yield* orderOf(orders, d.orderId)
      yield* wait(figures.sold(x, order.organizerId, d.quantity, d.amountPaise))
      yield* wait(figures.addToHour(x, d.eventId, hourOf(fact.at), d.quantity, d.amountPaise))
    },
    PaymentFailed: unpaid,
    HoldExpired: unpaid,
    *TicketCancelled(fact, x, orders) {
      const order = yield* orderOf(orders, fact.data.orderId)
      const by = move(0, -1, 0, -order.quantity, -order.amountPaise)
      yield* wait(figures.moveTicketType(x, order.ticketTypeId, by))
      by.attendees = yield* attendees(x, order.eventId, fact.data.ownerId, -order.quantity)
      yield* wait(figures.moveEvent(x, order.eventId, by))
      yield* wait(figures.sold(x, order.organizerId, -order.quantity, -order.amountPaise))
      yield* wait(figures.addToHour(x, order.eventId, hourOf(fact.at), -order.quantity, -order.amountPaise))
    },
    PaymentCaptured: ignore,
    *TicketTransferred(fact, x, orders) {
      const { eventId, quantity } = yield* orderOf(orders, fact.data.orderId)
      const moved =
        (yield* attendees(x, eventId, fact.data.fromId, -quantity)) +
        (yield* attendees(x, eventId, fact.data.toId, quantity))
      if (moved !== 0) yield* wait(figures.moveEvent(x, eventId, move(0, 0, 0, 0, 0, moved)))
    },
    RefundRequested: ignore,
    PaymentRefunded: ignore,
    // admissions at the door are the check-in area's figures
    PassAdmitted: ignore,
    PassScanRefused: ignore,
    InvoiceIssued: ignore,
    CreditNoteIssued: ignore,
  }
}

export const analyticsProjection = readProjection<BookingFact, OrderSummaries>({
  name: 'analytics',
  tables: [salesByTicketType, salesByHour, eventSales, attendance, salesTotals],
  after: ['booking'],
  handlers: handlersOver(tableFigures),
  replay(x, rowsHeld) {
    const figures = replayFigures(x, rowsHeld)
    return { handlers: handlersOver(figures), flush: figures.flush }
  },
})
