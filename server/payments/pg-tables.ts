// The local test gateway's own store on PostgreSQL (issue 15: several app processes share one
// gateway): local-gateway-sqlite.ts's tables in pg-core. It stands for the outside world, so these
// are neither the ledger nor read models: a rebuild leaves them alone. Amounts in paise, times in
// Unix seconds, as Razorpay's entities carry them.
import { bigint, index, pgTable, text } from 'drizzle-orm/pg-core'
import type { GatewayOrderStatus, GatewayPaymentStatus } from './local-gateway-store.ts'

export const pgGatewayOrders = pgTable('gateway_orders', {
  id: text('id').primaryKey(),
  amount: bigint('amount', { mode: 'number' }).notNull(),
  currency: text('currency').notNull(),
  receipt: text('receipt').notNull(),
  /** the order's notes, as JSON */
  notes: text('notes').notNull(),
  status: text('status').notNull().$type<GatewayOrderStatus>(),
  createdAt: bigint('created_at', { mode: 'number' }).notNull(),
})

export const pgGatewayPayments = pgTable(
  'gateway_payments',
  {
    id: text('id').primaryKey(),
    orderId: text('order_id').notNull(),
    amount: bigint('amount', { mode: 'number' }).notNull(),
    currency: text('currency').notNull(),
    status: text('status').notNull().$type<GatewayPaymentStatus>(),
    method: text('method'),
    amountRefunded: bigint('amount_refunded', { mode: 'number' }).notNull().default(0),
    errorDescription: text('error_description'),
    createdAt: bigint('created_at', { mode: 'number' }).notNull(),
    /** arrival order, for an order's payments made within one second (SQLite's rowid) */
    arrival: bigint('arrival', { mode: 'number' }).notNull().generatedAlwaysAsIdentity(),
  },
  (t) => [index('gateway_payments_order').on(t.orderId, t.createdAt, t.arrival)],
)

export const pgGatewayRefunds = pgTable(
  'gateway_refunds',
  {
    id: text('id').primaryKey(),
    paymentId: text('payment_id').notNull(),
    amount: bigint('amount', { mode: 'number' }).notNull(),
    createdAt: bigint('created_at', { mode: 'number' }).notNull(),
    arrival: bigint('arrival', { mode: 'number' }).notNull().generatedAlwaysAsIdentity(),
  },
  (t) => [index('gateway_refunds_payment').on(t.paymentId, t.arrival)],
)
