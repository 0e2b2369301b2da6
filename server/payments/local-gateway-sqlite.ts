// The local test gateway's store in a SQLite file of its own (the default: one machine). Its tables
// are made here, not by migrations, as they always were: an existing file keeps working.
import { mkdirSync } from 'node:fs'
import { dirname } from 'node:path'
import Database from 'better-sqlite3'
import { inWalMode } from '../db/connection.ts'
import { committedPerTurn } from '../db/per-turn.ts'
import type { GatewayStore, OrderRow, PaymentRow } from './local-gateway-store.ts'

const orderColumns = 'id, amount, currency, receipt, notes, status, created_at AS createdAt'
const paymentColumns = `id, order_id AS orderId, amount, currency, status, method, amount_refunded AS amountRefunded,
  error_description AS errorDescription, created_at AS createdAt`

export function sqliteGatewayStore(file: string): GatewayStore {
  mkdirSync(dirname(file), { recursive: true })
  const db = new Database(file)
  db.pragma('busy_timeout = 5000')
  // several processes may open the file at once (connection.ts)
  inWalMode(db)
  // A stand-in for a remote provider: its own durability is not what the app's tests measure.
  db.pragma('synchronous = NORMAL')
  db.exec(`
    CREATE TABLE IF NOT EXISTS gateway_orders (id TEXT PRIMARY KEY, amount INTEGER NOT NULL, currency TEXT NOT NULL,
      receipt TEXT NOT NULL, notes TEXT NOT NULL, status TEXT NOT NULL, created_at INTEGER NOT NULL);
    CREATE TABLE IF NOT EXISTS gateway_payments (id TEXT PRIMARY KEY, order_id TEXT NOT NULL, amount INTEGER NOT NULL,
      currency TEXT NOT NULL, status TEXT NOT NULL, method TEXT, amount_refunded INTEGER NOT NULL DEFAULT 0,
      error_description TEXT, created_at INTEGER NOT NULL);
    CREATE INDEX IF NOT EXISTS gateway_payments_order ON gateway_payments (order_id);
    CREATE TABLE IF NOT EXISTS gateway_refunds (id TEXT PRIMARY KEY, payment_id TEXT NOT NULL, amount INTEGER NOT NULL,
      created_at INTEGER NOT NULL);
  `)

  const insertOrder = db.prepare<OrderRow>(
    'INSERT INTO gateway_orders (id, amount, currency, receipt, notes, status, created_at) VALUES (@id, @amount, @currency, @receipt, @notes, @status, @createdAt)',
  )
  const selectOrder = db.prepare<[string], OrderRow>(
    `SELECT ${orderColumns} FROM gateway_orders WHERE id = ?`,
  )
  // Every process writing the file takes its write lock in turn: the second finds the order paid.
  const moveUnpaidOrder = db.prepare<[string, string]>(
    "UPDATE gateway_orders SET status = ? WHERE id = ? AND status <> 'paid'",
  )
  const insertPayment = db.prepare<PaymentRow>(
    'INSERT INTO gateway_payments (id, order_id, amount, currency, status, method, amount_refunded, error_description, created_at) VALUES (@id, @orderId, @amount, @currency, @status, @method, @amountRefunded, @errorDescription, @createdAt)',
  )
  const selectPayment = db.prepare<[string], PaymentRow>(
    `SELECT ${paymentColumns} FROM gateway_payments WHERE id = ?`,
  )
  const selectPaymentsOfOrder = db.prepare<[string], PaymentRow>(
    `SELECT ${paymentColumns} FROM gateway_payments WHERE order_id = ? ORDER BY created_at, rowid`,
  )
  const addToRefunded = db.prepare<{ id: string; amount: number }>(
    `UPDATE gateway_payments SET amount_refunded = amount_refunded + @amount,
       status = CASE WHEN amount_refunded + @amount >= amount THEN 'refunded' ELSE status END
     WHERE id = @id AND status IN ('captured', 'refunded') AND amount_refunded + @amount <= amount`,
  )
  const insertRefund = db.prepare<[string, string, number, number]>(
    'INSERT INTO gateway_refunds (id, payment_id, amount, created_at) VALUES (?, ?, ?, ?)',
  )
  const selectRefunds = db.prepare<[string], { id: string; amount: number }>(
    'SELECT id, amount FROM gateway_refunds WHERE payment_id = ? ORDER BY rowid',
  )

  // Orders made in the same turn of the event loop (a flash sale's concurrent checkouts) share one
  // commit: each on its own cost ~30 µs of the app's core, a twelfth of a hold (issue 18). The
  // provider this stands in for spends none of the app's CPU at all. Each caller still waits until
  // its order is committed.
  const insertOrders = db.transaction((rows: OrderRow[]) => {
    for (const row of rows) insertOrder.run(row)
  })
  const addOrder = committedPerTurn<OrderRow>((rows) => insertOrders.immediate(rows))

  const pay = db.transaction((payment: PaymentRow) => {
    const status = payment.status === 'captured' ? 'paid' : 'attempted'
    if (moveUnpaidOrder.run(status, payment.orderId).changes === 0) return false
    insertPayment.run(payment)
    return true
  })
  const refund = db.transaction((id: string, paymentId: string, amount: number, createdAt: number) => {
    if (addToRefunded.run({ id: paymentId, amount }).changes === 0) return false
    insertRefund.run(id, paymentId, amount, createdAt)
    return true
  })

  return {
    addOrder,
    order: async (orderId) => selectOrder.get(orderId),
    // IMMEDIATE: the write lock is taken at the start, so two processes never both read then write.
    addPayment: async (payment) => pay.immediate(payment),
    payment: async (paymentId) => selectPayment.get(paymentId),
    paymentsOfOrder: async (orderId) => selectPaymentsOfOrder.all(orderId),
    addRefund: async ({ id, paymentId, amount, createdAt }) =>
      refund.immediate(id, paymentId, amount, createdAt),
    refundsOf: async (paymentId) => selectRefunds.all(paymentId),
    close() {
      db.close()
    },
  }
}
