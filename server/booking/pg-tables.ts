// Booking's read models on PostgreSQL (issue 15: DATABASE_URL): the tables of tables.ts, column for
// column and index for index. Money stays integer paise; an order's amount is a bigint (a price up
// to ₹1 crore times a quantity passes 2^31 paise), read as a number.
import { sql } from 'drizzle-orm'
import {
  bigint,
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  uniqueIndex,
} from 'drizzle-orm/pg-core'
import type { TicketTypeName } from '../../contracts/catalog.ts'
import type { OrderStatus } from './statuses.ts'
import type { CancelledBy, PaymentStatus } from './tables.ts'

/** One row per order; a paid order is a ticket (its id is the ticket id). */
export const pgOrders = pgTable(
  'orders',
  {
    id: text('id').primaryKey(),
    eventId: text('event_id').notNull(),
    organizerId: text('organizer_id').notNull(),
    ticketTypeId: text('ticket_type_id').notNull(),
    ticketType: text('ticket_type').notNull().$type<TicketTypeName>(),
    buyerId: text('buyer_id').notNull(),
    ownerId: text('owner_id'),
    quantity: integer('quantity').notNull(),
    unitPricePaise: integer('unit_price_paise').notNull(),
    amountPaise: bigint('amount_paise', { mode: 'number' }).notNull(),
    provider: text('provider').notNull(),
    providerOrderId: text('provider_order_id').notNull(),
    status: text('status').notNull().$type<Exclude<OrderStatus, 'none'>>(),
    paymentStatus: text('payment_status').notNull().$type<PaymentStatus>(),
    paymentId: text('payment_id'),
    heldUntil: text('held_until').notNull(),
    clientKey: text('client_key'),
    promoCode: text('promo_code'),
    discountPaise: bigint('discount_paise', { mode: 'number' }).notNull().default(0),
    refund: text('refund').$type<'requested' | 'refunded'>(),
    cancelledAt: text('cancelled_at'),
    cancelledBy: text('cancelled_by').$type<CancelledBy>(),
    refundRequestedPaise: bigint('refund_requested_paise', { mode: 'number' }).notNull().default(0),
    refundedPaise: bigint('refunded_paise', { mode: 'number' }).notNull().default(0),
    refundedAt: text('refunded_at'),
    issuedAt: text('issued_at'),
    createdAt: text('created_at').notNull(),
    updatedAt: text('updated_at').notNull(),
  },
  // the partial indexes of tables.ts: a new hold touches two indexes, not four
  (t) => [
    uniqueIndex('orders_provider_order').on(t.providerOrderId),
    index('orders_owner').on(t.ownerId, t.status).where(sql`${t.ownerId} IS NOT NULL`),
    // with the owner, as on SQLite (tables.ts): the attendees of an event (every event object lists
    // them) may be read from the index alone (an index-only scan, as far as the visibility map
    // allows); measured on SQLite only
    index('orders_issued_by_event').on(t.eventId, t.id, t.ownerId).where(sql`${t.status} = 'issued'`),
    index('orders_held_until').on(t.heldUntil).where(sql`${t.status} = 'held'`),
    index('orders_buyer_event').on(t.buyerId, t.eventId),
  ],
)

/** Seats taken per ticket type: held (awaiting payment) and sold. */
export const pgInventory = pgTable(
  'inventory',
  {
    ticketTypeId: text('ticket_type_id').primaryKey(),
    eventId: text('event_id').notNull(),
    held: integer('held').notNull(),
    sold: integer('sold').notNull(),
  },
  (t) => [index('inventory_event').on(t.eventId)],
)

/** Unpaid seats held per client address (its keyed hash) and event. */
export const pgHeldByClient = pgTable(
  'held_by_client',
  {
    clientKey: text('client_key').notNull(),
    eventId: text('event_id').notNull(),
    seats: integer('seats').notNull(),
  },
  (t) => [primaryKey({ columns: [t.clientKey, t.eventId] })],
)

/** An event's promo codes and their uses (tables.ts's promo_codes). */
export const pgPromoCodes = pgTable(
  'promo_codes',
  {
    eventId: text('event_id').notNull(),
    code: text('code').notNull(),
    percentOff: integer('percent_off'),
    amountOffPaise: bigint('amount_off_paise', { mode: 'number' }),
    ticketTypeIds: jsonb('ticket_type_ids').$type<string[]>(),
    maxUses: integer('max_uses'),
    startsAt: text('starts_at'),
    endsAt: text('ends_at'),
    disabled: boolean('disabled').notNull(),
    held: integer('held').notNull(),
    paid: integer('paid').notNull(),
    createdAt: text('created_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.eventId, t.code] })],
)
