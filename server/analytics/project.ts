// Folds booking's facts into sales figures (this area's own read model). What a fact does not
// carry (an order's ticket type and amount) is read through booking's queries (handed in by the
// composition root), whose read model the booking projection has already brought up to date for
// this fact: the projection declares it runs after booking's.
import { eq, sql } from 'drizzle-orm'
import type { BookingFact } from '../booking/facts.ts'
import type { OrderReader } from '../booking/queries.ts'
import type { Db } from '../db/connection.ts'
import { projection, type StoredFact } from '../ledger/ledger.ts'
import { replayRows } from '../ledger/replay-rows.ts'
import { attendance, eventSales, salesByHour, salesByTicketType, salesTotals } from './tables.ts'

const p = sql.placeholder
const hourOf = (at: string) => `${at.slice(0, 13)}:00:00.000Z`
const ignore = () => {}
/** the totals row of the whole site, beside one per organizer */
export const SITE = '*'

/** Moves of the counts; revenue in integer paise, so any number of them adds up exactly. */
type Move = {
  pending?: number
  completed?: number
  failed?: number
  ticketsSold?: number
  revenuePaise?: number
}
const counts = (by: Move) => ({
  pending: by.pending ?? 0,
  completed: by.completed ?? 0,
  failed: by.failed ?? 0,
  ticketsSold: by.ticketsSold ?? 0,
  revenuePaise: by.revenuePaise ?? 0,
})

/** An event's figures move with its orders, and with who attends. */
type EventMove = Move & { attendees?: number }

/**
 * A move of every count, always in this one shape: a replay adds up a million moves, and moves of
 * several shapes made adding them up ~8% of a rebuild (a megamorphic read of each field).
 */
const move = (
  pending: number,
  completed: number,
  failed: number,
  ticketsSold = 0,
  revenuePaise = 0,
  attendees = 0,
) => ({ pending, completed, failed, ticketsSold, revenuePaise, attendees })

/**
 * Where the figures are kept: the tables, one statement per move (as sales happen), or memory
 * during a rebuild's replay, written once at its end. Both keep the same rules: a ticket type's
 * and an event's rows are opened by a hold, and a move of a row not opened changes nothing.
 */
type Figures = {
  openTicketType(ticketTypeId: string, eventId: string, ticketType: string, by: Move): void
  moveTicketType(ticketTypeId: string, by: Move): void
  openEvent(eventId: string, organizerId: string): void
  moveEvent(eventId: string, by: EventMove): void
  /** moves one person's seats at an event; answers the seats they hold now */
  attend(eventId: string, accountId: string, seats: number): number
  addToTotals(organizerId: string, tickets: number, revenuePaise: number): void
  addToHour(eventId: string, hour: string, tickets: number, revenuePaise: number): void
}

function tableFigures(db: Db): Figures {
  const t = salesByTicketType
  const increments = {
    pending: sql`${t.pending} + ${p('pending')}`,
    completed: sql`${t.completed} + ${p('completed')}`,
    failed: sql`${t.failed} + ${p('failed')}`,
    ticketsSold: sql`${t.ticketsSold} + ${p('ticketsSold')}`,
    revenuePaise: sql`${t.revenuePaise} + ${p('revenuePaise')}`,
  }
  // A hold creates its ticket type's row on first use; every later move finds it.
  const open = db
    .insert(t)
    .values({
      ticketTypeId: p('ticketTypeId'),
      eventId: p('eventId'),
      ticketType: p('ticketType'),
      pending: p('pending'),
      completed: p('completed'),
      failed: p('failed'),
      ticketsSold: p('ticketsSold'),
      revenuePaise: p('revenuePaise'),
    })
    .onConflictDoUpdate({ target: t.ticketTypeId, set: increments })
    .prepare()
  const moveCounts = db
    .update(t)
    .set(increments)
    .where(eq(t.ticketTypeId, p('ticketTypeId')))
    .prepare()
  const addToHour = db
    .insert(salesByHour)
    .values({
      eventId: p('eventId'),
      hour: p('hour'),
      tickets: p('tickets'),
      revenuePaise: p('revenuePaise'),
    })
    .onConflictDoUpdate({
      target: [salesByHour.eventId, salesByHour.hour],
      set: {
        tickets: sql`${salesByHour.tickets} + ${p('tickets')}`,
        revenuePaise: sql`${salesByHour.revenuePaise} + ${p('revenuePaise')}`,
      },
    })
    .prepare()
  // The dashboards' per-event row, per-person attendance and totals (raw statements: these run
  // on every sale, beside the hold's own writes).
  const sqlite = db.$client
  const openEvent = sqlite.prepare(
    `INSERT INTO event_sales (event_id, organizer_id, pending, completed, failed, tickets_sold,
       revenue_paise, attendees) VALUES (?, ?, 0, 0, 0, 0, 0, 0) ON CONFLICT (event_id) DO NOTHING`,
  )
  const moveEventCounts = sqlite.prepare(
    `UPDATE event_sales SET pending = pending + @pending, completed = completed + @completed,
       failed = failed + @failed, tickets_sold = tickets_sold + @ticketsSold,
       revenue_paise = revenue_paise + @revenuePaise, attendees = attendees + @attendees
     WHERE event_id = @eventId`,
  )
  const addToTotals = sqlite.prepare(
    `INSERT INTO sales_totals (organizer_id, tickets_sold, revenue_paise) VALUES (?, ?, ?)
     ON CONFLICT (organizer_id) DO UPDATE SET tickets_sold = tickets_sold + excluded.tickets_sold,
       revenue_paise = revenue_paise + excluded.revenue_paise`,
  )
  const attend = sqlite.prepare<[string, string, number], { tickets: number }>(
    `INSERT INTO attendance (event_id, account_id, tickets) VALUES (?, ?, ?)
     ON CONFLICT (event_id, account_id) DO UPDATE SET tickets = tickets + excluded.tickets
     RETURNING tickets`,
  )
  return {
    openTicketType: (ticketTypeId, eventId, ticketType, by) =>
      open.run({ ticketTypeId, eventId, ticketType, ...counts(by) }),
    moveTicketType: (ticketTypeId, by) => moveCounts.run({ ticketTypeId, ...counts(by) }),
    openEvent: (eventId, organizerId) => openEvent.run(eventId, organizerId),
    moveEvent: (eventId, by) => moveEventCounts.run({ eventId, ...counts(by), attendees: by.attendees ?? 0 }),
    attend: (eventId, accountId, seats) => attend.get(eventId, accountId, seats)?.tickets ?? 0,
    addToTotals: (organizerId, tickets, revenuePaise) => addToTotals.run(organizerId, tickets, revenuePaise),
    addToHour: (eventId, hour, tickets, revenuePaise) =>
      addToHour.run({ eventId, hour, tickets, revenuePaise }),
  }
}

type Counts = ReturnType<typeof counts>
type TicketTypeRow = { ticketTypeId: string; eventId: string; ticketType: string } & Counts
type EventRow = { eventId: string; organizerId: string; attendees: number } & Counts
type TotalRow = { organizerId: string; tickets: number; revenuePaise: number }
type HourRow = { eventId: string; hour: string; tickets: number; revenuePaise: number }
type SeatsRow = { eventId: string; accountId: string; tickets: number }

const add = (row: Counts, by: Move) => {
  row.pending += by.pending ?? 0
  row.completed += by.completed ?? 0
  row.failed += by.failed ?? 0
  row.ticketsSold += by.ticketsSold ?? 0
  row.revenuePaise += by.revenuePaise ?? 0
}

/** The figures of a rebuild's replay, in memory (replay-rows.ts): a row is written once. */
function replayFigures(db: Db, rowsHeld: number): Figures & { flush(): void } {
  const sqlite = db.$client
  const held = replayRows(rowsHeld)
  const ticketTypes = held.table(
    sqlite.prepare<[TicketTypeRow]>(
      `INSERT INTO sales_by_ticket_type (ticket_type_id, event_id, ticket_type, pending, completed,
         failed, tickets_sold, revenue_paise)
       VALUES (@ticketTypeId, @eventId, @ticketType, @pending, @completed, @failed, @ticketsSold, @revenuePaise)
       ON CONFLICT (ticket_type_id) DO UPDATE SET pending = excluded.pending,
         completed = excluded.completed, failed = excluded.failed,
         tickets_sold = excluded.tickets_sold, revenue_paise = excluded.revenue_paise`,
    ),
  )
  const events = held.table(
    sqlite.prepare<[EventRow]>(
      `INSERT INTO event_sales (event_id, organizer_id, pending, completed, failed, tickets_sold,
         revenue_paise, attendees)
       VALUES (@eventId, @organizerId, @pending, @completed, @failed, @ticketsSold, @revenuePaise, @attendees)
       ON CONFLICT (event_id) DO UPDATE SET pending = excluded.pending, completed = excluded.completed,
         failed = excluded.failed, tickets_sold = excluded.tickets_sold,
         revenue_paise = excluded.revenue_paise, attendees = excluded.attendees`,
    ),
  )
  const totals = held.table(
    sqlite.prepare<[TotalRow]>(
      `INSERT INTO sales_totals (organizer_id, tickets_sold, revenue_paise)
       VALUES (@organizerId, @tickets, @revenuePaise)
       ON CONFLICT (organizer_id) DO UPDATE SET tickets_sold = excluded.tickets_sold,
         revenue_paise = excluded.revenue_paise`,
    ),
  )
  const hours = held.table(
    sqlite.prepare<[HourRow]>(
      `INSERT INTO sales_by_hour (event_id, hour, tickets, revenue_paise)
       VALUES (@eventId, @hour, @tickets, @revenuePaise)
       ON CONFLICT (event_id, hour) DO UPDATE SET tickets = excluded.tickets,
         revenue_paise = excluded.revenue_paise`,
    ),
  )
  const seats = held.table(
    sqlite.prepare<[SeatsRow]>(
      `INSERT INTO attendance (event_id, account_id, tickets) VALUES (@eventId, @accountId, @tickets)
       ON CONFLICT (event_id, account_id) DO UPDATE SET tickets = excluded.tickets`,
    ),
  )
  const read = {
    ticketType: sqlite.prepare<[string], TicketTypeRow>(
      `SELECT ticket_type_id AS ticketTypeId, event_id AS eventId, ticket_type AS ticketType, pending,
         completed, failed, tickets_sold AS ticketsSold, revenue_paise AS revenuePaise
       FROM sales_by_ticket_type WHERE ticket_type_id = ?`,
    ),
    event: sqlite.prepare<[string], EventRow>(
      `SELECT event_id AS eventId, organizer_id AS organizerId, pending, completed, failed,
         tickets_sold AS ticketsSold, revenue_paise AS revenuePaise, attendees
       FROM event_sales WHERE event_id = ?`,
    ),
    total: sqlite.prepare<[string], TotalRow>(
      `SELECT organizer_id AS organizerId, tickets_sold AS tickets, revenue_paise AS revenuePaise
       FROM sales_totals WHERE organizer_id = ?`,
    ),
    hour: sqlite.prepare<[string, string], HourRow>(
      `SELECT event_id AS eventId, hour, tickets, revenue_paise AS revenuePaise
       FROM sales_by_hour WHERE event_id = ? AND hour = ?`,
    ),
    seats: sqlite.prepare<[string, string], SeatsRow>(
      `SELECT event_id AS eventId, account_id AS accountId, tickets
       FROM attendance WHERE event_id = ? AND account_id = ?`,
    ),
  }
  return {
    openTicketType(ticketTypeId, eventId, ticketType, by) {
      // the closures handed over are anonymous: tsx names a named one again at every call
      const row = ticketTypes.ensure(
        ticketTypeId,
        () => read.ticketType.get(ticketTypeId),
        () => ({ ticketTypeId, eventId, ticketType, ...counts({}) }),
      )
      add(row, by)
    },
    moveTicketType(ticketTypeId, by) {
      const row = ticketTypes.find(ticketTypeId, () => read.ticketType.get(ticketTypeId))
      if (row) add(row, by)
    },
    openEvent(eventId, organizerId) {
      events.ensure(
        eventId,
        () => read.event.get(eventId),
        () => ({ eventId, organizerId, ...counts({}), attendees: 0 }),
      )
    },
    moveEvent(eventId, by) {
      const row = events.find(eventId, () => read.event.get(eventId))
      if (!row) return
      add(row, by)
      row.attendees += by.attendees ?? 0
    },
    attend(eventId, accountId, moved) {
      const row = seats.ensure(
        `${eventId} ${accountId}`,
        () => read.seats.get(eventId, accountId),
        () => ({ eventId, accountId, tickets: 0 }),
      )
      row.tickets += moved
      return row.tickets
    },
    addToTotals(organizerId, tickets, revenuePaise) {
      const row = totals.ensure(
        organizerId,
        () => read.total.get(organizerId),
        () => ({ organizerId, tickets: 0, revenuePaise: 0 }),
      )
      row.tickets += tickets
      row.revenuePaise += revenuePaise
    },
    addToHour(eventId, hour, tickets, revenuePaise) {
      const row = hours.ensure(
        `${eventId} ${hour}`,
        () => read.hour.get(eventId, hour),
        () => ({ eventId, hour, tickets: 0, revenuePaise: 0 }),
      )
      row.tickets += tickets
      row.revenuePaise += revenuePaise
    },
    flush: held.flush,
  }
}

/** The handlers, the same whichever way the figures are kept. */
function handlersOver(booking: ReturnType<OrderReader>, figures: Figures) {
  /** moves one person's seats; answers how the event's count of attendees moves (-1, 0, 1) */
  const attendees = (eventId: string, accountId: string, seats: number) => {
    const now = figures.attend(eventId, accountId, seats)
    return Number(now > 0) - Number(now - seats > 0)
  }
  const sold = (organizerId: string, tickets: number, revenuePaise: number) => {
    figures.addToTotals(organizerId, tickets, revenuePaise)
    figures.addToTotals(SITE, tickets, revenuePaise)
  }
  const orderOf = (orderId: string) => {
    const order = booking.summary(orderId)
    if (!order) throw new Error(`order ${orderId} is missing from the read model`)
    return order
  }
  // The order decider emits these only for a held order: it moves from Pending to Failed, or, a
  // checkout released unpaid (closed, replaced, lapsed: no payment failed), out of Pending alone.
  const unpaid = (fact: { data: { orderId: string; released?: boolean } }) => {
    const order = orderOf(fact.data.orderId)
    const by = fact.data.released ? move(-1, 0, 0) : move(-1, 0, 1)
    figures.moveTicketType(order.ticketTypeId, by)
    figures.moveEvent(order.eventId, by)
  }
  type Handlers = {
    [T in BookingFact['type']]: (fact: StoredFact<Extract<BookingFact, { type: T }>>) => void
  }
  const handlers: Handlers = {
    TicketsHeld(fact) {
      const { ticketTypeId, eventId, ticketType, organizerId } = fact.data
      const by = move(1, 0, 0)
      figures.openTicketType(ticketTypeId, eventId, ticketType, by)
      figures.openEvent(eventId, organizerId)
      figures.moveEvent(eventId, by)
    },
    TicketsIssued(fact) {
      const d = fact.data
      // A payment after the hold lapsed turns a Failed order (or one released, counted nowhere) into
      // a Completed one.
      const lapsed = d.afterExpiry === true
      const wasFailed = lapsed && d.fromReleased !== true
      const by = move(lapsed ? 0 : -1, 1, wasFailed ? -1 : 0, d.quantity, d.amountPaise)
      figures.moveTicketType(d.ticketTypeId, by)
      by.attendees = attendees(d.eventId, d.ownerId, d.quantity)
      figures.moveEvent(d.eventId, by)
      sold(orderOf(d.orderId).organizerId, d.quantity, d.amountPaise)
      figures.addToHour(d.eventId, hourOf(fact.at), d.quantity, d.amountPaise)
    },
    PaymentFailed: unpaid,
    HoldExpired: unpaid,
    TicketCancelled(fact) {
      const order = orderOf(fact.data.orderId)
      const by = move(0, -1, 0, -order.quantity, -order.amountPaise)
      figures.moveTicketType(order.ticketTypeId, by)
      by.attendees = attendees(order.eventId, fact.data.ownerId, -order.quantity)
      figures.moveEvent(order.eventId, by)
      sold(order.organizerId, -order.quantity, -order.amountPaise)
      figures.addToHour(order.eventId, hourOf(fact.at), -order.quantity, -order.amountPaise)
    },
    PaymentCaptured: ignore,
    TicketTransferred(fact) {
      const { eventId, quantity } = orderOf(fact.data.orderId)
      const moved =
        attendees(eventId, fact.data.fromId, -quantity) + attendees(eventId, fact.data.toId, quantity)
      if (moved !== 0) figures.moveEvent(eventId, move(0, 0, 0, 0, 0, moved))
    },
    RefundRequested: ignore,
    PaymentRefunded: ignore,
    // admissions at the door are the check-in area's figures
    PassAdmitted: ignore,
    PassScanRefused: ignore,
  }
  return handlers
}

export const analyticsProjection = (ordersOf: OrderReader) =>
  projection<BookingFact>({
    name: 'analytics',
    tables: [salesByTicketType, salesByHour, eventSales, attendance, salesTotals],
    after: ['booking'],
    handlers: (db) => handlersOver(ordersOf(db), tableFigures(db)),
    replay(db, rowsHeld, replaying) {
      const figures = replayFigures(db, rowsHeld)
      return { handlers: handlersOver(ordersOf(db, replaying), figures), flush: figures.flush }
    },
  })
