// Payments: the client's callback, the provider's webhook, the payments and holds workers, and
// the razorpay adapter against the local gateway's Razorpay-shaped REST API on a listening
// server. Exactly one ticket per paid order, whatever arrives twice, late or out of order.
import { createHmac } from 'node:crypto'
import { Queue } from 'bullmq'
import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { paymentConfirmer } from '../../server/booking/confirm.ts'
import type { JobRecord } from '../../server/jobs/port.ts'
import type { PaymentGateway } from '../../server/payments/port.ts'
import { razorpayAdapter } from '../../server/payments/razorpay.ts'
import { webhookAcceptor } from '../../server/payments/webhook.ts'
import { enqueueOwedJobs } from '../../server/reactions.ts'
import { holdsProcessor } from '../../workers/holds.ts'
import { paymentsProcessor } from '../../workers/payments.ts'
import { startWorkers } from '../../workers/processors.ts'
import { adminSession, bearer, organizerSession, type Session, signUp } from '../support/accounts.ts'
import { startApp, type TestApp } from '../support/app.ts'
import {
  availableOf,
  type Checkout,
  confirmPayment,
  countOf,
  createApprovedEvent,
  factsOf,
  hold,
  inventoryRow,
  lapseHold,
  orderRow,
  pay,
  ticketTypeOf,
  until,
} from '../support/events.ts'
import { readOutbox, waitForMail } from '../support/outbox.ts'
import { startServer, type TestServer } from '../support/server.ts'

/** the app's own holds processor, as its workers run it */
const holdsOf = (app: FastifyInstance) =>
  holdsProcessor({
    booking: app.services.booking,
    commands: app.services.bookingCommands,
    confirm: app.services.confirm,
    events: app.platform.store.queries.catalog,
    waitlist: app.services.waitlist,
    queue: app.services.queueCommands,
  })

/** the app's payments processor, or one asking another gateway (a provider that fails) */
const paymentsOf = (app: FastifyInstance, gateway: PaymentGateway = app.platform.gateway) => {
  const { booking, catalog, bookingCommands: commands } = app.services
  const confirm =
    gateway === app.platform.gateway
      ? app.services.confirm
      : paymentConfirmer({ gateway, booking, catalog, commands, ledger: app.platform.ledger })
  return paymentsProcessor({ gateway, commands, confirm })
}

const job = (name: string, data: unknown, attemptsMade = 0): JobRecord => ({
  id: `${name}-test`,
  name,
  data,
  attemptsMade,
})

const shuffled = <T>(list: T[]) =>
  list
    .map((item) => ({ item, key: Math.random() }))
    .sort((a, b) => a.key - b.key)
    .map(({ item }) => item)

/**
 * Keeps the local gateway's signed webhooks instead of delivering them in-process, so each test
 * decides when (and how often) they reach POST /payments/webhook over HTTP.
 */
function keepWebhooks(app: FastifyInstance) {
  const kept: Array<{ body: Buffer; signature: string; event: string; orderId: string }> = []
  app.platform.localGateway?.onWebhook((body, signature) => {
    const parsed = JSON.parse(body.toString('utf8'))
    kept.push({ body, signature, event: parsed.event, orderId: parsed.payload.payment.entity.order_id })
  })
  return {
    /** the webhook the gateway sent about this provider order */
    async of(providerOrderId: string, event = 'payment.captured') {
      let found: (typeof kept)[number] | undefined
      await until(() => {
        found = kept.find((w) => w.orderId === providerOrderId && w.event === event)
        return found !== undefined
      })
      return found as (typeof kept)[number]
    },
    restore() {
      const accept = webhookAcceptor({ ...app.platform, ...app.services })
      app.platform.localGateway?.onWebhook(async (body, signature) => {
        await accept(body, signature)
      })
    },
  }
}

const postWebhook = (app: FastifyInstance, body: Buffer | string, signature?: string) =>
  app.inject({
    method: 'POST',
    url: '/api/v1/payments/webhook',
    headers: {
      'content-type': 'application/json',
      ...(signature ? { 'x-razorpay-signature': signature } : {}),
    },
    payload: body,
  })

const sign = (secret: string, body: Buffer | string) =>
  createHmac('sha256', secret).update(body).digest('hex')

const issuedMails = (t: TestApp, ticketId: string) =>
  readOutbox(t.config.outboxDir).filter(
    (m) => m.subject.startsWith('Your tickets for') && m.text.includes(`Ticket number: ${ticketId}`),
  )

describe('with the local gateway (workers inline on real Redis)', () => {
  let t: TestApp
  let app: FastifyInstance
  let admin: Session
  let organizer: Session
  let webhooks: ReturnType<typeof keepWebhooks>
  beforeAll(async () => {
    t = await startApp({ RATE_LIMITS: 'off' })
    app = t.app
    admin = await adminSession(app)
    organizer = await organizerSession(app, 'Meera')
    webhooks = keepWebhooks(app)
  })
  afterAll(async () => {
    await t.close()
  })

  describe('POST /ticket/handlePaymentSuccess', () => {
    it('issues the ticket: {message, ticket} Completed, one PaymentCaptured and one TicketsIssued, a confirmation mail', async () => {
      const event = await createApprovedEvent(app, organizer, admin)
      const vip = ticketTypeOf(event, 'VIP')
      const buyer = await signUp(app, 'Asha')
      const placed = await hold(app, buyer, event, 'VIP', 2)
      const checkout = await pay(app, buyer, placed)
      expect(checkout).toEqual({
        razorpay_payment_id: expect.stringMatching(/^pay_/),
        razorpay_order_id: placed.orderId,
        razorpay_signature: sign(
          t.config.payments.keySecret,
          `${placed.orderId}|${checkout.razorpay_payment_id}`,
        ),
      })

      const res = await confirmPayment(app, buyer, checkout)

      expect(res.statusCode, res.body).toBe(200)
      expect(res.json()).toEqual({
        message: 'Booking Successful!',
        ticket: {
          _id: placed.ticketId,
          eventId: event._id,
          userId: buyer.id,
          ticketType: 'VIP',
          quantity: 2,
          totalAmount: 2998,
          paymentStatus: 'Completed',
        },
      })
      const facts = await app.platform.ledger.readStream(`order-${placed.ticketId}`)
      expect(facts.map((f) => f.type)).toEqual(['TicketsHeld', 'PaymentCaptured', 'TicketsIssued'])
      expect(facts[1]?.data).toEqual({
        orderId: placed.ticketId,
        paymentId: checkout.razorpay_payment_id,
        amountPaise: 299800,
        method: 'card',
      })
      expect(facts[2]?.data).toEqual({
        orderId: placed.ticketId,
        ownerId: buyer.id,
        eventId: event._id,
        ticketTypeId: vip._id,
        quantity: 2,
        amountPaise: 299800,
        afterExpiry: false,
      })
      expect(await orderRow(app, placed.ticketId)).toMatchObject({
        status: 'issued',
        paymentStatus: 'Completed',
        ownerId: buyer.id,
        paymentId: checkout.razorpay_payment_id,
      })
      expect(await inventoryRow(app, vip._id)).toMatchObject({ held: 0, sold: 2 })
      expect(await availableOf(app, event._id, 'VIP')).toBe(18)
      const mail = await waitForMail(t.config.outboxDir, (m) => m.to.includes(buyer.email))
      expect(mail.subject).toBe('Your tickets for Raga Nights')
      expect(mail.text).toContain('Your booking is confirmed.')
      expect(mail.text).toContain('Ticket: 2 × VIP')
      expect(mail.text).toContain('Total: ₹2,998')
      expect(mail.text).toContain(`Ticket number: ${placed.ticketId}`)
      expect(res.body).not.toContain(t.config.payments.keySecret)
      expect(res.body).not.toContain(t.config.payments.webhookSecret)
    })

    it("also takes the checkout's own razorpay_* field names", async () => {
      const event = await createApprovedEvent(app, organizer, admin)
      const buyer = await signUp(app, 'Bala')
      const placed = await hold(app, buyer, event)
      const checkout = await pay(app, buyer, placed)
      const res = await app.inject({
        method: 'POST',
        url: '/api/v1/ticket/handlePaymentSuccess',
        headers: bearer(buyer.token),
        payload: checkout,
      })
      expect(res.statusCode, res.body).toBe(200)
      expect(res.json().ticket).toMatchObject({ _id: placed.ticketId, paymentStatus: 'Completed' })
    })

    it('answers a replayed callback (again, and 5 at once) with the same ticket, issuing it once', async () => {
      const event = await createApprovedEvent(app, organizer, admin)
      const buyer = await signUp(app, 'Chitra')
      const placed = await hold(app, buyer, event)
      const checkout = await pay(app, buyer, placed)
      const first = await confirmPayment(app, buyer, checkout)
      expect(first.statusCode).toBe(200)

      const replays = [
        await confirmPayment(app, buyer, checkout),
        ...(await Promise.all(Array.from({ length: 5 }, () => confirmPayment(app, buyer, checkout)))),
      ]

      for (const res of replays) {
        expect(res.statusCode, res.body).toBe(200)
        expect(res.json()).toEqual(first.json())
      }
      await new Promise((r) => setTimeout(r, 300))
      expect(await factsOf(app, placed.ticketId)).toEqual(['TicketsHeld', 'PaymentCaptured', 'TicketsIssued'])
      expect(await inventoryRow(app, ticketTypeOf(event, 'General Admission')._id)).toMatchObject({
        held: 0,
        sold: 1,
      })
      await until(() => issuedMails(t, placed.ticketId).length > 0)
      await new Promise((r) => setTimeout(r, 300))
      expect(issuedMails(t, placed.ticketId)).toHaveLength(1)
    })

    it('answers a callback replayed after the ticket was cancelled with that ticket as it is now, not a refund for seats sold out', async () => {
      const event = await createApprovedEvent(app, organizer, admin)
      const buyer = await signUp(app, 'Charu')
      const placed = await hold(app, buyer, event)
      const checkout = await pay(app, buyer, placed)
      expect((await confirmPayment(app, buyer, checkout)).statusCode).toBe(200)
      const cancelled = await app.inject({
        method: 'DELETE',
        url: `/api/v1/ticket/cancel/${placed.ticketId}`,
        headers: bearer(buyer.token),
      })
      expect(cancelled.statusCode, cancelled.body).toBe(200)
      const head = await app.platform.ledger.head()

      const replay = await confirmPayment(app, buyer, checkout)

      const now = await app.inject({
        method: 'GET',
        url: `/api/v1/ticket/getTicketbyId/${placed.ticketId}`,
        headers: bearer(buyer.token),
      })
      expect(replay.statusCode, replay.body).toBe(200)
      expect(replay.json()).toEqual({ message: 'Booking Successful!', ticket: now.json() })
      expect(now.json().paymentStatus).not.toBe('Completed')
      expect(await app.platform.ledger.head()).toBe(head)
    })

    it('five concurrent first callbacks issue one ticket', async () => {
      const event = await createApprovedEvent(app, organizer, admin)
      const buyer = await signUp(app, 'Deepa')
      const placed = await hold(app, buyer, event)
      const checkout = await pay(app, buyer, placed)

      const all = await Promise.all(Array.from({ length: 5 }, () => confirmPayment(app, buyer, checkout)))

      for (const res of all) {
        expect(res.statusCode, res.body).toBe(200)
        expect(res.json().ticket).toMatchObject({ _id: placed.ticketId, paymentStatus: 'Completed' })
      }
      expect(await factsOf(app, placed.ticketId)).toEqual(['TicketsHeld', 'PaymentCaptured', 'TicketsIssued'])
    })

    it('answers 400 to a forged signature, and nothing changes', async () => {
      const event = await createApprovedEvent(app, organizer, admin)
      const buyer = await signUp(app, 'Esha')
      const placed = await hold(app, buyer, event)
      // another order of the same buyer (another event: a new checkout for the same one replaces it)
      const other = await hold(app, buyer, await createApprovedEvent(app, organizer, admin))
      const otherCheckout = await pay(app, buyer, other)
      const before = await orderRow(app, placed.ticketId)

      const forgeries: Array<Partial<{ paymentId: string; orderId: string; signature: string }>> = [
        // made up, signed with a guessed secret
        {
          paymentId: 'pay_FORGED0000000',
          signature: sign('not-the-key-secret', `${placed.orderId}|pay_FORGED0000000`),
        },
        // a genuine signature, but for another order of the same buyer
        { orderId: placed.orderId },
        // a genuine signature with its last character changed
        { orderId: placed.orderId, signature: `${otherCheckout.razorpay_signature.slice(0, -1)}0` },
        { orderId: placed.orderId, signature: 'short' },
      ]
      for (const forged of forgeries) {
        const res = await confirmPayment(app, buyer, otherCheckout, forged)
        expect(res.statusCode, res.body).toBe(400)
        expect(res.json()).toEqual({ message: 'Payment verification failed.' })
      }
      await new Promise((r) => setTimeout(r, 300))
      expect(await factsOf(app, placed.ticketId)).toEqual(['TicketsHeld'])
      expect(await orderRow(app, placed.ticketId)).toEqual(before)
      expect(await app.platform.localGateway?.paymentsOfOrder(placed.orderId)).toEqual([])
    })

    it("answers 404 for someone else's order and for an unknown order, and nothing changes", async () => {
      const event = await createApprovedEvent(app, organizer, admin)
      const buyer = await signUp(app, 'Farah')
      const intruder = await signUp(app, 'Gita')
      const placed = await hold(app, buyer, event)
      const checkout = await pay(app, buyer, placed)

      const theirs = await confirmPayment(app, intruder, checkout)
      expect(theirs.statusCode).toBe(404)
      expect(theirs.json()).toEqual({ message: 'Order not found.' })
      const unknown = await confirmPayment(app, buyer, checkout, { orderId: 'order_DoesNotExist00' })
      expect(unknown.statusCode).toBe(404)
      expect(unknown.json()).toEqual({ message: 'Order not found.' })
      // the intruder cannot pay for it at the gateway in the buyer's name either
      const payAsIntruder = await app.inject({
        method: 'POST',
        url: '/api/v1/payments/local/pay',
        headers: bearer(intruder.token),
        payload: { orderId: placed.orderId, outcome: 'success' },
      })
      expect(payAsIntruder.statusCode).toBe(404)

      await new Promise((r) => setTimeout(r, 300))
      expect(await factsOf(app, placed.ticketId)).toEqual(['TicketsHeld'])
      expect(await orderRow(app, placed.ticketId)).toMatchObject({
        status: 'held',
        paymentStatus: 'Pending',
        paymentId: null,
      })
    })

    it('a payment failed at the gateway: PaymentFailed, seats back on sale, paymentStatus Failed', async () => {
      const event = await createApprovedEvent(app, organizer, admin)
      const ga = ticketTypeOf(event, 'General Admission')
      const buyer = await signUp(app, 'Hari')
      const placed = await hold(app, buyer, event, 'General Admission', 3)
      expect(await availableOf(app, event._id, 'General Admission')).toBe(97)

      const declined = await app.inject({
        method: 'POST',
        url: '/api/v1/payments/local/pay',
        headers: bearer(buyer.token),
        payload: { orderId: placed.orderId, outcome: 'failure' },
      })
      expect(declined.statusCode).toBe(402)
      expect(declined.json()).toMatchObject({
        message: 'Payment failed.',
        error: {
          code: 'BAD_REQUEST_ERROR',
          reason: 'payment_failed',
          metadata: { order_id: placed.orderId, payment_id: expect.stringMatching(/^pay_/) },
        },
      })
      const webhook = await webhooks.of(placed.orderId, 'payment.failed')
      const delivered = await postWebhook(app, webhook.body, webhook.signature)
      expect(delivered.statusCode).toBe(200)
      expect(delivered.json()).toEqual({ status: 'ok', accepted: true })

      await until(async () => (await factsOf(app, placed.ticketId)).includes('PaymentFailed'))
      const facts = await app.platform.ledger.readStream(`order-${placed.ticketId}`)
      expect(facts.map((f) => f.type)).toEqual(['TicketsHeld', 'PaymentFailed'])
      expect(facts[1]?.data).toEqual({
        orderId: placed.ticketId,
        paymentId: declined.json().error.metadata.payment_id,
        reason: 'Payment was declined by the test card.',
      })
      expect(await orderRow(app, placed.ticketId)).toMatchObject({
        status: 'failed',
        paymentStatus: 'Failed',
      })
      expect(await inventoryRow(app, ga._id)).toMatchObject({ held: 0, sold: 0 })
      expect(await availableOf(app, event._id, 'General Admission')).toBe(100)
      const shown = await app.inject({
        method: 'GET',
        url: `/api/v1/ticket/getTicketbyId/${placed.ticketId}`,
        headers: bearer(buyer.token),
      })
      expect(shown.json()).toMatchObject({ _id: placed.ticketId, paymentStatus: 'Failed' })
    })

    it('sends one confirmation mail per issued ticket', async () => {
      const event = await createApprovedEvent(app, organizer, admin)
      const buyer = await signUp(app, 'Indu')
      const ids: string[] = []
      for (const type of ['VIP', 'General Admission']) {
        const placed = await hold(app, buyer, event, type, 1)
        expect((await confirmPayment(app, buyer, await pay(app, buyer, placed))).statusCode).toBe(200)
        ids.push(placed.ticketId)
      }
      await until(() => ids.every((id) => issuedMails(t, id).length > 0))
      await new Promise((r) => setTimeout(r, 300))
      for (const id of ids) expect(issuedMails(t, id)).toHaveLength(1)
      expect(readOutbox(t.config.outboxDir).filter((m) => m.to.includes(buyer.email))).toHaveLength(2)
    })
  })

  describe('a payment that arrives after its hold expired', () => {
    it('is honoured while the seats are still there', async () => {
      const event = await createApprovedEvent(app, organizer, admin, [
        { type: 'VIP', price: 1499, quantity: 1 },
      ])
      const vip = ticketTypeOf(event, 'VIP')
      const buyer = await signUp(app, 'Jai')
      const placed = await hold(app, buyer, event, 'VIP', 1)
      await lapseHold(app, placed.ticketId)
      expect(await holdsOf(app)(job('expire', { orderId: placed.ticketId }))).toEqual({
        released: true,
      })
      expect(await availableOf(app, event._id, 'VIP')).toBe(1)
      const checkout = await pay(app, buyer, placed)

      const res = await confirmPayment(app, buyer, checkout)

      await until(async () => (await factsOf(app, placed.ticketId)).includes('TicketsIssued'))
      const facts = await app.platform.ledger.readStream(`order-${placed.ticketId}`)
      expect(facts.map((f) => f.type)).toEqual([
        'TicketsHeld',
        'HoldExpired',
        'PaymentCaptured',
        'TicketsIssued',
      ])
      expect(facts[3]?.data).toMatchObject({ ownerId: buyer.id, afterExpiry: true })
      expect(await orderRow(app, placed.ticketId)).toMatchObject({
        status: 'issued',
        paymentStatus: 'Completed',
      })
      expect(await inventoryRow(app, vip._id)).toMatchObject({ held: 0, sold: 1 })
      expect(await availableOf(app, event._id, 'VIP')).toBe(0)
      // the buyer is told of the ticket, not of a failure
      expect(res.statusCode, res.body).toBe(200)
      expect(res.json()).toMatchObject({ message: 'Booking Successful!', ticket: { _id: placed.ticketId } })
    })

    it('is refunded through the gateway when the seats were sold meanwhile', async () => {
      const event = await createApprovedEvent(app, organizer, admin, [
        { type: 'VIP', price: 1499, quantity: 1 },
      ])
      const vip = ticketTypeOf(event, 'VIP')
      const late = await signUp(app, 'Kavya')
      const quick = await signUp(app, 'Lata')
      const placed = await hold(app, late, event, 'VIP', 1)
      await lapseHold(app, placed.ticketId)
      await holdsOf(app)(job('expire', { orderId: placed.ticketId }))
      const taken = await hold(app, quick, event, 'VIP', 1)
      expect((await confirmPayment(app, quick, await pay(app, quick, taken))).statusCode).toBe(200)
      const checkout = await pay(app, late, placed)

      const res = await confirmPayment(app, late, checkout)

      await until(async () => (await factsOf(app, placed.ticketId)).includes('PaymentRefunded'))
      const facts = await app.platform.ledger.readStream(`order-${placed.ticketId}`)
      expect(facts.map((f) => f.type)).toEqual([
        'TicketsHeld',
        'HoldExpired',
        'PaymentCaptured',
        'RefundRequested',
        'PaymentRefunded',
      ])
      const paymentId = checkout.razorpay_payment_id
      expect(facts[3]?.data).toEqual({
        orderId: placed.ticketId,
        paymentId,
        amountPaise: 149900,
        reason: 'sold out after hold expired',
      })
      const refunds = await app.platform.localGateway?.refundsOf(paymentId)
      expect(refunds).toEqual([{ id: expect.stringMatching(/^rfnd_/), amount: 149900 }])
      expect(facts[4]?.data).toMatchObject({ paymentId, refundId: refunds?.[0]?.id })
      expect(await app.platform.localGateway?.payment(paymentId)).toMatchObject({
        status: 'refunded',
        amount_refunded: 149900,
      })
      expect(await orderRow(app, placed.ticketId)).toMatchObject({
        status: 'expired',
        ownerId: null,
        refund: 'refunded',
      })
      expect(await inventoryRow(app, vip._id)).toMatchObject({ held: 0, sold: 1 })
      expect(await availableOf(app, event._id, 'VIP')).toBe(0)
      // the late buyer is told the payment will come back
      expect(res.statusCode, res.body).toBe(409)
      expect(res.json()).toEqual({
        message:
          'Your seats were released before the payment arrived and are sold out; the payment will be refunded.',
      })
    })
  })

  describe('POST /payments/webhook', () => {
    it('answers 400 to a bad or missing signature, and nothing changes', async () => {
      const event = await createApprovedEvent(app, organizer, admin)
      const buyer = await signUp(app, 'Mohan')
      const placed = await hold(app, buyer, event)
      await pay(app, buyer, placed)
      const genuine = await webhooks.of(placed.orderId)
      const tampered = Buffer.from(
        genuine.body.toString('utf8').replace('"payment.captured"', '"payment.captured" '),
      )

      for (const [body, signature] of [
        [genuine.body, sign('not-the-webhook-secret', genuine.body)],
        [genuine.body, undefined],
        [genuine.body, ''],
        [tampered, genuine.signature],
      ] as const) {
        const res = await postWebhook(app, body, signature)
        expect(res.statusCode, res.body).toBe(400)
        expect(res.json()).toEqual({ message: 'Invalid webhook signature.' })
      }
      await new Promise((r) => setTimeout(r, 300))
      expect(await factsOf(app, placed.ticketId)).toEqual(['TicketsHeld'])
      expect(await orderRow(app, placed.ticketId)).toMatchObject({ status: 'held', paymentId: null })
    })

    it('a valid payment.captured webhook alone (no client callback) issues the ticket', async () => {
      const event = await createApprovedEvent(app, organizer, admin)
      const buyer = await signUp(app, 'Nandini')
      const placed = await hold(app, buyer, event, 'VIP', 1)
      const checkout = await pay(app, buyer, placed)
      const webhook = await webhooks.of(placed.orderId)
      expect(webhook.signature).toBe(sign(t.config.payments.webhookSecret, webhook.body))

      const res = await postWebhook(app, webhook.body, webhook.signature)

      expect(res.statusCode).toBe(200)
      expect(res.json()).toEqual({ status: 'ok', accepted: true })
      await until(async () => (await factsOf(app, placed.ticketId)).includes('TicketsIssued'))
      expect(await factsOf(app, placed.ticketId)).toEqual(['TicketsHeld', 'PaymentCaptured', 'TicketsIssued'])
      expect(await orderRow(app, placed.ticketId)).toMatchObject({
        status: 'issued',
        paymentStatus: 'Completed',
        paymentId: checkout.razorpay_payment_id,
      })
      await waitForMail(t.config.outboxDir, (m) => m.to.includes(buyer.email))
    })

    it('accepts, and ignores, a well-signed webhook about an order it does not know', async () => {
      const body = JSON.stringify({
        entity: 'event',
        event: 'payment.captured',
        payload: { payment: { entity: { id: 'pay_Unknown000000', order_id: 'order_Unknown00000' } } },
      })
      const res = await postWebhook(app, body, sign(t.config.payments.webhookSecret, body))
      expect(res.statusCode).toBe(200)
      expect(res.json()).toEqual({ status: 'ok', accepted: false, reason: 'unknown order' })
    })

    it('webhook and callback for one payment, each 3 times at once and out of order, issue one ticket', async () => {
      const event = await createApprovedEvent(app, organizer, admin)
      const buyer = await signUp(app, 'Omana')
      const placed = await hold(app, buyer, event, 'VIP', 2)
      const checkout = await pay(app, buyer, placed)
      const webhook = await webhooks.of(placed.orderId)

      const calls = shuffled([
        ...Array.from({ length: 3 }, () => () => postWebhook(app, webhook.body, webhook.signature)),
        ...Array.from({ length: 3 }, () => () => confirmPayment(app, buyer, checkout)),
      ])
      const answers = await Promise.all(calls.map((call) => call()))

      for (const res of answers) {
        expect(res.statusCode, res.body).toBe(200)
        if ('ticket' in res.json()) expect(res.json().ticket).toMatchObject({ _id: placed.ticketId })
        else expect(res.json()).toEqual({ status: 'ok', accepted: true })
      }
      await new Promise((r) => setTimeout(r, 300))
      expect(await factsOf(app, placed.ticketId)).toEqual(['TicketsHeld', 'PaymentCaptured', 'TicketsIssued'])
      expect(await inventoryRow(app, ticketTypeOf(event, 'VIP')._id)).toMatchObject({ held: 0, sold: 2 })
      await until(() => issuedMails(t, placed.ticketId).length > 0)
      await new Promise((r) => setTimeout(r, 300))
      expect(issuedMails(t, placed.ticketId)).toHaveLength(1)
    })
  })

  it('no reply carries the key secret or the webhook secret', async () => {
    const event = await createApprovedEvent(app, organizer, admin)
    const buyer = await signUp(app, 'Pavan')
    const created = await app.inject({
      method: 'POST',
      url: '/api/v1/ticket/create',
      headers: bearer(buyer.token),
      payload: { eventId: event._id, ticketType: 'VIP', quantity: 1 },
    })
    const paid = await app.inject({
      method: 'POST',
      url: '/api/v1/payments/local/pay',
      headers: bearer(buyer.token),
      payload: { orderId: created.json().orderId, outcome: 'success' },
    })
    const confirmed = await confirmPayment(app, buyer, paid.json() as Checkout)
    const docs = await app.inject({ method: 'GET', url: '/api/v1/openapi.json' })
    expect(docs.statusCode).toBe(200)
    for (const res of [created, paid, confirmed, docs]) {
      expect(res.body).not.toContain(t.config.payments.keySecret)
      expect(res.body).not.toContain(t.config.payments.webhookSecret)
    }
  })
})

describe('workers, run by hand (WORKERS=off: jobs wait in Redis until a test runs them)', () => {
  let t: TestApp
  let app: FastifyInstance
  let admin: Session
  let organizer: Session
  beforeAll(async () => {
    t = await startApp({ RATE_LIMITS: 'off', WORKERS: 'off', PAYMENT_WAIT_SECONDS: '1' })
    app = t.app
    admin = await adminSession(app)
    organizer = await organizerSession(app, 'Ravi')
  })
  afterAll(async () => {
    await t.close()
  })

  describe('a new checkout for the same event (issue 11)', () => {
    it('turns a hold paid at the provider but not yet confirmed into its ticket, and replaces nothing', async () => {
      const event = await createApprovedEvent(app, organizer, admin)
      const buyer = await signUp(app, 'Uma')
      const first = await hold(app, buyer, event, 'VIP', 1)
      await pay(app, buyer, first) // nothing runs the queued confirmation (WORKERS=off)
      expect(await factsOf(app, first.ticketId)).toEqual(['TicketsHeld'])

      const second = await hold(app, buyer, event, 'VIP', 2)

      expect(second).not.toHaveProperty('replacedTicketIds')
      expect(await factsOf(app, first.ticketId)).toEqual(['TicketsHeld', 'PaymentCaptured', 'TicketsIssued'])
      expect(await inventoryRow(app, ticketTypeOf(event, 'VIP')._id)).toMatchObject({ held: 2, sold: 1 })
    })

    it('asks the provider again, after Redis forgot, about a hold released unpaid', async () => {
      const event = await createApprovedEvent(app, organizer, admin)
      const buyer = await signUp(app, 'Usha')
      const placed = await hold(app, buyer, event, 'VIP', 1)
      await pay(app, buyer, placed) // accepted at the provider; its confirmation waits in Redis
      const gaveUp = await app.inject({
        method: 'DELETE',
        url: `/api/v1/ticket/cancel/${placed.ticketId}`,
        headers: bearer(buyer.token),
      })
      expect(gaveUp.statusCode, gaveUp.body).toBe(200)
      expect(await factsOf(app, placed.ticketId)).toEqual(['TicketsHeld', 'PaymentFailed'])
      const payments = new Queue('payments', {
        connection: { host: '127.0.0.1', port: 6379 },
        prefix: t.config.queuePrefix,
      })
      try {
        await payments.obliterate({ force: true }) // a Redis that lost its data
        await enqueueOwedJobs({ platform: app.platform, ...app.services })
        const owed = (await payments.getJobs(['waiting', 'delayed', 'prioritized'])).filter(
          (j) => j.name === 'confirm' && j.data.orderId === placed.ticketId,
        )
        expect(owed).toHaveLength(1)
        await paymentsOf(app)(job('confirm', { orderId: placed.ticketId }))
      } finally {
        await payments.close()
      }
      // paid after its seats went back: honoured, as they are still there
      expect(await factsOf(app, placed.ticketId)).toEqual([
        'TicketsHeld',
        'PaymentFailed',
        'PaymentCaptured',
        'TicketsIssued',
      ])
    })
  })

  describe("payments worker ('confirm')", () => {
    it('run again for the same order, as after a crash mid-job, still captures once and issues one ticket', async () => {
      const event = await createApprovedEvent(app, organizer, admin)
      const buyer = await signUp(app, 'Sara')
      const placed = await hold(app, buyer, event, 'VIP', 1)
      const checkout = await pay(app, buyer, placed)
      // nothing runs the queued confirm job: the callback answers 202 after PAYMENT_WAIT_SECONDS
      const waiting = await confirmPayment(app, buyer, checkout)
      expect(waiting.statusCode).toBe(202)
      expect(waiting.json()).toEqual({ message: 'Payment received. Your ticket is being issued.' })
      expect(await factsOf(app, placed.ticketId)).toEqual(['TicketsHeld'])
      const processor = paymentsOf(app)
      const confirm = job('confirm', { orderId: placed.ticketId })

      // a first attempt dies before it hears from the provider
      const down = paymentsOf(app, {
        ...app.platform.gateway,
        paymentsOfOrder: async () => {
          throw new Error('socket hang up')
        },
      })
      await expect(down(confirm)).rejects.toThrow('socket hang up')
      expect(await factsOf(app, placed.ticketId)).toEqual(['TicketsHeld'])
      // the retry succeeds; a worker restarted after appending runs it once more, twice at once
      expect(await processor({ ...confirm, attemptsMade: 1 })).toEqual({ payments: 1 })
      await Promise.all([
        processor({ ...confirm, attemptsMade: 2 }),
        processor({ ...confirm, attemptsMade: 2 }),
      ])
      expect(await processor({ ...confirm, attemptsMade: 3 })).toEqual({ payments: 1 })

      expect(await factsOf(app, placed.ticketId)).toEqual(['TicketsHeld', 'PaymentCaptured', 'TicketsIssued'])
      expect(await inventoryRow(app, ticketTypeOf(event, 'VIP')._id)).toMatchObject({ held: 0, sold: 1 })
      const res = await confirmPayment(app, buyer, checkout)
      expect(res.statusCode).toBe(200)
      expect(res.json().ticket).toMatchObject({ _id: placed.ticketId, paymentStatus: 'Completed' })
    })

    it('a declined attempt then a paid one on the same order (read together) issue the ticket once', async () => {
      const event = await createApprovedEvent(app, organizer, admin)
      const buyer = await signUp(app, 'Tara')
      const placed = await hold(app, buyer, event, 'VIP', 1)
      await pay(app, buyer, placed, 'failure')
      const checkout = await pay(app, buyer, placed, 'success')
      const processor = paymentsOf(app)

      expect(await processor(job('confirm', { orderId: placed.ticketId }))).toEqual({ payments: 2 })
      await processor(job('confirm', { orderId: placed.ticketId }, 1))

      // captures are applied before failures, so the declined attempt no longer releases the seats
      expect(await factsOf(app, placed.ticketId)).toEqual(['TicketsHeld', 'PaymentCaptured', 'TicketsIssued'])
      expect(await orderRow(app, placed.ticketId)).toMatchObject({
        status: 'issued',
        paymentId: checkout.razorpay_payment_id,
      })
      expect(await inventoryRow(app, ticketTypeOf(event, 'VIP')._id)).toMatchObject({ held: 0, sold: 1 })
    })
  })

  describe("payments worker ('refund')", () => {
    it('a refund retried after the provider refunded but before PaymentRefunded was appended still records it', async () => {
      const event = await createApprovedEvent(app, organizer, admin)
      const buyer = await signUp(app, 'Usha')
      const placed = await hold(app, buyer, event)
      await pay(app, buyer, placed)
      const processor = paymentsOf(app)
      await processor(job('confirm', { orderId: placed.ticketId }))
      const cancelled = await app.inject({
        method: 'DELETE',
        url: `/api/v1/ticket/cancel/${placed.ticketId}`,
        headers: bearer(buyer.token),
      })
      expect(cancelled.statusCode).toBe(200)
      const requested = (await app.platform.ledger.readStream(`order-${placed.ticketId}`)).find(
        (f) => f.type === 'RefundRequested',
      )
      const data = requested?.data as { orderId: string; paymentId: string; amountPaise: number }
      // the first attempt reached the provider, then the worker died before appending
      await app.platform.gateway.refund(data.paymentId, 49900)

      const retry = processor(job('refund', data, 1))

      await expect(retry).resolves.toBeDefined()
      expect(await app.platform.localGateway?.refundsOf(data.paymentId)).toHaveLength(1)
      expect((await factsOf(app, placed.ticketId)).at(-1)).toBe('PaymentRefunded')
    })

    it('a refund job enqueued before money was kept in paise (amount in rupees) refunds the same paise', async () => {
      const event = await createApprovedEvent(app, organizer, admin, [
        { type: 'General Admission', price: 100, quantity: 10 },
        { type: 'VIP', price: 19.99, quantity: 10 },
      ])
      const buyer = await signUp(app, 'Vani')
      const placed = await hold(app, buyer, event, 'VIP', 3)
      await pay(app, buyer, placed)
      const processor = paymentsOf(app)
      await processor(job('confirm', { orderId: placed.ticketId }))
      const cancelled = await app.inject({
        method: 'DELETE',
        url: `/api/v1/ticket/cancel/${placed.ticketId}`,
        headers: bearer(buyer.token),
      })
      expect(cancelled.statusCode).toBe(200)
      const paymentId = (await orderRow(app, placed.ticketId))?.paymentId as string

      // as the old dispatcher enqueued it: 3 × ₹19.99 in rupees
      await processor(job('refund', { orderId: placed.ticketId, paymentId, amount: 59.97 }))

      expect(await app.platform.localGateway?.refundsOf(paymentId)).toEqual([
        { id: expect.stringMatching(/^rfnd_/), amount: 5997 },
      ])
      expect((await factsOf(app, placed.ticketId)).at(-1)).toBe('PaymentRefunded')
      // and the job of today's shape, run again, pays nothing twice
      await processor(job('refund', { orderId: placed.ticketId, paymentId, amountPaise: 5997 }, 1))
      expect(await app.platform.localGateway?.refundsOf(paymentId)).toHaveLength(1)
    })
  })

  describe("holds worker ('expire')", () => {
    it('releases an unpaid hold only once its time is up', async () => {
      const event = await createApprovedEvent(app, organizer, admin, [
        { type: 'VIP', price: 1499, quantity: 4 },
      ])
      const vip = ticketTypeOf(event, 'VIP')
      const buyer = await signUp(app, 'Varun')
      const placed = await hold(app, buyer, event, 'VIP', 3)
      const expire = holdsOf(app)

      expect(await expire(job('expire', { orderId: placed.ticketId }))).toEqual({ released: false })
      expect(await factsOf(app, placed.ticketId)).toEqual(['TicketsHeld'])
      expect(await availableOf(app, event._id, 'VIP')).toBe(1)

      await lapseHold(app, placed.ticketId)
      expect(await expire(job('expire', { orderId: placed.ticketId }))).toEqual({ released: true })
      expect(await expire(job('expire', { orderId: placed.ticketId }))).toEqual({ released: false })

      expect(await factsOf(app, placed.ticketId)).toEqual(['TicketsHeld', 'HoldExpired'])
      expect(await orderRow(app, placed.ticketId)).toMatchObject({
        status: 'expired',
        paymentStatus: 'Failed',
      })
      expect(await inventoryRow(app, vip._id)).toMatchObject({ held: 0, sold: 0 })
      expect(await availableOf(app, event._id, 'VIP')).toBe(4)
    })

    it('leaves a paid order alone, even past its deadline', async () => {
      const event = await createApprovedEvent(app, organizer, admin)
      const buyer = await signUp(app, 'Wasim')
      const placed = await hold(app, buyer, event)
      await pay(app, buyer, placed)
      await paymentsOf(app)(job('confirm', { orderId: placed.ticketId }))
      await lapseHold(app, placed.ticketId)
      expect(await holdsOf(app)(job('expire', { orderId: placed.ticketId }))).toEqual({
        released: false,
      })
      expect(await factsOf(app, placed.ticketId)).toEqual(['TicketsHeld', 'PaymentCaptured', 'TicketsIssued'])
    })

    it('refuses a malformed or unknown job without retrying it', async () => {
      const expire = holdsOf(app)
      await expect(expire(job('expire', {}))).rejects.toThrow(/malformed/)
      await expect(expire(job('shred', { orderId: 'x' }))).rejects.toThrow(/unknown holds job/)
    })
  })

  describe('startWorkers', () => {
    it('releases every hold past its expiry when the workers start, and no other', async () => {
      const event = await createApprovedEvent(app, organizer, admin, [
        { type: 'VIP', price: 1499, quantity: 5 },
      ])
      // three buyers: one buyer's new checkout for an event replaces their previous hold
      const lapsed = [
        await hold(app, await signUp(app, 'Yamini'), event, 'VIP', 1),
        await hold(app, await signUp(app, 'Yash'), event, 'VIP', 2),
      ]
      const running = await hold(app, await signUp(app, 'Yuvan'), event, 'VIP', 1)
      for (const placed of lapsed) await lapseHold(app, placed.ticketId)
      expect(await availableOf(app, event._id, 'VIP')).toBe(1)

      const stopWorkers = startWorkers({ platform: app.platform, ...app.services })
      // the sweep at start: done at once on SQLite, within moments on PostgreSQL (its next is 30 s away)
      await until(async () => {
        const streams = await Promise.all(lapsed.map((placed) => factsOf(app, placed.ticketId)))
        return streams.every((types) => types.includes('HoldExpired'))
      }, 5000)

      for (const placed of lapsed)
        expect(await factsOf(app, placed.ticketId)).toEqual(['TicketsHeld', 'HoldExpired'])
      expect(await factsOf(app, running.ticketId)).toEqual(['TicketsHeld'])
      expect(await availableOf(app, event._id, 'VIP')).toBe(4)
      await stopWorkers()
    })
  })
})

describe('razorpay adapter against the local gateway REST API (listening server)', () => {
  const secrets = {
    RAZORPAY_KEY_ID: 'rzp_test_gateway',
    RAZORPAY_KEY_SECRET: 'gateway-key-secret-1234',
    RAZORPAY_WEBHOOK_SECRET: 'gateway-webhook-secret-1234',
  }
  let gatewayServer: TestServer
  let adapter: ReturnType<typeof razorpayAdapter>
  const delivered: Array<{ body: Buffer; signature: string }> = []
  beforeAll(async () => {
    gatewayServer = await startServer({ RATE_LIMITS: 'off', ...secrets })
    gatewayServer.app.platform.localGateway?.onWebhook((body, signature) => {
      delivered.push({ body, signature })
    })
    adapter = razorpayAdapter({
      keyId: secrets.RAZORPAY_KEY_ID,
      keySecret: secrets.RAZORPAY_KEY_SECRET,
      webhookSecret: secrets.RAZORPAY_WEBHOOK_SECRET,
      apiUrl: `${gatewayServer.url}/api/v1/payments/local`,
    })
  })
  afterAll(async () => {
    await gatewayServer?.close()
  })
  const local = () => {
    const gateway = gatewayServer.app.platform.localGateway
    if (!gateway) throw new Error('the gateway server runs the local provider')
    return gateway
  }

  it('createOrder, paymentsOfOrder, capture, refund, verifyCheckoutSignature and verifyWebhook all work', async () => {
    expect(adapter.provider).toBe('razorpay')
    expect(adapter.keyId).toBe('rzp_test_gateway')
    const created = await adapter.createOrder({
      amount: 49900,
      currency: 'INR',
      receipt: 'r-1',
      notes: { eventId: 'e1' },
    })
    expect(created.id).toMatch(/^order_/)
    expect(await local().order(created.id)).toMatchObject({
      amount: 49900,
      currency: 'INR',
      receipt: 'r-1',
      notes: { eventId: 'e1' },
      status: 'created',
    })
    expect(await adapter.paymentsOfOrder(created.id)).toEqual([])

    const checkout = (await local().pay(created.id, 'success')) as Checkout
    const payments = await adapter.paymentsOfOrder(created.id)
    expect(payments).toEqual([
      {
        id: checkout.razorpay_payment_id,
        orderId: created.id,
        amount: 49900,
        currency: 'INR',
        status: 'captured',
        method: 'card',
        errorDescription: null,
      },
    ])
    const payment = payments[0]
    if (!payment) throw new Error('a payment expected')
    expect(await adapter.capture(payment)).toEqual(payment)
    expect(await adapter.capture({ ...payment, status: 'authorized' })).toEqual(payment)

    expect(
      adapter.verifyCheckoutSignature({
        orderId: created.id,
        paymentId: checkout.razorpay_payment_id,
        signature: checkout.razorpay_signature,
      }),
    ).toBe(true)
    expect(
      adapter.verifyCheckoutSignature({
        orderId: 'order_SomeOther00000',
        paymentId: checkout.razorpay_payment_id,
        signature: checkout.razorpay_signature,
      }),
    ).toBe(false)

    const refund = await adapter.refund(payment.id, 10000)
    expect(refund.id).toMatch(/^rfnd_/)
    expect(await local().refundsOf(payment.id)).toEqual([{ id: refund.id, amount: 10000 }])
    await expect(adapter.refund(payment.id, 49900)).rejects.toMatchObject({ statusCode: 400 })
    expect(await local().refundsOf(payment.id)).toHaveLength(1)

    await until(() => delivered.length > 0)
    const webhook = delivered.at(-1)
    if (!webhook) throw new Error('a webhook expected')
    expect(adapter.verifyWebhook(webhook.body, webhook.signature)).toBe(true)
    expect(adapter.verifyWebhook(Buffer.concat([webhook.body, Buffer.from(' ')]), webhook.signature)).toBe(
      false,
    )

    const failed = await adapter.createOrder({ amount: 10000, currency: 'INR', receipt: 'r-2', notes: {} })
    await local().pay(failed.id, 'failure')
    expect(await adapter.paymentsOfOrder(failed.id)).toEqual([
      expect.objectContaining({
        status: 'failed',
        errorDescription: 'Payment was declined by the test card.',
      }),
    ])
  })

  it('is refused by the gateway with a wrong key secret', async () => {
    const wrong = razorpayAdapter({
      keyId: secrets.RAZORPAY_KEY_ID,
      keySecret: 'not-the-key-secret',
      webhookSecret: secrets.RAZORPAY_WEBHOOK_SECRET,
      apiUrl: `${gatewayServer.url}/api/v1/payments/local`,
    })
    await expect(
      wrong.createOrder({ amount: 100, currency: 'INR', receipt: 'r', notes: {} }),
    ).rejects.toMatchObject({
      statusCode: 401,
    })
  })

  describe('a whole purchase on a server with PAYMENT_PROVIDER=razorpay pointed at the gateway server', () => {
    let shop: TestServer
    beforeAll(async () => {
      shop = await startServer({
        RATE_LIMITS: 'off',
        PAYMENT_PROVIDER: 'razorpay',
        ...secrets,
        RAZORPAY_API_URL: `${gatewayServer.url}/api/v1/payments/local`,
      })
    })
    afterAll(async () => {
      await shop?.close()
    })

    const call = async (method: string, path: string, token: string, body?: unknown) => {
      const res = await fetch(`${shop.url}/api/v1${path}`, {
        method,
        headers: {
          authorization: `Bearer ${token}`,
          ...(body ? { 'content-type': 'application/json' } : {}),
        },
        body: body ? JSON.stringify(body) : undefined,
      })
      const text = await res.text()
      expect(text).not.toContain(secrets.RAZORPAY_KEY_SECRET)
      expect(text).not.toContain(secrets.RAZORPAY_WEBHOOK_SECRET)
      return { status: res.status, body: JSON.parse(text) }
    }

    it('holds, pays at the gateway, confirms, cancels and refunds over HTTP', async () => {
      expect(shop.app.platform.localGateway).toBeNull()
      const admin = await adminSession(shop.app)
      const organizer = await organizerSession(shop.app, 'Zoya')
      const buyer = await signUp(shop.app, 'Arjun')
      const event = await createApprovedEvent(shop.app, organizer, admin)

      const created = await call('POST', '/ticket/create', buyer.token, {
        eventId: event._id,
        ticketType: 'VIP',
        quantity: 2,
      })
      expect(created.status).toBe(200)
      expect(created.body).toMatchObject({
        amount: 299800,
        currency: 'INR',
        keyId: 'rzp_test_gateway',
        provider: 'razorpay',
      })
      expect(await local().order(created.body.orderId)).toMatchObject({
        amount: 299800,
        receipt: created.body.ticketId,
      })
      // the shop has no local checkout
      expect(
        (
          await call('POST', '/payments/local/pay', buyer.token, {
            orderId: created.body.orderId,
            outcome: 'success',
          })
        ).status,
      ).toBe(404)

      const checkout = (await local().pay(created.body.orderId, 'success')) as Checkout
      const confirmed = await call('POST', '/ticket/handlePaymentSuccess', buyer.token, {
        paymentId: checkout.razorpay_payment_id,
        orderId: checkout.razorpay_order_id,
        signature: checkout.razorpay_signature,
        event: {},
      })
      expect(confirmed.status).toBe(200)
      expect(confirmed.body).toEqual({
        message: 'Booking Successful!',
        ticket: {
          _id: created.body.ticketId,
          eventId: event._id,
          userId: buyer.id,
          ticketType: 'VIP',
          quantity: 2,
          totalAmount: 2998,
          paymentStatus: 'Completed',
        },
      })
      expect(await factsOf(shop.app, created.body.ticketId)).toEqual([
        'TicketsHeld',
        'PaymentCaptured',
        'TicketsIssued',
      ])

      // the provider's webhook, forwarded to the shop as Razorpay would send it, changes nothing more
      const webhook = delivered.find((w) => w.body.toString('utf8').includes(created.body.orderId))
      if (!webhook) throw new Error('the gateway sent no webhook')
      const hook = await fetch(`${shop.url}/api/v1/payments/webhook`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-razorpay-signature': webhook.signature },
        body: new Uint8Array(webhook.body),
      })
      expect(hook.status).toBe(200)
      expect(await hook.json()).toEqual({ status: 'ok', accepted: true })

      const cancelled = await call('DELETE', `/ticket/cancel/${created.body.ticketId}`, buyer.token)
      expect(cancelled).toEqual({ status: 200, body: { message: 'Ticket canceled successfully.' } })
      await until(async () => (await factsOf(shop.app, created.body.ticketId)).includes('PaymentRefunded'))
      expect(countOf(await factsOf(shop.app, created.body.ticketId), 'TicketsIssued')).toBe(1)
      expect(await local().refundsOf(checkout.razorpay_payment_id)).toEqual([
        { id: expect.any(String), amount: 299800 },
      ])
      expect(await availableOf(shop.app, event._id, 'VIP')).toBe(20)
    })
  })
})
