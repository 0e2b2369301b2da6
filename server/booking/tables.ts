import { sql } from 'drizzle-orm'
import { index, integer, primaryKey, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core'
import type { TicketTypeName } from '../../contracts/catalog.ts'
import type { OrderStatus } from './statuses.ts'

export type PaymentStatus = 'Pending' | 'Completed' | 'Failed' | 'Cancelled'

/** who ended a cancelled ticket: its holder, or the event being called off */
export type CancelledBy = 'holder' | 'event' | 'organizer'

/** who ended a cancelled ticket: its event called off, its organizer refunding it, or its holder */
export const cancelledBy = (data: { eventCancelled?: unknown; refundedBy?: unknown }): CancelledBy =>
  data.eventCancelled ? 'event' : data.refundedBy ? 'organizer' : 'holder'

/** One row per order; a paid order is a ticket (its id is the ticket id). */
export const orders = sqliteTable(
  'orders',
  {
    id: text('id').primaryKey(),
    eventId: text('event_id').notNull(),
    organizerId: text('organizer_id').notNull(),
    ticketTypeId: text('ticket_type_id').notNull(),
    ticketType: text('ticket_type').notNull().$type<TicketTypeName>(),
    buyerId: text('buyer_id').notNull(),
    /** who holds the ticket now (after transfers); null until issued */
    ownerId: text('owner_id'),
    quantity: integer('quantity').notNull(),
    /** money in integer paise (rupees only at the API edge) */
    unitPricePaise: integer('unit_price_paise').notNull(),
    /** unitPricePaise × quantity */
    amountPaise: integer('amount_paise').notNull(),
    provider: text('provider').notNull(),
    providerOrderId: text('provider_order_id').notNull(),
    status: text('status').notNull().$type<Exclude<OrderStatus, 'none'>>(),
    paymentStatus: text('payment_status').notNull().$type<PaymentStatus>(),
    paymentId: text('payment_id'),
    heldUntil: text('held_until').notNull(),
    /** a keyed hash of the client address that made the hold (per-address cap on unpaid seats) */
    clientKey: text('client_key'),
    /** the promo code the order used (issue 17), and what it took off amountPaise's full price */
    promoCode: text('promo_code'),
    discountPaise: integer('discount_paise').notNull().default(0),
    refund: text('refund').$type<'requested' | 'refunded'>(),
    /** when the ticket was cancelled, and why: its holder cancelled it, or its event was called off */
    cancelledAt: text('cancelled_at'),
    cancelledBy: text('cancelled_by').$type<CancelledBy>(),
    /** what was asked back from the provider for this order, and what it has paid out (paise);
     * refundedAt: the latest payout */
    refundRequestedPaise: integer('refund_requested_paise').notNull().default(0),
    refundedPaise: integer('refunded_paise').notNull().default(0),
    refundedAt: text('refunded_at'),
    /** when the ticket was issued (sales over time) */
    issuedAt: text('issued_at'),
    createdAt: text('created_at').notNull(),
    updatedAt: text('updated_at').notNull(),
  },
  // Partial indexes: an order enters each only in the state its readers ask about, so a new
  // hold (the hot write) touches two indexes instead of four.
  (t) => [
    uniqueIndex('orders_provider_order').on(t.providerOrderId),
    index('orders_owner').on(t.ownerId, t.status).where(sql`${t.ownerId} IS NOT NULL`),
    // with the owner: the attendees of an event (every event object lists them) are read from the
    // index alone, not from each order's row (400 of them: 908 -> 207 µs in a probe)
    index('orders_issued_by_event').on(t.eventId, t.id, t.ownerId).where(sql`${t.status} = 'issued'`),
    index('orders_held_until').on(t.heldUntil).where(sql`${t.status} = 'held'`),
    // A buyer's orders for one event: the unpaid hold a new checkout replaces, free tickets had.
    index('orders_buyer_event').on(t.buyerId, t.eventId),
  ],
)

/** Seats taken per ticket type: held (awaiting payment) and sold. */
export const inventory = sqliteTable(
  'inventory',
  {
    ticketTypeId: text('ticket_type_id').primaryKey(),
    eventId: text('event_id').notNull(),
    held: integer('held').notNull(),
    sold: integer('sold').notNull(),
  },
  (t) => [index('inventory_event').on(t.eventId)],
)

/** Unpaid seats held per client address (its keyed hash) and event: the per-address cap's count,
 * one row to read instead of a sum over every hold from a crowded address. */
export const heldByClient = sqliteTable(
  'held_by_client',
  {
    clientKey: text('client_key').notNull(),
    eventId: text('event_id').notNull(),
    seats: integer('seats').notNull(),
  },
  (t) => [primaryKey({ columns: [t.clientKey, t.eventId] })],
)

/** An event's promo codes (issue 17): the terms, and the orders using each, unpaid and paid, the
 * count the hold decides a code's maxUses against. Folded from the event's promo facts and the
 * orders' (promo-project.ts). */
export const promoCodes = sqliteTable(
  'promo_codes',
  {
    eventId: text('event_id').notNull(),
    code: text('code').notNull(),
    percentOff: integer('percent_off'),
    amountOffPaise: integer('amount_off_paise'),
    /** JSON array of ticket type ids; null: every type */
    ticketTypeIds: text('ticket_type_ids', { mode: 'json' }).$type<string[]>(),
    maxUses: integer('max_uses'),
    startsAt: text('starts_at'),
    endsAt: text('ends_at'),
    disabled: integer('disabled', { mode: 'boolean' }).notNull(),
    held: integer('held').notNull(),
    paid: integer('paid').notNull(),
    createdAt: text('created_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.eventId, t.code] })],
)
