// Promo codes (issue 17) on the real app and its store: an event's organizer makes, lists and
// disables codes; an order with a code is priced after its discount (a share, an amount off each
// seat, a free order at 100 %); every refusal says why; a use is held with the order, turns paid
// with its ticket and comes back when the payment fails; and 300 orders at once with a code of 20
// uses get exactly 20 discounted holds, decided under the hold's lock.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { EventView } from '../../contracts/catalog.ts'
import type { PromoCodeView } from '../../contracts/promo.ts'
import {
  PROMO_DISABLED,
  PROMO_EXPIRED,
  PROMO_NOT_YET,
  PROMO_UNKNOWN,
  PROMO_USED_UP,
  PROMO_WRONG_TYPE,
} from '../../server/booking/promo.ts'
import { adminSession, bearer, crowd, organizerSession, type Session, signUp } from '../support/accounts.ts'
import {
  approvedEvent,
  type Checkout,
  confirm,
  get,
  orderRow,
  pay,
  post,
  submitEvent,
  until,
} from '../support/sales.ts'
import { startServer, type TestServer } from '../support/server.ts'

let server: TestServer
const app = () => server.app
let admin: Session
let organizer: Session
let rival: Session
let buyer: Session
let event: EventView

const types = [
  { type: 'General Admission' as const, price: 500, quantity: 1000 },
  { type: 'VIP' as const, price: 1500, quantity: 100 },
]

beforeAll(async () => {
  server = await startServer({ RATE_LIMITS: 'off', MAX_HELD_SEATS_PER_ADDRESS: '100000', LOG_LEVEL: 'error' })
  admin = await adminSession(app())
  organizer = await organizerSession(app(), 'Promoter')
  rival = await organizerSession(app(), 'Rival')
  buyer = await signUp(app(), 'DealHunter')
  event = await approvedEvent(app(), organizer, admin, { title: 'Code Night' }, types)
}, 60_000)

afterAll(async () => {
  await server?.close()
})

const codesPath = (eventId: string) => `/api/v1/event/${eventId}/promo-codes`
async function makeCode(body: Record<string, unknown>, eventId = event._id): Promise<PromoCodeView> {
  const res = await post(app(), codesPath(eventId), organizer, body)
  expect(res.statusCode, res.body).toBe(201)
  return res.json() as PromoCodeView
}
const order = (who: Session, body: Record<string, unknown>) =>
  post(app(), '/api/v1/ticket/create', who, { eventId: event._id, amount: 1, ...body })
const refusal = (res: { statusCode: number; json(): { message: string } }) => [
  res.statusCode,
  res.json().message,
]
const listed = async (code: string) =>
  ((await get(app(), codesPath(event._id), organizer)).json() as PromoCodeView[]).find((c) => c.code === code)

describe('promo codes of an event', () => {
  it('are made by its organizer, case-insensitive, and listed with their uses', async () => {
    const made = await makeCode({ code: 'early-bird', percentOff: 20, maxUses: 5, ticketTypes: ['VIP'] })
    expect(made).toEqual({
      code: 'EARLY-BIRD',
      percentOff: 20,
      amountOff: null,
      ticketTypes: ['VIP'],
      maxUses: 5,
      startsAt: null,
      endsAt: null,
      disabled: false,
      uses: { held: 0, paid: 0 },
    })
    expect(await listed('EARLY-BIRD')).toEqual(made)
    // the same code again, in any case: 409
    expect(
      refusal(await post(app(), codesPath(event._id), organizer, { code: 'Early-Bird', percentOff: 5 })),
    ).toEqual([409, 'This event has a promo code with that name already.'])
    // its ticket types named in any case, each once however often given
    const vip = await makeCode({ code: 'VIP-ONLY', percentOff: 10, ticketTypes: ['vip', 'VIP', 'Vip'] })
    expect(vip.ticketTypes).toEqual(['VIP'])
    const many = await post(app(), codesPath(event._id), organizer, {
      code: 'MANY',
      percentOff: 10,
      ticketTypes: Array.from({ length: 101 }, () => 'VIP'),
    })
    expect(refusal(many)).toEqual([400, 'ticketTypes names 100 ticket types or fewer.'])
  })

  it('are not made for an event called off', async () => {
    const gone = await approvedEvent(app(), organizer, admin, { title: 'Called off' }, types)
    const off = await post(app(), `/api/v1/event/${gone._id}/cancel`, organizer, {
      reason: 'The hall flooded.',
    })
    expect(off.statusCode, off.body).toBe(200)
    expect(
      refusal(await post(app(), codesPath(gone._id), organizer, { code: 'LATE', percentOff: 10 })),
    ).toEqual([409, 'This event has been cancelled.'])
  })

  it('refuse bad terms with 400 and a message, and anyone but the organizer and the admins', async () => {
    const bad = [
      { code: 'BOTH', percentOff: 10, amountOff: 50 },
      { code: 'NONE' },
      { code: 'X', percentOff: 10 },
      { code: 'OVER', percentOff: 101 },
      { code: 'TYPE', percentOff: 10, ticketTypes: ['Balcony'] },
      { code: 'WHEN', percentOff: 10, startsAt: '2030-01-02T00:00:00Z', endsAt: '2030-01-01T00:00:00Z' },
    ]
    const said: string[] = []
    for (const body of bad) {
      const res = await post(app(), codesPath(event._id), organizer, body)
      expect(res.statusCode, JSON.stringify(body)).toBe(400)
      expect(res.json().message).toEqual(expect.any(String))
      said.push(res.json().message)
    }
    // the terms checked together say what is wrong with them, not that the body is malformed
    expect([said[0], said[1], said[5]]).toEqual([
      'A promo code takes either percentOff or amountOff off, not both.',
      'A promo code takes percentOff or amountOff off: give one of them.',
      'endsAt must be after startsAt.',
    ])
    expect(
      (await post(app(), codesPath(event._id), rival, { code: 'MINE', percentOff: 10 })).statusCode,
    ).toBe(403)
    expect((await get(app(), codesPath(event._id), buyer)).statusCode).toBe(403)
    expect(
      (await post(app(), codesPath(event._id), admin, { code: 'ADMIN-MADE', amountOff: 50 })).statusCode,
    ).toBe(201)
    // a pending event's codes are nobody else's business: 404
    const pending = await submitEvent(app(), organizer, { title: 'Not yet' }, types)
    expect((await get(app(), codesPath(pending._id), rival)).statusCode).toBe(404)
    expect((await get(app(), codesPath(pending._id), organizer)).statusCode).toBe(200)
  })
})

describe('POST /ticket/create with a promo code', () => {
  it('prices the order after the discount: a share, an amount off each seat, a free order at 100 %', async () => {
    await makeCode({ code: 'TENOFF', percentOff: 10 })
    await makeCode({ code: 'FLAT50', amountOff: 50 })
    await makeCode({ code: 'ONUS', percentOff: 100 })
    const [a, b, c] = [
      await signUp(app(), 'Asha'),
      await signUp(app(), 'Bala'),
      await signUp(app(), 'Chitra'),
    ]
    const tenOff = await order(a, { ticketType: 'VIP', quantity: 2, promoCode: 'tenoff' })
    expect(tenOff.statusCode, tenOff.body).toBe(200)
    expect(tenOff.json().amount).toBe(270_000) // ₹3,000 − 10 %, in paise
    const flat = await order(b, { ticketType: 'General Admission', quantity: 3, promoCode: 'FLAT50' })
    expect(flat.json().amount).toBe(135_000) // (₹500 − ₹50) × 3
    // what the booking screen shows before checkout
    const price = await get(app(), `${codesPath(event._id)}/tenoff/price?ticketType=VIP&quantity=2`, c)
    expect(price.statusCode, price.body).toBe(200)
    expect(price.json()).toEqual({ code: 'TENOFF', discount: 300, amount: 2700 })
    const free = await order(c, { ticketType: 'VIP', quantity: 1, promoCode: 'ONUS' })
    expect(free.json()).toMatchObject({ amount: 0, provider: 'free' })
    expect(await listed('ONUS')).toMatchObject({ uses: { held: 0, paid: 1 } })
    expect(await listed('TENOFF')).toMatchObject({ uses: { held: 1, paid: 0 } })
  })

  it('says why a code does not apply: unknown, disabled, not yet, expired, another ticket type, used up', async () => {
    await makeCode({ code: 'GONE', percentOff: 10 })
    expect(
      (
        await app().inject({
          method: 'DELETE',
          url: `${codesPath(event._id)}/gone`,
          headers: bearer(organizer.token),
        })
      ).statusCode,
    ).toBe(200)
    await makeCode({ code: 'LATER', percentOff: 10, startsAt: '2099-01-01T00:00:00Z' })
    await makeCode({ code: 'PAST', percentOff: 10, endsAt: '2020-01-01T00:00:00Z' })
    await makeCode({ code: 'VIPONLY', percentOff: 10, ticketTypes: ['VIP'] })
    await makeCode({ code: 'ONCE', percentOff: 10, maxUses: 1 })
    const someone = await signUp(app(), 'Someone')
    expect((await order(someone, { ticketType: 'VIP', quantity: 1, promoCode: 'ONCE' })).statusCode).toBe(200)
    const cases: Array<[string, string, string]> = [
      ['NOPE', 'VIP', PROMO_UNKNOWN],
      ['GONE', 'VIP', PROMO_DISABLED],
      ['LATER', 'VIP', PROMO_NOT_YET],
      ['PAST', 'VIP', PROMO_EXPIRED],
      ['VIPONLY', 'General Admission', PROMO_WRONG_TYPE],
      ['ONCE', 'VIP', PROMO_USED_UP],
    ]
    for (const [code, ticketType, message] of cases) {
      expect(refusal(await order(buyer, { ticketType, quantity: 1, promoCode: code })), code).toEqual([
        400,
        message,
      ])
      const priced = await get(
        app(),
        `${codesPath(event._id)}/${code}/price?ticketType=${ticketType}&quantity=1`,
        buyer,
      )
      expect(refusal(priced), code).toEqual([400, message])
    }
    // and nothing was held by those refusals
    expect((await listed('ONCE'))?.uses).toEqual({ held: 1, paid: 0 })
    for (const code of ['LATER', 'PAST', 'VIPONLY', 'GONE'])
      expect((await listed(code))?.uses).toEqual({ held: 0, paid: 0 })
  })

  it('holds a use with the order, turns it paid with the ticket, and gives it back when the payment fails', async () => {
    await makeCode({ code: 'TWICE', percentOff: 50, maxUses: 2 })
    const [d, e, f] = [await signUp(app(), 'Dev'), await signUp(app(), 'Esha'), await signUp(app(), 'Farid')]
    const held = await order(d, { ticketType: 'VIP', quantity: 1, promoCode: 'TWICE' })
    expect(await listed('TWICE')).toMatchObject({ uses: { held: 1, paid: 0 } })
    const paid = await pay(app(), d, held.json())
    const confirmed = await confirm(app(), d, paid.json() as Checkout)
    expect(confirmed.statusCode, confirmed.body).toBe(200)
    expect(await listed('TWICE')).toMatchObject({ uses: { held: 0, paid: 1 } })
    const failing = await order(e, { ticketType: 'VIP', quantity: 1, promoCode: 'TWICE' })
    expect((await pay(app(), e, failing.json(), 'failure')).statusCode).toBe(402)
    await until(async () => (await orderRow(app(), failing.json().ticketId))?.paymentStatus === 'Failed')
    expect(await listed('TWICE')).toMatchObject({ uses: { held: 0, paid: 1 } })
    // its use came back: the next buyer gets the code
    expect((await order(f, { ticketType: 'VIP', quantity: 1, promoCode: 'TWICE' })).json().amount).toBe(
      75_000,
    )
    expect(await listed('TWICE')).toMatchObject({ uses: { held: 1, paid: 1 } })
  })
})

describe('a code in the rest of the product', () => {
  it('comes back when a hold lapses unpaid, and is taken again if that order is paid after all', async () => {
    await makeCode({ code: 'LAPSE', percentOff: 10, maxUses: 1 })
    const [g, h] = [await signUp(app(), 'Gopal'), await signUp(app(), 'Hari')]
    const held = (await order(g, { ticketType: 'VIP', quantity: 1, promoCode: 'LAPSE' })).json()
    expect(refusal(await order(h, { ticketType: 'VIP', quantity: 1, promoCode: 'LAPSE' }))).toEqual([
      400,
      PROMO_USED_UP,
    ])
    const later = new Date(Date.now() + 11 * 60_000).toISOString()
    expect((await app().services.bookingCommands.expire(held.ticketId, later)).map((f) => f.type)).toEqual([
      'HoldExpired',
    ])
    expect(await listed('LAPSE')).toMatchObject({ uses: { held: 0, paid: 0 } })
    // the lapsed order is paid after all (the provider's word stands): its use is taken again
    expect((await pay(app(), g, held)).statusCode).toBe(200)
    await until(async () => (await orderRow(app(), held.ticketId))?.status === 'issued')
    expect(await listed('LAPSE')).toMatchObject({ uses: { held: 0, paid: 1 } })
  })

  it("counts the discounted amount in the event's revenue", async () => {
    const night = await approvedEvent(app(), organizer, admin, { title: 'Revenue Night' }, types)
    await makeCode({ code: 'HALF', percentOff: 50 }, night._id)
    const payer = await signUp(app(), 'Ishaan')
    const placed = await post(app(), '/api/v1/ticket/create', payer, {
      eventId: night._id,
      ticketType: 'VIP',
      quantity: 2,
      promoCode: 'HALF',
    })
    expect(placed.json().amount).toBe(150_000)
    const paid = await pay(app(), payer, placed.json())
    expect((await confirm(app(), payer, paid.json() as Checkout)).statusCode).toBe(200)
    const analytics = (await get(app(), `/api/v1/ticket/analytics/${night._id}`, organizer)).json()
    const vip = analytics.analytics.find((row: { ticketType: string }) => row.ticketType === 'VIP')
    expect(vip).toMatchObject({ totalTicketsSold: 2, totalRevenue: 1500 })
  })
})

describe('a code of 20 uses and 300 orders at once', () => {
  it('gives exactly 20 discounted holds; the others are told the code is used up', async () => {
    await makeCode({ code: 'RUSH20', percentOff: 25, maxUses: 20 })
    const tokens = (await crowd(app(), 300, 'rush')).map((buyer) => buyer.token)
    const replies = await Promise.all(
      tokens.map((token) =>
        app().inject({
          method: 'POST',
          url: '/api/v1/ticket/create',
          headers: bearer(token),
          payload: { eventId: event._id, ticketType: 'General Admission', quantity: 1, promoCode: 'RUSH20' },
        }),
      ),
    )
    const ok = replies.filter((r) => r.statusCode === 200)
    expect(ok).toHaveLength(20)
    expect(new Set(ok.map((r) => r.json().amount))).toEqual(new Set([37_500]))
    const refused = replies.filter((r) => r.statusCode !== 200)
    expect(new Set(refused.map((r) => `${r.statusCode} ${r.json().message}`))).toEqual(
      new Set([`400 ${PROMO_USED_UP}`]),
    )
    expect(await listed('RUSH20')).toMatchObject({ uses: { held: 20, paid: 0 } })
  }, 120_000)
})

describe('an account guessing promo codes', () => {
  let guarded: TestServer
  afterAll(async () => {
    await guarded?.close()
  })

  it('is refused with 429 after 3 codes that do not exist, even for a real one; others are not', async () => {
    guarded = await startServer({ PROMO_GUESSES_PER_ACCOUNT: '3', PROMO_GUESS_WINDOW_MINUTES: '10' })
    const g = guarded.app
    const boss = await adminSession(g)
    const host = await organizerSession(g, 'Guarded')
    const night = await approvedEvent(g, host, boss, { title: 'Guarded Night' }, types)
    expect(
      (await post(g, `/api/v1/event/${night._id}/promo-codes`, host, { code: 'REAL', percentOff: 10 }))
        .statusCode,
    ).toBe(201)
    const [guesser, honest] = [await signUp(g, 'Guesser'), await signUp(g, 'Honest')]
    const price = (who: Session, code: string) =>
      get(g, `/api/v1/event/${night._id}/promo-codes/${code}/price?ticketType=VIP&quantity=1`, who)
    for (const code of ['GUESS1', 'GUESS2'])
      expect(refusal(await price(guesser, code))).toEqual([400, PROMO_UNKNOWN])
    // the third guess goes through the order itself
    const ordered = await post(g, '/api/v1/ticket/create', guesser, {
      eventId: night._id,
      ticketType: 'VIP',
      quantity: 1,
      promoCode: 'GUESS3',
    })
    expect(refusal(ordered)).toEqual([400, PROMO_UNKNOWN])
    // now even the real code is refused, on both paths, with the time to wait
    for (const res of [
      await price(guesser, 'REAL'),
      await post(g, '/api/v1/ticket/create', guesser, {
        eventId: night._id,
        ticketType: 'VIP',
        quantity: 1,
        promoCode: 'REAL',
      }),
    ]) {
      expect(res.statusCode).toBe(429)
      expect(res.json().message).toMatch(
        /^Too many promo codes tried that do not exist\. Please try again in \d+ minutes?\.$/,
      )
      expect(Number(res.headers['retry-after'])).toBeGreaterThan(0)
    }
    // a real code costs nothing, and another account is not held back
    for (let i = 0; i < 5; i++)
      expect((await price(honest, 'REAL')).json()).toEqual({ code: 'REAL', discount: 150, amount: 1350 })
    // guesses sent at the same moment do not all slip under the allowance
    const rusher = await signUp(g, 'Rusher')
    const rushed = await Promise.all(Array.from({ length: 12 }, (_, i) => price(rusher, `RUSH${i}`)))
    expect(rushed.filter((r) => r.statusCode === 400)).toHaveLength(3)
    expect(rushed.filter((r) => r.statusCode === 429)).toHaveLength(9)
  }, 60_000)
})
