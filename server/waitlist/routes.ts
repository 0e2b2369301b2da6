// Waiting lists' routes (issue 17): POST and DELETE /event/{eventId}/waitlist (join a sold-out
// ticket type's list, leave it), GET /waitlist/mine (the caller's places in line, and offers).

import type { FastifyInstance } from 'fastify'
import { EventParams } from '../../contracts/catalog.ts'
import { MessageReply } from '../../contracts/common.ts'
import {
  WaitlistJoinBody,
  WaitlistJoinReply,
  WaitlistLeaveQuery,
  WaitlistMine,
} from '../../contracts/waitlist.ts'
import type { Throttle } from '../accounts/throttle.ts'
import { EVENT_NOT_FOUND } from '../catalog/decide.ts'
import type { CatalogQueries, TicketTypeRow } from '../catalog/queries.ts'
import { conflict, invalid, notFound } from '../errors.ts'
import { callerOf } from '../http/access.ts'
import { replies, type ValibotTypeProvider } from '../http/valibot.ts'
import { newId } from '../ids.ts'
import type { WaitlistCommands } from './commands.ts'
import { NOT_WAITING, WAITLIST_BEFORE_SALE } from './decide.ts'
import type { WaitlistQueries } from './queries.ts'

export type WaitlistRoutesOptions = {
  events: Pick<CatalogQueries, 'byId' | 'ticketTypesOf'>
  /** the caller's own entries */
  entries: Pick<WaitlistQueries, 'entriesOf'>
  commands: WaitlistCommands
  maxQuantity: number
  /** refuses an account joining and leaving in a loop */
  throttle: Pick<Throttle, 'perHour'>
  /** when the ticket type goes on sale (its event's sale time or its own), if one is set */
  saleOpensAt?: (eventId: string, ticketTypeId: string) => Promise<string | null>
}

const NO_SUCH_TYPE = 'This event has no such ticket type.'

export async function waitlistRoutes(fastify: FastifyInstance, options: WaitlistRoutesOptions) {
  const app = fastify.withTypeProvider<ValibotTypeProvider>()
  const { events, entries: lists, commands, maxQuantity, throttle } = options

  /** the approved event's ticket type named (by name in any case, or by id) */
  const typeOf = async (eventId: string, wanted: string): Promise<TicketTypeRow> => {
    const event = await events.byId(eventId)
    if (event?.approvalStatus !== 'Approved') throw notFound(EVENT_NOT_FOUND)
    const name = wanted.toLowerCase()
    const type = ((await events.ticketTypesOf([eventId])).get(eventId) ?? []).find(
      (t) => t.id === wanted || t.type.toLowerCase() === name,
    )
    if (!type) throw invalid(NO_SUCH_TYPE, [{ field: 'ticketType', message: NO_SUCH_TYPE }])
    return type
  }

  app.post(
    '/event/:id/waitlist',
    {
      config: { access: 'signed-in' },
      schema: { params: EventParams, body: WaitlistJoinBody, response: replies({ 201: WaitlistJoinReply }) },
    },
    async (request, reply) => {
      const caller = callerOf(request)
      await throttle.perHour('waitlist', caller.id)
      const { id } = request.params
      const { quantity } = request.body
      if (quantity > maxQuantity) {
        const message = `You can wait for ${maxQuantity} tickets or fewer at once.`
        throw invalid(message, [{ field: 'quantity', message }])
      }
      const type = await typeOf(id, request.body.ticketType)
      // a list is for tickets sold out: before their sale opens none are, and none are offered
      const opensAt = await options.saleOpensAt?.(id, type.id)
      if (opensAt && new Date().toISOString() < new Date(opensAt).toISOString())
        throw conflict(WAITLIST_BEFORE_SALE)
      const position = await commands.join(
        {
          eventId: id,
          ticketTypeId: type.id,
          ticketType: type.type,
          entryId: newId(),
          accountId: caller.id,
          quantity,
        },
        { actor: caller.id, requestId: request.id },
      )
      return reply.code(201).send({ position })
    },
  )

  app.delete(
    '/event/:id/waitlist',
    {
      config: { access: 'signed-in' },
      schema: {
        params: EventParams,
        querystring: WaitlistLeaveQuery,
        response: replies({ 200: MessageReply }),
      },
    },
    async (request) => {
      const caller = callerOf(request)
      await throttle.perHour('waitlist', caller.id)
      const { id } = request.params
      const wanted = request.query.ticketType
      const only = wanted ? (await typeOf(id, wanted)).id : null
      const entries = (await lists.entriesOf(caller.id)).filter(
        (e) => e.eventId === id && (only === null || e.ticketTypeId === only),
      )
      if (entries.length === 0) throw notFound(NOT_WAITING)
      for (const entry of entries)
        await commands.leave(entry.ticketTypeId, caller.id, { actor: caller.id, requestId: request.id })
      return { message: 'You have left the waiting list.' }
    },
  )

  app.get(
    '/waitlist/mine',
    { config: { access: 'signed-in' }, schema: { response: replies({ 200: WaitlistMine }) } },
    async (request) =>
      (await lists.entriesOf(callerOf(request).id)).flatMap((e) =>
        e.status === 'waiting' || e.status === 'offered'
          ? [
              {
                eventId: e.eventId,
                ticketTypeId: e.ticketTypeId,
                ticketType: e.ticketType,
                quantity: e.quantity,
                position: e.position,
                status: e.status,
                offerUntil: e.status === 'offered' ? e.offerUntil : null,
              },
            ]
          : [],
      ),
  )
}
