// Folds booking's facts into sales figures (this area's own read model). What a fact does not
// carry (an order's ticket type and amount) is read through booking's queries (handed in by the
// composition root), whose read model the booking projection has already brought up to date for
// this fact: the projection declares it runs after booking's.
import { eq, sql } from 'drizzle-orm'
import type { BookingFact } from '../booking/facts.ts'
import type { OrderReader } from '../booking/queries.ts'
import { projection } from '../ledger/ledger.ts'
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

export const analyticsProjection = (ordersOf: OrderReader) =>
  projection<BookingFact>({
    name: 'analytics',
    tables: [salesByTicketType, salesByHour, eventSales, attendance, salesTotals],
    after: ['booking'],
    handlers(db) {
      const booking = ordersOf(db)
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

      const move = (ticketTypeId: string, by: Move) => moveCounts.run({ ticketTypeId, ...counts(by) })

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
      /** moves one person's seats; answers how the event's count of attendees moves (-1, 0, 1) */
      const attendees = (eventId: string, accountId: string, seats: number) => {
        const now = attend.get(eventId, accountId, seats)?.tickets ?? 0
        return Number(now > 0) - Number(now - seats > 0)
      }
      const moveEvent = (eventId: string, by: Move & { attendees?: number }) =>
        moveEventCounts.run({ eventId, ...counts(by), attendees: by.attendees ?? 0 })
      const sold = (organizerId: string, tickets: number, revenuePaise: number) => {
        addToTotals.run(organizerId, tickets, revenuePaise)
        addToTotals.run(SITE, tickets, revenuePaise)
      }
      const orderOf = (orderId: string) => {
        const order = booking.summary(orderId)
        if (!order) throw new Error(`order ${orderId} is missing from the read model`)
        return order
      }
      // The order decider emits these only for a held order: it moves from Pending to Failed.
      const unpaid = (fact: { data: { orderId: string } }) => {
        const order = orderOf(fact.data.orderId)
        move(order.ticketTypeId, { pending: -1, failed: 1 })
        moveEvent(order.eventId, { pending: -1, failed: 1 })
      }

      return {
        TicketsHeld(fact) {
          const { ticketTypeId, eventId, ticketType, organizerId } = fact.data
          open.run({ ticketTypeId, eventId, ticketType, ...counts({ pending: 1 }) })
          openEvent.run(eventId, organizerId)
          moveEvent(eventId, { pending: 1 })
        },
        TicketsIssued(fact) {
          const d = fact.data
          // A payment after the hold lapsed turns a Failed order into a Completed one.
          const by = {
            ...(d.afterExpiry ? { failed: -1 } : { pending: -1 }),
            completed: 1,
            ticketsSold: d.quantity,
            revenuePaise: d.amountPaise,
          }
          move(d.ticketTypeId, by)
          moveEvent(d.eventId, { ...by, attendees: attendees(d.eventId, d.ownerId, d.quantity) })
          sold(orderOf(d.orderId).organizerId, d.quantity, d.amountPaise)
          addToHour.run({
            eventId: d.eventId,
            hour: hourOf(fact.at),
            tickets: d.quantity,
            revenuePaise: d.amountPaise,
          })
        },
        PaymentFailed: unpaid,
        HoldExpired: unpaid,
        TicketCancelled(fact) {
          const order = orderOf(fact.data.orderId)
          const by = { completed: -1, ticketsSold: -order.quantity, revenuePaise: -order.amountPaise }
          move(order.ticketTypeId, by)
          moveEvent(order.eventId, {
            ...by,
            attendees: attendees(order.eventId, fact.data.ownerId, -order.quantity),
          })
          sold(order.organizerId, -order.quantity, -order.amountPaise)
          addToHour.run({
            eventId: order.eventId,
            hour: hourOf(fact.at),
            tickets: -order.quantity,
            revenuePaise: -order.amountPaise,
          })
        },
        PaymentCaptured: ignore,
        TicketTransferred(fact) {
          const { eventId, quantity } = orderOf(fact.data.orderId)
          const moved =
            attendees(eventId, fact.data.fromId, -quantity) + attendees(eventId, fact.data.toId, quantity)
          if (moved !== 0) moveEvent(eventId, { attendees: moved })
        },
        RefundRequested: ignore,
        PaymentRefunded: ignore,
        // admissions at the door are the check-in area's figures
        PassAdmitted: ignore,
        PassScanRefused: ignore,
      }
    },
  })
