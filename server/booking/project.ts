import { eq, getTableColumns, sql } from 'drizzle-orm'
import type { Db } from '../db/connection.ts'
import {
  heldByClientTable as heldByClient,
  inventoryTable as inventory,
  ordersTable as orders,
} from '../db/sqlite-read-models.ts'
import { type HandlersOf, projection, type Replaying } from '../ledger/ledger.ts'
import { replayRows } from '../ledger/replay-rows.ts'
import type { BookingFact } from './facts.ts'
import { cancelledBy } from './tables.ts'

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
function replaySeats(db: Db, held: ReturnType<typeof replayRows>): Seats {
  const sqlite = db.$client
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
      const row = inventoryRows.ensure(
        ticketTypeId,
        () => read.inventory.get(ticketTypeId),
        () => ({ ticketTypeId, eventId, held: 0, sold: 0 }),
      )
      row.held += seatsHeld
      row.sold += sold
    },
    adjustClient(clientKey, eventId, seats) {
      if (!clientKey) return
      const row = clientRows.ensure(
        `${clientKey} ${eventId}`,
        () => read.client.get(clientKey, eventId),
        () => ({ clientKey, eventId, seats: 0 }),
      )
      row.seats += seats
    },
  }
}

type OrderRow = typeof orders.$inferSelect
/** what a released or issued order's counts need of it */
type OrderSeats = Pick<OrderRow, 'ticketTypeId' | 'eventId' | 'quantity' | 'clientKey'>

/**
 * The orders: a statement per change as sales happen, or rows held in memory during a rebuild's
 * replay (an order's hold, payment and ticket were an insert, two updates and two reads; now one
 * write).
 */
type Orders = {
  add(row: OrderRow): void
  seatsOf(id: string): OrderSeats | undefined
  setStatus(
    id: string,
    status: OrderRow['status'],
    paymentStatus: OrderRow['paymentStatus'],
    at: string,
  ): void
  issue(id: string, ownerId: string, at: string): void
  pay(id: string, paymentId: string, at: string): void
  own(id: string, ownerId: string, at: string): void
  /** the ticket ended: by its holder or with its event */
  cancel(id: string, by: NonNullable<OrderRow['cancelledBy']>, at: string): void
  /** a refund asked for (its paise added to those asked) or paid out (added to those paid, at `at`) */
  refund(id: string, refund: NonNullable<OrderRow['refund']>, paise: number, at: string): void
}

function tableOrders(db: Db): Orders {
  const insertOrder = db.insert(orders).values(orderValues).prepare()
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
  const setCancelled = db
    .update(orders)
    .set({
      status: 'cancelled',
      paymentStatus: 'Cancelled',
      cancelledAt: sql`${p('at')}`,
      cancelledBy: sql`${p('by')}`,
      updatedAt: sql`${p('at')}`,
    })
    .where(eq(orders.id, p('id')))
    .prepare()
  const setRefundRequested = db
    .update(orders)
    .set({
      refund: 'requested',
      refundRequestedPaise: sql`${orders.refundRequestedPaise} + ${p('paise')}`,
      updatedAt: sql`${p('at')}`,
    })
    .where(eq(orders.id, p('id')))
    .prepare()
  const setRefunded = db
    .update(orders)
    .set({
      refund: 'refunded',
      refundedPaise: sql`${orders.refundedPaise} + ${p('paise')}`,
      refundedAt: sql`${p('at')}`,
      updatedAt: sql`${p('at')}`,
    })
    .where(eq(orders.id, p('id')))
    .prepare()
  return {
    add: (row) => insertOrder.run(row),
    seatsOf: (id) => orderOf.get({ id }),
    setStatus: (id, status, paymentStatus, at) => setStatus.run({ status, paymentStatus, at, id }),
    issue: (id, ownerId, at) => setIssued.run({ ownerId, at, id }),
    pay: (id, paymentId, at) => setPayment.run({ paymentId, at, id }),
    own: (id, ownerId, at) => setOwner.run({ ownerId, at, id }),
    cancel: (id, by, at) => setCancelled.run({ by, at, id }),
    refund: (id, refund, paise, at) =>
      (refund === 'requested' ? setRefundRequested : setRefunded).run({ paise, at, id }),
  }
}

/** every column of an order, bound by name from its row */
const orderValues = Object.fromEntries(
  Object.keys(getTableColumns(orders)).map((key) => [key, p(key)]),
) as unknown as OrderRow

const HELD_ORDERS = Symbol("orders held by booking's replay")

/**
 * An order as booking's replay has it (held in memory, else stored), for the projections after
 * booking that read orders during a replay; none outside one.
 */
export const heldOrders = (replaying?: Replaying) =>
  replaying?.get(HELD_ORDERS) as ((id: string) => OrderRow | undefined) | undefined

/** The orders of a rebuild's replay, in memory (replay-rows.ts): each written once. */
function replayOrders(db: Db, held: ReturnType<typeof replayRows>, replaying: Replaying): Orders {
  const sqlite = db.$client
  const columns = Object.entries(getTableColumns(orders)).map(([key, column]) => [key, column.name])
  const read = sqlite.prepare<[string], OrderRow>(
    `SELECT ${columns.map(([key, name]) => `"${name}" AS "${key}"`).join(', ')} FROM orders WHERE id = ?`,
  )
  const rows = held.tableByColumns<OrderRow>(
    sqlite.prepare<[unknown[]]>(
      `INSERT INTO orders (${columns.map(([, name]) => `"${name}"`).join(', ')})
       VALUES (${columns.map(() => '?').join(', ')})
       ON CONFLICT (id) DO UPDATE SET ${columns.map(([, name]) => `"${name}" = excluded."${name}"`).join(', ')}`,
    ),
    columns.map(([key]) => key as keyof OrderRow),
  )
  const find = (id: string) => rows.find(id, () => read.get(id)) ?? undefined
  const order = (id: string) => {
    const row = find(id)
    if (!row) throw new Error(`order ${id} is missing from the read model`)
    return row
  }
  replaying.set(HELD_ORDERS, find)
  return {
    add: (row) =>
      rows.ensure(
        row.id,
        () => undefined,
        () => row,
      ),
    seatsOf: find,
    setStatus(id, status, paymentStatus, at) {
      Object.assign(order(id), { status, paymentStatus, updatedAt: at })
    },
    issue(id, ownerId, at) {
      Object.assign(order(id), {
        status: 'issued',
        paymentStatus: 'Completed',
        ownerId,
        issuedAt: at,
        updatedAt: at,
      })
    },
    pay(id, paymentId, at) {
      Object.assign(order(id), { paymentId, updatedAt: at })
    },
    own(id, ownerId, at) {
      Object.assign(order(id), { ownerId, updatedAt: at })
    },
    cancel(id, by, at) {
      Object.assign(order(id), {
        status: 'cancelled',
        paymentStatus: 'Cancelled',
        cancelledAt: at,
        cancelledBy: by,
        updatedAt: at,
      })
    },
    refund(id, refund, paise, at) {
      const row = order(id)
      if (refund === 'requested')
        Object.assign(row, { refund, refundRequestedPaise: row.refundRequestedPaise + paise })
      else Object.assign(row, { refund, refundedPaise: row.refundedPaise + paise, refundedAt: at })
      row.updatedAt = at
    },
  }
}

function handlersOver(seats: Seats, orders: Orders): HandlersOf<BookingFact> {
  const adjust = (a: { ticketTypeId: string; eventId: string; held: number; sold: number }) =>
    seats.adjust(a.ticketTypeId, a.eventId, a.held, a.sold)
  const clientHolds = seats.adjustClient

  /** An order that stopped waiting for its payment gives its held seats back. */
  const released = (orderId: string, status: 'failed' | 'expired', at: string) => {
    const order = orders.seatsOf(orderId)
    if (!order) throw new Error(`order ${orderId} is missing from the read model`)
    const { ticketTypeId, eventId, quantity, clientKey } = order
    orders.setStatus(orderId, status, 'Failed', at)
    adjust({ ticketTypeId, eventId, held: -quantity, sold: 0 })
    clientHolds(clientKey, eventId, -quantity)
  }

  return {
    TicketsHeld(fact) {
      const d = fact.data
      orders.add({
        id: d.orderId,
        eventId: d.eventId,
        organizerId: d.organizerId,
        ticketTypeId: d.ticketTypeId,
        ticketType: d.ticketType,
        buyerId: d.buyerId,
        ownerId: null,
        quantity: d.quantity,
        unitPricePaise: d.unitPricePaise,
        amountPaise: d.amountPaise,
        provider: d.provider,
        providerOrderId: d.providerOrderId,
        status: 'held',
        paymentStatus: 'Pending',
        paymentId: null,
        heldUntil: d.heldUntil,
        clientKey: d.clientKey ?? null,
        promoCode: d.promoCode ?? null,
        discountPaise: d.discountPaise ?? 0,
        refund: null,
        cancelledAt: null,
        cancelledBy: null,
        refundRequestedPaise: 0,
        refundedPaise: 0,
        refundedAt: null,
        issuedAt: null,
        createdAt: fact.at,
        updatedAt: fact.at,
      })
      adjust({ ticketTypeId: d.ticketTypeId, eventId: d.eventId, held: d.quantity, sold: 0 })
      clientHolds(d.clientKey, d.eventId, d.quantity)
    },
    PaymentCaptured(fact) {
      orders.pay(fact.data.orderId, fact.data.paymentId, fact.at)
    },
    TicketsIssued(fact) {
      const d = fact.data
      // read before the change: a replay's held row is the one changed
      const clientKey = d.afterExpiry ? null : orders.seatsOf(d.orderId)?.clientKey
      orders.issue(d.orderId, d.ownerId, fact.at)
      // a live hold stops being unpaid (a lapsed one was counted off when it was released)
      if (!d.afterExpiry) clientHolds(clientKey, d.eventId, -d.quantity)
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
      orders.cancel(d.orderId, cancelledBy(d), fact.at)
      adjust({ ticketTypeId: d.ticketTypeId, eventId: d.eventId, held: 0, sold: -d.quantity })
    },
    TicketTransferred(fact) {
      orders.own(fact.data.orderId, fact.data.toId, fact.at)
    },
    RefundRequested(fact) {
      orders.refund(fact.data.orderId, 'requested', fact.data.amountPaise, fact.at)
    },
    PaymentRefunded(fact) {
      orders.refund(fact.data.orderId, 'refunded', fact.data.amountPaise, fact.at)
    },
    // the door's facts change no order: the check-in area keeps the passes (checkin/project.ts)
    PassAdmitted() {},
    PassScanRefused() {},
  }
}

export const bookingProjection = projection<BookingFact>({
  name: 'booking',
  tables: [orders, inventory, heldByClient],
  handlers: (db) => handlersOver(tableSeats(db), tableOrders(db)),
  replay(db, rowsHeld, replaying) {
    const held = replayRows(rowsHeld)
    const seats = replaySeats(db, held)
    const orders = replayOrders(db, held, replaying)
    return { handlers: handlersOver(seats, orders), flush: held.flush }
  },
})
