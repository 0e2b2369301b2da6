// Booking's projection, on either store: orders, seats held and sold per ticket type, and unpaid
// seats per client address and event. A sale's fact moves several rows; the statements that move
// them run in turn on SQLite and as one statement on PostgreSQL (writesOf: data-modifying CTEs), so
// a hold is one round trip there under the append lock. SQLite's rebuild replay keeps its own fast
// path: rows held in memory, each written once, and the orders lent to the projections after it.
import { getTableColumns, type Placeholder, type SQL, sql } from 'drizzle-orm'
import { orderMoney } from '../billing/tax.ts'
import { answered, type DialectKit, type Params, type Sql, statement } from '../db/sql.ts'
import type { Awaitable } from '../db/store.ts'
import type { Replaying } from '../ledger/ledger.ts'
import { type ReadHandlers, readProjection } from '../ledger/read-projection.ts'
import { type ReplayRows, replayRows } from '../ledger/replay-rows.ts'
import type { BookingFact, SeatsHeld } from './facts.ts'
import {
  cancelledBy,
  type HeldByClientRow,
  heldByClient,
  type InventoryRow,
  inventory,
  type OrderRow,
  orders,
} from './tables.ts'

type Part<P> = (p: Params<P>, d: DialectKit) => SQL
type Value = SQL | Placeholder

/**
 * Writes of one fact: each part a portable statement, run one after the other on SQLite, and on
 * PostgreSQL as one statement (every part but the last a data-modifying CTE), one round trip. On
 * PostgreSQL every part sees the rows as they were before the statement: a part may read a row
 * another changes only for columns that change do not.
 */
function writesOf<P extends object>(...parts: Part<P>[]): (x: Sql, params: P) => Awaitable<void> {
  const each = parts.map((part) => statement<P>(part))
  const last = parts.at(-1) as Part<P>
  const joined = statement<P>(
    (p, d) =>
      sql`WITH ${sql.join(
        parts.slice(0, -1).map((part, i) => sql`${sql.raw(`w${i}`)} AS (${part(p, d)})`),
        sql`, `,
      )} ${last(p, d)}`,
  )
  return (x, params) => {
    if (x.dialect === 'postgres' && parts.length > 1) return x.run(joined, params)
    for (const one of each) x.run(one, params)
  }
}

/** seats held and sold of a ticket type move (its row made on first use) */
const adjustSeats = (ticketTypeId: Value, eventId: Value, held: Value, sold: Value) =>
  sql`INSERT INTO inventory (ticket_type_id, event_id, held, sold) VALUES (${ticketTypeId}, ${eventId}, ${held}, ${sold})
    ON CONFLICT (ticket_type_id) DO UPDATE SET held = inventory.held + excluded.held, sold = inventory.sold + excluded.sold`
/** the upsert of a client address's unpaid seats, after its SELECT (holds without a key count none) */
const clientSeatsMoved = sql`ON CONFLICT (client_key, event_id) DO UPDATE SET seats = held_by_client.seats + excluded.seats`

/** a seated order's seats as the orders table keeps them (JSON text), null for general admission */
const seatsText = (seats: SeatsHeld | undefined) => (seats && seats.length > 0 ? JSON.stringify(seats) : null)

type Held = Omit<
  OrderRow,
  | 'id'
  | 'ownerId'
  | 'status'
  | 'paymentStatus'
  | 'paymentId'
  | 'refund'
  | 'cancelledAt'
  | 'cancelledBy'
  | 'refundRequestedPaise'
  | 'refundedPaise'
  | 'refundedAt'
  | 'issuedAt'
  | 'createdAt'
  | 'updatedAt'
> & { orderId: string; at: string }

// The hold: the order, its ticket type's seats, its address's unpaid seats. Its status is written
// into the SQL, as every status of the code is (db/constant.ts).
const hold = writesOf<Held>(
  (p) => sql`INSERT INTO orders (id, event_id, organizer_id, ticket_type_id, ticket_type, buyer_id, owner_id,
      quantity, unit_price_paise, amount_paise, provider, provider_order_id, status, payment_status, payment_id,
      held_until, client_key, promo_code, discount_paise, fee_paise, seats_held, refund, cancelled_at, cancelled_by,
      refund_requested_paise, refunded_paise, refunded_at, issued_at, created_at, updated_at)
    VALUES (${p.orderId}, ${p.eventId}, ${p.organizerId}, ${p.ticketTypeId}, ${p.ticketType}, ${p.buyerId}, NULL,
      ${p.quantity}, ${p.unitPricePaise}, ${p.amountPaise}, ${p.provider}, ${p.providerOrderId}, 'held', 'Pending',
      NULL, ${p.heldUntil}, ${p.clientKey}, ${p.promoCode}, ${p.discountPaise}, ${p.feePaise}, ${p.seatsHeld}, NULL, NULL, NULL, 0, 0, NULL, NULL,
      ${p.at}, ${p.at})`,
  (p) => adjustSeats(p.ticketTypeId, p.eventId, p.quantity, sql`0`),
  (p) => sql`INSERT INTO held_by_client (client_key, event_id, seats)
    SELECT CAST(${p.clientKey} AS text), CAST(${p.eventId} AS text), CAST(${p.quantity} AS integer)
    WHERE ${p.clientKey} <> '' ${clientSeatsMoved}`,
)

// A paid order: its ticket issued. A live hold stops being unpaid (its address's count goes down)
// and its seats turn from held to sold; a lapsed one gave its seats back when it was released.
const issue = writesOf<{
  orderId: string
  ownerId: string
  at: string
  eventId: string
  ticketTypeId: string
  quantity: number
  /** 1: the hold was live when paid, 0: it had lapsed */
  live: number
  held: number
}>(
  (p) => sql`UPDATE orders SET status = 'issued', payment_status = 'Completed', owner_id = ${p.ownerId},
      issued_at = ${p.at}, updated_at = ${p.at} WHERE id = ${p.orderId}`,
  (p) => sql`INSERT INTO held_by_client (client_key, event_id, seats)
    SELECT client_key, event_id, -quantity FROM orders WHERE id = ${p.orderId} AND ${p.live} = 1 AND client_key <> ''
    ${clientSeatsMoved}`,
  (p) => adjustSeats(p.ticketTypeId, p.eventId, p.held, p.quantity),
)

// An order that stopped waiting for its payment gives its held seats back.
const release = writesOf<{ orderId: string; status: 'failed' | 'expired'; at: string }>(
  (p) => sql`UPDATE orders SET status = ${p.status}, payment_status = 'Failed', updated_at = ${p.at}
    WHERE id = ${p.orderId}`,
  (p) => sql`INSERT INTO inventory (ticket_type_id, event_id, held, sold)
    SELECT ticket_type_id, event_id, -quantity, 0 FROM orders WHERE id = ${p.orderId}
    ON CONFLICT (ticket_type_id) DO UPDATE SET held = inventory.held + excluded.held, sold = inventory.sold + excluded.sold`,
  (p) => sql`INSERT INTO held_by_client (client_key, event_id, seats)
    SELECT client_key, event_id, -quantity FROM orders WHERE id = ${p.orderId} AND client_key <> ''
    ${clientSeatsMoved}`,
)

const cancel = writesOf<{
  orderId: string
  by: string
  at: string
  eventId: string
  ticketTypeId: string
  /** the seats sold less: -quantity */
  sold: number
}>(
  (p) => sql`UPDATE orders SET status = 'cancelled', payment_status = 'Cancelled', cancelled_at = ${p.at},
      cancelled_by = ${p.by}, updated_at = ${p.at} WHERE id = ${p.orderId}`,
  (p) => adjustSeats(p.ticketTypeId, p.eventId, sql`0`, p.sold),
)

const pay = statement<{ orderId: string; paymentId: string; at: string }>(
  (p) => sql`UPDATE orders SET payment_id = ${p.paymentId}, updated_at = ${p.at} WHERE id = ${p.orderId}`,
)
const own = statement<{ orderId: string; ownerId: string; at: string }>(
  (p) => sql`UPDATE orders SET owner_id = ${p.ownerId}, updated_at = ${p.at} WHERE id = ${p.orderId}`,
)
const refundRequested = statement<{ orderId: string; paise: number; at: string }>(
  (
    p,
  ) => sql`UPDATE orders SET refund = 'requested', refund_requested_paise = refund_requested_paise + ${p.paise},
      updated_at = ${p.at} WHERE id = ${p.orderId}`,
)
const refunded = statement<{ orderId: string; paise: number; at: string }>(
  (p) => sql`UPDATE orders SET refund = 'refunded', refunded_paise = refunded_paise + ${p.paise},
      refunded_at = ${p.at}, updated_at = ${p.at} WHERE id = ${p.orderId}`,
)

const ignore = () => {}

/** The handlers as sales happen, on either store. */
const handlers: ReadHandlers<BookingFact, undefined> = {
  TicketsHeld(fact, x) {
    const d = fact.data
    return hold(x, {
      orderId: d.orderId,
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
      feePaise: orderMoney(d).fee.total,
      seatsHeld: seatsText(d.seats),
      at: fact.at,
    })
  },
  PaymentCaptured: (fact, x) =>
    x.run(pay, { orderId: fact.data.orderId, paymentId: fact.data.paymentId, at: fact.at }),
  TicketsIssued(fact, x) {
    const d = fact.data
    return issue(x, {
      orderId: d.orderId,
      ownerId: d.ownerId,
      at: fact.at,
      eventId: d.eventId,
      ticketTypeId: d.ticketTypeId,
      quantity: d.quantity,
      live: d.afterExpiry ? 0 : 1,
      held: d.afterExpiry ? 0 : -d.quantity,
    })
  },
  PaymentFailed: (fact, x) => release(x, { orderId: fact.data.orderId, status: 'failed', at: fact.at }),
  HoldExpired: (fact, x) => release(x, { orderId: fact.data.orderId, status: 'expired', at: fact.at }),
  TicketCancelled(fact, x) {
    const d = fact.data
    return cancel(x, {
      orderId: d.orderId,
      by: cancelledBy(d),
      at: fact.at,
      eventId: d.eventId,
      ticketTypeId: d.ticketTypeId,
      sold: -d.quantity,
    })
  },
  TicketTransferred: (fact, x) =>
    x.run(own, { orderId: fact.data.orderId, ownerId: fact.data.toId, at: fact.at }),
  RefundRequested: (fact, x) =>
    x.run(refundRequested, { orderId: fact.data.orderId, paise: fact.data.amountPaise, at: fact.at }),
  PaymentRefunded: (fact, x) =>
    x.run(refunded, { orderId: fact.data.orderId, paise: fact.data.amountPaise, at: fact.at }),
  // the door's facts change no order: the check-in area keeps the passes (checkin/project.ts)
  PassAdmitted: ignore,
  PassScanRefused: ignore,
  InvoiceIssued: ignore,
  CreditNoteIssued: ignore,
}

// ---- SQLite's rebuild replay: rows held in memory (replay-rows.ts), each written once ----

/** what a SQLite statement answered (a replay runs on SQLite only) */
const now = answered

const readInventory = statement<{ ticketTypeId: string }, InventoryRow>(
  (p) => sql`SELECT ${inventory.columns()} FROM inventory WHERE ticket_type_id = ${p.ticketTypeId}`,
)
const readClient = statement<{ clientKey: string; eventId: string }, HeldByClientRow>(
  (p) =>
    sql`SELECT ${heldByClient.columns()} FROM held_by_client WHERE client_key = ${p.clientKey} AND event_id = ${p.eventId}`,
)
const upsertInventory = statement<InventoryRow>(
  (p) => sql`INSERT INTO inventory (ticket_type_id, event_id, held, sold)
    VALUES (${p.ticketTypeId}, ${p.eventId}, ${p.held}, ${p.sold})
    ON CONFLICT (ticket_type_id) DO UPDATE SET held = excluded.held, sold = excluded.sold`,
)
const upsertClient = statement<HeldByClientRow>(
  (
    p,
  ) => sql`INSERT INTO held_by_client (client_key, event_id, seats) VALUES (${p.clientKey}, ${p.eventId}, ${p.seats})
    ON CONFLICT (client_key, event_id) DO UPDATE SET seats = excluded.seats`,
)
const readOrder = statement<{ id: string }, OrderRow>(
  (p) => sql`SELECT ${orders.columns()} FROM orders WHERE id = ${p.id}`,
)
/** an order's whole row, by its named fields */
const orderColumns = Object.entries(getTableColumns(orders.sqlite)).map(([key, column]) => ({
  key: key as keyof OrderRow,
  name: column.name,
}))
const upsertOrder = statement<OrderRow>(
  (p) => sql`INSERT INTO orders (${sql.raw(orderColumns.map(({ name }) => `"${name}"`).join(', '))})
    VALUES (${sql.join(
      orderColumns.map(({ key }) => p[key]),
      sql`, `,
    )})
    ON CONFLICT (id) DO UPDATE SET ${sql.raw(
      orderColumns.map(({ name }) => `"${name}" = excluded."${name}"`).join(', '),
    )}`,
)

/** Seats held and sold per ticket type, and unpaid seats per client address and event. */
type Seats = {
  adjust(ticketTypeId: string, eventId: string, held: number, sold: number): void
  /** seats a client address holds unpaid for an event go up or down (holds without a key: none) */
  adjustClient(clientKey: string | null | undefined, eventId: string, seats: number): void
}

function replaySeats(x: Sql, held: ReturnType<typeof replayRows>): Seats {
  const inventoryRows = held.table<InventoryRow>({ run: (row) => x.run(upsertInventory, row) })
  const clientRows = held.table<HeldByClientRow>({ run: (row) => x.run(upsertClient, row) })
  return {
    adjust(ticketTypeId, eventId, seatsHeld, sold) {
      const row = inventoryRows.ensure(
        ticketTypeId,
        () => now(x.get(readInventory, { ticketTypeId })),
        () => ({ ticketTypeId, eventId, held: 0, sold: 0 }),
      )
      row.held += seatsHeld
      row.sold += sold
    },
    adjustClient(clientKey, eventId, seats) {
      if (!clientKey) return
      const row = clientRows.ensure(
        `${clientKey} ${eventId}`,
        () => now(x.get(readClient, { clientKey, eventId })),
        () => ({ clientKey, eventId, seats: 0 }),
      )
      row.seats += seats
    },
  }
}

const HELD_ORDERS = Symbol("orders held by booking's replay")

/**
 * An order as booking's replay has it (held in memory, else stored), for the projections after
 * booking that read orders during a replay; none outside one.
 */
export const heldOrders = (replaying?: Replaying) =>
  replaying?.get(HELD_ORDERS) as ((id: string) => OrderRow | undefined) | undefined

/** The orders of a rebuild's replay (an order's hold, payment and ticket: one write). */
function replayOrders(x: Sql, held: ReturnType<typeof replayRows>, replaying: Replaying) {
  const rows: ReplayRows<OrderRow> = held.table<OrderRow>({ run: (row) => x.run(upsertOrder, row) })
  const find = (id: string) => rows.find(id, () => now(x.get(readOrder, { id }))) ?? undefined
  const order = (id: string) => {
    const row = find(id)
    if (!row) throw new Error(`order ${id} is missing from the read model`)
    return row
  }
  replaying.set(HELD_ORDERS, find)
  return { rows, find, order }
}

function replayHandlers(x: Sql, rowsHeld: number, replaying: Replaying) {
  const held = replayRows(rowsHeld)
  const seats = replaySeats(x, held)
  const { rows, find, order } = replayOrders(x, held, replaying)
  const clientHolds = seats.adjustClient

  /** An order that stopped waiting for its payment gives its held seats back. */
  const released = (orderId: string, status: 'failed' | 'expired', at: string) => {
    const row = order(orderId)
    Object.assign(row, { status, paymentStatus: 'Failed', updatedAt: at })
    seats.adjust(row.ticketTypeId, row.eventId, -row.quantity, 0)
    clientHolds(row.clientKey, row.eventId, -row.quantity)
  }

  const replayed: ReadHandlers<BookingFact, undefined> = {
    TicketsHeld(fact) {
      const d = fact.data
      const row: OrderRow = {
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
        feePaise: orderMoney(d).fee.total,
        seatsHeld: seatsText(d.seats),
        refund: null,
        cancelledAt: null,
        cancelledBy: null,
        refundRequestedPaise: 0,
        refundedPaise: 0,
        refundedAt: null,
        issuedAt: null,
        createdAt: fact.at,
        updatedAt: fact.at,
      }
      rows.ensure(
        row.id,
        () => undefined,
        () => row,
      )
      seats.adjust(d.ticketTypeId, d.eventId, d.quantity, 0)
      clientHolds(d.clientKey, d.eventId, d.quantity)
    },
    PaymentCaptured(fact) {
      Object.assign(order(fact.data.orderId), { paymentId: fact.data.paymentId, updatedAt: fact.at })
    },
    TicketsIssued(fact) {
      const d = fact.data
      // read before the change: the held row is the one changed
      const clientKey = d.afterExpiry ? null : find(d.orderId)?.clientKey
      Object.assign(order(d.orderId), {
        status: 'issued',
        paymentStatus: 'Completed',
        ownerId: d.ownerId,
        issuedAt: fact.at,
        updatedAt: fact.at,
      })
      // a live hold stops being unpaid (a lapsed one was counted off when it was released)
      if (!d.afterExpiry) clientHolds(clientKey, d.eventId, -d.quantity)
      seats.adjust(d.ticketTypeId, d.eventId, d.afterExpiry ? 0 : -d.quantity, d.quantity)
    },
    PaymentFailed(fact) {
      released(fact.data.orderId, 'failed', fact.at)
    },
    HoldExpired(fact) {
      released(fact.data.orderId, 'expired', fact.at)
    },
    TicketCancelled(fact) {
      const d = fact.data
      Object.assign(order(d.orderId), {
        status: 'cancelled',
        paymentStatus: 'Cancelled',
        cancelledAt: fact.at,
        cancelledBy: cancelledBy(d),
        updatedAt: fact.at,
      })
      seats.adjust(d.ticketTypeId, d.eventId, 0, -d.quantity)
    },
    TicketTransferred(fact) {
      Object.assign(order(fact.data.orderId), { ownerId: fact.data.toId, updatedAt: fact.at })
    },
    RefundRequested(fact) {
      const row = order(fact.data.orderId)
      row.refund = 'requested'
      row.refundRequestedPaise += fact.data.amountPaise
      row.updatedAt = fact.at
    },
    PaymentRefunded(fact) {
      const row = order(fact.data.orderId)
      row.refund = 'refunded'
      row.refundedPaise += fact.data.amountPaise
      row.refundedAt = fact.at
      row.updatedAt = fact.at
    },
    PassAdmitted: ignore,
    PassScanRefused: ignore,
    InvoiceIssued: ignore,
    CreditNoteIssued: ignore,
  }
  return { handlers: replayed, flush: held.flush }
}

export const bookingProjection = readProjection<BookingFact>({
  name: 'booking',
  tables: [orders, inventory, heldByClient],
  handlers,
  replay: replayHandlers,
})
