// Folds booking's facts into sales figures (this area's own read model). What a fact does not
// carry (an order's ticket type and amount) is read through booking's queries (handed in by the
// composition root), whose read model the booking projection has already brought up to date for
// this fact: the projection declares it runs after booking's.
import { eq, sql } from 'drizzle-orm'
import type { BookingFact } from '../booking/facts.ts'
import type { BookingQueries } from '../booking/queries.ts'
import type { Db } from '../db/connection.ts'
import { projection } from '../ledger/ledger.ts'
import { salesByHour, salesByTicketType } from './tables.ts'

const p = sql.placeholder
const hourOf = (at: string) => `${at.slice(0, 13)}:00:00.000Z`
const ignore = () => {}

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

/** reads an order as booking's read model has it (booking's queries over the same connection) */
export type OrderReader = (db: Db) => Pick<BookingQueries, 'byId'>

export const analyticsProjection = (ordersOf: OrderReader) =>
  projection<BookingFact>({
    name: 'analytics',
    tables: [salesByTicketType, salesByHour],
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
      const orderOf = (orderId: string) => {
        const order = booking.byId(orderId)
        if (!order) throw new Error(`order ${orderId} is missing from the read model`)
        return order
      }
      // The order decider emits these only for a held order: it moves from Pending to Failed.
      const unpaid = (fact: { data: { orderId: string } }) =>
        move(orderOf(fact.data.orderId).ticketTypeId, { pending: -1, failed: 1 })

      return {
        TicketsHeld(fact) {
          const { ticketTypeId, eventId, ticketType } = fact.data
          open.run({ ticketTypeId, eventId, ticketType, ...counts({ pending: 1 }) })
        },
        TicketsIssued(fact) {
          const d = fact.data
          // A payment after the hold lapsed turns a Failed order into a Completed one.
          move(d.ticketTypeId, {
            ...(d.afterExpiry ? { failed: -1 } : { pending: -1 }),
            completed: 1,
            ticketsSold: d.quantity,
            revenuePaise: d.amountPaise,
          })
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
          move(order.ticketTypeId, {
            completed: -1,
            ticketsSold: -order.quantity,
            revenuePaise: -order.amountPaise,
          })
          addToHour.run({
            eventId: order.eventId,
            hour: hourOf(fact.at),
            tickets: -order.quantity,
            revenuePaise: -order.amountPaise,
          })
        },
        PaymentCaptured: ignore,
        TicketTransferred: ignore,
        RefundRequested: ignore,
        PaymentRefunded: ignore,
      }
    },
  })
