// /ticket/* (API.md): orders with holds, the payment callback, tickets, cancel, transfer.
import { createHmac } from 'node:crypto'
import type { FastifyInstance } from 'fastify'
import {
  CreateOrderBody,
  CreateOrderReply,
  PaymentSuccessBody,
  PaymentSuccessReply,
  RegistrationList,
  TicketParams,
  TicketView,
  TransferBody,
} from '../../contracts/booking.ts'
import { MessageReply } from '../../contracts/common.ts'
import type { AccountQueries } from '../accounts/queries.ts'
import type { CatalogQueries, EventRow, TicketTypeRow } from '../catalog/queries.ts'
import { conflict, invalid, notFound } from '../errors.ts'
import { callerOf } from '../http/access.ts'
import { absoluteMedia, mediaBaseOf } from '../http/media-urls.ts'
import { replies, type ValibotTypeProvider } from '../http/valibot.ts'
import { newId, streams } from '../ids.ts'
import { job, jobIds } from '../jobs/catalogue.ts'
import { enqueueOrDoNow } from '../jobs/port.ts'
import { streamFacts } from '../ledger/decider.ts'
import { toRupees } from '../money.ts'
import type { Platform } from '../platform.ts'
import { instantIn } from '../wall-clock.ts'
import type { BookingCommands } from './commands.ts'
import type { PaymentConfirmer } from './confirm.ts'
import { SALES_CLOSED, TICKET_NOT_FOUND } from './decide.ts'
import type { BookingFact } from './facts.ts'
import type { BookingQueries, OrderRow } from './queries.ts'

export const ticketView = (order: OrderRow) => ({
  _id: order.id,
  eventId: order.eventId,
  userId: order.ownerId ?? order.buyerId,
  ticketType: order.ticketType,
  quantity: order.quantity,
  totalAmount: toRupees(order.amountPaise),
  paymentStatus: order.paymentStatus,
})

export type BookingRoutesOptions = {
  platform: Pick<Platform, 'ledger' | 'config' | 'gateway' | 'jobs'>
  booking: BookingQueries
  commands: BookingCommands
  confirm: PaymentConfirmer
  events: CatalogQueries
  accounts: Pick<AccountQueries, 'byEmail'>
}

export async function bookingRoutes(fastify: FastifyInstance, options: BookingRoutesOptions) {
  const app = fastify.withTypeProvider<ValibotTypeProvider>()
  const { ledger, config, gateway, jobs } = options.platform
  const { booking, commands, confirm, events, accounts } = options

  /** When booking closes: the event's start, or its sales end if earlier, both judged in TIMEZONE. */
  const salesCloseAt = (event: EventRow) => {
    const start = instantIn(event.date, event.time, config.timeZone).getTime()
    if (!event.salesEnd) return new Date(start).toISOString()
    const [date = '', time = ''] = event.salesEnd.split('T')
    const end = instantIn(date, time, config.timeZone).getTime()
    return new Date(Math.min(start, end)).toISOString()
  }
  /** Until when a ticket of this event may be cancelled with its refund. */
  const cutoffOf = (event: EventRow) => {
    const start = instantIn(event.date, event.time, config.timeZone).getTime()
    const hours = config.booking.cancelCutoffHours
    return { at: new Date(start - hours * 3_600_000).toISOString(), hours }
  }
  const cancelCutoff = (eventId: string) => {
    const event = events.byId(eventId)
    return event ? cutoffOf(event) : null
  }
  /** The client address as a keyed hash: holds are counted per address without storing it. */
  const clientKeys = new Map<string, string>()
  const clientKeyOf = (ip: string) => {
    let key = clientKeys.get(ip)
    if (key === undefined) {
      key = createHmac('sha256', config.jwt.secret).update(`client ${ip}`).digest('base64url').slice(0, 22)
      if (clientKeys.size >= 50_000) clientKeys.clear()
      clientKeys.set(ip, key)
    }
    return key
  }

  /** The confirmation job; done here and now when the queue cannot take it (Redis away). */
  const confirmSoon = (orderId: string, jobId: string) =>
    enqueueOrDoNow(jobs, job('payments.confirm', { orderId }, { jobId }), () => confirm(orderId))

  /** What became of this payment, once the ledger says: a ticket, a refund, or a failure. */
  const outcomeOf = (orderId: string, paymentId: string): 'issued' | 'refunded' | 'failed' | null => {
    const facts = streamFacts<BookingFact>(ledger, streams.order(orderId))
    const about = (f: BookingFact) => 'paymentId' in f.data && f.data.paymentId === paymentId
    if (facts.some((f) => f.type === 'PaymentFailed' && about(f))) return 'failed'
    if (!facts.some((f) => f.type === 'PaymentCaptured' && about(f))) return null
    const refund = facts.find((f) => f.type === 'RefundRequested' && about(f))
    // A second payment for a paid order is refunded, but its payer does have the ticket.
    if (!refund || (refund.type === 'RefundRequested' && refund.data.reason === 'duplicate payment'))
      return 'issued'
    return 'refunded'
  }

  /** Waits until the order is no longer waiting for this payment (checks on every append and poll). */
  const settled = async (orderId: string, paymentId: string) => {
    const deadline = Date.now() + config.booking.paymentWaitSeconds * 1000
    const done = () => outcomeOf(orderId, paymentId)
    const stream = streams.order(orderId)
    let wake: () => void = () => {}
    // Woken only when this order's stream grows here; a worker in another process is seen by
    // the poll.
    const stop = ledger.onAppend((_head, grown) => {
      if (grown.has(stream)) wake()
    })
    try {
      for (;;) {
        const order = done()
        if (order || Date.now() > deadline) return order
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, 250)
          wake = () => {
            clearTimeout(timer)
            resolve()
          }
        })
      }
    } finally {
      stop()
    }
  }

  app.post(
    '/ticket/create',
    {
      config: { access: 'signed-in' },
      schema: { body: CreateOrderBody, response: replies({ 200: CreateOrderReply }) },
    },
    async (request) => {
      const buyer = callerOf(request)
      const { eventId, quantity } = request.body
      const max = config.booking.maxTicketsPerOrder
      if (quantity > max) {
        throw invalid(`You can book at most ${max} tickets at once.`, [
          { field: 'quantity', message: `You can book at most ${max} tickets at once.` },
        ])
      }
      const event = events.byId(eventId)
      if (event?.approvalStatus !== 'Approved') throw notFound('Event not found.')
      // Refused before the provider is asked for an order; the hold decides it again.
      const closesAt = salesCloseAt(event)
      if (new Date().toISOString() >= closesAt) throw conflict(SALES_CLOSED)
      const wanted = request.body.ticketType.toLowerCase()
      const ticketType = (events.ticketTypesOf([event.id]).get(event.id) ?? []).find(
        (t: TicketTypeRow) => t.id === request.body.ticketType || t.type.toLowerCase() === wanted,
      )
      if (!ticketType) {
        throw invalid('This event has no such ticket type.', [
          { field: 'ticketType', message: 'This event has no such ticket type.' },
        ])
      }
      const guarded = config.booking.inventoryGuard
      // Fail fast when it is sold out; the decision itself is made again under the lock.
      const availableSeen = booking.available(ticketType)
      const lapsed = () => booking.lapsedHolds(new Date().toISOString(), ticketType.id).length > 0
      if (guarded && availableSeen < quantity && !lapsed()) throw conflict('Not enough tickets available.')
      const orderId = newId()
      // Integer paise from the stored price: the provider is asked for exactly this, no float math.
      const amountPaise = ticketType.pricePaise * quantity
      const free = amountPaise === 0
      const providerOrder = free
        ? { id: `free_${orderId}` }
        : await gateway.createOrder({
            amount: amountPaise,
            currency: 'INR',
            receipt: orderId,
            notes: { eventId: event.id, ticketTypeId: ticketType.id },
          })
      // A new checkout replaces the buyer's unpaid one for this event; one paid in the meantime
      // (its confirmation not yet done) becomes its ticket first, and is not replaced.
      for (const open of booking.heldBy(buyer.id, event.id)) {
        if (open.provider === 'free') continue
        await confirm(open.id).catch((error) =>
          request.log.warn(
            { err: error, orderId: open.id },
            'could not ask the provider about a replaced hold',
          ),
        )
      }
      const heldUntil = new Date(Date.now() + config.booking.holdMinutes * 60_000).toISOString()
      const { replaced } = await commands.hold(
        {
          orderId,
          buyerId: buyer.id,
          eventId: event.id,
          organizerId: event.organizerId,
          ticketTypeId: ticketType.id,
          ticketType: ticketType.type,
          quantity,
          unitPricePaise: ticketType.pricePaise,
          amountPaise,
          provider: free ? 'free' : gateway.provider,
          providerOrderId: providerOrder.id,
          heldUntil,
          clientKey: clientKeyOf(request.ip),
        },
        ticketType,
        { actor: buyer.id, requestId: request.id },
        {
          salesCloseAt: closesAt,
          maxHeldFromAddress: config.booking.maxHeldSeatsPerAddress,
          maxTicketsPerAccount: config.booking.maxTicketsPerAccount,
        },
        guarded ? undefined : availableSeen,
      )
      return {
        orderId: providerOrder.id,
        amount: amountPaise,
        currency: 'INR' as const,
        keyId: gateway.keyId,
        provider: free ? ('free' as const) : gateway.provider,
        ticketId: orderId,
        heldUntil,
        ...(replaced.length > 0
          ? {
              replacedTicketIds: replaced,
              message: 'Your previous unpaid checkout for this event was released; this one replaces it.',
            }
          : {}),
      }
    },
  )

  app.post(
    '/ticket/handlePaymentSuccess',
    {
      config: { access: 'signed-in' },
      schema: {
        body: PaymentSuccessBody,
        response: replies({ 200: PaymentSuccessReply, 202: PaymentSuccessReply }),
      },
    },
    async (request, reply) => {
      const buyer = callerOf(request)
      const { paymentId, orderId, signature } = request.body
      const order = booking.byProviderOrderId(orderId)
      if (!order || order.buyerId !== buyer.id) throw notFound('Order not found.')
      // Signed over the order id we stored, never one the caller could choose.
      if (!gateway.verifyCheckoutSignature({ orderId: order.providerOrderId, paymentId, signature })) {
        throw invalid('Payment verification failed.')
      }
      await confirmSoon(order.id, jobIds.confirm(order.id, paymentId))
      const outcome = await settled(order.id, paymentId)
      if (!outcome) {
        return reply.code(202).send({ message: 'Payment received. Your ticket is being issued.' })
      }
      if (outcome === 'issued') {
        return { message: 'Booking Successful!', ticket: ticketView(booking.byId(order.id) as OrderRow) }
      }
      if (outcome === 'refunded') {
        throw conflict(
          'Your seats were released before the payment arrived and are sold out; the payment will be refunded.',
        )
      }
      throw conflict('Payment failed. Please try again.')
    },
  )

  app.get(
    '/ticket/getTicketbyId/:ticketId',
    {
      config: { access: 'signed-in' },
      schema: { params: TicketParams, response: replies({ 200: TicketView }) },
    },
    async (request) => {
      const caller = callerOf(request)
      const order = booking.byId(request.params.ticketId)
      const allowed =
        order &&
        (caller.role === 'admin' ||
          order.ownerId === caller.id ||
          (order.ownerId === null && order.buyerId === caller.id) ||
          (caller.role === 'organizers' && order.organizerId === caller.id))
      if (!order || !allowed) throw notFound(TICKET_NOT_FOUND)
      return ticketView(order)
    },
  )

  app.get(
    '/ticket/registrations',
    { config: { access: 'signed-in' }, schema: { response: replies({ 200: RegistrationList }) } },
    async (request) => {
      const tickets = booking.ticketsOf(callerOf(request).id)
      const mediaBase = mediaBaseOf(request, config)
      const byId = new Map(
        [...new Set(tickets.map((t) => t.eventId))].flatMap((id) => {
          const event = events.byId(id)
          return event ? [[id, event] as const] : []
        }),
      )
      return tickets.map((t) => {
        const event = byId.get(t.eventId)
        return {
          _id: t.id,
          eventId: t.eventId,
          eventTitle: event?.title ?? '',
          eventDate: event?.date ?? '',
          eventTime: event?.time ?? '',
          eventLocation: event?.location ?? '',
          image: event?.images[0] ? absoluteMedia(event.images[0].url, mediaBase) : null,
          ticketType: t.ticketType,
          quantity: t.quantity,
          totalAmount: toRupees(t.amountPaise),
          paymentStatus: t.paymentStatus,
          cancellableUntil: event ? cutoffOf(event).at : null,
        }
      })
    },
  )

  const cancel = async (
    request: { id: string; params: { ticketId: string } } & Parameters<typeof callerOf>[0],
  ) => {
    const owner = callerOf(request)
    const order = booking.byId(request.params.ticketId)
    commands.cancel(request.params.ticketId, owner.id, order ? cancelCutoff(order.eventId) : null, {
      actor: owner.id,
      requestId: request.id,
    })
    return { message: 'Ticket canceled successfully.' }
  }
  for (const url of ['/ticket/cancel/:ticketId', '/ticket/:ticketId']) {
    app.delete(
      url,
      {
        config: { access: 'signed-in' },
        schema: { params: TicketParams, response: replies({ 200: MessageReply }) },
      },
      cancel,
    )
  }

  app.post(
    '/ticket/transfer',
    {
      config: { access: 'signed-in' },
      schema: { body: TransferBody, response: replies({ 200: MessageReply }) },
    },
    async (request) => {
      const owner = callerOf(request)
      // The decision checks the caller owns the ticket before it says whether the e-mail has an
      // account, so a stranger's ticket id is no way to test addresses.
      const recipient = accounts.byEmail(request.body.newAttendeeEmail)
      commands.transfer(request.body.ticketId, owner.id, recipient?.id ?? null, {
        actor: owner.id,
        requestId: request.id,
      })
      return { message: 'Ticket transferred successfully!' }
    },
  )
}
