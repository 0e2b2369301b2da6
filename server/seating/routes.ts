// /event/{id}/seatmap (API.md, "Seat maps"): the organizer saves the plan; anyone who may see the
// event reads it with each seat's status now. A big plan's reply is gzipped off the event loop.
import type { FastifyInstance, FastifyRequest } from 'fastify'
import * as v from 'valibot'
import {
  NO_SEATMAP,
  SEAT_NOT_FOUND,
  SeatHolderView,
  SeatMapBody,
  SeatMapParams,
  SeatMapView,
  SeatParams,
} from '../../contracts/seating.ts'
import type { Throttle } from '../accounts/throttle.ts'
import type { CatalogCommands } from '../catalog/commands.ts'
import { EVENT_NOT_FOUND, NOT_YOUR_EVENT } from '../catalog/decide.ts'
import { takesGzip, varyByEncoding } from '../catalog/listing-cache.ts'
import type { CatalogQueries, EventRow } from '../catalog/queries.ts'
import { forbidden, invalid, notFound } from '../errors.ts'
import { callerOf } from '../http/access.ts'
import { replies, type ValibotTypeProvider } from '../http/valibot.ts'
import { toRupees } from '../money.ts'
import { seatMapTexts } from './map-text.ts'
import { placePlan } from './plan.ts'
import type { SeatingQueries } from './queries.ts'

/** a plan of MAX_PLAN_SEATS seats (contracts/seating.ts), written out with coordinates, fits */
const PLAN_BODY_LIMIT = 16 * 1024 * 1024

/** below this a map goes as it is */
const GZIP_FROM = 4096

export type SeatingRoutesOptions = {
  events: Pick<CatalogQueries, 'byId' | 'ticketTypesOf'>
  seating: Pick<SeatingQueries, 'map' | 'plan' | 'taken' | 'named'>
  /** a held or sold seat's order, and its holder's account */
  holderOf: (orderId: string) => Promise<{ _id: string; username: string; email: string } | null>
  commands: Pick<CatalogCommands, 'placeSeatMap'>
  /** seat maps saved per organizer an hour */
  throttle: Pick<Throttle, 'perHour'>
  /** the ledger's version: a map's reply is kept while it stays the same */
  version: () => Promise<string>
}

export async function seatingRoutes(fastify: FastifyInstance, options: SeatingRoutesOptions) {
  const app = fastify.withTypeProvider<ValibotTypeProvider>()
  const { events, seating, commands } = options
  const texts = seatMapTexts(seating, options.version)

  /** Visible to everyone once approved; before that only to its organizer and admins. */
  const visible = (row: EventRow | undefined, request: FastifyRequest): row is EventRow => {
    if (!row) return false
    if (row.approvalStatus === 'Approved') return true
    const caller = request.account
    return caller?.role === 'admin' || caller?.id === row.organizerId
  }

  /** the event, when it is the caller's (else refused as GET would, or as not theirs) */
  const ownEvent = async (id: string, request: FastifyRequest, callerId: string) => {
    const row = await events.byId(id)
    if (!visible(row, request)) throw notFound(EVENT_NOT_FOUND)
    if (row.organizerId !== callerId) throw forbidden(NOT_YOUR_EVENT)
    return row
  }

  /** the map as GET answers it, or null when the event has none */
  const viewOf = async (eventId: string): Promise<SeatMapView | null> => {
    const [map, types] = await Promise.all([seating.map(eventId), events.ticketTypesOf([eventId])])
    if (!map) return null
    const typeOf = new Map((types.get(eventId) ?? []).map((t) => [t.id, t]))
    const sections: SeatMapView['sections'] = map.sections.map((s) => ({
      name: s.name,
      ticketType: typeOf.get(s.ticketTypeId)?.type ?? '',
      ticketTypeId: s.ticketTypeId,
      price: toRupees(typeOf.get(s.ticketTypeId)?.pricePaise ?? 0),
      rows: [],
    }))
    type Row = SeatMapView['sections'][number]['rows'][number]
    const sectionOf = new Map(sections.map((s) => [s.name, { section: s, rows: new Map<string, Row>() }]))
    let row: Row | undefined
    let rowSection: string | undefined
    for (const seat of map.seats) {
      const found = sectionOf.get(seat.section)
      if (!found) continue
      if (!row || row.label !== seat.row || rowSection !== seat.section) {
        // a row by its label (not looked for along the section's rows: a plan may have 100,000)
        row = found.rows.get(seat.row)
        if (!row) {
          row = { label: seat.row, seats: [] }
          found.rows.set(seat.row, row)
          found.section.rows.push(row)
        }
        rowSection = seat.section
      }
      row.seats.push({
        id: seat.id,
        number: seat.number,
        x: seat.x,
        y: seat.y,
        status: seat.status,
        accessible: seat.accessible,
      })
    }
    return { eventId, version: map.version, stage: map.stage, sections }
  }

  app.put(
    '/event/:id/seatmap',
    {
      bodyLimit: PLAN_BODY_LIMIT,
      config: { access: ['organizers'], tokenScope: 'events:write', tokenEvent: 'id' },
      schema: {
        params: SeatMapParams,
        body: SeatMapBody,
        response: replies({ 200: v.object({ message: v.string(), seatmap: SeatMapView }) }),
      },
      // Before its body (up to 16 MB) is read: the event must be the caller's, and a plan of up to
      // 100,000 seats, read, checked, placed and kept whole on the event's stream at each save, is
      // counted first, refused past the organizer's hourly allowance.
      preParsing: async (request) => {
        const caller = callerOf(request)
        await ownEvent((request.params as { id: string }).id, request, caller.id)
        await options.throttle.perHour('seatmap', caller.id)
      },
    },
    async (request) => {
      // the caller's own event, as preParsing found it
      const caller = callerOf(request)
      const { id } = request.params
      const types = (await events.ticketTypesOf([id])).get(id) ?? []
      const placed = placePlan(
        id,
        request.body,
        types.map((t) => ({ id: t.id, type: t.type })),
      )
      if (!placed.ok) throw invalid(placed.issues[0]?.message ?? 'The seat map is not valid.', placed.issues)
      await commands.placeSeatMap(
        { eventId: id, by: caller.id, plan: placed.plan, laidOut: placed.laidOut },
        {
          actor: caller.id,
          requestId: request.id,
        },
      )
      const seatmap = await viewOf(id)
      return { message: 'Seat map saved.', seatmap: seatmap as SeatMapView }
    },
  )

  app.get(
    '/event/:id/seatmap',
    {
      config: { access: 'anyone', tokenScope: 'events:read', tokenEvent: 'id' },
      schema: { params: SeatMapParams, response: replies({ 200: SeatMapView }) },
    },
    async (request, reply) => {
      const { id } = request.params
      if (!visible(await events.byId(id), request)) throw notFound(EVENT_NOT_FOUND)
      const types = (await events.ticketTypesOf([id])).get(id) ?? []
      const typeOf = new Map(types.map((t) => [t.id, t]))
      const made = await texts.reply(id, (sections) =>
        sections.map((s) => ({
          name: s.name,
          ticketType: typeOf.get(s.ticketTypeId)?.type ?? '',
          ticketTypeId: s.ticketTypeId,
          price: toRupees(typeOf.get(s.ticketTypeId)?.pricePaise ?? 0),
        })),
      )
      if (!made) throw notFound(NO_SEATMAP)
      // a page holding the map (read before it joined the map's room) asks whether it changed since
      const etag = `"${made.etag}"`
      reply.header('cache-control', 'no-cache').header('etag', etag)
      varyByEncoding(reply)
      if (request.headers['if-none-match'] === etag) return reply.code(304).send(undefined as never)
      reply.type('application/json')
      if (made.bytes < GZIP_FROM || !takesGzip(request.headers['accept-encoding']))
        return reply.send(made.text() as never)
      return reply.header('content-encoding', 'gzip').send(made.gzip() as never)
    },
  )

  // the organizer's map: who holds a seat, asked for one seat at a time
  app.get(
    '/event/:id/seats/:seatId',
    {
      config: { access: ['organizers', 'admin'] },
      schema: { params: SeatParams, response: replies({ 200: SeatHolderView }) },
    },
    async (request) => {
      const caller = callerOf(request)
      const { id, seatId } = request.params
      const row = await events.byId(id)
      if (!row || (caller.role !== 'admin' && row.organizerId !== caller.id)) throw notFound(EVENT_NOT_FOUND)
      const [seat] = await seating.named(id, [seatId])
      if (!seat) throw notFound(SEAT_NOT_FOUND)
      const taken = seat.status === 'held' || seat.status === 'sold'
      return {
        seat: { id: seat.id, section: seat.section, row: seat.row, number: seat.number },
        status: seat.status,
        ticketId: taken ? seat.orderId : null,
        holder: taken && seat.orderId ? await options.holderOf(seat.orderId) : null,
      }
    },
  )
}
