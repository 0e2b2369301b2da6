// The local test gateway on both of its stores (issue 15): a SQLite file of its own, or PostgreSQL
// shared by every app process. The same orders, payments, refunds and webhooks on each; two
// gateways on one store (two processes) see each other's records, and an order paid or a payment
// refunded from both at once is paid or refunded once.
import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openPostgres, type PgConnection } from '../../server/db/pg-connection.ts'
import { createGateway } from '../../server/payments/gateway.ts'
import { LocalGateway, type LocalGatewayStorage } from '../../server/payments/local-gateway.ts'
import { checkoutSignature, webhookSignature } from '../../server/payments/signatures.ts'
import { testConfig } from '../support/app.ts'
import { freshDatabase, type TestDatabase } from '../support/postgres.ts'

const keys = ['rzp_test_local', 'local-key-secret', 'local-webhook-secret'] as const
const [keyId, keySecret, webhookSecret] = keys

type Checkout = { razorpay_payment_id: string; razorpay_order_id: string; razorpay_signature: string }
type Refusal = { error: { code: string; description: string; metadata: { payment_id: string } } }

const dir = mkdtempSync(join(tmpdir(), 'local-gateway-test-'))
let database: TestDatabase
/** two pools on one database: two app processes */
const pools: PgConnection[] = []
const gateways: LocalGateway[] = []

beforeAll(async () => {
  database = await freshDatabase()
  pools.push(await openPostgres(database.url, 4), await openPostgres(database.url, 4))
})
afterAll(async () => {
  for (const gateway of gateways) gateway.close()
  for (const pool of pools) await pool.close()
  await database?.drop()
  rmSync(dir, { recursive: true, force: true })
})

const open = (storage: LocalGatewayStorage) => {
  const gateway = new LocalGateway(storage, ...keys)
  gateways.push(gateway)
  return gateway
}

/** Two gateways on one store, as two app processes have: one SQLite file, or one database. */
const stores: Array<[string, () => [LocalGatewayStorage, LocalGatewayStorage]]> = [
  [
    'SQLite',
    () => {
      const file = join(dir, `${gateways.length}.sqlite`)
      return [file, file]
    },
  ],
  ['PostgreSQL', () => [(pools[0] as PgConnection).pool, (pools[1] as PgConnection).pool]],
]

const refusedWith = (description: string) =>
  expect.objectContaining({ statusCode: 400, code: 'BAD_REQUEST_ERROR', description })

describe.each(stores)('the local gateway on %s', (_store, where) => {
  let gateway: LocalGateway
  let other: LocalGateway
  const webhooks: Array<{ body: Buffer; signature: string }> = []
  beforeAll(() => {
    const [one, two] = where()
    gateway = open(one)
    other = open(two)
    gateway.onWebhook((body, signature) => {
      webhooks.push({ body, signature })
    })
  })
  const order = (amount = 49900, receipt = 'r-1') =>
    gateway.createOrder({ amount, currency: 'INR', receipt, notes: { eventId: 'e1' } })
  const webhookAbout = async (paymentId: string) => {
    for (let i = 0; i < 100; i++) {
      const found = webhooks.find(
        (w) => JSON.parse(w.body.toString()).payload.payment.entity.id === paymentId,
      )
      if (found) return found
      await new Promise((resolve) => setTimeout(resolve, 10))
    }
    throw new Error(`no webhook about ${paymentId}`)
  }

  describe('orders', () => {
    it('creates an order in Razorpay’s shape, found again by its id', async () => {
      const created = await order()
      expect(created).toEqual({
        id: expect.stringMatching(/^order_[A-Za-z0-9]{14}$/),
        entity: 'order',
        amount: 49900,
        amount_paid: 0,
        currency: 'INR',
        receipt: 'r-1',
        status: 'created',
        notes: { eventId: 'e1' },
        created_at: expect.any(Number),
      })
      expect(Math.abs(created.created_at - Date.now() / 1000)).toBeLessThan(5)
      expect(await gateway.order(created.id)).toEqual(created)
      expect(await gateway.order('order_Unknown0000000')).toBeNull()
    })

    it("answers to its own key id and secret only (the REST API's Basic auth)", () => {
      expect(gateway.keyId).toBe(keyId)
      expect(gateway.authorised(keyId, keySecret)).toBe(true)
      expect(gateway.authorised(keyId, webhookSecret)).toBe(false)
      expect(gateway.authorised('rzp_test_other', keySecret)).toBe(false)
    })

    it('refuses an amount under ₹1.00 or not whole, and stores nothing', async () => {
      for (const amount of [99, 0, -100, 100.5]) {
        await expect(order(amount)).rejects.toEqual(refusedWith('The amount must be at least INR 1.00'))
      }
    })
  })

  describe('paying', () => {
    it('a success: the signed checkout payload, the order paid, one captured payment, a signed webhook', async () => {
      const created = await order()
      const checkout = (await gateway.pay(created.id, 'success')) as Checkout
      expect(checkout).toEqual({
        razorpay_payment_id: expect.stringMatching(/^pay_/),
        razorpay_order_id: created.id,
        razorpay_signature: checkoutSignature(keySecret, created.id, checkout.razorpay_payment_id),
      })
      expect(await gateway.order(created.id)).toMatchObject({ status: 'paid', amount_paid: 49900 })
      const payment = {
        id: checkout.razorpay_payment_id,
        entity: 'payment',
        amount: 49900,
        currency: 'INR',
        status: 'captured',
        order_id: created.id,
        method: 'card',
        captured: true,
        amount_refunded: 0,
        error_code: null,
        error_description: null,
        created_at: expect.any(Number),
      }
      expect(await gateway.payment(checkout.razorpay_payment_id)).toEqual(payment)
      expect(await gateway.paymentsOfOrder(created.id)).toEqual([payment])
      expect(await gateway.capture(checkout.razorpay_payment_id)).toEqual(payment)

      const webhook = await webhookAbout(checkout.razorpay_payment_id)
      expect(webhook.signature).toBe(webhookSignature(webhookSecret, webhook.body))
      expect(JSON.parse(webhook.body.toString())).toMatchObject({
        entity: 'event',
        event: 'payment.captured',
        contains: ['payment'],
        payload: { payment: { entity: payment } },
      })
    })

    it('a failure then a success on one order: both payments, in the order made; the order attempted, then paid', async () => {
      const created = await order(10000)
      const failed = (await gateway.pay(created.id, 'failure')) as Refusal
      expect(failed.error).toMatchObject({
        code: 'BAD_REQUEST_ERROR',
        description: 'Payment was declined by the test card.',
        reason: 'payment_failed',
        metadata: { order_id: created.id, payment_id: expect.stringMatching(/^pay_/) },
      })
      expect(await gateway.order(created.id)).toMatchObject({ status: 'attempted', amount_paid: 0 })
      expect(JSON.parse((await webhookAbout(failed.error.metadata.payment_id)).body.toString()).event).toBe(
        'payment.failed',
      )
      const paid = (await gateway.pay(created.id, 'success')) as Checkout
      expect(await gateway.order(created.id)).toMatchObject({ status: 'paid', amount_paid: 10000 })
      expect(await gateway.paymentsOfOrder(created.id)).toEqual([
        expect.objectContaining({
          id: failed.error.metadata.payment_id,
          status: 'failed',
          captured: false,
          error_code: 'BAD_REQUEST_ERROR',
        }),
        expect.objectContaining({ id: paid.razorpay_payment_id, status: 'captured', captured: true }),
      ])
    })

    it('refuses to pay a paid order or an unknown one, and to capture an unknown payment', async () => {
      const created = await order()
      await gateway.pay(created.id, 'success')
      for (const outcome of ['success', 'failure'] as const) {
        await expect(gateway.pay(created.id, outcome)).rejects.toEqual(
          refusedWith('Order has already been paid'),
        )
      }
      expect(await gateway.paymentsOfOrder(created.id)).toHaveLength(1)
      await expect(gateway.pay('order_Unknown0000000', 'success')).rejects.toEqual(
        refusedWith('The id provided does not exist'),
      )
      await expect(gateway.capture('pay_Unknown000000000')).rejects.toEqual(
        refusedWith('The id provided does not exist'),
      )
      expect(await gateway.payment('pay_Unknown000000000')).toBeNull()
      expect(await gateway.paymentsOfOrder('order_Unknown0000000')).toEqual([])
    })
  })

  describe('refunds', () => {
    it('in parts up to the amount paid; the payment refunded once all of it is', async () => {
      const created = await order(30000)
      const { razorpay_payment_id: paymentId } = (await gateway.pay(created.id, 'success')) as Checkout
      const first = await gateway.refund(paymentId, 10000)
      expect(first).toEqual({
        id: expect.stringMatching(/^rfnd_/),
        entity: 'refund',
        amount: 10000,
        payment_id: paymentId,
      })
      expect(await gateway.payment(paymentId)).toMatchObject({ status: 'captured', amount_refunded: 10000 })
      await expect(gateway.refund(paymentId, 20001)).rejects.toEqual(
        refusedWith('The total refund amount is greater than the payment amount'),
      )
      const rest = await gateway.refund(paymentId, 20000)
      expect(await gateway.payment(paymentId)).toMatchObject({
        status: 'refunded',
        captured: true,
        amount_refunded: 30000,
      })
      expect(await gateway.refundsOf(paymentId)).toEqual([
        { id: first.id, amount: 10000 },
        { id: rest.id, amount: 20000 },
      ])
      await expect(gateway.refund(paymentId, 1)).rejects.toEqual(
        refusedWith('The total refund amount is greater than the payment amount'),
      )
    })

    it('refuses a failed payment and an unknown one', async () => {
      const created = await order()
      const failed = (await gateway.pay(created.id, 'failure')) as Refusal
      await expect(gateway.refund(failed.error.metadata.payment_id, 100)).rejects.toEqual(
        refusedWith('The payment has not been captured'),
      )
      await expect(gateway.refund('pay_Unknown000000000', 100)).rejects.toEqual(
        refusedWith('The id provided does not exist'),
      )
      expect(await gateway.refundsOf(failed.error.metadata.payment_id)).toEqual([])
    })
  })

  describe('two gateways on one store (two app processes)', () => {
    it("each sees the other's orders, payments and refunds", async () => {
      const created = await order(20000, 'seen-by-both')
      expect(await other.order(created.id)).toEqual(created)
      const checkout = (await other.pay(created.id, 'success')) as Checkout
      expect(await gateway.order(created.id)).toMatchObject({ status: 'paid', amount_paid: 20000 })
      expect(await gateway.paymentsOfOrder(created.id)).toEqual([
        expect.objectContaining({ id: checkout.razorpay_payment_id, status: 'captured' }),
      ])
      expect(await gateway.capture(checkout.razorpay_payment_id)).toEqual(
        await other.payment(checkout.razorpay_payment_id),
      )
      await expect(gateway.pay(created.id, 'success')).rejects.toEqual(
        refusedWith('Order has already been paid'),
      )
      const refund = await gateway.refund(checkout.razorpay_payment_id, 5000)
      expect(await other.refundsOf(checkout.razorpay_payment_id)).toEqual([{ id: refund.id, amount: 5000 }])
      expect(await other.payment(checkout.razorpay_payment_id)).toMatchObject({ amount_refunded: 5000 })
    })

    it('an order paid from both at once, 10 times each, is paid once: one captured payment', async () => {
      const created = await order()
      const tries = Array.from({ length: 20 }, (_, i) => (i % 2 ? gateway : other).pay(created.id, 'success'))
      const outcomes = await Promise.allSettled(tries)
      const paid = outcomes.flatMap((o) => (o.status === 'fulfilled' ? [o.value as Checkout] : []))
      expect(paid).toHaveLength(1)
      for (const o of outcomes) {
        if (o.status === 'rejected') expect(o.reason).toEqual(refusedWith('Order has already been paid'))
      }
      const payments = await other.paymentsOfOrder(created.id)
      expect(payments).toEqual([
        expect.objectContaining({ id: paid[0]?.razorpay_payment_id, status: 'captured', amount: 49900 }),
      ])
      // capturing it from both at once answers the one payment, still captured once
      const captures = await Promise.all(
        Array.from({ length: 10 }, (_, i) => (i % 2 ? gateway : other).capture(payments[0]?.id as string)),
      )
      expect(new Set(captures.map((c) => JSON.stringify(c)))).toEqual(new Set([JSON.stringify(payments[0])]))
      expect(await gateway.paymentsOfOrder(created.id)).toEqual(payments)
    })

    it('refunds asked of both at once never pass the amount paid', async () => {
      const created = await order(30000)
      const { razorpay_payment_id: paymentId } = (await gateway.pay(created.id, 'success')) as Checkout
      const outcomes = await Promise.allSettled(
        Array.from({ length: 12 }, (_, i) => (i % 2 ? gateway : other).refund(paymentId, 10000)),
      )
      expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(3)
      for (const o of outcomes) {
        if (o.status === 'rejected') {
          expect(o.reason).toEqual(refusedWith('The total refund amount is greater than the payment amount'))
        }
      }
      expect(await other.refundsOf(paymentId)).toHaveLength(3)
      expect(await gateway.payment(paymentId)).toMatchObject({ status: 'refunded', amount_refunded: 30000 })
    })
  })
})

describe('createGateway', () => {
  it("keeps the local gateway's records in the pool's database when given one, else in a SQLite file", async () => {
    const config = testConfig()
    try {
      const shared = createGateway(config, (pools[0] as PgConnection).pool)
      const created = await shared.gateway.createOrder({
        amount: 10000,
        currency: 'INR',
        receipt: 'r',
        notes: {},
      })
      const elsewhere = open((pools[1] as PgConnection).pool)
      expect(await elsewhere.order(created.id)).toMatchObject({ id: created.id, amount: 10000 })
      expect(existsSync(join(config.dataDir, 'local-gateway.sqlite'))).toBe(false)
      // the pool is the app's: closing the gateway leaves it open
      shared.local?.close()
      expect((await (pools[0] as PgConnection).pool.query('SELECT 1 AS one')).rows).toEqual([{ one: 1 }])

      const own = createGateway(config)
      const mine = await own.gateway.createOrder({ amount: 10000, currency: 'INR', receipt: 'r', notes: {} })
      expect(existsSync(join(config.dataDir, 'local-gateway.sqlite'))).toBe(true)
      expect(await elsewhere.order(mine.id)).toBeNull()
      expect(await own.local?.order(mine.id)).toMatchObject({ id: mine.id })
      own.local?.close()
    } finally {
      rmSync(config.dataDir, { recursive: true, force: true })
    }
  })
})
