// The local test gateway's store on PostgreSQL (issue 15): every app process on every machine sees
// the same orders and payments. Its tables are pg-tables.ts's, made by migrations-pg. Paying and
// refunding are conditional UPDATEs: a second process's UPDATE of the same row waits for the
// first's commit, then finds the order paid (the refund taken) and changes nothing.
import { and, asc, eq, getTableColumns, inArray, ne, sql } from 'drizzle-orm'
import { drizzle } from 'drizzle-orm/node-postgres'
import type pg from 'pg'
import type { GatewayStore } from './local-gateway-store.ts'
import { pgGatewayOrders, pgGatewayPayments, pgGatewayRefunds } from './pg-tables.ts'

/** a payment as PaymentRow has it (its arrival only orders) */
const { arrival: _arrival, ...paymentColumns } = getTableColumns(pgGatewayPayments)

export function pgGatewayStore(pool: pg.Pool): GatewayStore {
  const db = drizzle(pool)
  return {
    async addOrder(order) {
      await db.insert(pgGatewayOrders).values(order)
    },
    order: async (orderId) =>
      (await db.select().from(pgGatewayOrders).where(eq(pgGatewayOrders.id, orderId)))[0],
    addPayment: (payment) =>
      db.transaction(async (tx) => {
        const moved = await tx
          .update(pgGatewayOrders)
          .set({ status: payment.status === 'captured' ? 'paid' : 'attempted' })
          .where(and(eq(pgGatewayOrders.id, payment.orderId), ne(pgGatewayOrders.status, 'paid')))
          .returning({ id: pgGatewayOrders.id })
        if (moved.length === 0) return false
        await tx.insert(pgGatewayPayments).values(payment)
        return true
      }),
    payment: async (paymentId) =>
      (await db.select(paymentColumns).from(pgGatewayPayments).where(eq(pgGatewayPayments.id, paymentId)))[0],
    paymentsOfOrder: (orderId) =>
      db
        .select(paymentColumns)
        .from(pgGatewayPayments)
        .where(eq(pgGatewayPayments.orderId, orderId))
        .orderBy(asc(pgGatewayPayments.createdAt), asc(pgGatewayPayments.arrival)),
    addRefund: ({ id, paymentId, amount, createdAt }) =>
      db.transaction(async (tx) => {
        const refunded = sql`${pgGatewayPayments.amountRefunded} + ${amount}::bigint`
        const taken = await tx
          .update(pgGatewayPayments)
          .set({
            amountRefunded: refunded,
            status: sql`CASE WHEN ${refunded} >= ${pgGatewayPayments.amount} THEN 'refunded' ELSE ${pgGatewayPayments.status} END`,
          })
          .where(
            and(
              eq(pgGatewayPayments.id, paymentId),
              inArray(pgGatewayPayments.status, ['captured', 'refunded']),
              sql`${refunded} <= ${pgGatewayPayments.amount}`,
            ),
          )
          .returning({ id: pgGatewayPayments.id })
        if (taken.length === 0) return false
        await tx.insert(pgGatewayRefunds).values({ id, paymentId, amount, createdAt })
        return true
      }),
    refundsOf: (paymentId) =>
      db
        .select({ id: pgGatewayRefunds.id, amount: pgGatewayRefunds.amount })
        .from(pgGatewayRefunds)
        .where(eq(pgGatewayRefunds.paymentId, paymentId))
        .orderBy(asc(pgGatewayRefunds.arrival)),
    // The pool is the caller's (the app's own connections): it closes it.
    close() {},
  }
}
