// Booking's read models, declared once for both stores (db/read-model.ts). Money is integer paise;
// an order's amounts are bigints on PostgreSQL (a price up to ₹1 crore times a quantity passes 2^31
// paise), integers on SQLite, read as numbers on both.
import { sql } from 'drizzle-orm'
import type { TicketTypeName } from '../../contracts/catalog.ts'
import { type RowOf, readModelTable } from '../db/read-model.ts'
import type { OrderStatus } from './statuses.ts'

export type PaymentStatus = 'Pending' | 'Completed' | 'Failed' | 'Cancelled'

/** who ended a cancelled ticket: its holder, or the event being called off */
export type CancelledBy = 'holder' | 'event' | 'organizer'

/** who ended a cancelled ticket: its event called off, its organizer refunding it, or its holder */
export const cancelledBy = (data: { eventCancelled?: unknown; refundedBy?: unknown }): CancelledBy =>
  data.eventCancelled ? 'event' : data.refundedBy ? 'organizer' : 'holder'

/** One row per order; a paid order is a ticket (its id is the ticket id). */
export const orders = readModelTable(
  'orders',
  (k) => ({
    id: k.text('id').primaryKey(),
    eventId: k.text('event_id').notNull(),
    organizerId: k.text('organizer_id').notNull(),
    ticketTypeId: k.text('ticket_type_id').notNull(),
    ticketType: k.text('ticket_type').notNull().$type<TicketTypeName>(),
    buyerId: k.text('buyer_id').notNull(),
    /** who holds the ticket now (after transfers); null until issued */
    ownerId: k.text('owner_id'),
    quantity: k.integer('quantity').notNull(),
    /** money in integer paise (rupees only at the API edge) */
    unitPricePaise: k.integer('unit_price_paise').notNull(),
    /** unitPricePaise × quantity */
    amountPaise: k.bigint('amount_paise').notNull(),
    provider: k.text('provider').notNull(),
    providerOrderId: k.text('provider_order_id').notNull(),
    status: k.text('status').notNull().$type<Exclude<OrderStatus, 'none'>>(),
    paymentStatus: k.text('payment_status').notNull().$type<PaymentStatus>(),
    paymentId: k.text('payment_id'),
    heldUntil: k.text('held_until').notNull(),
    /** a keyed hash of the client address that made the hold (per-address cap on unpaid seats) */
    clientKey: k.text('client_key'),
    /** the promo code the order used (issue 17), and what it took off amountPaise's full price */
    promoCode: k.text('promo_code'),
    discountPaise: k.bigint('discount_paise').notNull().default(0),
    /** the platform's booking fee in amountPaise, its GST included (issue 42): its own invoice */
    feePaise: k.bigint('fee_paise').notNull().default(0),
    /** a seated order's seats as its hold named them (SeatsHeld, as JSON text; issue 40): its
     * tickets and passes name them, cancelled or not; null for general admission */
    seatsHeld: k.text('seats_held'),
    refund: k.text('refund').$type<'requested' | 'refunded'>(),
    /** when the ticket was cancelled, and why: its holder cancelled it, or its event was called off */
    cancelledAt: k.text('cancelled_at'),
    cancelledBy: k.text('cancelled_by').$type<CancelledBy>(),
    /** what was asked back from the provider for this order, and what it has paid out (paise);
     * refundedAt: the latest payout */
    refundRequestedPaise: k.bigint('refund_requested_paise').notNull().default(0),
    refundedPaise: k.bigint('refunded_paise').notNull().default(0),
    refundedAt: k.text('refunded_at'),
    /** when the ticket was issued (sales over time) */
    issuedAt: k.text('issued_at'),
    createdAt: k.text('created_at').notNull(),
    updatedAt: k.text('updated_at').notNull(),
  }),
  // Partial indexes: an order enters each only in the state its readers ask about, so a new
  // hold (the hot write) touches two indexes instead of four.
  (t, i) => [
    i.uniqueIndex('orders_provider_order').on(t.providerOrderId),
    i.index('orders_owner').on(t.ownerId, t.status).where(sql`${t.ownerId} IS NOT NULL`),
    // with the owner: the attendees of an event (every event object lists them) are read from the
    // index alone, not from each order's row (400 of them: 908 -> 207 µs in a probe on SQLite)
    i.index('orders_issued_by_event').on(t.eventId, t.id, t.ownerId).where(sql`${t.status} = 'issued'`),
    i.index('orders_held_until').on(t.heldUntil).where(sql`${t.status} = 'held'`),
    // A buyer's orders for one event: the unpaid hold a new checkout replaces, free tickets had.
    i.index('orders_buyer_event').on(t.buyerId, t.eventId),
  ],
)

/** Seats taken per ticket type: held (awaiting payment) and sold. */
export const inventory = readModelTable(
  'inventory',
  (k) => ({
    ticketTypeId: k.text('ticket_type_id').primaryKey(),
    eventId: k.text('event_id').notNull(),
    held: k.integer('held').notNull(),
    sold: k.integer('sold').notNull(),
  }),
  (t, i) => [i.index('inventory_event').on(t.eventId)],
)

/** Unpaid seats held per client address (its keyed hash) and event: the per-address cap's count,
 * one row to read instead of a sum over every hold from a crowded address. */
export const heldByClient = readModelTable(
  'held_by_client',
  (k) => ({
    clientKey: k.text('client_key').notNull(),
    eventId: k.text('event_id').notNull(),
    seats: k.integer('seats').notNull(),
  }),
  (t, i) => [i.primaryKey({ columns: [t.clientKey, t.eventId] })],
)

/** An event's promo codes (issue 17): the terms, and the orders using each, unpaid and paid, the
 * count the hold decides a code's maxUses against. Folded from the event's promo facts and the
 * orders' (promo-project.ts). */
export const promoCodes = readModelTable(
  'promo_codes',
  (k) => ({
    eventId: k.text('event_id').notNull(),
    code: k.text('code').notNull(),
    percentOff: k.integer('percent_off'),
    amountOffPaise: k.bigint('amount_off_paise'),
    /** JSON array of ticket type ids; null: every type (jsonb on PostgreSQL) */
    ticketTypeIds: k.jsonb<string[]>('ticket_type_ids'),
    maxUses: k.integer('max_uses'),
    startsAt: k.text('starts_at'),
    endsAt: k.text('ends_at'),
    disabled: k.boolean('disabled').notNull(),
    held: k.integer('held').notNull(),
    paid: k.integer('paid').notNull(),
    createdAt: k.text('created_at').notNull(),
  }),
  (t, i) => [i.primaryKey({ columns: [t.eventId, t.code] })],
)

export type OrderRow = RowOf<typeof orders>
export type InventoryRow = RowOf<typeof inventory>
export type HeldByClientRow = RowOf<typeof heldByClient>
export type PromoCodeRow = RowOf<typeof promoCodes>
