// Booking over HTTP (API.md rows /ticket/*, and /auth/getbyid for attendees): what each call
// answers, the facts it appends to the order's stream, the read rows it leaves, the mail it
// sends and what the sockets hear.
import type { FastifyInstance } from 'fastify'
import pg from 'pg'
import { io as connect, type Socket } from 'socket.io-client'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { CreateOrderReply } from '../../contracts/booking.ts'
import type { EventView } from '../../contracts/catalog.ts'
import type { LivePush } from '../../contracts/live.ts'
import { adminSession, bearer, organizerSession, type Session, signUp } from '../support/accounts.ts'
import { startApp, type TestApp } from '../support/app.ts'
import { dbRows, storeKind, testStore } from '../support/db.ts'
import {
  availableOf,
  buyTicket,
  confirmPayment,
  countOf,
  createApprovedEvent,
  factsOf,
  hold,
  inventoryRow,
  lapseHold,
  order,
  orderRow,
  pay,
  standardTickets,
  submitEvent,
  ticketTypeOf,
  until,
} from '../support/events.ts'
import { readOutbox, waitForMail } from '../support/outbox.ts'
import { startServer, type TestServer } from '../support/server.ts'

let t: TestApp
let app: FastifyInstance
let admin: Session
let organizer: Session

beforeAll(async () => {
  t = await startApp({ RATE_LIMITS: 'off' })
  app = t.app
  admin = await adminSession(app)
  organizer = await organizerSession(app, 'Meera')
})
afterAll(async () => {
  await t.close()
})

const ordersOfEvent = (eventId: string) =>
  dbRows<{ id: string; buyerId: string }>(
    app,
    'SELECT id, buyer_id AS "buyerId" FROM orders WHERE event_id = ?',
    eventId,
  )

const profileTickets = async (session: Session) => {
  const res = await app.inject({ method: 'GET', url: '/api/v1/auth/profile', headers: bearer(session.token) })
  expect(res.statusCode).toBe(200)
  return res.json().user.ticketId as string[]
}

const registrations = async (session: Session) => {
  const res = await app.inject({
    method: 'GET',
    url: '/api/v1/ticket/registrations',
    headers: bearer(session.token),
  })
  expect(res.statusCode).toBe(200)
  return res.json() as Array<{ _id: string; paymentStatus: string }>
}

const ticketById = (session: Session, ticketId: string) =>
  app.inject({
    method: 'GET',
    url: `/api/v1/ticket/getTicketbyId/${ticketId}`,
    headers: bearer(session.token),
  })

const mailsTo = (email: string) => readOutbox(t.config.outboxDir).filter((m) => m.to.includes(email))

describe('POST /ticket/create', () => {
  it("holds the seats at the event's price, whatever amount the body says, and answers the checkout's order", async () => {
    const event = await createApprovedEvent(app, organizer, admin)
    const vip = ticketTypeOf(event, 'VIP')
    const buyer = await signUp(app, 'Asha')
    const before = Date.now()

    const res = await order(app, buyer, { amount: 1, eventId: event._id, ticketType: 'VIP', quantity: 2 })

    expect(res.statusCode, res.body).toBe(200)
    const body = res.json() as CreateOrderReply
    expect(body).toEqual({
      orderId: expect.stringMatching(/^order_[A-Za-z0-9]{14}$/),
      amount: 2 * 1499 * 100,
      currency: 'INR',
      keyId: 'rzp_test_local',
      provider: 'local',
      ticketId: expect.stringMatching(/^[0-9a-f]{24}$/),
      heldUntil: expect.any(String),
      // no billing profile: no tax
      breakdown: { base: 2998, cgst: 0, sgst: 0, igst: 0, fee: 0, feeTax: 0, total: 2998 },
    })
    const holdMs = Date.parse(body.heldUntil) - before
    expect(holdMs).toBeGreaterThanOrEqual(10 * 60_000)
    expect(holdMs).toBeLessThan(10 * 60_000 + 5_000)

    const facts = await app.platform.ledger.readStream(`order-${body.ticketId}`)
    expect(facts.map((f) => f.type)).toEqual(['TicketsHeld'])
    expect(facts[0]?.data).toEqual({
      orderId: body.ticketId,
      buyerId: buyer.id,
      eventId: event._id,
      organizerId: organizer.id,
      ticketTypeId: vip._id,
      ticketType: 'VIP',
      quantity: 2,
      unitPricePaise: 149900,
      amountPaise: 299800,
      provider: 'local',
      providerOrderId: body.orderId,
      heldUntil: body.heldUntil,
      // a keyed hash of the client's address, never the address itself
      clientKey: expect.stringMatching(/^[A-Za-z0-9_-]{22}$/),
    })
    expect(JSON.stringify(facts[0])).not.toContain('127.0.0.1')
    expect(facts[0]?.meta).toMatchObject({ actor: buyer.id })
    expect(await orderRow(app, body.ticketId)).toMatchObject({
      id: body.ticketId,
      eventId: event._id,
      buyerId: buyer.id,
      ownerId: null,
      ticketType: 'VIP',
      quantity: 2,
      unitPricePaise: 149900,
      amountPaise: 299800,
      status: 'held',
      paymentStatus: 'Pending',
      paymentId: null,
      providerOrderId: body.orderId,
      heldUntil: body.heldUntil,
    })
    expect(await inventoryRow(app, vip._id)).toEqual({
      ticketTypeId: vip._id,
      eventId: event._id,
      held: 2,
      sold: 0,
    })
    expect(await availableOf(app, event._id, 'VIP')).toBe(18)
    // the provider is asked for paise
    expect(await app.platform.localGateway?.order(body.orderId)).toMatchObject({
      amount: 299800,
      currency: 'INR',
      receipt: body.ticketId,
      status: 'created',
    })

    for (const amount of [10_000_000, 0, 'free', -5]) {
      const again = await order(app, buyer, {
        amount,
        eventId: event._id,
        ticketType: 'General Admission',
        quantity: 3,
      })
      expect(again.statusCode, again.body).toBe(200)
      expect(again.json().amount).toBe(3 * 499 * 100)
      expect((await orderRow(app, again.json().ticketId))?.amountPaise).toBe(149700)
    }
  })

  it('takes the ticket type by its _id as well as by its name', async () => {
    const event = await createApprovedEvent(app, organizer, admin)
    const vip = ticketTypeOf(event, 'VIP')

    for (const ticketType of [vip._id, 'VIP', 'vip']) {
      const res = await order(app, await signUp(app, 'Bala'), { eventId: event._id, ticketType, quantity: 1 })
      expect(res.statusCode, res.body).toBe(200)
      expect(res.json().amount).toBe(149900)
      expect(await orderRow(app, res.json().ticketId)).toMatchObject({
        ticketTypeId: vip._id,
        ticketType: 'VIP',
      })
    }
    expect(await inventoryRow(app, vip._id)).toMatchObject({ held: 3, sold: 0 })
  })

  describe('refuses a quantity outside 1..MAX_TICKETS_PER_ORDER (10) with 400, holding nothing', () => {
    let event: EventView
    let buyer: Session
    beforeAll(async () => {
      event = await createApprovedEvent(app, organizer, admin)
      buyer = await signUp(app, 'Chitra')
    })
    it.each([
      [0, 'Quantity must be at least 1.'],
      [-1, 'Quantity must be at least 1.'],
      [11, 'You can book at most 10 tickets at once.'],
      [1.5, 'Quantity must be a whole number.'],
      ['abc', 'Quantity must be a number.'],
      [null, 'Quantity must be a number.'],
    ])('quantity %j', async (quantity, message) => {
      const res = await order(app, buyer, { eventId: event._id, ticketType: 'VIP', quantity })
      expect(res.statusCode, res.body).toBe(400)
      expect(res.json()).toMatchObject({ message, issues: [{ field: 'quantity', message }] })
      expect(await ordersOfEvent(event._id)).toEqual([])
      expect(await inventoryRow(app, ticketTypeOf(event, 'VIP')._id)).toBeUndefined()
    })
    it('accepts 10, the most per order', async () => {
      const res = await order(app, buyer, { eventId: event._id, ticketType: 'VIP', quantity: 10 })
      expect(res.statusCode, res.body).toBe(200)
      expect(res.json().amount).toBe(10 * 149900)
    })
  })

  it('answers 404 for an event that does not exist, is pending or was rejected', async () => {
    const buyer = await signUp(app, 'Devi')
    const pending = await submitEvent(app, organizer)
    const rejected = await submitEvent(app, organizer)
    const review = await app.inject({
      method: 'PUT',
      url: `/api/v1/admin/events/${rejected._id}/status`,
      headers: bearer(admin.token),
      payload: { status: 'Rejected' },
    })
    expect(review.statusCode).toBe(200)

    for (const eventId of ['0123456789abcdef01234567', pending._id, rejected._id]) {
      const res = await order(app, buyer, { eventId, ticketType: 'VIP', quantity: 1 })
      expect(res.statusCode, res.body).toBe(404)
      expect(res.json()).toEqual({ message: 'Event not found.' })
      expect(await ordersOfEvent(eventId)).toEqual([])
    }
  })

  it('answers 400 for a ticket type the event does not have', async () => {
    const event = await createApprovedEvent(app, organizer, admin, [
      { type: 'General Admission', price: 299, quantity: 50 },
    ])
    const other = await createApprovedEvent(app, organizer, admin)
    const buyer = await signUp(app, 'Esha')

    for (const ticketType of ['VIP', 'Balcony', ticketTypeOf(other, 'General Admission')._id]) {
      const res = await order(app, buyer, { eventId: event._id, ticketType, quantity: 1 })
      expect(res.statusCode, res.body).toBe(400)
      expect(res.json()).toEqual({
        message: 'This event has no such ticket type.',
        issues: [{ field: 'ticketType', message: 'This event has no such ticket type.' }],
      })
    }
    expect(await ordersOfEvent(event._id)).toEqual([])
    expect(await ordersOfEvent(other._id)).toEqual([])
  })

  it('answers 401 to a visitor', async () => {
    const event = await createApprovedEvent(app, organizer, admin)
    const res = await order(app, null, { eventId: event._id, ticketType: 'VIP', quantity: 1 })
    expect(res.statusCode).toBe(401)
    expect(res.json()).toEqual({ message: 'Please log in to continue.' })
    expect(await ordersOfEvent(event._id)).toEqual([])
  })

  it("answers 409 'Not enough tickets available.' when the seats are taken, holding nothing", async () => {
    const event = await createApprovedEvent(app, organizer, admin, [{ type: 'VIP', price: 999, quantity: 3 }])
    const vip = ticketTypeOf(event, 'VIP')
    const [a, b, c] = [await signUp(app, 'Farah'), await signUp(app, 'Gita'), await signUp(app, 'Hari')]

    await hold(app, a, event, 'VIP', 2)
    const tooMany = await order(app, b, { eventId: event._id, ticketType: 'VIP', quantity: 2 })
    expect(tooMany.statusCode).toBe(409)
    expect(tooMany.json()).toEqual({ message: 'Not enough tickets available.' })
    await hold(app, b, event, 'VIP', 1)
    const soldOut = await order(app, c, { eventId: event._id, ticketType: 'VIP', quantity: 1 })
    expect(soldOut.statusCode).toBe(409)
    expect(soldOut.json()).toEqual({ message: 'Not enough tickets available.' })

    expect((await ordersOfEvent(event._id)).map((o) => o.buyerId).sort()).toEqual([a.id, b.id].sort())
    expect(await inventoryRow(app, vip._id)).toMatchObject({ held: 3, sold: 0 })
    expect(await availableOf(app, event._id, 'VIP')).toBe(0)
  })

  it('releases a lapsed hold when someone needs its seats, in the same transaction as the new hold', async () => {
    const event = await createApprovedEvent(app, organizer, admin, [{ type: 'VIP', price: 999, quantity: 1 }])
    const vip = ticketTypeOf(event, 'VIP')
    const [first, second] = [await signUp(app, 'Indu'), await signUp(app, 'Jai')]
    const lapsed = await hold(app, first, event, 'VIP', 1)

    // while the hold runs, the seat is taken
    const early = await order(app, second, { eventId: event._id, ticketType: 'VIP', quantity: 1 })
    expect(early.statusCode).toBe(409)

    await lapseHold(app, lapsed.ticketId)
    const res = await order(app, second, { eventId: event._id, ticketType: 'VIP', quantity: 1 })

    expect(res.statusCode, res.body).toBe(200)
    const released = await app.platform.ledger.readStream(`order-${lapsed.ticketId}`)
    expect(released.map((f) => f.type)).toEqual(['TicketsHeld', 'HoldExpired'])
    const taken = await app.platform.ledger.readStream(`order-${res.json().ticketId}`)
    expect(taken.map((f) => f.type)).toEqual(['TicketsHeld'])
    // released by this request, not by the (minutes away) expire job: the two facts were appended
    // by one transaction (on SQLite, the one writer's: adjacent; on PostgreSQL, where others append
    // meanwhile, the same tx)
    if (storeKind(app) === 'sqlite') expect(taken[0]?.position).toBe((released[1]?.position ?? 0) + 1)
    else {
      const rows = await dbRows<{ n: number }>(
        app,
        'SELECT count(DISTINCT tx)::int AS n FROM ledger WHERE position IN (?, ?)',
        taken[0]?.position,
        released[1]?.position,
      )
      expect(rows).toEqual([{ n: 1 }])
    }
    expect(await orderRow(app, lapsed.ticketId)).toMatchObject({ status: 'expired', paymentStatus: 'Failed' })
    expect(await orderRow(app, res.json().ticketId)).toMatchObject({ status: 'held', buyerId: second.id })
    expect(await inventoryRow(app, vip._id)).toMatchObject({ held: 1, sold: 0 })
    expect(await availableOf(app, event._id, 'VIP')).toBe(0)
  })

  it('issues free tickets at once, without the payment provider', async () => {
    const event = await createApprovedEvent(app, organizer, admin, [
      { type: 'General Admission', price: 0, quantity: 5 },
    ])
    const ga = ticketTypeOf(event, 'General Admission')
    const buyer = await signUp(app, 'Kavya')

    const res = await order(app, buyer, { eventId: event._id, ticketType: 'General Admission', quantity: 2 })

    expect(res.statusCode, res.body).toBe(200)
    const body = res.json() as CreateOrderReply
    expect(body).toEqual({
      orderId: `free_${body.ticketId}`,
      amount: 0,
      currency: 'INR',
      keyId: 'rzp_test_local',
      provider: 'free',
      ticketId: expect.any(String),
      heldUntil: expect.any(String),
      breakdown: { base: 0, cgst: 0, sgst: 0, igst: 0, fee: 0, feeTax: 0, total: 0 },
    })
    expect(await factsOf(app, body.ticketId)).toEqual(['TicketsHeld', 'TicketsIssued'])
    expect(await orderRow(app, body.ticketId)).toMatchObject({
      status: 'issued',
      paymentStatus: 'Completed',
      ownerId: buyer.id,
      amountPaise: 0,
      provider: 'free',
    })
    expect(await inventoryRow(app, ga._id)).toMatchObject({ held: 0, sold: 2 })
    expect(await availableOf(app, event._id, 'General Admission')).toBe(3)
    expect(await app.platform.localGateway?.order(body.orderId)).toBeNull()
    expect(await profileTickets(buyer)).toEqual([body.ticketId])
    const mail = await waitForMail(t.config.outboxDir, (m) => m.to.includes(buyer.email))
    expect(mail.subject).toBe('Your tickets for Raga Nights')
    expect(mail.text).toContain(`Ticket number: ${body.ticketId}`)
  })
})

describe('a hold on PostgreSQL, in round trips', () => {
  /** the statements each connection sent while `run` ran, in order, one list per transaction */
  async function transactions(run: () => Promise<unknown>): Promise<string[][]> {
    const sent: Array<{ client: unknown; text: string }> = []
    const query = pg.Client.prototype.query
    pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
      const q = args[0] as string | { text: string }
      sent.push({ client: this, text: typeof q === 'string' ? q : q.text })
      return (query as (...a: unknown[]) => unknown).apply(this, args)
    } as typeof query
    try {
      await run()
    } finally {
      pg.Client.prototype.query = query
    }
    // a transaction: from the send that begins it to the one that commits it, on its connection
    const found: string[][] = []
    sent.forEach(({ client, text }, i) => {
      if (!text.startsWith('BEGIN')) return
      const rest = sent.slice(i).filter((s) => s.client === client)
      const end = rest.findIndex((s) => /COMMIT$/.test(s.text))
      found.push(rest.slice(0, end + 1).map((s) => s.text))
    })
    return found
  }

  it.skipIf(testStore !== 'postgres')(
    "takes 3 round trips in its transaction, 6 when it replaces the buyer's last hold",
    async () => {
      const event = await createApprovedEvent(app, organizer, admin)
      const buyer = await signUp(app, 'Trips')
      // the hold's transaction: the one that writes the new order
      const holding = (found: string[][]) =>
        found.find((t) => t.some((s) => s.includes('INSERT INTO orders')))
      const first = holding(await transactions(() => hold(app, buyer, event)))
      expect(first, first?.join('\n\n')).toHaveLength(3)
      expect(first?.[0]).toMatch(/^BEGIN;\n.*pg_advisory_xact_lock/s)
      expect(first?.[2]).toMatch(/COMMIT$/)
      const again = holding(await transactions(() => hold(app, buyer, event)))
      expect(again, again?.join('\n\n')).toHaveLength(6)
    },
  )
})

describe('GET /ticket/getTicketbyId/:ticketId', () => {
  let event: EventView
  let buyer: Session
  let ticketId: string
  beforeAll(async () => {
    event = await createApprovedEvent(app, organizer, admin)
    buyer = await signUp(app, 'Lata')
    ticketId = await buyTicket(app, buyer, event, 'VIP', 2)
  })

  it("shows the bare ticket to its owner, the event's organizer and an admin", async () => {
    for (const reader of [buyer, organizer, admin]) {
      const res = await ticketById(reader, ticketId)
      expect(res.statusCode, res.body).toBe(200)
      expect(res.json()).toEqual({
        _id: ticketId,
        eventId: event._id,
        userId: buyer.id,
        ticketType: 'VIP',
        quantity: 2,
        totalAmount: 2998,
        paymentStatus: 'Completed',
      })
    }
  })

  it('shows an unpaid order to its buyer as Pending', async () => {
    const placed = await hold(app, buyer, event, 'General Admission', 1)
    const res = await ticketById(buyer, placed.ticketId)
    expect(res.statusCode).toBe(200)
    expect(res.json()).toMatchObject({ _id: placed.ticketId, userId: buyer.id, paymentStatus: 'Pending' })
  })

  it("answers 404 to another user, another organizer, and for an id that is nobody's", async () => {
    const stranger = await signUp(app, 'Mohan')
    const otherOrganizer = await organizerSession(app, 'Nandini')
    for (const reader of [stranger, otherOrganizer]) {
      const res = await ticketById(reader, ticketId)
      expect(res.statusCode).toBe(404)
      expect(res.json()).toEqual({ message: 'Ticket not found.' })
    }
    const unknown = await ticketById(buyer, '0123456789abcdef01234567')
    expect(unknown.statusCode).toBe(404)
    expect(unknown.json()).toEqual({ message: 'Ticket not found.' })
  })
})

describe('GET /ticket/registrations', () => {
  it("lists the caller's live tickets with their event, not unpaid orders", async () => {
    const event = await createApprovedEvent(app, organizer, admin)
    const buyer = await signUp(app, 'Omana')
    const ticketId = await buyTicket(app, buyer, event, 'VIP', 1)
    await hold(app, buyer, event, 'General Admission', 1)

    expect(await registrations(buyer)).toEqual([
      {
        _id: ticketId,
        eventId: event._id,
        eventTitle: 'Raga Nights',
        eventDate: event.date,
        eventTime: '19:30',
        eventLocation: 'Chowdiah Hall, Bengaluru',
        image: null,
        ticketType: 'VIP',
        quantity: 1,
        totalAmount: 1499,
        paymentStatus: 'Completed',
        // CANCEL_CUTOFF_HOURS (24) before 19:30 on the event's day in Asia/Kolkata (+05:30)
        cancellableUntil: new Date(Date.parse(`${event.date}T19:30:00+05:30`) - 24 * 3_600_000).toISOString(),
      },
    ])
    expect(await registrations(await signUp(app, 'Pavan'))).toEqual([])
  })

  it('with include=cancelled, keeps the cancelled tickets after the live ones: who cancelled, the refund and when it was paid out', async () => {
    const event = await createApprovedEvent(app, organizer, admin)
    const calledOff = await createApprovedEvent(app, organizer, admin, standardTickets, {
      title: 'Flooded Fest',
    })
    const buyer = await signUp(app, 'Priya')
    const friend = await signUp(app, 'Ravi')
    const kept = await buyTicket(app, buyer, event, 'General Admission', 1)
    const cancelledByBuyer = await buyTicket(app, buyer, event, 'VIP', 2)
    const given = await buyTicket(app, buyer, event, 'General Admission', 1)
    const withEvent = await buyTicket(app, buyer, calledOff, 'VIP', 1)
    const cancel = (ticketId: string) =>
      app.inject({ method: 'DELETE', url: `/api/v1/ticket/cancel/${ticketId}`, headers: bearer(buyer.token) })
    const before = new Date().toISOString()
    expect((await cancel(cancelledByBuyer)).statusCode).toBe(200)
    const transferred = await app.inject({
      method: 'POST',
      url: '/api/v1/ticket/transfer',
      headers: bearer(buyer.token),
      payload: { ticketId: given, newAttendeeEmail: friend.email },
    })
    expect(transferred.statusCode, transferred.body).toBe(200)
    const off = await app.inject({
      method: 'POST',
      url: `/api/v1/event/${calledOff._id}/cancel`,
      headers: bearer(organizer.token),
      payload: { reason: 'The hall is flooded.' },
    })
    expect(off.statusCode, off.body).toBe(200)
    for (const ticketId of [cancelledByBuyer, withEvent])
      await until(async () => (await factsOf(app, ticketId)).includes('PaymentRefunded'))

    // without it, as before: the live tickets alone, in their original shape
    expect((await registrations(buyer)).map((r) => r._id)).toEqual([kept])
    const res = await app.inject({
      method: 'GET',
      url: '/api/v1/ticket/registrations?include=cancelled',
      headers: bearer(buyer.token),
    })
    expect(res.statusCode, res.body).toBe(200)
    const all = res.json() as Array<Record<string, unknown>>
    expect(all.map((r) => r._id)).toEqual([kept, withEvent, cancelledByBuyer])
    expect(Object.keys(all[0] ?? {})).not.toContain('cancelledAt')
    const iso = expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/)
    expect(all[1]).toMatchObject({
      eventTitle: 'Flooded Fest',
      paymentStatus: 'Cancelled',
      cancelledAt: iso,
      cancelledBy: 'event',
      cancelReason: 'The hall is flooded.',
      refundAmount: 1499,
      refundedAt: iso,
    })
    expect(all[2]).toMatchObject({
      eventTitle: 'Raga Nights',
      ticketType: 'VIP',
      quantity: 2,
      totalAmount: 2998,
      paymentStatus: 'Cancelled',
      cancelledAt: iso,
      cancelledBy: 'holder',
      refundAmount: 2998,
      refundedAt: iso,
    })
    expect(all[2]).not.toHaveProperty('cancelReason')
    expect(String(all[2]?.cancelledAt) >= before).toBe(true)
    expect(String(all[2]?.refundedAt) >= String(all[2]?.cancelledAt)).toBe(true)
    // the ticket given away is the friend's now, on the friend's list alone
    expect(all.map((r) => r._id)).not.toContain(given)
    expect((await registrations(friend)).map((r) => r._id)).toEqual([given])
    // a query the list does not know is refused, not ignored
    const unknown = await app.inject({
      method: 'GET',
      url: '/api/v1/ticket/registrations?include=everything',
      headers: bearer(buyer.token),
    })
    expect(unknown.statusCode).toBe(400)
  })
})

describe('POST /auth/getbyid (an organizer looking up attendees)', () => {
  it('answers 200 for an attendee of its event and 404 for anyone else', async () => {
    const event = await createApprovedEvent(app, organizer, admin)
    const attendee = await signUp(app, 'Qadir')
    const unpaid = await signUp(app, 'Rekha')
    const stranger = await signUp(app, 'Sunil')
    await buyTicket(app, attendee, event)
    await hold(app, unpaid, event)
    const lookup = (as: Session, userid: string) =>
      app.inject({
        method: 'POST',
        url: '/api/v1/auth/getbyid',
        headers: bearer(as.token),
        payload: { userid },
      })

    const found = await lookup(organizer, attendee.id)
    expect(found.statusCode, found.body).toBe(200)
    expect(found.json()).toEqual({
      user: {
        _id: attendee.id,
        username: 'Qadir',
        email: attendee.email,
        phone: null,
        paymentStatus: 'Completed',
      },
    })
    for (const userid of [unpaid.id, stranger.id]) {
      const res = await lookup(organizer, userid)
      expect(res.statusCode).toBe(404)
      expect(res.json()).toEqual({ message: 'User not found.' })
    }
    const otherOrganizer = await organizerSession(app, 'Tanvi')
    expect((await lookup(otherOrganizer, attendee.id)).statusCode).toBe(404)
  })
})

describe.each([
  ['DELETE /ticket/cancel/:ticketId', '/api/v1/ticket/cancel/'],
  ['DELETE /ticket/:ticketId', '/api/v1/ticket/'],
])('%s', (_name, path) => {
  const cancel = (session: Session, ticketId: string) =>
    app.inject({ method: 'DELETE', url: `${path}${ticketId}`, headers: bearer(session.token) })

  it("cancels the owner's ticket: seats back on sale, refunded through the gateway, mailed, kept as Cancelled", async () => {
    const event = await createApprovedEvent(app, organizer, admin, [
      { type: 'VIP', price: 1499, quantity: 5 },
    ])
    const vip = ticketTypeOf(event, 'VIP')
    const buyer = await signUp(app, 'Uma')
    const ticketId = await buyTicket(app, buyer, event, 'VIP', 2)
    expect(await availableOf(app, event._id, 'VIP')).toBe(3)
    const paymentId = (await orderRow(app, ticketId))?.paymentId as string

    const res = await cancel(buyer, ticketId)

    expect(res.statusCode, res.body).toBe(200)
    expect(res.json()).toEqual({ message: 'Ticket canceled successfully.' })
    expect(await availableOf(app, event._id, 'VIP')).toBe(5)
    expect(await inventoryRow(app, vip._id)).toMatchObject({ held: 0, sold: 0 })
    await until(async () => (await factsOf(app, ticketId)).includes('PaymentRefunded'))
    const facts = await app.platform.ledger.readStream(`order-${ticketId}`)
    expect(facts.map((f) => f.type)).toEqual([
      'TicketsHeld',
      'PaymentCaptured',
      'TicketsIssued',
      'TicketCancelled',
      'RefundRequested',
      'PaymentRefunded',
    ])
    expect(facts[3]?.data).toEqual({
      orderId: ticketId,
      ownerId: buyer.id,
      eventId: event._id,
      ticketTypeId: vip._id,
      quantity: 2,
    })
    expect(facts[4]?.data).toEqual({ orderId: ticketId, paymentId, amountPaise: 299800, reason: 'cancelled' })
    const refunds = await app.platform.localGateway?.refundsOf(paymentId)
    expect(refunds).toEqual([{ id: expect.stringMatching(/^rfnd_/), amount: 299800 }])
    expect(facts[5]?.data).toEqual({
      orderId: ticketId,
      paymentId,
      refundId: refunds?.[0]?.id,
      amountPaise: 299800,
    })
    // kept, not deleted
    expect(await orderRow(app, ticketId)).toMatchObject({
      status: 'cancelled',
      paymentStatus: 'Cancelled',
      ownerId: buyer.id,
      refund: 'refunded',
    })
    const shown = await ticketById(buyer, ticketId)
    expect(shown.statusCode).toBe(200)
    expect(shown.json()).toMatchObject({ _id: ticketId, paymentStatus: 'Cancelled' })
    expect(await profileTickets(buyer)).toEqual([])
    expect(await registrations(buyer)).toEqual([])
    const mail = await waitForMail(
      t.config.outboxDir,
      (m) => m.to.includes(buyer.email) && /cancelled/.test(m.subject),
    )
    expect(mail.subject).toBe('Your ticket for Raga Nights is cancelled')
    expect(mail.text).toContain(`Ticket number: ${ticketId}`)
    expect(mail.text).toContain('A refund of ₹2,998')
  })

  it("answers 404 to someone else (even the event's organizer) and changes nothing", async () => {
    const event = await createApprovedEvent(app, organizer, admin)
    const buyer = await signUp(app, 'Varun')
    const ticketId = await buyTicket(app, buyer, event)
    const before = { facts: await factsOf(app, ticketId), row: await orderRow(app, ticketId) }

    for (const someone of [await signUp(app, 'Wasim'), organizer]) {
      const res = await cancel(someone, ticketId)
      expect(res.statusCode).toBe(404)
      expect(res.json()).toEqual({ message: 'Ticket not found.' })
    }
    const unknown = await cancel(buyer, '0123456789abcdef01234567')
    expect(unknown.statusCode).toBe(404)
    expect(await factsOf(app, ticketId)).toEqual(before.facts)
    expect(await orderRow(app, ticketId)).toEqual(before.row)
    expect(await availableOf(app, event._id, 'General Admission')).toBe(99)
  })

  it('answers 409 the second time, refunding once', async () => {
    const event = await createApprovedEvent(app, organizer, admin)
    const buyer = await signUp(app, 'Yamini')
    const ticketId = await buyTicket(app, buyer, event)
    expect((await cancel(buyer, ticketId)).statusCode).toBe(200)

    const again = await cancel(buyer, ticketId)

    expect(again.statusCode).toBe(409)
    expect(again.json()).toEqual({ message: 'This ticket is already cancelled.' })
    await until(async () => (await factsOf(app, ticketId)).includes('PaymentRefunded'))
    const facts = await factsOf(app, ticketId)
    expect(countOf(facts, 'TicketCancelled')).toBe(1)
    expect(countOf(facts, 'RefundRequested')).toBe(1)
    expect(
      await app.platform.localGateway?.refundsOf((await orderRow(app, ticketId))?.paymentId as string),
    ).toHaveLength(1)
    expect(await availableOf(app, event._id, 'General Admission')).toBe(100)
  })

  it('lets the buyer give up an unpaid hold (checkout closed): PaymentFailed, seats back at once', async () => {
    const event = await createApprovedEvent(app, organizer, admin)
    const buyer = await signUp(app, 'Zeenat')
    const placed = await hold(app, buyer, event, 'General Admission', 2)
    expect(await availableOf(app, event._id, 'General Admission')).toBe(98)

    const someoneElse = await cancel(await signUp(app, 'Abhay'), placed.ticketId)
    expect(someoneElse.statusCode).toBe(404)
    expect(await factsOf(app, placed.ticketId)).toEqual(['TicketsHeld'])

    const res = await cancel(buyer, placed.ticketId)

    expect(res.statusCode, res.body).toBe(200)
    expect(res.json()).toEqual({ message: 'Ticket canceled successfully.' })
    const facts = await app.platform.ledger.readStream(`order-${placed.ticketId}`)
    expect(facts.map((f) => f.type)).toEqual(['TicketsHeld', 'PaymentFailed'])
    expect(facts[1]?.data).toEqual({
      orderId: placed.ticketId,
      paymentId: null,
      reason: 'The buyer closed the checkout.',
      released: true,
    })
    expect(await orderRow(app, placed.ticketId)).toMatchObject({ status: 'failed', paymentStatus: 'Failed' })
    expect(await availableOf(app, event._id, 'General Admission')).toBe(100)
    const again = await cancel(buyer, placed.ticketId)
    expect(again.statusCode).toBe(409)
    expect(again.json()).toEqual({ message: 'This order was not paid, so there is no ticket.' })
  })
})

describe('POST /ticket/transfer', () => {
  const transfer = (session: Session, ticketId: string, newAttendeeEmail: string) =>
    app.inject({
      method: 'POST',
      url: '/api/v1/ticket/transfer',
      headers: bearer(session.token),
      payload: { ticketId, newAttendeeEmail },
    })

  it("moves the ticket to an existing account: out of the old owner's lists, into the new one's, mail to both", async () => {
    const event = await createApprovedEvent(app, organizer, admin)
    const from = await signUp(app, 'Anil')
    const to = await signUp(app, 'Bindu')
    const ticketId = await buyTicket(app, from, event, 'VIP', 1)
    expect(await profileTickets(from)).toEqual([ticketId])

    const res = await transfer(from, ticketId, to.email.toUpperCase())

    expect(res.statusCode, res.body).toBe(200)
    expect(res.json()).toEqual({ message: 'Ticket transferred successfully!' })
    const facts = await app.platform.ledger.readStream(`order-${ticketId}`)
    expect(facts.map((f) => f.type)).toEqual([
      'TicketsHeld',
      'PaymentCaptured',
      'TicketsIssued',
      'TicketTransferred',
    ])
    expect(facts[3]?.data).toEqual({ orderId: ticketId, fromId: from.id, toId: to.id })
    expect(await orderRow(app, ticketId)).toMatchObject({
      ownerId: to.id,
      buyerId: from.id,
      status: 'issued',
    })
    expect(await profileTickets(from)).toEqual([])
    expect(await profileTickets(to)).toEqual([ticketId])
    expect(await registrations(from)).toEqual([])
    expect((await registrations(to)).map((r) => r._id)).toEqual([ticketId])
    expect((await ticketById(to, ticketId)).json()).toMatchObject({
      userId: to.id,
      paymentStatus: 'Completed',
    })
    expect((await ticketById(from, ticketId)).statusCode).toBe(404)
    expect(await availableOf(app, event._id, 'VIP')).toBe(19)
    const toOld = await waitForMail(
      t.config.outboxDir,
      (m) => m.to.includes(from.email) && /transferred/.test(m.subject),
    )
    expect(toOld.text).toContain(`Your ticket now belongs to Bindu (${to.email})`)
    const toNew = await waitForMail(t.config.outboxDir, (m) => m.to.includes(to.email))
    expect(toNew.subject).toBe('Anil sent you a ticket for Raga Nights')
    expect(toNew.text).toContain(`Ticket number: ${ticketId}`)
  })

  it('confirms a booking to whom it was issued, without the passes, when the mail is written after a transfer', async () => {
    const event = await createApprovedEvent(app, organizer, admin)
    const from = await signUp(app, 'Anil')
    const to = await signUp(app, 'Bindu')
    const ticketId = await buyTicket(app, from, event, 'VIP', 1)
    expect((await transfer(from, ticketId, to.email)).statusCode).toBe(200)
    // the mail queue may reach TicketsIssued only now (a store whose reactions tail the ledger)
    const late = await app.services.bookingMails.issued(ticketId, from.id)
    expect(late?.to).toBe(from.email)
    expect(late?.subject).toBe('Your tickets for Raga Nights')
    expect(late?.passes ?? []).toEqual([])
    expect(late?.text).not.toMatch(/Show a pass at the door/)
  })

  it('answers 404 with a message when no account has that e-mail, and changes nothing', async () => {
    const event = await createApprovedEvent(app, organizer, admin)
    const owner = await signUp(app, 'Chandra')
    const ticketId = await buyTicket(app, owner, event)
    const res = await transfer(owner, ticketId, 'nobody-here@example.com')
    expect(res.statusCode).toBe(404)
    expect(res.json()).toEqual({ message: 'No account found with that email.' })
    expect(await factsOf(app, ticketId)).not.toContain('TicketTransferred')
    expect((await orderRow(app, ticketId))?.ownerId).toBe(owner.id)
  })

  it('answers 400 for a transfer to oneself', async () => {
    const event = await createApprovedEvent(app, organizer, admin)
    const owner = await signUp(app, 'Dinesh')
    const ticketId = await buyTicket(app, owner, event)
    const res = await transfer(owner, ticketId, owner.email)
    expect(res.statusCode).toBe(400)
    expect(res.json()).toEqual({ message: 'You cannot transfer a ticket to yourself.' })
    expect(await factsOf(app, ticketId)).not.toContain('TicketTransferred')
  })

  it("answers 404 for someone else's ticket, and changes nothing", async () => {
    const event = await createApprovedEvent(app, organizer, admin)
    const owner = await signUp(app, 'Ela')
    const thief = await signUp(app, 'Firoz')
    const ticketId = await buyTicket(app, owner, event)
    const res = await transfer(thief, ticketId, thief.email)
    expect(res.statusCode).toBe(404)
    expect(res.json()).toEqual({ message: 'Ticket not found.' })
    const res2 = await transfer(thief, ticketId, (await signUp(app, 'Gopal')).email)
    expect(res2.statusCode).toBe(404)
    expect(await factsOf(app, ticketId)).not.toContain('TicketTransferred')
    expect((await orderRow(app, ticketId))?.ownerId).toBe(owner.id)
    expect(await profileTickets(thief)).toEqual([])
  })

  it('answers 409 to the old owner afterwards; the new owner can cancel it', async () => {
    const event = await createApprovedEvent(app, organizer, admin, [
      { type: 'VIP', price: 1499, quantity: 4 },
    ])
    const from = await signUp(app, 'Hema')
    const to = await signUp(app, 'Irfan')
    const third = await signUp(app, 'Jaya')
    const ticketId = await buyTicket(app, from, event, 'VIP', 2)
    expect((await transfer(from, ticketId, to.email)).statusCode).toBe(200)

    const again = await transfer(from, ticketId, third.email)
    expect(again.statusCode).toBe(409)
    expect(again.json()).toEqual({ message: 'This ticket has been transferred to someone else.' })
    const cancelByOld = await app.inject({
      method: 'DELETE',
      url: `/api/v1/ticket/cancel/${ticketId}`,
      headers: bearer(from.token),
    })
    expect(cancelByOld.statusCode).toBe(409)
    expect(await orderRow(app, ticketId)).toMatchObject({ ownerId: to.id, status: 'issued' })

    const cancelByNew = await app.inject({
      method: 'DELETE',
      url: `/api/v1/ticket/${ticketId}`,
      headers: bearer(to.token),
    })
    expect(cancelByNew.statusCode, cancelByNew.body).toBe(200)
    expect(await availableOf(app, event._id, 'VIP')).toBe(4)
    await until(async () => (await factsOf(app, ticketId)).includes('PaymentRefunded'))
    const cancelled = (await app.platform.ledger.readStream(`order-${ticketId}`)).find(
      (f) => f.type === 'TicketCancelled',
    )
    expect(cancelled?.data).toMatchObject({ ownerId: to.id, quantity: 2 })
    expect(await profileTickets(to)).toEqual([])
    await waitForMail(t.config.outboxDir, (m) => m.to.includes(to.email) && /cancelled/.test(m.subject))
    expect(mailsTo(from.email).filter((m) => /cancelled/.test(m.subject))).toEqual([])
  })
})

describe('live pushes (real listening server, socket.io-client)', () => {
  let server: TestServer
  let liveAdmin: Session
  let liveOrganizer: Session
  const sockets: Socket[] = []
  beforeAll(async () => {
    server = await startServer({ RATE_LIMITS: 'off' })
    liveAdmin = await adminSession(server.app)
    liveOrganizer = await organizerSession(server.app, 'Kiran')
  })
  afterAll(async () => {
    for (const s of sockets) s.disconnect()
    await server.close()
  })

  /** A connected socket and everything it hears. */
  async function listen(token?: string, room?: string) {
    const socket = connect(server.url, {
      auth: token ? { token } : {},
      transports: ['websocket'],
      reconnection: false,
    })
    sockets.push(socket)
    const heard: LivePush[] = []
    socket.on('fact', (push: LivePush) => heard.push(push))
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', () => resolve())
      socket.once('connect_error', reject)
    })
    if (room) expect(await socket.emitWithAck('watch', room)).toMatchObject({ ok: true, room })
    const next = async (type: string, match: (push: LivePush) => boolean = () => true) => {
      let found: LivePush | undefined
      await until(() => {
        found = heard.find((p) => p.type === type && match(p))
        return found !== undefined
      })
      return found as LivePush
    }
    return { heard, next }
  }

  it('pushes availability to the event room and ticket changes to the buyer on hold, issue, failure, cancel and refund', async () => {
    const live = server.app
    const event = await createApprovedEvent(live, liveOrganizer, liveAdmin, [
      { type: 'VIP', price: 1499, quantity: 10 },
    ])
    const vip = ticketTypeOf(event, 'VIP')
    const buyer = await signUp(live, 'Lakshmi')
    const watcher = await listen(undefined, `event-${event._id}`)
    const own = await listen(buyer.token)
    const forOrder = (orderId: string) => (p: LivePush) => p.data.orderId === orderId

    const placed = await hold(live, buyer, event, 'VIP', 2)
    const held = await watcher.next('TicketsHeld')
    expect(held.data).toEqual({ eventId: event._id, ticketTypeId: vip._id, available: 8 })
    // named by its event: a visitor is not told the order's id
    expect(held.stream).toBe(`event-${event._id}`)
    expect((await own.next('TicketsHeld', forOrder(placed.ticketId))).data).toEqual({
      orderId: placed.ticketId,
      eventId: event._id,
      status: 'held',
      paymentStatus: 'Pending',
    })

    const paid = await confirmPayment(live, buyer, await pay(live, buyer, placed))
    expect(paid.statusCode, paid.body).toBe(200)
    expect((await watcher.next('TicketsIssued')).data).toEqual({
      eventId: event._id,
      ticketTypeId: vip._id,
      available: 8,
    })
    expect((await own.next('TicketsIssued', forOrder(placed.ticketId))).data).toMatchObject({
      status: 'issued',
      paymentStatus: 'Completed',
    })

    const failing = await hold(live, buyer, event, 'VIP', 3)
    expect((await watcher.next('TicketsHeld', (p) => p.position > held.position)).data).toMatchObject({
      available: 5,
    })
    await pay(live, buyer, failing, 'failure')
    expect((await watcher.next('PaymentFailed')).data).toEqual({
      eventId: event._id,
      ticketTypeId: vip._id,
      available: 8,
    })
    expect((await own.next('PaymentFailed', forOrder(failing.ticketId))).data).toMatchObject({
      status: 'failed',
      paymentStatus: 'Failed',
    })

    const cancelled = await live.inject({
      method: 'DELETE',
      url: `/api/v1/ticket/cancel/${placed.ticketId}`,
      headers: bearer(buyer.token),
    })
    expect(cancelled.statusCode).toBe(200)
    expect((await watcher.next('TicketCancelled')).data).toEqual({
      eventId: event._id,
      ticketTypeId: vip._id,
      available: 10,
    })
    expect((await own.next('TicketCancelled', forOrder(placed.ticketId))).data).toMatchObject({
      status: 'cancelled',
      paymentStatus: 'Cancelled',
    })
    // the refund paid out later reaches the holder's screens too (its dashboard says when)
    expect((await own.next('PaymentRefunded', forOrder(placed.ticketId))).data).toEqual({
      orderId: placed.ticketId,
      eventId: event._id,
      status: 'cancelled',
      paymentStatus: 'Cancelled',
    })
    // positions only grow, so a client can tell a stale push
    const positions = watcher.heard.map((p) => p.position)
    expect([...positions].sort((a, b) => a - b)).toEqual(positions)
    expect(JSON.stringify([...watcher.heard, ...own.heard])).not.toMatch(/secret|signature/i)
  })

  it("sends a burst of holds to the event's room as a few counts, the last one the seats left", async () => {
    const live = server.app
    const event = await createApprovedEvent(live, liveOrganizer, liveAdmin, [
      { type: 'VIP', price: 1499, quantity: 100 },
    ])
    const vip = ticketTypeOf(event, 'VIP')
    const watcher = await listen(undefined, `event-${event._id}`)
    const buyers = await Promise.all(Array.from({ length: 30 }, (_, i) => signUp(live, `Burst${i}`)))
    await Promise.all(buyers.map((buyer) => hold(live, buyer, event, 'VIP', 1)))
    const counts = () => watcher.heard.filter((p) => 'available' in p.data)
    await until(() => counts().some((p) => (p.data as { available: number }).available === 70))
    // nothing more comes after the last count (one interval later)
    await new Promise((r) => setTimeout(r, 500))
    const heard = counts()
    // the first at once, then one count per LIVE_FIGURES_EVERY_MS (200 ms) while the holds come in,
    // not one per hold
    expect(heard.length).toBeGreaterThanOrEqual(1)
    expect(heard.length).toBeLessThan(10)
    expect(heard.at(-1)?.data).toEqual({ eventId: event._id, ticketTypeId: vip._id, available: 70 })
    const positions = heard.map((p) => p.position)
    expect([...positions].sort((a, b) => a - b)).toEqual(positions)
  })

  it('tells both the old and the new owner of a transfer', async () => {
    const live = server.app
    const event = await createApprovedEvent(live, liveOrganizer, liveAdmin)
    const from = await signUp(live, 'Madhu')
    const to = await signUp(live, 'Naveen')
    const bystander = await signUp(live, 'Oviya')
    const ticketId = await buyTicket(live, from, event)
    const fromSocket = await listen(from.token)
    const toSocket = await listen(to.token)
    const bystanderSocket = await listen(bystander.token)

    const res = await live.inject({
      method: 'POST',
      url: '/api/v1/ticket/transfer',
      headers: bearer(from.token),
      payload: { ticketId, newAttendeeEmail: to.email },
    })
    expect(res.statusCode).toBe(200)

    const expected = { orderId: ticketId, eventId: event._id, status: 'issued', paymentStatus: 'Completed' }
    expect((await fromSocket.next('TicketTransferred')).data).toEqual(expected)
    expect((await toSocket.next('TicketTransferred')).data).toEqual(expected)
    await new Promise((r) => setTimeout(r, 200))
    expect(bystanderSocket.heard.filter((p) => p.type === 'TicketTransferred')).toEqual([])
  })
})

describe("seats on sale to an event's room: the first count at once, the rest gathered per interval", () => {
  // An interval long enough that a count waiting for its end cannot be mistaken for one sent at once.
  const INTERVAL_MS = 2000
  let server: TestServer
  let socket: Socket | undefined
  beforeAll(async () => {
    server = await startServer({ RATE_LIMITS: 'off', LIVE_FIGURES_EVERY_MS: String(INTERVAL_MS) })
  })
  afterAll(async () => {
    socket?.disconnect()
    await server.close()
  })

  it('sends a quiet hold at once, and two holds within the interval as one count when it ends', async () => {
    const app = server.app
    const admin = await adminSession(app)
    const organizer = await organizerSession(app, 'Latha')
    const event = await createApprovedEvent(app, organizer, admin, [
      { type: 'VIP', price: 1499, quantity: 100 },
    ])
    const vip = ticketTypeOf(event, 'VIP')
    socket = connect(server.url, { transports: ['websocket'], reconnection: false })
    const counts: Array<{ available: number; position: number; at: number }> = []
    socket.on('fact', (push: LivePush) => {
      const data = push.data as { ticketTypeId?: string; available?: unknown }
      if (data.ticketTypeId === vip._id && typeof data.available === 'number')
        counts.push({ available: data.available, position: push.position, at: Date.now() })
    })
    await new Promise<void>((resolve, reject) => {
      socket?.once('connect', () => resolve())
      socket?.once('connect_error', reject)
    })
    expect(await socket.emitWithAck('watch', `event-${event._id}`)).toMatchObject({
      ok: true,
      room: `event-${event._id}`,
    })
    const [first, second, third] = await Promise.all(['Ravi', 'Sita', 'Tara'].map((n) => signUp(app, n)))

    // A hold after a quiet spell: its count goes at once, not when the interval ends.
    const answered = Date.now()
    await hold(app, first as Session, event, 'VIP', 1)
    await until(() => counts.length === 1)
    expect(counts[0]?.available).toBe(99)
    expect((counts[0]?.at ?? Number.POSITIVE_INFINITY) - answered).toBeLessThan(INTERVAL_MS / 2)

    // Two more within the interval: nothing at once, then one count as of the latest at its end.
    await hold(app, second as Session, event, 'VIP', 1)
    await hold(app, third as Session, event, 'VIP', 1)
    await new Promise((r) => setTimeout(r, INTERVAL_MS / 4))
    expect(counts).toHaveLength(1)
    await until(() => counts.length === 2, INTERVAL_MS * 3)
    expect(counts[1]?.available).toBe(97)
    expect(counts[1]?.position).toBeGreaterThan(counts[0]?.position ?? 0)
    // and nothing after it: the interval after that count gathered no fact
    await new Promise((r) => setTimeout(r, INTERVAL_MS * 1.5))
    expect(counts).toHaveLength(2)
  })
})
