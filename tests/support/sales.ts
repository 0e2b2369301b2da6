// Events and sales made through the real API, for the organizer-tools, schedule and support tests:
// submit and approve an event, hold seats, pay at the local gateway (or fail to), confirm, cancel,
// transfer; and a few reads of what booking and analytics stored.
import type { FastifyInstance, LightMyRequestResponse } from 'fastify'
import { expect, vi } from 'vitest'
import type { CreateOrderReply } from '../../contracts/booking.ts'
import type { EventView, TicketTypeInput } from '../../contracts/catalog.ts'
import { instantIn } from '../../server/wall-clock.ts'
import { bearer, type Session, signUp } from './accounts.ts'
import { eventForm } from './event-form.ts'

export const nextYear = new Date().getFullYear() + 1

/** Users signed up at once, one per name, in the names' order. */
export async function signUpAll<const Names extends readonly string[]>(
  app: FastifyInstance,
  names: Names,
): Promise<{ -readonly [K in keyof Names]: Session }> {
  return (await Promise.all(names.map((name) => signUp(app, name)))) as {
    -readonly [K in keyof Names]: Session
  }
}

export const twoTypes: TicketTypeInput[] = [
  { type: 'General Admission', price: 500, quantity: 100 },
  { type: 'VIP', price: 1500, quantity: 20 },
]

/** POST /event/create as the organizer (multipart, like the web form); the event stays Pending. */
export async function submitEvent(
  app: FastifyInstance,
  organizer: Session,
  fields: Record<string, string> = {},
  ticketTypes: TicketTypeInput[] = twoTypes,
): Promise<EventView> {
  const { fields: all, request } = await eventForm(organizer.token, fields, ticketTypes)
  const submit = () => app.inject(request)
  // An event that has started already (a test of what happens then) was submitted before it did:
  // the clock is set back to a minute before its start while it is (an event may not be submitted
  // with a start gone by).
  const start = instantIn(all.date ?? '', all.time ?? '', app.platform.config.timeZone).getTime()
  const res = start > Date.now() + 5_000 ? await submit() : await asOf(start - 60_000, submit)
  expect(res.statusCode, res.body).toBe(201)
  return res.json().event as EventView
}

/** What `act` does while the clock (Date only; timers run as ever) reads `instant` and goes on from there. */
export async function asOf<T>(instant: number, act: () => Promise<T>): Promise<T> {
  vi.useFakeTimers({ toFake: ['Date'], now: instant, shouldAdvanceTime: true })
  try {
    return await act()
  } finally {
    vi.useRealTimers()
  }
}

/** PUT /admin/events/{id}/status as the admin. */
export async function review(
  app: FastifyInstance,
  admin: Session,
  eventId: string,
  status: 'Approved' | 'Rejected' = 'Approved',
): Promise<EventView> {
  const res = await app.inject({
    method: 'PUT',
    url: `/api/v1/admin/events/${eventId}/status`,
    headers: bearer(admin.token),
    payload: { status },
  })
  expect(res.statusCode, res.body).toBe(200)
  return res.json().event as EventView
}

export async function approvedEvent(
  app: FastifyInstance,
  organizer: Session,
  admin: Session,
  fields: Record<string, string> = {},
  ticketTypes: TicketTypeInput[] = twoTypes,
): Promise<EventView> {
  const event = await submitEvent(app, organizer, fields, ticketTypes)
  return review(app, admin, event._id)
}

/** POST /ticket/create: `quantity` seats of `ticketType` held for the buyer, awaiting payment. */
export async function hold(
  app: FastifyInstance,
  buyer: Session,
  event: Pick<EventView, '_id'>,
  ticketType = 'VIP',
  quantity = 1,
): Promise<CreateOrderReply> {
  const res = await app.inject({
    method: 'POST',
    url: '/api/v1/ticket/create',
    headers: bearer(buyer.token),
    payload: { eventId: event._id, ticketType, quantity, amount: 1 },
  })
  expect(res.statusCode, res.body).toBe(200)
  return res.json() as CreateOrderReply
}

export type Checkout = { razorpay_payment_id: string; razorpay_order_id: string; razorpay_signature: string }

/** The payer's choice in the local gateway's checkout (POST /payments/local/pay). */
export async function pay(
  app: FastifyInstance,
  buyer: Session,
  placed: Pick<CreateOrderReply, 'orderId'>,
  outcome: 'success' | 'failure' = 'success',
): Promise<LightMyRequestResponse> {
  return app.inject({
    method: 'POST',
    url: '/api/v1/payments/local/pay',
    headers: bearer(buyer.token),
    payload: { orderId: placed.orderId, outcome },
  })
}

/** The client's callback after checkout (POST /ticket/handlePaymentSuccess). */
export const confirm = (app: FastifyInstance, buyer: Session, checkout: Checkout) =>
  app.inject({
    method: 'POST',
    url: '/api/v1/ticket/handlePaymentSuccess',
    headers: bearer(buyer.token),
    payload: {
      paymentId: checkout.razorpay_payment_id,
      orderId: checkout.razorpay_order_id,
      signature: checkout.razorpay_signature,
      event: { source: 'test' },
    },
  })

/** Holds, pays and confirms: the issued ticket's id. */
export async function buy(
  app: FastifyInstance,
  buyer: Session,
  event: Pick<EventView, '_id'>,
  ticketType = 'VIP',
  quantity = 1,
): Promise<string> {
  const placed = await hold(app, buyer, event, ticketType, quantity)
  const paid = await pay(app, buyer, placed, 'success')
  expect(paid.statusCode, paid.body).toBe(200)
  const res = await confirm(app, buyer, paid.json() as Checkout)
  expect(res.statusCode, res.body).toBe(200)
  expect(res.json().message).toBe('Booking Successful!')
  return placed.ticketId
}

/** Holds and fails to pay; waits until the gateway's webhook has turned the order Failed. */
export async function failToPay(
  app: FastifyInstance,
  buyer: Session,
  event: Pick<EventView, '_id'>,
  ticketType = 'VIP',
  quantity = 1,
): Promise<string> {
  const placed = await hold(app, buyer, event, ticketType, quantity)
  const res = await pay(app, buyer, placed, 'failure')
  expect(res.statusCode, res.body).toBe(402)
  await until(async () => (await orderRow(app, placed.ticketId))?.paymentStatus === 'Failed')
  return placed.ticketId
}

export async function cancel(app: FastifyInstance, owner: Session, ticketId: string) {
  const res = await app.inject({
    method: 'DELETE',
    url: `/api/v1/ticket/cancel/${ticketId}`,
    headers: bearer(owner.token),
  })
  expect(res.statusCode, res.body).toBe(200)
}

export async function transfer(app: FastifyInstance, owner: Session, ticketId: string, to: Session) {
  const res = await app.inject({
    method: 'POST',
    url: '/api/v1/ticket/transfer',
    headers: bearer(owner.token),
    payload: { ticketId, newAttendeeEmail: to.email },
  })
  expect(res.statusCode, res.body).toBe(200)
}

/** An order's row of booking's read model (its ticket, once paid), on either store. */
export const orderRow = (app: FastifyInstance, ticketId: string) =>
  app.platform.store.queries.booking.byId(ticketId)

/** The facts of one type in the ledger (all streams), oldest first. */
export const factsOfType = async (app: FastifyInstance, type: string) =>
  (await app.platform.ledger.readFrom(0, 1_000_000)).filter((f) => f.type === type)

/** Waits until check() holds: workers, consumers and pushes run after commit. */
export async function until(check: () => boolean | Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms`)
    await new Promise((r) => setTimeout(r, 20))
  }
}

export const get = (app: FastifyInstance, url: string, session?: Session | null) =>
  app.inject({ method: 'GET', url, headers: session ? bearer(session.token) : {} })

export const post = (app: FastifyInstance, url: string, session: Session | null, payload?: unknown) =>
  app.inject({
    method: 'POST',
    url,
    headers: session ? bearer(session.token) : {},
    ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }),
  })
