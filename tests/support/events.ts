// Approved events, orders and payments through the real API, and what booking leaves behind
// (order streams, read rows), for the booking and payments tests.
import type { FastifyInstance, LightMyRequestResponse } from 'fastify'
import { Redis } from 'ioredis'
import { expect } from 'vitest'
import type { CreateOrderReply } from '../../contracts/booking.ts'
import type { EventView, TicketTypeInput } from '../../contracts/catalog.ts'
import { bearer, type Session } from './accounts.ts'
import { dbRow, dbRun, rewriteFactData } from './db.ts'
import { type Checkout, pay as payAtGateway, submitEvent as submitPending } from './sales.ts'

export { type Checkout, orderRow, until } from './sales.ts'

export const standardTickets: TicketTypeInput[] = [
  { type: 'General Admission', price: 499, quantity: 100 },
  { type: 'VIP', price: 1499, quantity: 20 },
]

/** Submits an event as the organizer (multipart, like the web form) and has the admin approve it. */
export async function createApprovedEvent(
  app: FastifyInstance,
  organizer: Session,
  admin: Session,
  ticketTypes: TicketTypeInput[] = standardTickets,
  fields: Record<string, string> = {},
): Promise<EventView> {
  const event = await submitEvent(app, organizer, ticketTypes, fields)
  const review = await app.inject({
    method: 'PUT',
    url: `/api/v1/admin/events/${event._id}/status`,
    headers: bearer(admin.token),
    payload: { status: 'Approved' },
  })
  expect(review.statusCode, review.body).toBe(200)
  return review.json().event as EventView
}

/** Submits an event and leaves it Pending (sales.ts's submitEvent, with this file's defaults). */
export const submitEvent = (
  app: FastifyInstance,
  organizer: Session,
  ticketTypes: TicketTypeInput[] = standardTickets,
  fields: Record<string, string> = {},
): Promise<EventView> =>
  submitPending(
    app,
    organizer,
    {
      title: 'Raga Nights',
      description: 'An evening of Carnatic music.',
      time: '19:30',
      location: 'Chowdiah Hall, Bengaluru',
      ...fields,
    },
    ticketTypes,
  )

export const ticketTypeOf = (event: EventView, type: string) => {
  const found = event.ticketTypes.find((t) => t.type === type)
  if (!found) throw new Error(`event ${event._id} has no ${type}`)
  return found
}

/** POST /ticket/create as the buyer; the raw response. */
export const order = (
  app: FastifyInstance,
  buyer: Session | null,
  body: Record<string, unknown>,
): Promise<LightMyRequestResponse> =>
  app.inject({
    method: 'POST',
    url: '/api/v1/ticket/create',
    headers: buyer ? bearer(buyer.token) : {},
    payload: body,
  })

/** An order that must succeed: `quantity` seats of `type` held for the buyer. */
export async function hold(
  app: FastifyInstance,
  buyer: Session,
  event: EventView,
  type = 'General Admission',
  quantity = 1,
): Promise<CreateOrderReply> {
  const res = await order(app, buyer, { eventId: event._id, ticketType: type, quantity })
  expect(res.statusCode, res.body).toBe(200)
  return res.json() as CreateOrderReply
}

/** The payer's choice in the local gateway's checkout dialog, which must be taken as chosen. */
export async function pay(
  app: FastifyInstance,
  buyer: Session,
  placed: Pick<CreateOrderReply, 'orderId'>,
  outcome: 'success' | 'failure' = 'success',
): Promise<Checkout> {
  const res = await payAtGateway(app, buyer, placed, outcome)
  expect(res.statusCode, res.body).toBe(outcome === 'success' ? 200 : 402)
  return res.json() as Checkout
}

/** The client's callback after checkout (POST /ticket/handlePaymentSuccess). */
export const confirmPayment = (
  app: FastifyInstance,
  buyer: Session,
  checkout: Checkout,
  overrides: Partial<{ paymentId: string; orderId: string; signature: string }> = {},
): Promise<LightMyRequestResponse> =>
  app.inject({
    method: 'POST',
    url: '/api/v1/ticket/handlePaymentSuccess',
    headers: bearer(buyer.token),
    payload: {
      paymentId: checkout.razorpay_payment_id,
      orderId: checkout.razorpay_order_id,
      signature: checkout.razorpay_signature,
      event: { source: 'test' },
      ...overrides,
    },
  })

/** Holds, pays at the gateway and confirms: the issued ticket's id. */
export async function buyTicket(
  app: FastifyInstance,
  buyer: Session,
  event: EventView,
  type = 'General Admission',
  quantity = 1,
): Promise<string> {
  const placed = await hold(app, buyer, event, type, quantity)
  const res = await confirmPayment(app, buyer, await pay(app, buyer, placed))
  expect(res.statusCode, res.body).toBe(200)
  return placed.ticketId
}

/** The fact types of an order's stream, in order. */
export const factsOf = async (app: FastifyInstance, ticketId: string): Promise<string[]> =>
  (await app.platform.ledger.readStream(`order-${ticketId}`)).map((f) => f.type)

export const countOf = (types: string[], type: string) => types.filter((t) => t === type).length

/** A ticket type's row of booking's inventory (seats held and sold), as the store holds it. */
export const inventoryRow = (app: FastifyInstance, ticketTypeId: string) =>
  dbRow<{ ticketTypeId: string; eventId: string; held: number; sold: number }>(
    app,
    'SELECT ticket_type_id AS "ticketTypeId", event_id AS "eventId", held, sold FROM inventory WHERE ticket_type_id = ?',
    ticketTypeId,
  )

/** What GET /event/{id} says is still available for a ticket type. */
export async function availableOf(app: FastifyInstance, eventId: string, type: string): Promise<number> {
  const res = await app.inject({ method: 'GET', url: `/api/v1/event/${eventId}` })
  expect(res.statusCode, res.body).toBe(200)
  return ticketTypeOf(res.json() as EventView, type).available
}

/** Waits until the order's 'expire' job is in the queue (BullMQ on the real Redis). */
async function expireJobScheduled(app: FastifyInstance, orderId: string) {
  const { config, jobs } = app.platform
  if (jobs.kind !== 'bullmq' || !config.redisUrl) return
  const redis = new Redis(config.redisUrl, { maxRetriesPerRequest: 1 })
  try {
    const key = `${config.queuePrefix}:holds:expire-${orderId}`
    for (let tries = 0; (await redis.exists(key)) === 0; tries++) {
      if (tries === 250) throw new Error(`no expire job for order ${orderId} after 5 s`)
      await new Promise((r) => setTimeout(r, 20))
    }
  } finally {
    redis.disconnect()
  }
}

/**
 * Makes a hold lapse now. HOLD_MINUTES cannot go below 1, and a hold appended with a deadline
 * already past would be released at once by its own delayed 'expire' job, racing whatever the
 * test wants to show. So the hold is made through the API (its expire job then waits minutes)
 * and its deadline is moved into the past in the two places the server reads it: the orders
 * row's held_until (what lapsedHolds() selects on) and the TicketsHeld fact's heldUntil (what
 * the decider's Expire compares with). Rewriting a stored fact is a test-only trick.
 */
export async function lapseHold(
  app: FastifyInstance,
  ticketId: string,
  at = new Date(Date.now() - 1000),
): Promise<string> {
  const when = at.toISOString()
  // The dispatch schedules the expire job from the fact as it reads it: once it has (the job
  // waits minutes), the rewrite cannot reach the job's delay.
  await expireJobScheduled(app, ticketId)
  await dbRun(app, 'UPDATE orders SET held_until = ? WHERE id = ?', when, ticketId)
  const changed = await rewriteFactData(app, {
    stream: `order-${ticketId}`,
    type: 'TicketsHeld',
    field: 'heldUntil',
    value: when,
  })
  expect(changed).toBe(1)
  return when
}
