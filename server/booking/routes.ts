// /ticket/* (API.md): orders with holds, the payment callback, tickets, cancel, transfer.

import type { FastifyInstance } from 'fastify'
import {
  AttendeeTicketsParams,
  CANCELLED_LISTED,
  CreateOrderBody,
  CreateOrderReply,
  PaymentSuccessBody,
  PaymentSuccessReply,
  RefundBody,
  RegistrationList,
  RegistrationsQuery,
  TicketList,
  TicketParams,
  TicketView,
  TransferBody,
} from '../../contracts/booking.ts'
import { MessageReply } from '../../contracts/common.ts'
import type { SeatLabel } from '../../contracts/seating.ts'
import type { AccountQueries } from '../accounts/queries.ts'
import type { Throttle } from '../accounts/throttle.ts'
import type { BillingQueries } from '../billing/queries.ts'
import { breakdownView } from '../billing/tax.ts'
import type { CatalogQueries, EventRow } from '../catalog/queries.ts'
import { conflict, invalid, notFound } from '../errors.ts'
import { callerOf } from '../http/access.ts'
import { limitedAddress } from '../http/client-address.ts'
import { absoluteMedia, mediaBaseOf } from '../http/media-urls.ts'
import { replies, type ValibotTypeProvider } from '../http/valibot.ts'
import { rupeesText, toRupees } from '../money.ts'
import type { Platform } from '../platform.ts'
import type { SeatingQueries } from '../seating/queries.ts'
import type { Checkout } from './checkout.ts'
import type { BookingCommands } from './commands.ts'
import { TICKET_NOT_FOUND } from './decide.ts'
import type { RefundReason } from './facts.ts'
import { type BookingQueries, mayReadTicket, type OrderRow } from './queries.ts'

export const ticketView = (order: OrderRow, seats?: SeatLabel[]) => ({
  _id: order.id,
  eventId: order.eventId,
  userId: order.ownerId ?? order.buyerId,
  ticketType: order.ticketType,
  quantity: order.quantity,
  totalAmount: toRupees(order.amountPaise),
  paymentStatus: order.paymentStatus,
  ...(seats && seats.length > 0 ? { seats } : {}),
})

/** How a cancelled ticket ended: when, by whom, and its refund (asked for, and paid out when all of
 * it has been). */
const endOf = (order: OrderRow, event: EventRow | undefined) => ({
  ...(order.cancelledAt ? { cancelledAt: order.cancelledAt } : {}),
  ...(order.cancelledBy ? { cancelledBy: order.cancelledBy } : {}),
  ...(order.cancelledBy === 'event' && event?.cancelReason ? { cancelReason: event.cancelReason } : {}),
  ...(order.refundRequestedPaise > 0
    ? {
        refundAmount: toRupees(order.refundRequestedPaise),
        refundedAt: order.refundedPaise >= order.refundRequestedPaise ? order.refundedAt : null,
      }
    : {}),
})
/** Why a payment reported by its buyer was refunded instead of issuing the ticket (a 409). */
export const refundedPaymentMessage = (refund: { reason: RefundReason; promoRefusal?: string }) =>
  refund.reason === 'promo code no longer valid'
    ? `${refund.promoRefusal ?? 'The promo code can no longer be used.'} Your checkout had closed before this payment arrived, so no ticket was issued at the code's price; the payment will be refunded in full.`
    : 'Your seats were released before the payment arrived and are sold out; the payment will be refunded.'

export type BookingRoutesOptions = {
  platform: Pick<Platform, 'config' | 'gateway'>
  booking: BookingQueries
  commands: BookingCommands
  checkout: Checkout
  events: Pick<CatalogQueries, 'byId'>
  accounts: Pick<AccountQueries, 'byEmail'>
  /** refuses an account transferring tickets in a loop */
  throttle: Pick<Throttle, 'perHour'>
  /** a seated ticket's seats */
  seating: Pick<SeatingQueries, 'labelsOf'>
  /** the invoices and credit notes of a buyer's tickets (issue 42) */
  billing: Pick<BillingQueries, 'seriesOf'>
}

export async function bookingRoutes(fastify: FastifyInstance, options: BookingRoutesOptions) {
  const app = fastify.withTypeProvider<ValibotTypeProvider>()
  const { config, gateway } = options.platform
  const { booking, commands, checkout, events, accounts, throttle, seating, billing } = options

  app.post(
    '/ticket/create',
    {
      config: { access: 'signed-in' },
      schema: { body: CreateOrderBody, response: replies({ 200: CreateOrderReply }) },
    },
    async (request) => {
      const buyer = callerOf(request)
      const placed = await checkout.place({
        buyerId: buyer.id,
        eventId: request.body.eventId,
        ticketType: request.body.ticketType,
        quantity: request.body.quantity,
        ...(request.body.seats ? { seats: request.body.seats } : {}),
        clientIp: limitedAddress(request.ip),
        ...(request.body.promoCode ? { promoCode: request.body.promoCode } : {}),
        buyer: { name: buyer.username, email: buyer.email },
        meta: { actor: buyer.id, requestId: request.id },
        warn: (message, detail) => request.log.warn(detail, message),
      })
      return {
        orderId: placed.providerOrderId,
        amount: placed.amountPaise,
        currency: 'INR' as const,
        keyId: gateway.keyId,
        provider: placed.provider,
        ticketId: placed.orderId,
        heldUntil: placed.heldUntil,
        ...(placed.seats ? { seats: placed.seats } : {}),
        breakdown: breakdownView(placed.money),
        ...(placed.replaced.length > 0
          ? {
              replacedTicketIds: placed.replaced,
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
      const order = await booking.byProviderOrderId(orderId)
      if (!order || order.buyerId !== buyer.id) throw notFound('Order not found.')
      // Signed over the order id we stored, never one the caller could choose.
      if (!gateway.verifyCheckoutSignature({ orderId: order.providerOrderId, paymentId, signature })) {
        throw invalid('Payment verification failed.')
      }
      const outcome = await checkout.reported(order.id, paymentId)
      if (!outcome) {
        return reply.code(202).send({ message: 'Payment received. Your ticket is being issued.' })
      }
      if (outcome.kind === 'issued') {
        return {
          message: 'Booking Successful!',
          ticket: ticketView(
            (await booking.byId(order.id)) as OrderRow,
            (await seating.labelsOf([order.id])).get(order.id),
          ),
        }
      }
      if (outcome.kind === 'refunded') throw conflict(refundedPaymentMessage(outcome))
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
      const order = await booking.byId(request.params.ticketId)
      if (!order || !mayReadTicket(order, caller)) throw notFound(TICKET_NOT_FOUND)
      return ticketView(order, (await seating.labelsOf([order.id])).get(order.id))
    },
  )

  app.get(
    '/ticket/registrations',
    {
      config: { access: 'signed-in' },
      schema: { querystring: RegistrationsQuery, response: replies({ 200: RegistrationList }) },
    },
    async (request) => {
      const holder = callerOf(request).id
      const tickets = [
        ...(await booking.ticketsOf(holder)),
        ...(request.query.include === 'cancelled'
          ? await booking.cancelledTicketsOf(holder, CANCELLED_LISTED)
          : []),
      ]
      const mediaBase = mediaBaseOf(request, config)
      const seatsOf = await seating.labelsOf(tickets.map((t) => t.id))
      // the bills its buyer may download (GET /ticket/{id}/invoice, /credit-note): only the buyer's,
      // never a later holder's, and only of a ticket that was paid for
      const bought = tickets.filter(
        (t) =>
          t.buyerId === holder && t.amountPaise > 0 && ['Completed', 'Cancelled'].includes(t.paymentStatus),
      )
      const documents = await billing.seriesOf(bought.map((t) => t.id))
      const byId = new Map<string, EventRow>()
      for (const id of new Set(tickets.map((t) => t.eventId))) {
        const event = await events.byId(id)
        if (event) byId.set(id, event)
      }
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
          ...(seatsOf.has(t.id) ? { seats: seatsOf.get(t.id) } : {}),
          cancellableUntil: event ? checkout.cutoffOf(event).at : null,
          ...(t.status === 'cancelled' ? endOf(t, event) : {}),
          ...(documents.get(t.id)?.length ? { documents: documents.get(t.id) } : {}),
        }
      })
    },
  )

  const cancel = async (
    request: { id: string; params: { ticketId: string } } & Parameters<typeof callerOf>[0],
  ) => {
    const owner = callerOf(request)
    const order = await booking.byId(request.params.ticketId)
    const cutoff = order ? await checkout.cancelCutoff(order.eventId) : null
    await commands.cancel(request.params.ticketId, owner.id, cutoff, {
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

  // The event's organizer (or an admin) refunds a ticket on purpose: cancelled and its payment given
  // back, as a cancel does, also once it has been used at the door (its holder can no longer cancel
  // it then), whatever the cancellation cutoff.
  app.post(
    '/ticket/:ticketId/refund',
    {
      config: { access: ['organizers', 'admin'] },
      schema: { params: TicketParams, body: RefundBody, response: replies({ 200: MessageReply }) },
    },
    async (request) => {
      const caller = callerOf(request)
      const order = await booking.byId(request.params.ticketId)
      if (!order || (caller.role !== 'admin' && order.organizerId !== caller.id)) {
        throw notFound(TICKET_NOT_FOUND)
      }
      await commands.refund(order.id, caller.id, request.body?.reason ?? '', {
        actor: caller.id,
        requestId: request.id,
      })
      return {
        message:
          order.amountPaise > 0
            ? `The ticket is cancelled and ${rupeesText(order.amountPaise)} will be refunded.`
            : 'The ticket is cancelled; it was free, so there is nothing to refund.',
      }
    },
  )

  // One person's valid tickets to an event, for its organizer's attendee list (what to refund).
  app.get(
    '/dashboard/events/:eventId/attendees/:accountId/tickets',
    {
      config: { access: ['organizers', 'admin'], tokenScope: 'attendees:read', tokenEvent: 'eventId' },
      schema: { params: AttendeeTicketsParams, response: replies({ 200: TicketList }) },
    },
    async (request) => {
      const caller = callerOf(request)
      const { eventId, accountId } = request.params
      const event = await events.byId(eventId)
      if (!event || (caller.role !== 'admin' && event.organizerId !== caller.id)) {
        throw notFound('Event not found.')
      }
      const tickets = await booking.ticketsAt(eventId, accountId)
      const seatsOf = await seating.labelsOf(tickets.map((t) => t.id))
      return tickets.map((t) => ticketView(t, seatsOf.get(t.id)))
    },
  )

  app.post(
    '/ticket/transfer',
    {
      config: { access: 'signed-in' },
      schema: { body: TransferBody, response: replies({ 200: MessageReply }) },
    },
    async (request) => {
      const owner = callerOf(request)
      await throttle.perHour('transfer', owner.id)
      // The decision checks the caller owns the ticket before it says whether the e-mail has an
      // account, so a stranger's ticket id is no way to test addresses.
      const recipient = await accounts.byEmail(request.body.newAttendeeEmail)
      await commands.transfer(request.body.ticketId, owner.id, recipient?.id ?? null, {
        actor: owner.id,
        requestId: request.id,
      })
      return { message: 'Ticket transferred successfully!' }
    },
  )
}
