import { eq, sql } from 'drizzle-orm'
import { projection } from '../ledger/ledger.ts'
import type { BookingFact } from './facts.ts'
import { heldByClient, inventory, orders } from './tables.ts'

const p = sql.placeholder

export const bookingProjection = projection<BookingFact>({
  name: 'booking',
  tables: [orders, inventory, heldByClient],
  handlers(db) {
    const insertOrder = db
      .insert(orders)
      .values({
        id: p('id'),
        eventId: p('eventId'),
        organizerId: p('organizerId'),
        ticketTypeId: p('ticketTypeId'),
        ticketType: p('ticketType'),
        buyerId: p('buyerId'),
        ownerId: null,
        quantity: p('quantity'),
        unitPricePaise: p('unitPricePaise'),
        amountPaise: p('amountPaise'),
        provider: p('provider'),
        providerOrderId: p('providerOrderId'),
        status: 'held',
        paymentStatus: 'Pending',
        heldUntil: p('heldUntil'),
        clientKey: p('clientKey'),
        promoCode: p('promoCode'),
        discountPaise: p('discountPaise'),
        createdAt: p('at'),
        updatedAt: p('at'),
      })
      .prepare()
    const orderOf = db
      .select({
        ticketTypeId: orders.ticketTypeId,
        eventId: orders.eventId,
        quantity: orders.quantity,
        clientKey: orders.clientKey,
      })
      .from(orders)
      .where(eq(orders.id, p('id')))
      .prepare()
    const adjust = db
      .insert(inventory)
      .values({ ticketTypeId: p('ticketTypeId'), eventId: p('eventId'), held: p('held'), sold: p('sold') })
      .onConflictDoUpdate({
        target: inventory.ticketTypeId,
        set: { held: sql`${inventory.held} + ${p('held')}`, sold: sql`${inventory.sold} + ${p('sold')}` },
      })
      .prepare()
    const adjustClient = db
      .insert(heldByClient)
      .values({ clientKey: p('clientKey'), eventId: p('eventId'), seats: p('seats') })
      .onConflictDoUpdate({
        target: [heldByClient.clientKey, heldByClient.eventId],
        set: { seats: sql`${heldByClient.seats} + ${p('seats')}` },
      })
      .prepare()
    /** Seats a client address holds unpaid for an event go up or down (holds without a key: none). */
    const clientHolds = (clientKey: string | null | undefined, eventId: string, seats: number) => {
      if (clientKey) adjustClient.run({ clientKey, eventId, seats })
    }

    const setStatus = db
      .update(orders)
      .set({
        status: sql`${p('status')}`,
        paymentStatus: sql`${p('paymentStatus')}`,
        updatedAt: sql`${p('at')}`,
      })
      .where(eq(orders.id, p('id')))
      .prepare()
    const setIssued = db
      .update(orders)
      .set({
        status: 'issued',
        paymentStatus: 'Completed',
        ownerId: sql`${p('ownerId')}`,
        issuedAt: sql`${p('at')}`,
        updatedAt: sql`${p('at')}`,
      })
      .where(eq(orders.id, p('id')))
      .prepare()
    const setPayment = db
      .update(orders)
      .set({ paymentId: sql`${p('paymentId')}`, updatedAt: sql`${p('at')}` })
      .where(eq(orders.id, p('id')))
      .prepare()
    const setOwner = db
      .update(orders)
      .set({ ownerId: sql`${p('ownerId')}`, updatedAt: sql`${p('at')}` })
      .where(eq(orders.id, p('id')))
      .prepare()
    const setRefund = db
      .update(orders)
      .set({ refund: sql`${p('refund')}`, updatedAt: sql`${p('at')}` })
      .where(eq(orders.id, p('id')))
      .prepare()

    /** An order that stopped waiting for its payment gives its held seats back. */
    const released = (orderId: string, status: 'failed' | 'expired', at: string) => {
      const order = orderOf.get({ id: orderId })
      if (!order) throw new Error(`order ${orderId} is missing from the read model`)
      setStatus.run({ status, paymentStatus: 'Failed', at, id: orderId })
      adjust.run({ ticketTypeId: order.ticketTypeId, eventId: order.eventId, held: -order.quantity, sold: 0 })
      clientHolds(order.clientKey, order.eventId, -order.quantity)
    }

    return {
      TicketsHeld(fact) {
        const d = fact.data
        insertOrder.run({
          id: d.orderId,
          eventId: d.eventId,
          organizerId: d.organizerId,
          ticketTypeId: d.ticketTypeId,
          ticketType: d.ticketType,
          buyerId: d.buyerId,
          quantity: d.quantity,
          unitPricePaise: d.unitPricePaise,
          amountPaise: d.amountPaise,
          provider: d.provider,
          providerOrderId: d.providerOrderId,
          heldUntil: d.heldUntil,
          clientKey: d.clientKey ?? null,
          promoCode: d.promoCode ?? null,
          discountPaise: d.discountPaise ?? 0,
          at: fact.at,
        })
        adjust.run({ ticketTypeId: d.ticketTypeId, eventId: d.eventId, held: d.quantity, sold: 0 })
        clientHolds(d.clientKey, d.eventId, d.quantity)
      },
      PaymentCaptured(fact) {
        setPayment.run({ paymentId: fact.data.paymentId, at: fact.at, id: fact.data.orderId })
      },
      TicketsIssued(fact) {
        const d = fact.data
        setIssued.run({ ownerId: d.ownerId, at: fact.at, id: d.orderId })
        // a live hold stops being unpaid (a lapsed one was counted off when it was released)
        if (!d.afterExpiry) {
          const order = orderOf.get({ id: d.orderId })
          clientHolds(order?.clientKey, d.eventId, -d.quantity)
        }
        // A lapsed hold gave its seats back already; a live one turns into a sale.
        adjust.run({
          ticketTypeId: d.ticketTypeId,
          eventId: d.eventId,
          held: d.afterExpiry ? 0 : -d.quantity,
          sold: d.quantity,
        })
      },
      PaymentFailed(fact) {
        released(fact.data.orderId, 'failed', fact.at)
      },
      HoldExpired(fact) {
        released(fact.data.orderId, 'expired', fact.at)
      },
      TicketCancelled(fact) {
        const d = fact.data
        setStatus.run({ status: 'cancelled', paymentStatus: 'Cancelled', at: fact.at, id: d.orderId })
        adjust.run({ ticketTypeId: d.ticketTypeId, eventId: d.eventId, held: 0, sold: -d.quantity })
      },
      TicketTransferred(fact) {
        setOwner.run({ ownerId: fact.data.toId, at: fact.at, id: fact.data.orderId })
      },
      RefundRequested(fact) {
        setRefund.run({ refund: 'requested', at: fact.at, id: fact.data.orderId })
      },
      PaymentRefunded(fact) {
        setRefund.run({ refund: 'refunded', at: fact.at, id: fact.data.orderId })
      },
      // the door's facts change no order: the check-in area keeps the passes (checkin/project.ts)
      PassAdmitted() {},
      PassScanRefused() {},
    }
  },
})
