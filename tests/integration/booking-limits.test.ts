// Limits that protect buyers from hoarders (issue 11): one unpaid hold per account and event, a
// cap on unpaid seats per client address, free tickets per account; sales close when the event
// starts, cancellation closes CANCEL_CUTOFF_HOURS before it (judged in TIMEZONE); a transfer says
// nothing about e-mails to someone who does not own the ticket. Every refusal stores nothing.
import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { EventView } from '../../contracts/catalog.ts'
import { adminSession, bearer, organizerSession, type Session, signUp } from '../support/accounts.ts'
import { startApp, type TestApp } from '../support/app.ts'
import { wallClockIn } from '../support/clock.ts'
import { buyTicket, createApprovedEvent, inventoryRow, ticketTypeOf } from '../support/events.ts'
import { orderRow, until } from '../support/sales.ts'

const orderFrom = (
  app: FastifyInstance,
  buyer: Session,
  event: EventView,
  quantity: number,
  remoteAddress = '127.0.0.1',
  headers: Record<string, string> = {},
) =>
  app.inject({
    method: 'POST',
    url: '/api/v1/ticket/create',
    headers: { ...bearer(buyer.token), ...headers },
    payload: { eventId: event._id, ticketType: 'General Admission', quantity },
    remoteAddress,
  })

const ledgerLength = (app: FastifyInstance) => app.platform.ledger.head()

describe('hoarding, with the default caps (10 per order, 20 unpaid seats per address)', () => {
  let t: TestApp
  let app: FastifyInstance
  let organizer: Session
  let admin: Session
  beforeAll(async () => {
    t = await startApp({ MAX_HELD_SEATS_PER_ADDRESS: '20' })
    app = t.app
    organizer = await organizerSession(app)
    admin = await adminSession(app)
  })
  afterAll(async () => {
    await t?.close()
  })
  const thirtySeats = () =>
    createApprovedEvent(app, organizer, admin, [{ type: 'General Admission', price: 250, quantity: 30 }])
  const heldOf = async (event: EventView) =>
    (await inventoryRow(app, ticketTypeOf(event, 'General Admission')._id))?.held

  it('a new checkout for the same event replaces the previous unpaid hold, and says so', async () => {
    const event = await thirtySeats()
    const buyer = await signUp(app, 'Rekha')
    const first = await orderFrom(app, buyer, event, 4)
    expect(first.statusCode, first.body).toBe(200)
    expect(first.json()).not.toHaveProperty('replacedTicketIds')

    const second = await orderFrom(app, buyer, event, 6)

    expect(second.statusCode, second.body).toBe(200)
    expect(second.json()).toMatchObject({
      replacedTicketIds: [first.json().ticketId],
      message: 'Your previous unpaid checkout for this event was released; this one replaces it.',
    })
    expect(await orderRow(app, first.json().ticketId)).toMatchObject({
      status: 'failed',
      paymentStatus: 'Failed',
    })
    expect(await heldOf(event)).toBe(6)
  })

  it('a new checkout for the last seats, held by the same buyer unpaid, replaces that hold instead of finding them sold out', async () => {
    const event = await createApprovedEvent(app, organizer, admin, [
      { type: 'General Admission', price: 250, quantity: 2 },
    ])
    const buyer = await signUp(app, 'Retry')
    const first = await orderFrom(app, buyer, event, 2)
    expect(first.statusCode, first.body).toBe(200)

    // the checkout closed, then Confirm Booking again: the same seats, then fewer of them
    const again = await orderFrom(app, buyer, event, 2)
    const fewer = await orderFrom(app, buyer, event, 1)

    expect(again.statusCode, again.body).toBe(200)
    expect(again.json().replacedTicketIds).toEqual([first.json().ticketId])
    expect(fewer.statusCode, fewer.body).toBe(200)
    expect(fewer.json().replacedTicketIds).toEqual([again.json().ticketId])
    expect(await heldOf(event)).toBe(1)
    // they count for that buyer only: for anyone else the seats held are taken
    const other = await orderFrom(app, await signUp(app, 'Other'), event, 2)
    expect([other.statusCode, other.json().message]).toEqual([409, 'Not enough tickets available.'])
  })

  it('keeps the previous hold when the new checkout is refused', async () => {
    const event = await thirtySeats()
    const buyer = await signUp(app, 'Ravi')
    const first = await orderFrom(app, buyer, event, 2)
    const before = await ledgerLength(app)

    const refused = await orderFrom(app, buyer, event, 11)

    expect(refused.statusCode).toBe(400)
    expect(await ledgerLength(app)).toBe(before)
    expect((await orderRow(app, first.json().ticketId))?.status).toBe('held')
  })

  it('one account ordering 100 times never holds more than 10 seats, past its checkouts allowance is refused; a buyer elsewhere gets a seat', async () => {
    const event = await thirtySeats()
    const hoarder = await signUp(app, 'Hoarder')
    const outcomes = await Promise.all(
      Array.from({ length: 100 }, () => orderFrom(app, hoarder, event, 10, '10.1.1.1')),
    )
    // each checkout replaces the last; CHECKOUTS_PER_EVENT_PER_HOUR (30 by default) of them at most
    expect(outcomes.filter((r) => r.statusCode === 200)).toHaveLength(30)
    expect(outcomes.filter((r) => r.statusCode === 429)).toHaveLength(70)
    expect(await heldOf(event)).toBe(10)

    const buyer = await signUp(app, 'RealBuyer')
    const res = await orderFrom(app, buyer, event, 2, '10.9.9.9')
    expect(res.statusCode, res.body).toBe(200)
  })

  it('ten accounts from one address hold at most 20 seats of 30; a buyer from another address gets a seat', async () => {
    const event = await thirtySeats()
    const accounts = await Promise.all(Array.from({ length: 10 }, (_, i) => signUp(app, `Farm${i}`)))
    const outcomes = []
    for (let round = 0; round < 3; round++) {
      outcomes.push(...(await Promise.all(accounts.map((a) => orderFrom(app, a, event, 10, '10.2.2.2')))))
    }
    const refused = outcomes.filter((r) => r.statusCode === 429)
    expect(refused.length).toBeGreaterThan(0)
    expect(refused[0]?.json()).toEqual({
      message:
        'Too many seats of this event are held unpaid from your network right now. Please pay for or close an open checkout first.',
    })
    expect(refused[0]?.headers['retry-after']).toBe('60')
    expect(outcomes.every((r) => r.statusCode === 200 || r.statusCode === 429)).toBe(true)
    expect(await heldOf(event)).toBeLessThanOrEqual(20)

    const buyer = await signUp(app, 'Neighbour')
    const res = await orderFrom(app, buyer, event, 1, '10.3.3.3')
    expect(res.statusCode, res.body).toBe(200)
  })

  it('counts only unpaid seats against the address: paid ones make room for the next buyer there', async () => {
    const event = await createApprovedEvent(app, organizer, admin, [
      { type: 'General Admission', price: 250, quantity: 40 },
    ])
    const [first, second, third] = await Promise.all(['Paid1', 'Paid2', 'Paid3'].map((n) => signUp(app, n)))
    const paid = await orderFrom(app, first as Session, event, 10, '10.7.7.7')
    expect(paid.statusCode, paid.body).toBe(200)
    const checkout = await app.inject({
      method: 'POST',
      url: '/api/v1/payments/local/pay',
      headers: bearer((first as Session).token),
      payload: { orderId: paid.json().orderId, outcome: 'success' },
    })
    expect(checkout.statusCode, checkout.body).toBe(200)
    await until(async () => (await orderRow(app, paid.json().ticketId))?.status === 'issued')

    expect((await orderFrom(app, second as Session, event, 10, '10.7.7.7')).statusCode).toBe(200)
    expect((await orderFrom(app, third as Session, event, 10, '10.7.7.7')).statusCode).toBe(200)
    expect((await orderFrom(app, await signUp(app, 'Paid4'), event, 1, '10.7.7.7')).statusCode).toBe(429)
  })

  it('counts an IPv6 client by its /64: a fresh address of the same network is no fresh budget', async () => {
    const event = await thirtySeats()
    const accounts = await Promise.all(Array.from({ length: 4 }, (_, i) => signUp(app, `Six${i}`)))
    const outcomes = []
    for (const [i, account] of accounts.slice(0, 3).entries())
      outcomes.push(await orderFrom(app, account, event, 10, `2001:db8:5:6::${i + 1}`))
    expect(outcomes.map((r) => r.statusCode)).toEqual([200, 200, 429])
    // another network's address is another client
    expect((await orderFrom(app, accounts[3] as Session, event, 10, '2001:db8:5:7::1')).statusCode).toBe(200)
  })

  it('counts holds under the peer address, whatever X-Forwarded-For says (TRUST_PROXY off)', async () => {
    const event = await thirtySeats()
    const accounts = await Promise.all(Array.from({ length: 3 }, (_, i) => signUp(app, `Spoof${i}`)))
    const outcomes = []
    for (const [i, account] of accounts.entries()) {
      outcomes.push(
        await orderFrom(app, account, event, 10, '10.4.4.4', { 'x-forwarded-for': `203.0.113.${i + 1}` }),
      )
    }
    expect(outcomes.map((r) => r.statusCode)).toEqual([200, 200, 429])
  })
})

describe('TRUST_PROXY names the proxy whose X-Forwarded-For is believed', () => {
  let t: TestApp
  beforeAll(async () => {
    t = await startApp({ MAX_HELD_SEATS_PER_ADDRESS: '10', TRUST_PROXY: '10.5.5.5' })
  })
  afterAll(async () => {
    await t?.close()
  })

  it('counts each client behind the trusted proxy under its own address, and a stranger’s header not at all', async () => {
    const app = t.app
    const organizer = await organizerSession(app)
    const admin = await adminSession(app)
    const event = await createApprovedEvent(app, organizer, admin, [
      { type: 'General Admission', price: 250, quantity: 100 },
    ])
    const [a, b, c, d] = await Promise.all(['A', 'B', 'C', 'D'].map((n) => signUp(app, n)))
    const viaProxy = (s: Session, client: string) =>
      orderFrom(app, s, event, 10, '10.5.5.5', { 'x-forwarded-for': client })
    expect((await viaProxy(a as Session, '198.51.100.1')).statusCode).toBe(200)
    expect((await viaProxy(b as Session, '198.51.100.2')).statusCode).toBe(200)
    // not the trusted proxy: its header is ignored and both count under 10.6.6.6
    const direct = (s: Session, claimed: string) =>
      orderFrom(app, s, event, 10, '10.6.6.6', { 'x-forwarded-for': claimed })
    expect((await direct(c as Session, '198.51.100.3')).statusCode).toBe(200)
    expect((await direct(d as Session, '198.51.100.4')).statusCode).toBe(429)
  })
})

describe('free events: MAX_TICKETS_PER_ACCOUNT (default 10) per account and event', () => {
  let t: TestApp
  beforeAll(async () => {
    t = await startApp()
  })
  afterAll(async () => {
    await t?.close()
  })

  it('issues up to 10, refuses the 11th with 409 and stores nothing, and a cancelled one frees its place', async () => {
    const app = t.app
    const organizer = await organizerSession(app)
    const admin = await adminSession(app)
    const event = await createApprovedEvent(app, organizer, admin, [
      { type: 'General Admission', price: 0, quantity: 500 },
    ])
    const guest = await signUp(app, 'Guest')
    const first = await orderFrom(app, guest, event, 6)
    const second = await orderFrom(app, guest, event, 4)
    expect([first.statusCode, second.statusCode]).toEqual([200, 200])
    const before = await ledgerLength(app)

    const third = await orderFrom(app, guest, event, 1)

    expect(third.statusCode).toBe(409)
    expect(third.json()).toEqual({
      message: 'You can have at most 10 free tickets for this event, and you have them all.',
    })
    expect(await ledgerLength(app)).toBe(before)

    const cancelled = await app.inject({
      method: 'DELETE',
      url: `/api/v1/ticket/cancel/${second.json().ticketId}`,
      headers: bearer(guest.token),
    })
    expect(cancelled.statusCode, cancelled.body).toBe(200)
    const partly = await orderFrom(app, guest, event, 5)
    expect(partly.statusCode).toBe(409)
    expect(partly.json().message).toBe(
      'You can have at most 10 free tickets for this event; you can book 4 more.',
    )
    expect((await orderFrom(app, guest, event, 4)).statusCode).toBe(200)
    // another account has its own allowance
    expect((await orderFrom(app, await signUp(app, 'OtherGuest'), event, 10)).statusCode).toBe(200)
  })
})

describe('sales and cancellation windows, judged in TIMEZONE (America/New_York here)', () => {
  const zone = 'America/New_York'
  let t: TestApp
  let app: FastifyInstance
  let organizer: Session
  let admin: Session
  beforeAll(async () => {
    t = await startApp({ TIMEZONE: zone })
    app = t.app
    organizer = await organizerSession(app)
    admin = await adminSession(app)
  })
  afterAll(async () => {
    await t?.close()
  })
  const eventAt = (when: { date: string; time: string }) =>
    createApprovedEvent(
      app,
      organizer,
      admin,
      [{ type: 'General Admission', price: 300, quantity: 50 }],
      when,
    )

  it('closes booking once the event has started, with 409 and nothing stored', async () => {
    // midnight today in New York has passed (unless the test runs in its first minute)
    const started = await eventAt({ date: wallClockIn(zone, 0).date, time: '00:00' })
    const buyer = await signUp(app, 'Late')
    const before = await ledgerLength(app)

    const res = await orderFrom(app, buyer, started, 1)

    expect(res.statusCode).toBe(409)
    expect(res.json()).toEqual({ message: 'Booking for this event has closed.' })
    expect(await ledgerLength(app)).toBe(before)
  })

  it('sells until the start in the event’s zone: 40 minutes ahead in New York is still on sale', async () => {
    // The same wall clock read in Asia/Kolkata (the default zone) would be ten hours ago.
    const soon = await eventAt(wallClockIn(zone, 40))
    const buyer = await signUp(app, 'Early')
    expect((await orderFrom(app, buyer, soon, 1)).statusCode).toBe(200)
  })

  it('refuses to cancel within CANCEL_CUTOFF_HOURS (24) of the start, with 409; the ticket stays', async () => {
    const soon = await eventAt(wallClockIn(zone, 40))
    const buyer = await signUp(app, 'Keeper')
    const ticketId = await buyTicket(app, buyer, soon, 'General Admission')
    const registrations = await app.inject({
      method: 'GET',
      url: '/api/v1/ticket/registrations',
      headers: bearer(buyer.token),
    })
    const cutoff = registrations.json()[0].cancellableUntil
    expect(Date.parse(cutoff)).toBeLessThan(Date.now())
    expect(Date.now() + 40 * 60_000 - Date.parse(cutoff)).toBeGreaterThan(24 * 3_600_000 - 120_000)
    const before = await ledgerLength(app)

    for (const url of [`/api/v1/ticket/cancel/${ticketId}`, `/api/v1/ticket/${ticketId}`]) {
      const res = await app.inject({ method: 'DELETE', url, headers: bearer(buyer.token) })
      expect(res.statusCode).toBe(409)
      expect(res.json()).toEqual({
        message:
          'This ticket can no longer be cancelled: cancellation closes 24 hours before the event starts.',
      })
    }
    expect(await ledgerLength(app)).toBe(before)
    expect((await orderRow(app, ticketId))?.status).toBe('issued')
  })

  it('allows cancelling an event more than 24 hours away, and shows until when', async () => {
    const later = await eventAt(wallClockIn(zone, 3 * 24 * 60))
    const buyer = await signUp(app, 'Flexible')
    const ticketId = await buyTicket(app, buyer, later, 'General Admission')
    const registrations = await app.inject({
      method: 'GET',
      url: '/api/v1/ticket/registrations',
      headers: bearer(buyer.token),
    })
    expect(Date.parse(registrations.json()[0].cancellableUntil)).toBeGreaterThan(Date.now() + 47 * 3_600_000)
    const res = await app.inject({
      method: 'DELETE',
      url: `/api/v1/ticket/cancel/${ticketId}`,
      headers: bearer(buyer.token),
    })
    expect(res.statusCode, res.body).toBe(200)
  })
})

describe('POST /ticket/transfer tells nobody but the owner whether an e-mail has an account', () => {
  let t: TestApp
  beforeAll(async () => {
    t = await startApp()
  })
  afterAll(async () => {
    await t?.close()
  })

  it('answers a stranger the same 404 for a known and an unknown e-mail; the owner learns it', async () => {
    const app = t.app
    const organizer = await organizerSession(app)
    const admin = await adminSession(app)
    const event = await createApprovedEvent(app, organizer, admin)
    const [owner, stranger, known] = await Promise.all(
      ['Owner', 'Stranger', 'Known'].map((n) => signUp(app, n)),
    )
    const ticketId = await buyTicket(app, owner as Session, event)
    const transfer = (as: Session, email: string) =>
      app.inject({
        method: 'POST',
        url: '/api/v1/ticket/transfer',
        headers: bearer(as.token),
        payload: { ticketId, newAttendeeEmail: email },
      })

    const probes = [
      await transfer(stranger as Session, (known as Session).email),
      await transfer(stranger as Session, 'nobody-here@example.com'),
    ]
    for (const res of probes) {
      expect(res.statusCode).toBe(404)
      expect(res.json()).toEqual({ message: 'Ticket not found.' })
    }
    const owners = await transfer(owner as Session, 'nobody-here@example.com')
    expect(owners.statusCode).toBe(404)
    expect(owners.json()).toEqual({ message: 'No account found with that email.' })
    expect((await orderRow(app, ticketId))?.ownerId).toBe((owner as Session).id)
  })
})
