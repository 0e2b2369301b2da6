// An unpaid checkout given up (replaced by a new one, closed, lapsed, or released when its event is
// called off) is not a failed payment: the organizer's analytics count only payments the provider
// said failed, in the same shape (Pending, Completed, Failed). And one account cannot make gateway
// orders without end: checkouts per account and event are an hourly allowance (429 past it, with
// Retry-After), whatever arrives at once.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { AnalyticsReply } from '../../contracts/analytics.ts'
import type { EventView } from '../../contracts/catalog.ts'
import { attendance, eventSales, salesByTicketType, salesTotals } from '../../server/analytics/tables.ts'
import { loadConfig } from '../../server/config.ts'
import { adminSession, bearer, organizerSession, type Session, signUp } from '../support/accounts.ts'
import { dbRows, rebuildStore } from '../support/db.ts'
import {
  approvedEvent,
  type Checkout,
  confirm,
  factsOfType,
  failToPay,
  get,
  hold,
  orderRow,
  pay,
  until,
} from '../support/sales.ts'
import { startServer, type TestServer } from '../support/server.ts'

let server: TestServer
const app = () => server.app
let admin: Session
let organizer: Session

beforeAll(async () => {
  server = await startServer({ RATE_LIMITS: 'off', LOG_LEVEL: 'error' })
  admin = await adminSession(app())
  organizer = await organizerSession(app(), 'Counter')
}, 60_000)

afterAll(async () => {
  await server?.close()
})

async function vipCounts(event: EventView) {
  const res = await get(app(), `/api/v1/ticket/analytics/${event._id}`, organizer)
  expect(res.statusCode, res.body).toBe(200)
  const vip = (res.json() as AnalyticsReply).analytics.find((r) => r.ticketType === 'VIP')
  return vip?.paymentStatus[0]
}
async function dashboardCounts(event: EventView) {
  const res = await get(app(), `/api/v1/dashboard/events/${event._id}`, organizer)
  expect(res.statusCode, res.body).toBe(200)
  const { Pending, Completed, Failed } = res.json()
  return { Pending, Completed, Failed }
}

describe('an unpaid checkout given up', () => {
  it('is counted as released, not as a failed payment: replaced, closed, lapsed or called off', async () => {
    const event = await approvedEvent(app(), organizer, admin, { title: 'Many Tries' })
    const buyer = await signUp(app(), 'Retrier')
    // one account replacing its checkout again and again
    const replaced = []
    for (let i = 0; i < 6; i++) replaced.push(await hold(app(), buyer, event))
    expect(await vipCounts(event)).toEqual({ Pending: 1, Completed: 0, Failed: 0 })
    // the last one closed by its buyer
    const last = replaced.at(-1)?.ticketId as string
    const closed = await app().inject({
      method: 'DELETE',
      url: `/api/v1/ticket/cancel/${last}`,
      headers: bearer(buyer.token),
    })
    expect(closed.statusCode, closed.body).toBe(200)
    expect(await vipCounts(event)).toEqual({ Pending: 0, Completed: 0, Failed: 0 })
    // another lapses unpaid
    const lapsing = await hold(app(), await signUp(app(), 'Lapser'), event)
    const later = new Date(Date.now() + 11 * 60_000).toISOString()
    await app().services.bookingCommands.expire(lapsing.ticketId, later)
    expect(await vipCounts(event)).toEqual({ Pending: 0, Completed: 0, Failed: 0 })
    // a payment the provider refused is a failed payment
    await failToPay(app(), await signUp(app(), 'Declined'), event)
    expect(await vipCounts(event)).toEqual({ Pending: 0, Completed: 0, Failed: 1 })
    expect(await dashboardCounts(event)).toEqual({ Pending: 0, Completed: 0, Failed: 1 })
    // an event called off releases its open checkouts
    const called = await approvedEvent(app(), organizer, admin, { title: 'Called Off' })
    const open = await hold(app(), await signUp(app(), 'Hopeful'), called)
    const off = await app().inject({
      method: 'POST',
      url: `/api/v1/event/${called._id}/cancel`,
      headers: bearer(organizer.token),
      payload: { reason: 'The venue flooded.' },
    })
    expect(off.statusCode, off.body).toBe(200)
    await until(async () => (await orderRow(app(), open.ticketId))?.status === 'failed')
    expect(await vipCounts(called)).toEqual({ Pending: 0, Completed: 0, Failed: 0 })
    const released = (await factsOfType(app(), 'PaymentFailed')).filter(
      (f) => (f.data as { paymentId: string | null }).paymentId === null,
    )
    expect(released.length).toBeGreaterThanOrEqual(6)
    for (const fact of released) expect(fact.data).toMatchObject({ released: true })
  })

  it('turns Completed when it is paid after all, moving neither Pending nor Failed', async () => {
    const event = await approvedEvent(app(), organizer, admin, { title: 'Paid Late' })
    const buyer = await signUp(app(), 'Late')
    const placed = await hold(app(), buyer, event)
    const closed = await app().inject({
      method: 'DELETE',
      url: `/api/v1/ticket/cancel/${placed.ticketId}`,
      headers: bearer(buyer.token),
    })
    expect(closed.statusCode).toBe(200)
    const paid = await pay(app(), buyer, placed)
    expect((await confirm(app(), buyer, paid.json() as Checkout)).statusCode).toBe(200)
    expect((await orderRow(app(), placed.ticketId))?.status).toBe('issued')
    expect(await vipCounts(event)).toEqual({ Pending: 0, Completed: 1, Failed: 0 })
    // one that failed at the provider and is paid later leaves Failed
    const retried = await signUp(app(), 'Retried')
    const again = await hold(app(), retried, event)
    expect((await pay(app(), retried, again, 'failure')).statusCode).toBe(402)
    await until(async () => (await orderRow(app(), again.ticketId))?.status === 'failed')
    const ok = await pay(app(), retried, again)
    expect((await confirm(app(), retried, ok.json() as Checkout)).statusCode).toBe(200)
    expect(await vipCounts(event)).toEqual({ Pending: 0, Completed: 2, Failed: 0 })
    expect(await dashboardCounts(event)).toEqual({ Pending: 0, Completed: 2, Failed: 0 })
  })

  it('leaves the same figures after a rebuild of the read models', async () => {
    const tables = [salesByTicketType, eventSales, attendance, salesTotals].map((t) => t.name)
    const dump = async () =>
      Object.fromEntries(
        await Promise.all(
          tables.map(async (name) => [name, await dbRows(app(), `SELECT * FROM "${name}" ORDER BY 1, 2`)]),
        ),
      )
    const before = await dump()
    await rebuildStore(app())
    expect(await dump()).toEqual(before)
  })
})

describe('checkouts per account and event', () => {
  let limited: TestServer
  afterAll(async () => {
    await limited?.close()
  })

  it('have a sensible default, and are off only with RATE_LIMITS=off', () => {
    const config = loadConfig({ NODE_ENV: 'test' })
    expect(config.rateLimits.checkoutsPerEventPerHour).toBe(30)
    expect(loadConfig({ NODE_ENV: 'test', CHECKOUTS_PER_EVENT_PER_HOUR: '5' }).rateLimits).toMatchObject({
      checkoutsPerEventPerHour: 5,
    })
    expect(() => loadConfig({ NODE_ENV: 'test', CHECKOUTS_PER_EVENT_PER_HOUR: '0' })).toThrow(
      /CHECKOUTS_PER_EVENT_PER_HOUR/,
    )
  })

  it('refuse the checkout past the allowance with 429 and Retry-After, storing nothing; other events and accounts go on', async () => {
    limited = await startServer({ CHECKOUTS_PER_EVENT_PER_HOUR: '3', LOG_LEVEL: 'error' })
    const l = limited.app
    const boss = await adminSession(l)
    const host = await organizerSession(l, 'Limited')
    const [event, other] = [
      await approvedEvent(l, host, boss, { title: 'Limited Night' }),
      await approvedEvent(l, host, boss, { title: 'Other Night' }),
    ]
    const [looper, neighbour, rusher] = [
      await signUp(l, 'Looper'),
      await signUp(l, 'Neighbour'),
      await signUp(l, 'Rusher'),
    ]
    const order = (who: Session, at: EventView) =>
      l.inject({
        method: 'POST',
        url: '/api/v1/ticket/create',
        headers: bearer(who.token),
        payload: { eventId: at._id, ticketType: 'VIP', quantity: 1 },
      })
    for (let i = 0; i < 3; i++) expect((await order(looper, event)).statusCode).toBe(200)
    const head = await l.platform.ledger.head()

    const refused = await order(looper, event)

    expect(refused.statusCode, refused.body).toBe(429)
    expect(refused.json().message).toMatch(
      /^Too many checkouts for this event\. Please try again in \d+ minutes?\.$/,
    )
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0)
    expect(Number(refused.headers['retry-after'])).toBeLessThanOrEqual(3600)
    expect(await l.platform.ledger.head()).toBe(head)
    expect((await order(looper, other)).statusCode).toBe(200)
    expect((await order(neighbour, event)).statusCode).toBe(200)
    // many at once do not slip past it
    const rushed = await Promise.all(Array.from({ length: 10 }, () => order(rusher, event)))
    expect(rushed.filter((r) => r.statusCode === 200)).toHaveLength(3)
    expect(rushed.filter((r) => r.statusCode === 429)).toHaveLength(7)
  }, 60_000)
})
