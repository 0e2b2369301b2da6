// The built-in test payment provider: what Razorpay would do, kept in a SQLite file of its own
// (it stands for the outside world, so it is not part of the ledger). It creates orders, takes
// a payer's success or failure from the checkout dialog, signs the checkout payload and sends
// signed webhooks, serves Razorpay's REST shapes, and refunds.
import { randomBytes } from 'node:crypto'
import { mkdirSync } from 'node:fs'
import { dirname } from 'node:path'
import Database from 'better-sqlite3'
import type { GatewayPayment } from './port.ts'
import { checkoutSignature, webhookSignature } from './signatures.ts'

const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789'
const razorpayId = (prefix: string) =>
  `${prefix}_${[...randomBytes(14)].map((b) => alphabet[b % alphabet.length]).join('')}`

export type GatewayOrder = {
  id: string
  entity: 'order'
  amount: number
  amount_paid: number
  currency: string
  receipt: string
  status: 'created' | 'attempted' | 'paid'
  notes: Record<string, string>
  created_at: number
}

export type RazorpayPaymentEntity = {
  id: string
  entity: 'payment'
  amount: number
  currency: string
  status: GatewayPayment['status']
  order_id: string
  method: string | null
  captured: boolean
  amount_refunded: number
  error_code: string | null
  error_description: string | null
  created_at: number
}

export type WebhookDelivery = (rawBody: Buffer, signature: string, eventId: string) => Promise<void> | void

type OrderRow = {
  id: string
  amount: number
  currency: string
  receipt: string
  notes: string
  status: string
  created_at: number
}
type PaymentRow = {
  id: string
  order_id: string
  amount: number
  currency: string
  status: GatewayPayment['status']
  method: string | null
  amount_refunded: number
  error_description: string | null
  created_at: number
}

export class LocalGateway {
  private readonly db: Database.Database
  private deliver: WebhookDelivery | null = null

  constructor(
    file: string,
    readonly keyId: string,
    private readonly keySecret: string,
    private readonly webhookSecret: string,
  ) {
    mkdirSync(dirname(file), { recursive: true })
    this.db = new Database(file)
    this.db.pragma('journal_mode = WAL')
    // A stand-in for a remote provider: its own durability is not what the app's tests measure.
    this.db.pragma('synchronous = NORMAL')
    this.db.pragma('busy_timeout = 5000')
    this.db.exec(`
      CREATE TABLE IF NOT EXISTS gateway_orders (id TEXT PRIMARY KEY, amount INTEGER NOT NULL, currency TEXT NOT NULL,
        receipt TEXT NOT NULL, notes TEXT NOT NULL, status TEXT NOT NULL, created_at INTEGER NOT NULL);
      CREATE TABLE IF NOT EXISTS gateway_payments (id TEXT PRIMARY KEY, order_id TEXT NOT NULL, amount INTEGER NOT NULL,
        currency TEXT NOT NULL, status TEXT NOT NULL, method TEXT, amount_refunded INTEGER NOT NULL DEFAULT 0,
        error_description TEXT, created_at INTEGER NOT NULL);
      CREATE INDEX IF NOT EXISTS gateway_payments_order ON gateway_payments (order_id);
      CREATE TABLE IF NOT EXISTS gateway_refunds (id TEXT PRIMARY KEY, payment_id TEXT NOT NULL, amount INTEGER NOT NULL,
        created_at INTEGER NOT NULL);
    `)
  }

  private readonly statements = new Map<string, Database.Statement>()
  /** Each statement is prepared once. */
  private prepare<P extends unknown[] = unknown[], R = unknown>(sql: string): Database.Statement<P, R> {
    let statement = this.statements.get(sql)
    if (!statement) {
      statement = this.db.prepare(sql)
      this.statements.set(sql, statement)
    }
    return statement as unknown as Database.Statement<P, R>
  }

  /** Where webhooks go (the app's own webhook handler, in-process). */
  onWebhook(deliver: WebhookDelivery) {
    this.deliver = deliver
  }

  authorised(keyId: string, keySecret: string) {
    return keyId === this.keyId && keySecret === this.keySecret
  }

  createOrder(input: {
    amount: number
    currency: string
    receipt: string
    notes: Record<string, string>
  }): GatewayOrder {
    if (!Number.isInteger(input.amount) || input.amount < 100) {
      throw new GatewayError(400, 'BAD_REQUEST_ERROR', 'The amount must be at least INR 1.00')
    }
    const row: OrderRow = {
      id: razorpayId('order'),
      amount: input.amount,
      currency: input.currency,
      receipt: input.receipt,
      notes: JSON.stringify(input.notes),
      status: 'created',
      created_at: Math.floor(Date.now() / 1000),
    }
    this.prepare(
      'INSERT INTO gateway_orders (id, amount, currency, receipt, notes, status, created_at) VALUES (@id, @amount, @currency, @receipt, @notes, @status, @created_at)',
    ).run(row)
    return this.orderEntity(row)
  }

  order(orderId: string): GatewayOrder | null {
    const row = this.prepare<[string], OrderRow>('SELECT * FROM gateway_orders WHERE id = ?').get(orderId)
    return row ? this.orderEntity(row) : null
  }

  /**
   * The payer's choice in the checkout dialog. Success answers with Razorpay's checkout payload;
   * failure with Razorpay's error object. Either way a signed webhook follows, as Razorpay's would.
   */
  pay(orderId: string, outcome: 'success' | 'failure') {
    const order = this.prepare<[string], OrderRow>('SELECT * FROM gateway_orders WHERE id = ?').get(orderId)
    if (!order) throw new GatewayError(400, 'BAD_REQUEST_ERROR', 'The id provided does not exist')
    if (order.status === 'paid')
      throw new GatewayError(400, 'BAD_REQUEST_ERROR', 'Order has already been paid')
    const payment: PaymentRow = {
      id: razorpayId('pay'),
      order_id: orderId,
      amount: order.amount,
      currency: order.currency,
      status: outcome === 'success' ? 'captured' : 'failed',
      method: 'card',
      amount_refunded: 0,
      error_description: outcome === 'success' ? null : 'Payment was declined by the test card.',
      created_at: Math.floor(Date.now() / 1000),
    }
    this.db.transaction(() => {
      this.prepare(
        'INSERT INTO gateway_payments (id, order_id, amount, currency, status, method, amount_refunded, error_description, created_at) VALUES (@id, @order_id, @amount, @currency, @status, @method, @amount_refunded, @error_description, @created_at)',
      ).run(payment)
      this.prepare('UPDATE gateway_orders SET status = ? WHERE id = ?').run(
        outcome === 'success' ? 'paid' : 'attempted',
        orderId,
      )
    })()
    const entity = this.paymentEntity(payment)
    this.sendWebhook(outcome === 'success' ? 'payment.captured' : 'payment.failed', entity)
    if (outcome === 'failure') {
      return {
        error: {
          code: 'BAD_REQUEST_ERROR',
          description: entity.error_description,
          source: 'customer',
          step: 'payment_authorization',
          reason: 'payment_failed',
          metadata: { order_id: orderId, payment_id: payment.id },
        },
      }
    }
    return {
      razorpay_payment_id: payment.id,
      razorpay_order_id: orderId,
      razorpay_signature: checkoutSignature(this.keySecret, orderId, payment.id),
    }
  }

  payment(paymentId: string): RazorpayPaymentEntity | null {
    const row = this.prepare<[string], PaymentRow>('SELECT * FROM gateway_payments WHERE id = ?').get(
      paymentId,
    )
    return row ? this.paymentEntity(row) : null
  }

  paymentsOfOrder(orderId: string): RazorpayPaymentEntity[] {
    return this.prepare<[string], PaymentRow>(
      'SELECT * FROM gateway_payments WHERE order_id = ? ORDER BY created_at, rowid',
    )
      .all(orderId)
      .map((row) => this.paymentEntity(row))
  }

  /** Payments are captured at once here (auto-capture); capturing again just answers the payment. */
  capture(paymentId: string): RazorpayPaymentEntity {
    const payment = this.payment(paymentId)
    if (!payment) throw new GatewayError(400, 'BAD_REQUEST_ERROR', 'The id provided does not exist')
    return payment
  }

  refund(
    paymentId: string,
    amount: number,
  ): { id: string; entity: 'refund'; amount: number; payment_id: string } {
    const payment = this.prepare<[string], PaymentRow>('SELECT * FROM gateway_payments WHERE id = ?').get(
      paymentId,
    )
    if (!payment) throw new GatewayError(400, 'BAD_REQUEST_ERROR', 'The id provided does not exist')
    if (payment.status !== 'captured' && payment.status !== 'refunded') {
      throw new GatewayError(400, 'BAD_REQUEST_ERROR', 'The payment has not been captured')
    }
    if (payment.amount_refunded + amount > payment.amount) {
      throw new GatewayError(
        400,
        'BAD_REQUEST_ERROR',
        'The total refund amount is greater than the payment amount',
      )
    }
    const id = razorpayId('rfnd')
    this.db.transaction(() => {
      this.prepare(
        'INSERT INTO gateway_refunds (id, payment_id, amount, created_at) VALUES (?, ?, ?, ?)',
      ).run(id, paymentId, amount, Math.floor(Date.now() / 1000))
      this.prepare(
        "UPDATE gateway_payments SET amount_refunded = amount_refunded + ?, status = CASE WHEN amount_refunded + ? >= amount THEN 'refunded' ELSE status END WHERE id = ?",
      ).run(amount, amount, paymentId)
    })()
    return { id, entity: 'refund', amount, payment_id: paymentId }
  }

  refundsOf(paymentId: string): Array<{ id: string; amount: number }> {
    return this.prepare<[string], { id: string; amount: number }>(
      'SELECT id, amount FROM gateway_refunds WHERE payment_id = ?',
    ).all(paymentId)
  }

  /** Builds and delivers a webhook the way Razorpay signs it (HMAC of the raw body). */
  sendWebhook(event: string, payment: RazorpayPaymentEntity) {
    const body = Buffer.from(
      JSON.stringify({
        entity: 'event',
        account_id: 'acc_local',
        event,
        contains: ['payment'],
        payload: { payment: { entity: payment } },
        created_at: Math.floor(Date.now() / 1000),
      }),
    )
    const eventId = razorpayId('evt')
    const deliver = this.deliver
    if (!deliver) return
    // Like a real provider, the webhook arrives on its own schedule, not inside the payer's call.
    setImmediate(() => {
      Promise.resolve(deliver(body, webhookSignature(this.webhookSecret, body), eventId)).catch(() => {})
    })
  }

  close() {
    this.db.close()
  }

  private orderEntity(row: OrderRow): GatewayOrder {
    return {
      id: row.id,
      entity: 'order',
      amount: row.amount,
      amount_paid: row.status === 'paid' ? row.amount : 0,
      currency: row.currency,
      receipt: row.receipt,
      status: row.status as GatewayOrder['status'],
      notes: JSON.parse(row.notes),
      created_at: row.created_at,
    }
  }

  private paymentEntity(row: PaymentRow): RazorpayPaymentEntity {
    return {
      id: row.id,
      entity: 'payment',
      amount: row.amount,
      currency: row.currency,
      status: row.status,
      order_id: row.order_id,
      method: row.method,
      captured: row.status === 'captured' || row.status === 'refunded',
      amount_refunded: row.amount_refunded,
      error_code: row.status === 'failed' ? 'BAD_REQUEST_ERROR' : null,
      error_description: row.error_description,
      created_at: row.created_at,
    }
  }
}

export class GatewayError extends Error {
  constructor(
    readonly statusCode: number,
    readonly code: string,
    readonly description: string,
  ) {
    super(description)
  }
}
