// Folds booking's facts into sales figures (this area's own read model).
import { eq, sql } from 'drizzle-orm'
import type { BookingFact } from '../booking/facts.ts'
import type { Db } from '../db/connection.ts'
import { projection, type StoredFact } from '../ledger/ledger.ts'
import { type SalesStatus, salesByHour, salesByTicketType, salesOrders } from './tables.ts'

type Counts = {
  pending?: number
  completed?: number
  failed?: number
  ticketsSold?: number
  revenue?: number
}

const bump = (db: Db, ticketTypeId: string, by: Counts) => {
  const t = salesByTicketType
  db.update(t)
    .set({
      pending: sql`${t.pending} + ${by.pending ?? 0}`,
      completed: sql`${t.completed} + ${by.completed ?? 0}`,
      failed: sql`${t.failed} + ${by.failed ?? 0}`,
      ticketsSold: sql`${t.ticketsSold} + ${by.ticketsSold ?? 0}`,
      revenue: sql`${t.revenue} + ${by.revenue ?? 0}`,
    })
    .where(eq(t.ticketTypeId, ticketTypeId))
    .run()
}

const hourOf = (at: string) => `${at.slice(0, 13)}:00:00.000Z`

const addToHour = (db: Db, eventId: string, at: string, tickets: number, revenue: number) => {
  db.insert(salesByHour)
    .values({ eventId, hour: hourOf(at), tickets, revenue })
    .onConflictDoUpdate({
      target: [salesByHour.eventId, salesByHour.hour],
      set: {
        tickets: sql`${salesByHour.tickets} + ${tickets}`,
        revenue: sql`${salesByHour.revenue} + ${revenue}`,
      },
    })
    .run()
}

const orderOf = (db: Db, orderId: string) =>
  db.select().from(salesOrders).where(eq(salesOrders.orderId, orderId)).get()

const setStatus = (db: Db, orderId: string, status: SalesStatus) =>
  db.update(salesOrders).set({ status }).where(eq(salesOrders.orderId, orderId)).run()

/** An order that stopped waiting for its payment. */
const unpaid = (fact: StoredFact<{ type: string; data: { orderId: string } }>, db: Db) => {
  const order = orderOf(db, fact.data.orderId)
  if (!order || order.status !== 'Pending') return
  bump(db, order.ticketTypeId, { pending: -1, failed: 1 })
  setStatus(db, order.orderId, 'Failed')
}

const ignore = () => {}

export const analyticsProjection = projection<BookingFact>({
  name: 'analytics',
  tables: [salesOrders, salesByTicketType, salesByHour],
  handlers: {
    TicketsHeld(fact, db) {
      const d = fact.data
      db.insert(salesOrders)
        .values({
          orderId: d.orderId,
          eventId: d.eventId,
          ticketTypeId: d.ticketTypeId,
          ticketType: d.ticketType,
          quantity: d.quantity,
          amount: d.amount,
          status: 'Pending',
        })
        .run()
      db.insert(salesByTicketType)
        .values({
          ticketTypeId: d.ticketTypeId,
          eventId: d.eventId,
          ticketType: d.ticketType,
          pending: 0,
          completed: 0,
          failed: 0,
          ticketsSold: 0,
          revenue: 0,
        })
        .onConflictDoNothing()
        .run()
      bump(db, d.ticketTypeId, { pending: 1 })
    },
    TicketsIssued(fact, db) {
      const order = orderOf(db, fact.data.orderId)
      if (!order) return
      const from: Counts = order.status === 'Failed' ? { failed: -1 } : { pending: -1 }
      bump(db, order.ticketTypeId, {
        ...from,
        completed: 1,
        ticketsSold: order.quantity,
        revenue: order.amount,
      })
      addToHour(db, order.eventId, fact.at, order.quantity, order.amount)
      setStatus(db, order.orderId, 'Completed')
    },
    PaymentFailed: unpaid,
    HoldExpired: unpaid,
    TicketCancelled(fact, db) {
      const order = orderOf(db, fact.data.orderId)
      if (!order || order.status !== 'Completed') return
      bump(db, order.ticketTypeId, { completed: -1, ticketsSold: -order.quantity, revenue: -order.amount })
      addToHour(db, order.eventId, fact.at, -order.quantity, -order.amount)
      setStatus(db, order.orderId, 'Cancelled')
    },
    PaymentCaptured: ignore,
    TicketTransferred: ignore,
    RefundRequested: ignore,
    PaymentRefunded: ignore,
  },
})
