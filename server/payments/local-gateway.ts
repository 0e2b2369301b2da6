// The built-in test payment provider: what Razorpay would do, kept in a store of its own (it
// stands for the outside world, so it is not part of the ledger): a SQLite file, or PostgreSQL when
// several app processes must see the same payments. It creates orders, takes a payer's success or
// failure from the checkout dialog, signs the checkout payload and sends signed webhooks, serves
// Razorpay's REST shapes, and refunds.
import type pg from 'pg'
import { randomPooled } from '../ids.ts'
import { pgGatewayStore } from './local-gateway-pg.ts'
import { sqliteGatewayStore } from './local-gateway-sqlite.ts'
import type { GatewayOrderStatus, GatewayStore, OrderRow, PaymentRow } from './local-gateway-store.ts'
import type { GatewayPayment } from './port.ts'
import { checkoutSignature, webhookSignature } from './signatures.ts'

const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789'
const razorpayId = (prefix: string) =>
  `${prefix}_${[...randomPooled(14)].map((b) => alphabet[b % alphabet.length]).join('')}`

export type GatewayOrder = {
  id: string
  entity: 'order'
  amount: number
  amount_paid: number
  currency: string
  receipt: string
  status: GatewayOrderStatus
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

/** Where the gateway keeps its records: the path of its SQLite file, or a PostgreSQL pool (not closed by it). */
export type LocalGatewayStorage = string | pg.Pool

const now = () => Math.floor(Date.now() / 1000)
const doesNotExist = () => new GatewayError(400, 'BAD_REQUEST_ERROR', 'The id provided does not exist')

export class LocalGateway {
  private readonly store: GatewayStore
  private deliver: WebhookDelivery | null = null

  constructor(
    storage: LocalGatewayStorage,
    readonly keyId: string,
    private readonly keySecret: string,
    private readonly webhookSecret: string,
  ) {
    this.store = typeof storage === 'string' ? sqliteGatewayStore(storage) : pgGatewayStore(storage)
  }

  /** Where webhooks go (the app's own webhook handler, in-process). */
  onWebhook(deliver: WebhookDelivery) {
    this.deliver = deliver
  }

  authorised(keyId: string, keySecret: string) {
    return keyId === this.keyId && keySecret === this.keySecret
  }

  async createOrder(input: {
    amount: number
    currency: string
    receipt: string
    notes: Record<string, string>
  }): Promise<GatewayOrder> {
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
      createdAt: now(),
    }
    await this.store.addOrder(row)
    return this.orderEntity(row)
  }

  async order(orderId: string): Promise<GatewayOrder | null> {
    const row = await this.store.order(orderId)
    return row ? this.orderEntity(row) : null
  }

  /**
   * The payer's choice in the checkout dialog. Success answers with Razorpay's checkout payload;
   * failure with Razorpay's error object. Either way a signed webhook follows, as Razorpay's would.
   * An order is paid once, whichever process the payers reach at once.
   */
  async pay(orderId: string, outcome: 'success' | 'failure') {
    const order = await this.store.order(orderId)
    if (!order) throw doesNotExist()
    const alreadyPaid = () => new GatewayError(400, 'BAD_REQUEST_ERROR', 'Order has already been paid')
    if (order.status === 'paid') throw alreadyPaid()
    const payment: PaymentRow = {
      id: razorpayId('pay'),
      orderId,
      amount: order.amount,
      currency: order.currency,
      status: outcome === 'success' ? 'captured' : 'failed',
      method: 'card',
      amountRefunded: 0,
      errorDescription: outcome === 'success' ? null : 'Payment was declined by the test card.',
      createdAt: now(),
    }
    if (!(await this.store.addPayment(payment))) throw alreadyPaid()
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

  async payment(paymentId: string): Promise<RazorpayPaymentEntity | null> {
    const row = await this.store.payment(paymentId)
    return row ? this.paymentEntity(row) : null
  }

  async paymentsOfOrder(orderId: string): Promise<RazorpayPaymentEntity[]> {
    return (await this.store.paymentsOfOrder(orderId)).map((row) => this.paymentEntity(row))
  }

  /** Payments are captured at once here (auto-capture); capturing again just answers the payment. */
  async capture(paymentId: string): Promise<RazorpayPaymentEntity> {
    const payment = await this.payment(paymentId)
    if (!payment) throw doesNotExist()
    return payment
  }

  async refund(
    paymentId: string,
    amount: number,
  ): Promise<{ id: string; entity: 'refund'; amount: number; payment_id: string }> {
    const refusal = (payment: PaymentRow | undefined) => {
      if (!payment) return doesNotExist()
      if (payment.status !== 'captured' && payment.status !== 'refunded') {
        return new GatewayError(400, 'BAD_REQUEST_ERROR', 'The payment has not been captured')
      }
      if (payment.amountRefunded + amount > payment.amount) {
        return new GatewayError(
          400,
          'BAD_REQUEST_ERROR',
          'The total refund amount is greater than the payment amount',
        )
      }
      return null
    }
    const before = refusal(await this.store.payment(paymentId))
    if (before) throw before
    const id = razorpayId('rfnd')
    if (!(await this.store.addRefund({ id, paymentId, amount, createdAt: now() }))) {
      // another refund of this payment was taken meanwhile: the reason, as it stands now
      throw refusal(await this.store.payment(paymentId)) ?? doesNotExist()
    }
    return { id, entity: 'refund', amount, payment_id: paymentId }
  }

  refundsOf(paymentId: string): Promise<Array<{ id: string; amount: number }>> {
    return this.store.refundsOf(paymentId)
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
        created_at: now(),
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

  /** Closes the gateway's SQLite file; a PostgreSQL pool stays open for its owner to close. */
  close() {
    this.store.close()
  }

  private orderEntity(row: OrderRow): GatewayOrder {
    return {
      id: row.id,
      entity: 'order',
      amount: row.amount,
      amount_paid: row.status === 'paid' ? row.amount : 0,
      currency: row.currency,
      receipt: row.receipt,
      status: row.status,
      notes: JSON.parse(row.notes),
      created_at: row.createdAt,
    }
  }

  private paymentEntity(row: PaymentRow): RazorpayPaymentEntity {
    return {
      id: row.id,
      entity: 'payment',
      amount: row.amount,
      currency: row.currency,
      status: row.status,
      order_id: row.orderId,
      method: row.method,
      captured: row.status === 'captured' || row.status === 'refunded',
      amount_refunded: row.amountRefunded,
      error_code: row.status === 'failed' ? 'BAD_REQUEST_ERROR' : null,
      error_description: row.errorDescription,
      created_at: row.createdAt,
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
