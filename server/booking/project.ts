import { eq, sql } from 'drizzle-orm'
import type { Db } from '../db/connection.ts'
import { type HandlersOf, projection } from '../ledger/ledger.ts'
import { replayRows } from '../ledger/replay-rows.ts'
import type { BookingFact } from './facts.ts'
import { heldByClient, inventory, orders } from './tables.ts'

const p = sql.placeholder

/**
 * Seats held and sold per ticket type, and unpaid seats per client address and event: moved by a
 * statement each as sales happen, or added up in memory during a rebuild's replay.
 */
type Seats = {
  adjust(ticketTypeId: string, eventId: string, held: number, sold: number): void
  /** seats a client address holds unpaid for an event go up or down (holds without a key: none) */
  adjustClient(clientKey: string | null | undefined, eventId: string, seats: number): void
}

function tableSeats(db: Db): Seats {
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
  return {
    adjust: (ticketTypeId, eventId, held, sold) => adjust.run({ ticketTypeId, eventId, held, sold }),
    adjustClient(clientKey, eventId, seats) {
      if (clientKey) adjustClient.run({ clientKey, eventId, seats })
    },
  }
}

type InventoryRow = { ticketTypeId: string; eventId: string; held: number; sold: number }
type ClientRow = { clientKey: string; eventId: string; seats: number }

/** The seats of a rebuild's replay, in memory (replay-rows.ts): each row written once. */
function replaySeats(db: Db, rowsHeld: number): Seats & { flush(): void } {
  const sqlite = db.$client
  const held = replayRows(rowsHeld)
  const read = {
    inventory: sqlite.prepare<[string], InventoryRow>(
      `SELECT ticket_type_id AS ticketTypeId, event_id AS eventId, held, sold FROM inventory
       WHERE ticket_type_id = ?`,
    ),
    client: sqlite.prepare<[string, string], ClientRow>(
      `SELECT client_key AS clientKey, event_id AS eventId, seats FROM held_by_client
       WHERE client_key = ? AND event_id = ?`,
    ),
  }
  const inventoryRows = held.table(
    sqlite.prepare<[InventoryRow]>(
      `INSERT INTO inventory (ticket_type_id, event_id, held, sold) VALUES (@ticketTypeId, @eventId, @held, @sold)
       ON CONFLICT (ticket_type_id) DO UPDATE SET held = excluded.held, sold = excluded.sold`,
    ),
  )
  const clientRows = held.table(
    sqlite.prepare<[ClientRow]>(
      `INSERT INTO held_by_client (client_key, event_id, seats) VALUES (@clientKey, @eventId, @seats)
       ON CONFLICT (client_key, event_id) DO UPDATE SET seats = excluded.seats`,
    ),
  )
  return {
    adjust(ticketTypeId, eventId, seatsHeld, sold) {
      const made = () => ({ ticketTypeId, eventId, held: 0, sold: 0 })
      const row = inventoryRows.ensure(ticketTypeId, () => read.inventory.get(ticketTypeId), made)
      row.held += seatsHeld
      row.sold += sold
    },
    adjustClient(clientKey, eventId, seats) {
      if (!clientKey) return
      const made = () => ({ clientKey, eventId, seats: 0 })
      const row = clientRows.ensure(
        `${clientKey} ${eventId}`,
        () => read.client.get(clientKey, eventId),
        made,
      )
      row.seats += seats
    },
    flush: held.flush,
  }
}

function handlersOver(db: Db, seats: Seats): HandlersOf<BookingFact> {
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
  const adjust = (a: { ticketTypeId: string; eventId: string; held: number; sold: number }) =>
    seats.adjust(a.ticketTypeId, a.eventId, a.held, a.sold)
  const clientHolds = seats.adjustClient

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
    adjust({ ticketTypeId: order.ticketTypeId, eventId: order.eventId, held: -order.quantity, sold: 0 })
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
      adjust({ ticketTypeId: d.ticketTypeId, eventId: d.eventId, held: d.quantity, sold: 0 })
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
      adjust({
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
      adjust({ ticketTypeId: d.ticketTypeId, eventId: d.eventId, held: 0, sold: -d.quantity })
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
}

export const bookingProjection = projection<BookingFact>({
  name: 'booking',
  tables: [orders, inventory, heldByClient],
  handlers: (db) => handlersOver(db, tableSeats(db)),
  replay(db, rowsHeld) {
    const seats = replaySeats(db, rowsHeld)
    return { handlers: handlersOver(db, seats), flush: seats.flush }
  },
})
