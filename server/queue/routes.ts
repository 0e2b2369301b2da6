// The waiting room's routes (API.md, "Waiting room"): the organizer sets the sale time and room,
// watches the line, pauses and resumes it; a signed-in buyer joins the line once and reads their
// place (pushed live as the message `queue` on their private room).
import type { FastifyInstance } from 'fastify'
import { EventParams } from '../../contracts/catalog.ts'
import { MessageReply } from '../../contracts/common.ts'
import {
  NO_WAITING_ROOM,
  NOT_IN_LINE,
  OnSaleBody,
  OnSaleReply,
  OnSaleView,
  QueuePlace,
  QueueStats,
  SALE_AFTER_BOOKING_CLOSES,
} from '../../contracts/queue.ts'
import type { Throttle } from '../accounts/throttle.ts'
import { EVENT_CALLED_OFF } from '../booking/decide.ts'
import { EVENT_NOT_FOUND, NOT_YOUR_EVENT } from '../catalog/decide.ts'
import type { CatalogQueries } from '../catalog/queries.ts'
import type { EventRow, TicketTypeRow } from '../catalog/tables.ts'
import { conflict, forbidden, invalid, notFound } from '../errors.ts'
import { callerOf } from '../http/access.ts'
import { replies, type ValibotTypeProvider } from '../http/valibot.ts'
import { NO_SALE_TIME, type QueueCommands } from './commands.ts'
import { placeOf, type Room, statsOf } from './decide.ts'
import type { QueueQueries } from './queries.ts'

export type QueueRoutesOptions = {
  events: Pick<CatalogQueries, 'byId' | 'ticketTypesOf' | 'cancelled'>
  queue: Pick<QueueQueries, 'room' | 'place' | 'inCheckout' | 'sold'>
  commands: QueueCommands
  throttle: Pick<Throttle, 'perHour'>
  /** when booking for an event closes (its start, or its sales end): no sale opens at or after it */
  salesCloseAt: (event: EventRow) => string
}

/** another organizer's line is not theirs to watch (a change of it is refused with NOT_YOUR_EVENT) */
export const NOT_YOUR_LINE = 'You can only see the line of your own events.'

export async function queueRoutes(fastify: FastifyInstance, options: QueueRoutesOptions) {
  const app = fastify.withTypeProvider<ValibotTypeProvider>()
  const { events, queue, commands, throttle } = options

  /** the event, for its organizer (and, where `admins`, an admin) */
  const ownEvent = async (
    eventId: string,
    caller: { id: string; role: string },
    admins: boolean,
    refusal = NOT_YOUR_EVENT,
  ) => {
    const event = await events.byId(eventId)
    if (!event || event.cancelledAt) throw notFound(EVENT_NOT_FOUND)
    if (event.organizerId !== caller.id && !(admins && caller.role === 'admin')) {
      // another's event: refused when it is public, not there when it is not
      if (event.approvalStatus === 'Approved') throw forbidden(refusal)
      throw notFound(EVENT_NOT_FOUND)
    }
    return event
  }

  /** the event's ticket types, in its order */
  const typesOf = async (eventId: string) => (await events.ticketTypesOf([eventId])).get(eventId) ?? []

  /** the sale time and room as the API shows them: each type's own time under its current name */
  const onsaleOf = (room: Room, types: readonly TicketTypeRow[]) => ({
    opensAt: room.opensAt,
    waitingRoom: room.waitingRoom,
    admitPerMinute: room.admitPerMinute,
    ticketTypes: types.flatMap((type) => {
      const own = room.typeOpens?.find((t) => t.ticketTypeId === type.id)
      return own ? [{ ticketType: type.type, ticketTypeId: type.id, opensAt: own.opensAt }] : []
    }),
  })

  app.put(
    '/event/:id/onsale',
    {
      config: { access: ['organizers'], tokenScope: 'events:write', tokenEvent: 'id' },
      schema: { params: EventParams, body: OnSaleBody, response: replies({ 200: OnSaleReply }) },
    },
    async (request) => {
      const caller = callerOf(request)
      const event = await ownEvent(request.params.id, caller, false)
      // each change is told at once to everyone in the room's line
      await throttle.perHour('sale-room', caller.id)
      const { opensAt, waitingRoom, admitPerMinute, ticketTypes } = request.body
      const types = await typesOf(event.id)
      // each named type by its name (any case) or its id
      const typeOpens = ticketTypes?.map(({ ticketType, opensAt }) => {
        const wanted = ticketType.toLowerCase()
        const type = types.find((t) => t.id === ticketType || t.type.toLowerCase() === wanted)
        if (!type) {
          const message = `This event has no ticket type “${ticketType}”.`
          throw invalid(message, [{ field: 'ticketTypes', message }])
        }
        return { ticketTypeId: type.id, opensAt }
      })
      // a sale that would open once booking has closed would sell nothing
      const closesAt = options.salesCloseAt(event)
      const late = (at: string) => new Date(at).toISOString() >= closesAt
      const field = late(opensAt) ? 'opensAt' : typeOpens?.some((t) => late(t.opensAt)) ? 'ticketTypes' : null
      if (field) throw invalid(SALE_AFTER_BOOKING_CLOSES, [{ field, message: SALE_AFTER_BOOKING_CLOSES }])
      await commands.setOnSale(
        {
          eventId: event.id,
          organizerId: event.organizerId,
          opensAt,
          waitingRoom,
          admitPerMinute: admitPerMinute ?? null,
          ...(typeOpens ? { typeOpens } : {}),
        },
        { actor: caller.id, requestId: request.id },
      )
      const room = await queue.room(event.id)
      if (!room) throw notFound(NO_SALE_TIME)
      return { message: 'The sale time is saved.', onsale: onsaleOf(room, types) }
    },
  )

  // the sale time and room as the event page shows them (anyone who may see the event)
  app.get(
    '/event/:id/onsale',
    {
      config: { access: 'anyone', tokenScope: 'events:read', tokenEvent: 'id' },
      schema: { params: EventParams, response: replies({ 200: OnSaleView }) },
    },
    async (request) => {
      const { id } = request.params
      const event = await events.byId(id)
      const caller = request.account
      const visible =
        event !== undefined &&
        (event.approvalStatus === 'Approved' || caller?.role === 'admin' || caller?.id === event.organizerId)
      if (!visible) throw notFound(EVENT_NOT_FOUND)
      const [room, types] = await Promise.all([queue.room(id), typesOf(id)])
      if (!room) throw notFound(NO_SALE_TIME)
      return onsaleOf(room, types)
    },
  )

  /**
   * A buyer's place with the room it is read against: the room first, then the place. An admission
   * moves both in one transaction (its places' admission times, the room's admitted lines). Read
   * side by side on PostgreSQL, a room read just after an admission beside a place read just before
   * it could tell the person just admitted that their admission had expired. Read in this order, a
   * place is never older than its room: at worst both are as of just before, and say waiting.
   */
  const roomThenPlace = async (eventId: string, accountId: string) => {
    const room = await queue.room(eventId)
    const place = await queue.place(eventId, accountId)
    return { room, place }
  }

  /** the approved event's room, for a buyer */
  const roomFor = async (eventId: string) => {
    const event = await events.byId(eventId)
    if (event?.approvalStatus !== 'Approved') throw notFound(EVENT_NOT_FOUND)
    // a line for a sale that will not happen
    if (event.cancelledAt) throw conflict(EVENT_CALLED_OFF)
    const room = await queue.room(eventId)
    if (!room?.waitingRoom) throw conflict(NO_WAITING_ROOM)
    return room
  }

  app.post(
    '/event/:id/queue',
    {
      config: { access: 'signed-in' },
      schema: { params: EventParams, response: replies({ 200: QueuePlace }) },
    },
    async (request) => {
      const caller = callerOf(request)
      const { id } = request.params
      const before = await roomFor(id)
      // a second join (another tab, device or process) is the first one's place, for nothing
      const kept = await queue.place(id, caller.id)
      if (kept) return placeOf(before, kept, new Date().toISOString())
      await throttle.perHour('queue', caller.id)
      await commands.join(id, caller.id, { actor: caller.id, requestId: request.id })
      const { room, place } = await roomThenPlace(id, caller.id)
      // the room closed (sold out) before this join: not in line
      if (!room || !place) return { state: 'closed' as const }
      return placeOf(room, place, new Date().toISOString())
    },
  )

  app.get(
    '/event/:id/queue/me',
    {
      config: { access: 'signed-in' },
      schema: { params: EventParams, response: replies({ 200: QueuePlace }) },
    },
    async (request) => {
      const caller = callerOf(request)
      const { id } = request.params
      const { room, place } = await roomThenPlace(id, caller.id)
      if (!room || !place) throw notFound(NOT_IN_LINE)
      // an event called off: its line is closed, whoever was admitted (the room itself closes as
      // the cancellation's job begins: queueCommands.callOff)
      return placeOf(room, place, new Date().toISOString(), await events.cancelled(id))
    },
  )

  app.get(
    '/event/:id/queue',
    {
      config: { access: ['organizers', 'admin'], tokenScope: 'events:read', tokenEvent: 'id' },
      schema: { params: EventParams, response: replies({ 200: QueueStats }) },
    },
    async (request) => {
      const event = await ownEvent(request.params.id, callerOf(request), true, NOT_YOUR_LINE)
      const room = await queue.room(event.id)
      if (!room) throw notFound(NO_SALE_TIME)
      const now = new Date().toISOString()
      const [inCheckout, sold] = await Promise.all([queue.inCheckout(event.id, now), queue.sold(event.id)])
      return statsOf(room, { inCheckout, sold }, now)
    },
  )

  for (const [path, what, message] of [
    ['/event/:id/queue/pause', 'pause', 'The line is paused: nobody more is admitted until it resumes.'],
    ['/event/:id/queue/resume', 'resume', 'The line moves again.'],
  ] as const) {
    app.post(
      path,
      {
        // as the room's own settings: an integration's token may pause the line it may set
        config: { access: ['organizers', 'admin'], tokenScope: 'events:write', tokenEvent: 'id' },
        schema: { params: EventParams, response: replies({ 200: MessageReply }) },
      },
      async (request) => {
        const caller = callerOf(request)
        const event = await ownEvent(request.params.id, caller, true)
        // an admin stepping in is not counted
        if (caller.role !== 'admin') await throttle.perHour('sale-room', caller.id)
        await commands[what](event.id, caller.id, { actor: caller.id, requestId: request.id })
        return { message }
      },
    )
  }
}
