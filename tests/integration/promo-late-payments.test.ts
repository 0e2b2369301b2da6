// A promo code's maxUses against payments that arrive after their checkout was given up (closed,
// replaced, lapsed): such an order's use went back to the code, so its payment is decided again
// against the code as it is now. While a use is left the ticket is issued at the code's price and
// takes it; when none is, the buyer is refunded in full and told why, in the reply and by mail.
// One account closing and paying three checkouts, and fifty buyers paying at once while others
// check out with the same code, never get more discounted tickets than the code's maxUses.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { EventView } from '../../contracts/catalog.ts'
import type { PromoCodeView } from '../../contracts/promo.ts'
import { PROMO_USED_UP } from '../../server/booking/promo.ts'
import { adminSession, bearer, crowd, organizerSession, type Session, signUp } from '../support/accounts.ts'
import { dbRows, rebuildStore } from '../support/db.ts'
import { waitForMail } from '../support/outbox.ts'
import {
  approvedEvent,
  type Checkout,
  confirm,
  factsOfType,
  get,
  orderRow,
  pay,
  post,
  until,
} from '../support/sales.ts'
import { startServer, type TestServer } from '../support/server.ts'

let server: TestServer
const app = () => server.app
let admin: Session
let organizer: Session

const types = [
  { type: 'General Admission' as const, price: 500, quantity: 1000 },
  { type: 'VIP' as const, price: 1500, quantity: 100 },
]

beforeAll(async () => {
  server = await startServer({ RATE_LIMITS: 'off', LOG_LEVEL: 'error' })
  admin = await adminSession(app())
  organizer = await organizerSession(app(), 'Latecomer')
}, 60_000)

afterAll(async () => {
  await server?.close()
})

const codesPath = (eventId: string) => `/api/v1/event/${eventId}/promo-codes`
const usesOf = async (event: EventView, code: string) =>
  ((await get(app(), codesPath(event._id), organizer)).json() as PromoCodeView[]).find((c) => c.code === code)
    ?.uses

async function eventWithCode(title: string, code: string, maxUses: number): Promise<EventView> {
  const event = await approvedEvent(app(), organizer, admin, { title }, types)
  const made = await post(app(), codesPath(event._id), organizer, { code, percentOff: 90, maxUses })
  expect(made.statusCode, made.body).toBe(201)
  return event
}

type Placed = { orderId: string; ticketId: string; amount: number }

/** a checkout with the code, then closed by its buyer: the code's use goes back */
async function closedCheckout(token: string, event: EventView, code: string): Promise<Placed> {
  const placed = await app().inject({
    method: 'POST',
    url: '/api/v1/ticket/create',
    headers: bearer(token),
    payload: { eventId: event._id, ticketType: 'VIP', quantity: 1, promoCode: code },
  })
  expect(placed.statusCode, placed.body).toBe(200)
  const closed = await app().inject({
    method: 'DELETE',
    url: `/api/v1/ticket/cancel/${placed.json().ticketId}`,
    headers: bearer(token),
  })
  expect(closed.statusCode, closed.body).toBe(200)
  return placed.json() as Placed
}

/** pays a checkout at the local gateway, then reports it as the booking screen does */
async function payAndReport(token: string, placed: Placed) {
  const who = { token } as Session
  const paid = await pay(app(), who, placed)
  expect(paid.statusCode, paid.body).toBe(200)
  return confirm(app(), who, paid.json() as Checkout)
}

describe('a payment for a checkout given up, with a promo code', () => {
  it('issues the first at the code’s price and refunds the others, saying why: the code has no use left', async () => {
    const event = await eventWithCode('Three Tries', 'ONCE90', 1)
    const buyer = await signUp(app(), 'Thrice')
    const placed: Placed[] = []
    for (let i = 0; i < 3; i++) placed.push(await closedCheckout(buyer.token, event, 'ONCE90'))
    expect(placed.map((p) => p.amount)).toEqual([15_000, 15_000, 15_000])
    expect(await usesOf(event, 'ONCE90')).toEqual({ held: 0, paid: 0 })

    const replies = []
    for (const p of placed) replies.push(await payAndReport(buyer.token, p))

    expect(replies[0]?.statusCode, replies[0]?.body).toBe(200)
    expect(replies[0]?.json().message).toBe('Booking Successful!')
    for (const reply of replies.slice(1)) {
      expect(reply.statusCode, reply.body).toBe(409)
      expect(reply.json().message).toContain(PROMO_USED_UP)
      expect(reply.json().message).toMatch(/refunded in full/)
    }
    expect(await usesOf(event, 'ONCE90')).toEqual({ held: 0, paid: 1 })
    const tickets = (await get(app(), '/api/v1/ticket/registrations', buyer)).json() as unknown[]
    expect(tickets).toHaveLength(1)
    // the two refused payments go back in full
    for (const p of placed.slice(1)) {
      await until(async () => (await orderRow(app(), p.ticketId))?.refund === 'refunded')
      expect(await orderRow(app(), p.ticketId)).toMatchObject({ status: 'failed', refund: 'refunded' })
    }
    const refunds = (await factsOfType(app(), 'RefundRequested')).filter((f) =>
      placed.some((p) => p.ticketId === (f.data as { orderId: string }).orderId),
    )
    expect(refunds.map((f) => f.data)).toEqual(
      placed.slice(1).map((p) =>
        expect.objectContaining({
          orderId: p.ticketId,
          amountPaise: 15_000,
          reason: 'promo code no longer valid',
          promoRefusal: PROMO_USED_UP,
        }),
      ),
    )
    // and the buyer is mailed why, for each
    const mail = await waitForMail(
      server.config.outboxDir,
      (m) => m.to.includes(buyer.email) && /refunded/i.test(m.subject),
    )
    expect(mail.subject).toBe('Your payment for Three Tries is refunded')
    expect(mail.text).toContain(PROMO_USED_UP)
    expect(mail.text).toContain('₹150')
  }, 60_000)

  it('still issues a lapsed order paid after all at the code’s price while a use is left', async () => {
    const event = await eventWithCode('Slow Payer', 'SLOW', 2)
    const buyer = await signUp(app(), 'Slowpoke')
    const placed = await closedCheckout(buyer.token, event, 'SLOW')
    const reply = await payAndReport(buyer.token, placed)
    expect(reply.statusCode, reply.body).toBe(200)
    expect(reply.json().ticket).toMatchObject({ totalAmount: 150 })
    expect(await usesOf(event, 'SLOW')).toEqual({ held: 0, paid: 1 })
  })

  it('refunds a late payment when the organizer disabled the code meanwhile', async () => {
    const event = await eventWithCode('Pulled Code', 'PULLED', 5)
    const buyer = await signUp(app(), 'Pulled')
    const placed = await closedCheckout(buyer.token, event, 'PULLED')
    const disabled = await app().inject({
      method: 'DELETE',
      url: `${codesPath(event._id)}/PULLED`,
      headers: bearer(organizer.token),
    })
    expect(disabled.statusCode, disabled.body).toBe(200)
    const reply = await payAndReport(buyer.token, placed)
    expect(reply.statusCode, reply.body).toBe(409)
    expect(reply.json().message).toContain('This promo code has been disabled.')
    expect(await usesOf(event, 'PULLED')).toEqual({ held: 0, paid: 0 })
  })
})

describe('fifty buyers paying given-up checkouts at once, while others check out with the code', () => {
  it('gives the code exactly its one use, whoever comes first', async () => {
    const event = await eventWithCode('Fifty At Once', 'ONEONLY', 1)
    const late = await crowd(app(), 50, 'late')
    const fresh = await crowd(app(), 25, 'fresh')
    // each of the fifty had the code once, and gave the checkout up (its use went back)
    const placed: Placed[] = []
    for (const buyer of late) placed.push(await closedCheckout(buyer.token, event, 'ONEONLY'))
    expect(await usesOf(event, 'ONEONLY')).toEqual({ held: 0, paid: 0 })

    const [payments, checkouts] = await Promise.all([
      Promise.all(late.map((buyer, i) => payAndReport(buyer.token, placed[i] as Placed))),
      Promise.all(
        fresh.map((buyer) =>
          app().inject({
            method: 'POST',
            url: '/api/v1/ticket/create',
            headers: bearer(buyer.token),
            payload: { eventId: event._id, ticketType: 'VIP', quantity: 1, promoCode: 'ONEONLY' },
          }),
        ),
      ),
    ])

    const issued = payments.filter((r) => r.statusCode === 200)
    const held = checkouts.filter((r) => r.statusCode === 200)
    expect(issued.length + held.length).toBe(1)
    for (const refused of payments.filter((r) => r.statusCode !== 200)) {
      expect(refused.statusCode, refused.body).toBe(409)
      expect(refused.json().message).toMatch(/refunded in full/)
    }
    for (const refused of checkouts.filter((r) => r.statusCode !== 200))
      expect([refused.statusCode, refused.json().message]).toEqual([400, PROMO_USED_UP])
    expect(await usesOf(event, 'ONEONLY')).toEqual({ held: held.length, paid: issued.length })
    // tickets at the code's price: at most its one use
    let discounted = 0
    for (const p of placed) if ((await orderRow(app(), p.ticketId))?.status === 'issued') discounted++
    expect(discounted).toBe(issued.length)
  }, 180_000)
})

describe('the read models after late payments refused and honoured', () => {
  it('are the same after a rebuild from the ledger', async () => {
    const tables = ['promo_codes', 'orders', 'inventory', 'sales_by_ticket_type', 'event_sales']
    const dump = async () =>
      Object.fromEntries(
        await Promise.all(
          tables.map(async (name) => [name, await dbRows(app(), `SELECT * FROM "${name}" ORDER BY 1, 2`)]),
        ),
      )
    // the refunds' workers are done: nothing moves the tables while they are compared
    await until(
      async () => (await dbRows(app(), "SELECT id FROM orders WHERE refund = 'requested'")).length === 0,
      60_000,
    )
    const before = await dump()
    expect((before.promo_codes as unknown[]).length).toBeGreaterThanOrEqual(4)
    await rebuildStore(app())
    expect(await dump()).toEqual(before)
  })
})
