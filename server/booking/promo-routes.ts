// Promo codes' routes (issue 17): an event's organizer (or an admin) makes, lists and disables its
// codes; each change is a fact of the event's stream, decided by the catalogue (catalog/commands.ts). A code's uses come
// from the orders that used it (promo_codes). Anyone else is told the event is not theirs (403), or
// that it does not exist (404).
import type { FastifyInstance, FastifyRequest } from 'fastify'
import { EventParams } from '../../contracts/catalog.ts'
import { MessageReply } from '../../contracts/common.ts'
import {
  PromoCodeInput,
  PromoCodeList,
  PromoCodeParams,
  PromoCodeView,
  PromoPrice,
  PromoPriceQuery,
} from '../../contracts/promo.ts'
import type { Throttle } from '../accounts/throttle.ts'
import type { CatalogCommands } from '../catalog/commands.ts'
import { EVENT_CANCELLED, EVENT_NOT_FOUND } from '../catalog/decide.ts'
import type { CatalogQueries } from '../catalog/queries.ts'
import { conflict, forbidden, invalid, notFound } from '../errors.ts'
import { callerOf } from '../http/access.ts'
import { replies, type ValibotTypeProvider } from '../http/valibot.ts'
import { toPaise, toRupees } from '../money.ts'
import { discountPaise, type PromoTerms, promoTermsFor } from './promo.ts'
import type { BookingQueries } from './queries.ts'

export const PROMO_REFUSED = "Only the event's organizer can see and change its promo codes."

export type PromoRoutesOptions = {
  /** the event's promo codes, decided on its stream by the catalogue */
  promoCodes: Pick<CatalogCommands, 'createPromoCode' | 'disablePromoCode'>
  events: Pick<CatalogQueries, 'byId' | 'ticketTypesOf'>
  booking: Pick<BookingQueries, 'promoCode' | 'promoCodesOf'>
  throttle: Pick<Throttle, 'beforePromo' | 'promoFound'>
}

export async function promoRoutes(fastify: FastifyInstance, options: PromoRoutesOptions) {
  const app = fastify.withTypeProvider<ValibotTypeProvider>()
  const { promoCodes, events, booking, throttle } = options

  /** the event, when the caller is its organizer or an admin */
  const eventFor = async (request: FastifyRequest, eventId: string) => {
    const caller = callerOf(request)
    const event = await events.byId(eventId)
    if (!event) throw notFound(EVENT_NOT_FOUND)
    if (caller.role !== 'admin' && event.organizerId !== caller.id) {
      // a pending event is nobody else's business: as if it did not exist
      if (event.approvalStatus !== 'Approved') throw notFound(EVENT_NOT_FOUND)
      throw forbidden(PROMO_REFUSED)
    }
    return { event, caller }
  }

  const typesOf = async (eventId: string) => (await events.ticketTypesOf([eventId])).get(eventId) ?? []

  const viewOf = async (eventId: string, terms: PromoTerms): Promise<PromoCodeView> => {
    const names = new Map((await typesOf(eventId)).map((t) => [t.id, t.type]))
    return {
      code: terms.code,
      percentOff: terms.percentOff,
      amountOff: terms.amountOffPaise === null ? null : toRupees(terms.amountOffPaise),
      ticketTypes: terms.ticketTypeIds ? terms.ticketTypeIds.map((id) => names.get(id) ?? id) : null,
      maxUses: terms.maxUses,
      startsAt: terms.startsAt,
      endsAt: terms.endsAt,
      disabled: terms.disabled,
      uses: { held: terms.held, paid: terms.paid },
    }
  }

  app.get(
    '/event/:id/promo-codes',
    {
      config: { access: 'signed-in' },
      schema: { params: EventParams, response: replies({ 200: PromoCodeList }) },
    },
    async (request) => {
      const { event } = await eventFor(request, request.params.id)
      return Promise.all((await booking.promoCodesOf(event.id)).map((terms) => viewOf(event.id, terms)))
    },
  )

  app.post(
    '/event/:id/promo-codes',
    {
      config: { access: 'signed-in' },
      schema: { params: EventParams, body: PromoCodeInput, response: replies({ 201: PromoCodeView }) },
    },
    async (request, reply) => {
      const { event, caller } = await eventFor(request, request.params.id)
      // a code for an event called off would be for nothing
      if (event.cancelledAt) throw conflict(EVENT_CANCELLED)
      const input = request.body
      let ticketTypeIds: string[] | null = null
      if (input.ticketTypes) {
        const types = await typesOf(event.id)
        // by name, in any case (as a checkout names them), each type once
        const ids = input.ticketTypes.map((name) => {
          const wanted = name.toLowerCase()
          const found = types.find((t) => t.type.toLowerCase() === wanted)
          if (!found) {
            const message = `This event has no ${name} tickets.`
            throw invalid(message, [{ field: 'ticketTypes', message }])
          }
          return found.id
        })
        ticketTypeIds = [...new Set(ids)]
      }
      await promoCodes.createPromoCode(
        {
          eventId: event.id,
          code: input.code,
          percentOff: input.percentOff ?? null,
          amountOffPaise: input.amountOff === undefined ? null : toPaise(input.amountOff),
          ticketTypeIds,
          maxUses: input.maxUses ?? null,
          startsAt: input.startsAt ?? null,
          endsAt: input.endsAt ?? null,
          by: caller.id,
        },
        { actor: caller.id, requestId: request.id },
      )
      const made = await booking.promoCode(event.id, input.code)
      if (!made) throw notFound('Promo code not found.')
      return reply.code(201).send(await viewOf(event.id, made))
    },
  )

  // A buyer's check of a code on the booking screen: its refusal, or the order's price with it. The
  // hold decides again when the order is placed.
  app.get(
    '/event/:id/promo-codes/:code/price',
    {
      config: { access: 'signed-in' },
      schema: {
        params: PromoCodeParams,
        querystring: PromoPriceQuery,
        response: replies({ 200: PromoPrice }),
      },
    },
    async (request) => {
      const event = await events.byId(request.params.id)
      if (event?.approvalStatus !== 'Approved') throw notFound(EVENT_NOT_FOUND)
      const wanted = request.query.ticketType.toLowerCase()
      const ticketType = (await typesOf(event.id)).find(
        (t) => t.id === wanted || t.type.toLowerCase() === wanted,
      )
      if (!ticketType) {
        throw invalid('This event has no such ticket type.', [
          { field: 'ticketType', message: 'This event has no such ticket type.' },
        ])
      }
      const terms = await promoTermsFor(
        throttle,
        booking,
        callerOf(request).id,
        event.id,
        request.params.code,
        ticketType.id,
      )
      const full = ticketType.pricePaise * request.query.quantity
      const off = discountPaise(terms, ticketType.pricePaise, request.query.quantity)
      return { code: request.params.code, discount: toRupees(off), amount: toRupees(full - off) }
    },
  )

  app.delete(
    '/event/:id/promo-codes/:code',
    {
      config: { access: 'signed-in' },
      schema: { params: PromoCodeParams, response: replies({ 200: MessageReply }) },
    },
    async (request) => {
      const { event, caller } = await eventFor(request, request.params.id)
      await promoCodes.disablePromoCode(
        { eventId: event.id, code: request.params.code, by: caller.id },
        { actor: caller.id, requestId: request.id },
      )
      return { message: 'Promo code disabled.' }
    },
  )
}
