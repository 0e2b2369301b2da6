import { eq, sql } from 'drizzle-orm'
import type { Db } from '../db/connection.ts'
import { projection } from '../ledger/ledger.ts'
import type { BookingFact } from './facts.ts'
import { inventory, orders } from './tables.ts'

const orderOf = (db: Db, orderId: string) => {
  const row = db.select().from(orders).where(eq(orders.id, orderId)).get()
  if (!row) throw new Error(`order ${orderId} is missing from the read model`)
  return row
}

const adjust = (db: Db, ticketTypeId: string, eventId: string, held: number, sold: number) => {
  db.insert(inventory)
    .values({ ticketTypeId, eventId, held, sold })
    .onConflictDoUpdate({
      target: inventory.ticketTypeId,
      set: { held: sql`${inventory.held} + ${held}`, sold: sql`${inventory.sold} + ${sold}` },
    })
    .run()
}

export const bookingProjection = projection<BookingFact>({
  name: 'booking',
  tables: [orders, inventory],
  handlers: {
    TicketsHeld(fact, db) {
      const d = fact.data
      db.insert(orders)
        .values({
          id: d.orderId,
          eventId: d.eventId,
          organizerId: d.organizerId,
          ticketTypeId: d.ticketTypeId,
          ticketType: d.ticketType,
          buyerId: d.buyerId,
          ownerId: null,
          quantity: d.quantity,
          unitPrice: d.unitPrice,
          amount: d.amount,
          provider: d.provider,
          providerOrderId: d.providerOrderId,
          status: 'held',
          paymentStatus: 'Pending',
          heldUntil: d.heldUntil,
          createdAt: fact.at,
          updatedAt: fact.at,
        })
        .run()
      adjust(db, d.ticketTypeId, d.eventId, d.quantity, 0)
    },
    PaymentCaptured(fact, db) {
      db.update(orders)
        .set({ paymentId: fact.data.paymentId, updatedAt: fact.at })
        .where(eq(orders.id, fact.data.orderId))
        .run()
    },
    TicketsIssued(fact, db) {
      const d = fact.data
      db.update(orders)
        .set({
          status: 'issued',
          paymentStatus: 'Completed',
          ownerId: d.ownerId,
          issuedAt: fact.at,
          updatedAt: fact.at,
        })
        .where(eq(orders.id, d.orderId))
        .run()
      // A lapsed hold gave its seats back already; a live one turns into a sale.
      adjust(db, d.ticketTypeId, d.eventId, d.afterExpiry ? 0 : -d.quantity, d.quantity)
    },
    PaymentFailed(fact, db) {
      const order = orderOf(db, fact.data.orderId)
      db.update(orders)
        .set({ status: 'failed', paymentStatus: 'Failed', updatedAt: fact.at })
        .where(eq(orders.id, order.id))
        .run()
      adjust(db, order.ticketTypeId, order.eventId, -order.quantity, 0)
    },
    HoldExpired(fact, db) {
      const order = orderOf(db, fact.data.orderId)
      db.update(orders)
        .set({ status: 'expired', paymentStatus: 'Failed', updatedAt: fact.at })
        .where(eq(orders.id, order.id))
        .run()
      adjust(db, order.ticketTypeId, order.eventId, -order.quantity, 0)
    },
    TicketCancelled(fact, db) {
      const d = fact.data
      db.update(orders)
        .set({ status: 'cancelled', paymentStatus: 'Cancelled', updatedAt: fact.at })
        .where(eq(orders.id, d.orderId))
        .run()
      adjust(db, d.ticketTypeId, d.eventId, 0, -d.quantity)
    },
    TicketTransferred(fact, db) {
      db.update(orders)
        .set({ ownerId: fact.data.toId, updatedAt: fact.at })
        .where(eq(orders.id, fact.data.orderId))
        .run()
    },
    RefundRequested(fact, db) {
      db.update(orders)
        .set({ refund: 'requested', updatedAt: fact.at })
        .where(eq(orders.id, fact.data.orderId))
        .run()
    },
    PaymentRefunded(fact, db) {
      db.update(orders)
        .set({ refund: 'refunded', updatedAt: fact.at })
        .where(eq(orders.id, fact.data.orderId))
        .run()
    },
  },
})
