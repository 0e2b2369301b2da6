// A ticket let in at the door has been used: its buyer can no longer cancel it for a refund (409,
// saying why, on both cancel paths). Its event's organizer (or an admin) can still refund it on
// purpose: POST /ticket/{id}/refund cancels the ticket and refunds its payment, as a cancel does,
// before or after admission, with an optional reason mailed to the holder. The organizer's
// attendee list reads a person's tickets to its event to offer that action.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { EventView } from '../../contracts/catalog.ts'
import type { TicketPass } from '../../contracts/checkin.ts'
import { adminSession, bearer, organizerSession, type Session, signUp } from '../support/accounts.ts'
import { wallClockIn } from '../support/clock.ts'
import { waitForMail } from '../support/outbox.ts'
import { approvedEvent, buy, factsOfType, get, orderRow, post, until } from '../support/sales.ts'
import { startServer, type TestServer } from '../support/server.ts'

let server: TestServer
const app = () => server.app
let admin: Session
let organizer: Session
let rival: Session
let event: EventView

const types = [
  { type: 'General Admission' as const, price: 500, quantity: 1000 },
  { type: 'VIP' as const, price: 1500, quantity: 100 },
  { type: 'General Admission' as const, price: 0, quantity: 100 },
]

beforeAll(async () => {
  // the event starts in two hours, so its door is open (it opens CHECKIN_OPENS_HOURS before), and
  // its tickets may still be cancelled by their holders (no cutoff) until let in
  server = await startServer({ RATE_LIMITS: 'off', LOG_LEVEL: 'error', CANCEL_CUTOFF_HOURS: '0' })
  admin = await adminSession(app())
  organizer = await organizerSession(app(), 'Refunder')
  rival = await organizerSession(app(), 'Elsewhere')
  const { date, time } = wallClockIn(server.config.timeZone, 120)
  event = await approvedEvent(
    app(),
    organizer,
    admin,
    { title: 'Door And Refunds', date, time },
    types.slice(0, 2),
  )
}, 60_000)

afterAll(async () => {
  await server?.close()
})

/** lets the ticket's first admission in at the door, as the organizer's scanner */
async function admit(ticketId: string, holder: Session) {
  const passes = (await get(app(), `/api/v1/ticket/${ticketId}/passes`, holder)).json() as TicketPass[]
  const code = passes[0]?.code as string
  const res = await post(app(), `/api/v1/checkin/${event._id}/scans`, organizer, {
    scans: [{ code, scannedAt: new Date().toISOString(), device: 'gate-1' }],
  })
  expect(res.statusCode, res.body).toBe(200)
  expect(res.json()[0].result).toBe('admitted')
}

const cancelAs = (who: Session, url: string) =>
  app().inject({ method: 'DELETE', url, headers: bearer(who.token) })
const refund = (who: Session | null, ticketId: string, body?: Record<string, unknown>) =>
  post(app(), `/api/v1/ticket/${ticketId}/refund`, who, body)
const refunded = (ticketId: string) =>
  until(async () => (await orderRow(app(), ticketId))?.refund === 'refunded')

describe('cancelling a ticket let in at the door', () => {
  it('is refused to its holder on both paths, with the reason; the ticket stays valid', async () => {
    const holder = await signUp(app(), 'Inside')
    const ticket = await buy(app(), holder, event)
    await admit(ticket, holder)

    for (const url of [`/api/v1/ticket/cancel/${ticket}`, `/api/v1/ticket/${ticket}`]) {
      const res = await cancelAs(holder, url)
      expect(res.statusCode, res.body).toBe(409)
      expect(res.json()).toEqual({
        message:
          'This ticket has been used at the door, so it can no longer be cancelled. Please ask the organizer.',
      })
    }
    expect(await orderRow(app(), ticket)).toMatchObject({ status: 'issued', refund: null })
    expect(
      (await factsOfType(app(), 'RefundRequested')).filter(
        (f) => (f.data as { orderId: string }).orderId === ticket,
      ),
    ).toEqual([])
  })
})

describe('POST /ticket/{ticketId}/refund', () => {
  it('lets the organizer refund a ticket let in at the door: cancelled, refunded in full, the holder mailed the reason', async () => {
    const holder = await signUp(app(), 'Disappointed')
    const ticket = await buy(app(), holder, event, 'VIP', 2)
    await admit(ticket, holder)
    const vipSold = async () =>
      (
        (await get(app(), `/api/v1/ticket/analytics/${event._id}`, organizer)).json().analytics as Array<{
          ticketType: string
          totalTicketsSold: number
        }>
      ).find((r) => r.ticketType === 'VIP')?.totalTicketsSold
    const soldBefore = (await vipSold()) as number

    const res = await refund(organizer, ticket, { reason: 'The headliner did not play.' })

    expect(res.statusCode, res.body).toBe(200)
    expect(res.json()).toEqual({ message: 'The ticket is cancelled and ₹3,000 will be refunded.' })
    expect(await orderRow(app(), ticket)).toMatchObject({ status: 'cancelled', paymentStatus: 'Cancelled' })
    await refunded(ticket)
    const requested = (await factsOfType(app(), 'RefundRequested')).find(
      (f) => (f.data as { orderId: string }).orderId === ticket,
    )
    expect(requested?.data).toMatchObject({ amountPaise: 300_000, reason: 'refunded by organizer' })
    const cancelled = (await factsOfType(app(), 'TicketCancelled')).find(
      (f) => (f.data as { orderId: string }).orderId === ticket,
    )
    expect(cancelled?.data).toMatchObject({
      ownerId: holder.id,
      refundedBy: { by: organizer.id, reason: 'The headliner did not play.' },
    })
    const mail = await waitForMail(
      server.config.outboxDir,
      (m) => m.to.includes(holder.email) && m.subject === 'Your ticket for Door And Refunds is refunded',
    )
    expect(mail.text).toContain('The reason given: The headliner did not play.')
    expect(mail.text).toContain('₹3,000')
    // its passes no longer let anyone in
    const passes = (await get(app(), `/api/v1/ticket/${ticket}/passes`, holder)).json() as TicketPass[]
    expect(new Set(passes.map((p) => p.status))).toEqual(new Set(['void']))
    // and the figures lose the sale
    expect(await vipSold()).toBe(soldBefore - 2)
  })

  it('works before admission too, for an admin as well, without a reason; twice is a 409', async () => {
    const holder = await signUp(app(), 'ChangedMind')
    const ticket = await buy(app(), holder, event, 'General Admission', 1)
    const res = await refund(admin, ticket)
    expect(res.statusCode, res.body).toBe(200)
    expect(res.json().message).toBe('The ticket is cancelled and ₹500 will be refunded.')
    await refunded(ticket)
    const again = await refund(organizer, ticket)
    expect([again.statusCode, again.json().message]).toEqual([409, 'This ticket is already cancelled.'])
  })

  it('cancels a free ticket with nothing to refund', async () => {
    const free = await approvedEvent(app(), organizer, admin, { title: 'Free Door' }, [
      types[2] as (typeof types)[2],
    ])
    const holder = await signUp(app(), 'Freeloader')
    const placed = await post(app(), '/api/v1/ticket/create', holder, {
      eventId: free._id,
      ticketType: 'General Admission',
      quantity: 1,
    })
    expect(placed.json()).toMatchObject({ provider: 'free' })
    const res = await refund(organizer, placed.json().ticketId)
    expect(res.statusCode, res.body).toBe(200)
    expect(res.json().message).toBe('The ticket is cancelled; it was free, so there is nothing to refund.')
    expect(await orderRow(app(), placed.json().ticketId)).toMatchObject({ status: 'cancelled', refund: null })
  })

  it('is refused to the holder, to another organizer and to visitors; an unpaid order and a long reason are refused', async () => {
    const holder = await signUp(app(), 'Holder')
    const ticket = await buy(app(), holder, event)
    expect((await refund(null, ticket)).statusCode).toBe(401)
    expect((await refund(holder, ticket)).statusCode).toBe(403)
    const theirs = await refund(rival, ticket)
    expect([theirs.statusCode, theirs.json().message]).toEqual([404, 'Ticket not found.'])
    expect((await refund(organizer, 'no-such-ticket')).statusCode).toBe(404)
    const long = await refund(organizer, ticket, { reason: 'x'.repeat(501) })
    expect(long.statusCode).toBe(400)
    expect(long.json().message).toBe('The reason is too long (500 characters at most).')
    expect((await orderRow(app(), ticket))?.status).toBe('issued')
    const unpaid = await post(app(), '/api/v1/ticket/create', await signUp(app(), 'Unpaid'), {
      eventId: event._id,
      ticketType: 'VIP',
      quantity: 1,
    })
    const res = await refund(organizer, unpaid.json().ticketId)
    expect([res.statusCode, res.json().message]).toEqual([409, 'This order is not paid yet.'])
  })
})

describe('GET /dashboard/events/{eventId}/attendees/{accountId}/tickets', () => {
  it("lists a person's valid tickets to the event, for its organizer and admins only", async () => {
    const holder = await signUp(app(), 'TwiceOver')
    const first = await buy(app(), holder, event, 'VIP', 1)
    const second = await buy(app(), holder, event, 'General Admission', 2)
    const url = `/api/v1/dashboard/events/${event._id}/attendees/${holder.id}/tickets`
    const res = await get(app(), url, organizer)
    expect(res.statusCode, res.body).toBe(200)
    expect(res.json()).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ _id: first, ticketType: 'VIP', quantity: 1, totalAmount: 1500 }),
        expect.objectContaining({
          _id: second,
          ticketType: 'General Admission',
          quantity: 2,
          totalAmount: 1000,
        }),
      ]),
    )
    expect(res.json()).toHaveLength(2)
    expect((await get(app(), url, admin)).statusCode).toBe(200)
    expect((await get(app(), url, rival)).statusCode).toBe(404)
    expect((await get(app(), url, holder)).statusCode).toBe(403)
  })
})
