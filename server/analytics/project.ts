// Folds booking's facts into sales figures (this area's own read model). What a fact does not
// carry (an order's ticket type and amount) is read through booking's queries, whose read model
// the booking projection has already brought up to date for this fact.
import { sql } from 'drizzle-orm'
import type { BookingFact } from '../booking/facts.ts'
import { bookingQueries } from '../booking/queries.ts'
import { projection } from '../ledger/ledger.ts'
import { salesByHour, salesByTicketType } from './tables.ts'

const p = sql.placeholder
const hourOf = (at: string) => `${at.slice(0, 13)}:00:00.000Z`
const ignore = () => {}

export const analyticsProjection = projection<BookingFact>({
  name: 'analytics',
  tables: [salesByTicketType, salesByHour],
  handlers(db) {
    const booking = bookingQueries(db)
    const t = salesByTicketType
    // One statement moves every count of a ticket type (creating its row on first use).
    const bump = db
      .insert(t)
      .values({
        ticketTypeId: p('ticketTypeId'),
        eventId: p('eventId'),
        ticketType: p('ticketType'),
        pending: p('pending'),
        completed: p('completed'),
        failed: p('failed'),
        ticketsSold: p('ticketsSold'),
        revenue: p('revenue'),
      })
      .onConflictDoUpdate({
        target: t.ticketTypeId,
        set: {
          pending: sql`${t.pending} + ${p('pending')}`,
          completed: sql`${t.completed} + ${p('completed')}`,
          failed: sql`${t.failed} + ${p('failed')}`,
          ticketsSold: sql`${t.ticketsSold} + ${p('ticketsSold')}`,
          revenue: sql`${t.revenue} + ${p('revenue')}`,
        },
      })
      .prepare()
    const addToHour = db
      .insert(salesByHour)
      .values({ eventId: p('eventId'), hour: p('hour'), tickets: p('tickets'), revenue: p('revenue') })
      .onConflictDoUpdate({
        target: [salesByHour.eventId, salesByHour.hour],
        set: {
          tickets: sql`${salesByHour.tickets} + ${p('tickets')}`,
          revenue: sql`${salesByHour.revenue} + ${p('revenue')}`,
        },
      })
      .prepare()

    type Move = {
      pending?: number
      completed?: number
      failed?: number
      ticketsSold?: number
      revenue?: number
    }
    const move = (order: { ticketTypeId: string; eventId: string; ticketType: string }, by: Move) =>
      bump.run({
        ticketTypeId: order.ticketTypeId,
        eventId: order.eventId,
        ticketType: order.ticketType,
        pending: by.pending ?? 0,
        completed: by.completed ?? 0,
        failed: by.failed ?? 0,
        ticketsSold: by.ticketsSold ?? 0,
        revenue: by.revenue ?? 0,
      })
    const orderOf = (orderId: string) => {
      const order = booking.byId(orderId)
      if (!order) throw new Error(`order ${orderId} is missing from the read model`)
      return order
    }
    // The order decider emits these only for a held order: it moves from Pending to Failed.
    const unpaid = (fact: { data: { orderId: string } }) =>
      move(orderOf(fact.data.orderId), { pending: -1, failed: 1 })

    return {
      TicketsHeld(fact) {
        move(fact.data, { pending: 1 })
      },
      TicketsIssued(fact) {
        const d = fact.data
        const order = orderOf(d.orderId)
        // A payment after the hold lapsed turns a Failed order into a Completed one.
        move(order, {
          ...(d.afterExpiry ? { failed: -1 } : { pending: -1 }),
          completed: 1,
          ticketsSold: d.quantity,
          revenue: d.amount,
        })
        addToHour.run({ eventId: d.eventId, hour: hourOf(fact.at), tickets: d.quantity, revenue: d.amount })
      },
      PaymentFailed: unpaid,
      HoldExpired: unpaid,
      TicketCancelled(fact) {
        const order = orderOf(fact.data.orderId)
        move(order, { completed: -1, ticketsSold: -order.quantity, revenue: -order.amount })
        addToHour.run({
          eventId: order.eventId,
          hour: hourOf(fact.at),
          tickets: -order.quantity,
          revenue: -order.amount,
        })
      },
      PaymentCaptured: ignore,
      TicketTransferred: ignore,
      RefundRequested: ignore,
      PaymentRefunded: ignore,
    }
  },
})
