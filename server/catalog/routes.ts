// /event*, /admin/events*, /ticket/getorgid (API.md).
import multipart from '@fastify/multipart'
import fastJson from 'fast-json-stringify'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import * as v from 'valibot'
import {
  CancelEventBody,
  CancelEventReply,
  CreateEventFields,
  CreateEventReply,
  EditEventFields,
  EditEventReply,
  EVENT_PAGE_LIMIT,
  EventFilterQuery,
  EventList,
  EventListQuery,
  EventParams,
  EventView,
  gstRateRefusal,
  ReviewBody,
  ReviewReply,
} from '../../contracts/catalog.ts'
import { SALE_AFTER_BOOKING_CLOSES } from '../../contracts/queue.ts'
import { forbidden, invalid, notFound } from '../errors.ts'
import { callerOf } from '../http/access.ts'
import { mediaBaseOf } from '../http/media-urls.ts'
import { issuesOf, replies, toJson, type ValibotTypeProvider } from '../http/valibot.ts'
import { newId } from '../ids.ts'
import { toPaise } from '../money.ts'
import type { Platform } from '../platform.ts'
import type { CatalogCommands } from './commands.ts'
import { EVENT_NOT_FOUND, type EventDetails, NOT_YOUR_EVENT } from './decide.ts'
import type { EventSubmitted } from './facts.ts'
import { eventFragments } from './fragments.ts'
import { listingCache, takesGzip, varyByEncoding } from './listing-cache.ts'
import type { MediaStore } from './media.ts'
import { createMediaStore } from './media-store.ts'
import { type CatalogQueries, type EventExtras, type EventRow, noExtras } from './queries.ts'
import {
  createFieldsOf,
  editedMedia,
  editFieldsOf,
  multipartLimits,
  multipartRefusal,
  readParts,
} from './uploads.ts'

export type CatalogRoutesOptions = {
  platform: Pick<Platform, 'ledger' | 'config'>
  events: CatalogQueries
  /** every change to an event's stream (commands.ts) */
  commands: CatalogCommands
  extras?: EventExtras
  /** the event of an order (booking's read), to tell which event an order's fact changes */
  eventOfOrder?: (orderId: string) => Promise<string | undefined>
  /** where uploads are kept; by default createMediaStore(config) without a PostgreSQL pool */
  media?: MediaStore
  /** the event's sale times (the waiting room's and its types' own), each checked against when an
   * edit makes booking close: a sale opening once booking has closed would sell nothing */
  saleTimesOf?: (eventId: string) => Promise<string[]>
  salesCloseAt?: (event: EventRow) => string
}

export async function catalogRoutes(fastify: FastifyInstance, options: CatalogRoutesOptions) {
  const app = fastify.withTypeProvider<ValibotTypeProvider>()
  const { ledger, config } = options.platform
  const extras: EventExtras = options.extras ?? (() => noExtras)
  /** the event objects of API.md, with what other areas add to them */
  const viewsOf = async (rows: EventRow[], mediaBase: string) =>
    events.toViews(rows, await extras(rows.map((r) => r.id)), mediaBase)
  const { events, commands } = options
  /** a ticket type's GST rate, one of the configured ones (0 and none are the same: absent) */
  const taxRateOf = (rate: number | undefined): { taxRate?: number } => {
    if (rate === undefined || rate === 0) return {}
    const rates = config.billing.gstRates
    if (!rates.includes(rate)) {
      const message = gstRateRefusal(rates)
      throw invalid(message, [{ field: 'ticketTypes', message }])
    }
    return { taxRate: rate }
  }
  const media = options.media ?? createMediaStore(config, null)
  await media.sweep()

  await app.register(multipart, { limits: multipartLimits(config.uploads) })

  // the listings' bytes, once per ledger version (listing-cache.ts), from each event's object made
  // once per change of that event (fragments.ts)
  const serializeOne = fastJson(toJson(EventView) as unknown as Parameters<typeof fastJson>[0])
  const fragments = eventFragments({
    ledger,
    eventOfOrder: options.eventOfOrder ?? (async () => undefined),
    eventOfTicketType: async (id) => (await events.ticketType(id))?.eventId,
    build: async (rows, base) => (await viewsOf(rows, base)).map((view) => serializeOne(view)),
  })
  const listings = listingCache(fragments)
  const sendList = async (
    reply: FastifyReply,
    version: string,
    key: string,
    rows: () => Promise<EventRow[]>,
  ) => {
    // Media URLs are absolute against a base that, outside production, is the asker's origin.
    const base = mediaBaseOf(reply.request, config)
    const body = await listings.bytes(
      version,
      base,
      key,
      rows,
      takesGzip(reply.request.headers['accept-encoding']),
    )
    reply.type('application/json; charset=utf-8')
    varyByEncoding(reply)
    if (body.gzip) reply.header('content-encoding', 'gzip')
    return reply.send(body.bytes)
  }

  /** the event's version the caller saw (If-Match), to change it only as seen; undefined: any */
  const versionSeen = (request: FastifyRequest): number | undefined => {
    const ifMatch = request.headers['if-match']
    if (typeof ifMatch !== 'string') return undefined
    const seen = /^(?:W\/)?"?(\d+)"?$/.exec(ifMatch.trim())
    if (!seen) throw invalid('If-Match must be the event version, such as "2".')
    return Number(seen[1])
  }
  const view = async (row: EventRow, request: FastifyRequest) =>
    (await viewsOf([row], mediaBaseOf(request, config)))[0] as EventView
  /** An edit moving booking's close (the date, the time, the sales end) to or before a sale time
   * set for the event is refused: that sale would open on nothing (PUT /event/:id/onsale's rule). */
  const refuseSaleAfterClose = async (row: EventRow, details: Partial<EventDetails>) => {
    const { saleTimesOf, salesCloseAt } = options
    if (!saleTimesOf || !salesCloseAt) return
    const moves = (['date', 'time', 'salesEnd'] as const).filter(
      (key) => details[key] !== undefined && details[key] !== row[key],
    )
    if (moves.length === 0) return
    // a sale time gone by has opened its sale already: closing booking early just ends it
    const now = new Date().toISOString()
    const times = (await saleTimesOf(row.id)).map((at) => new Date(at).toISOString()).filter((at) => at > now)
    const closesAt = salesCloseAt({ ...row, ...details } as EventRow)
    if (times.every((at) => at < closesAt)) return
    const field = moves.includes('salesEnd') && details.salesEnd ? 'salesEnd' : (moves[0] as string)
    throw invalid(SALE_AFTER_BOOKING_CLOSES, [{ field, message: SALE_AFTER_BOOKING_CLOSES }])
  }
  /** Visible to everyone once approved; before that only to its organizer and admins. */
  const visible = (row: EventRow | undefined, request: FastifyRequest): row is EventRow => {
    if (!row) return false
    if (row.approvalStatus === 'Approved') return true
    const caller = request.account
    return caller?.role === 'admin' || caller?.id === row.organizerId
  }

  app.get(
    '/event',
    {
      config: { access: 'anyone' },
      schema: { querystring: EventListQuery, response: replies({ 200: EventList }) },
    },
    async (request, reply) => {
      // Every change to what the listing shows is a fact, so the ledger's version names the
      // listing's: a client that has it gets 304 without the listing being read at all.
      const { page, limit = EVENT_PAGE_LIMIT } = request.query
      const version = await ledger.version()
      const etag = `W/"ledger-${version}${page ? `-${page}-${limit}` : ''}"`
      reply.header('etag', etag).header('cache-control', 'no-cache')
      // No body and no length: a 304 carries neither.
      if (request.headers['if-none-match'] === etag) return (reply as FastifyReply).code(304).send()
      if (!page) return sendList(reply, version, 'all', () => events.approved())
      // A page: the same order as the whole listing, its count in a header (the body stays a bare
      // array), and the next page's address while there is one.
      const total = await listings.count(version, () => events.approvedCount())
      reply.header('x-total-count', String(total))
      if (page * limit < total)
        reply.header('link', `</api/v1/event?page=${page + 1}&limit=${limit}>; rel="next"`)
      return sendList(reply, version, `page:${page}:${limit}`, () =>
        events.approvedPage(limit, (page - 1) * limit),
      )
    },
  )

  app.get(
    '/event/filter',
    {
      config: { access: 'anyone' },
      schema: { querystring: EventFilterQuery, response: replies({ 200: EventList }) },
    },
    async (request, reply) => {
      const { filterType, search } = request.query
      return sendList(reply, await ledger.version(), `${filterType}:${search}`, () =>
        events.filtered(filterType, search),
      )
    },
  )

  app.get(
    '/event/:id',
    {
      config: { access: 'anyone', tokenScope: 'events:read', tokenEvent: 'id' },
      schema: { params: EventParams, response: replies({ 200: EventView }) },
    },
    async (request, reply) => {
      // the row is read once the fragments have caught up with the ledger (of()'s order), and
      // checked before its object is made
      const [fragment] = await fragments.of(
        async () => {
          const row = await events.byId(request.params.id)
          return visible(row, request) ? [row] : []
        },
        mediaBaseOf(request, config),
      )
      if (fragment === undefined) throw notFound(EVENT_NOT_FOUND)
      // the object as made for the listings: the same bytes, not serialised again
      return (reply as FastifyReply).type('application/json; charset=utf-8').send(fragment.json)
    },
  )

  app.post(
    '/event/create',
    {
      config: { access: ['organizers'], tokenScope: 'events:write' },
      schema: { response: replies({ 201: CreateEventReply }) },
    },
    async (request, reply) => {
      if (!request.isMultipart()) throw invalid('Send the event as multipart/form-data.')
      const organizer = callerOf(request)
      const batch = media.batch()
      let committed = false
      try {
        const fields = createFieldsOf(await readParts(request.parts(), batch, config.uploads))
        const parsed = v.safeParse(CreateEventFields, fields)
        if (!parsed.success) {
          const issues = issuesOf(CreateEventFields, parsed.issues)
          throw invalid(issues[0]?.message ?? 'Some fields are not right.', issues)
        }
        const input = parsed.output
        const eventId = newId()
        const event: EventSubmitted['data'] = {
          eventId,
          organizerId: organizer.id,
          title: input.title,
          description: input.description,
          date: input.date,
          time: input.time,
          location: input.location,
          category: input.category,
          images: batch.urls('image'),
          videos: batch.urls('video'),
          ticketTypes: input.ticketTypes.map((t) => ({
            ticketTypeId: newId(),
            type: t.type,
            pricePaise: toPaise(t.price),
            quantity: t.quantity,
            ...taxRateOf(t.taxRate),
          })),
          ...(input.salesEnd ? { salesEnd: input.salesEnd } : {}),
          ...(input.state ? { state: input.state } : {}),
          ...(input.pricesIncludeTax !== undefined ? { pricesIncludeTax: input.pricesIncludeTax } : {}),
        }
        // Files first, so a committed event never points at a missing file; if the append is
        // refused, the moved files are removed again below.
        await batch.commit()
        committed = true
        await commands.submit(event, { actor: organizer.id, requestId: request.id })
        committed = false
        const row = (await events.byId(eventId)) as EventRow
        return reply
          .code(201)
          .send({ message: 'Event created successfully', event: await view(row, request) })
      } catch (error) {
        await (committed ? batch.removeCommitted() : batch.discard())
        throw multipartRefusal(error)
      } finally {
        await batch.discard()
      }
    },
  )

  app.put(
    '/event/:id',
    {
      config: { access: ['organizers'], tokenScope: 'events:write', tokenEvent: 'id' },
      schema: { params: EventParams, response: replies({ 200: EditEventReply }) },
    },
    async (request) => {
      const organizer = callerOf(request)
      const { id } = request.params
      const row = await events.byId(id)
      if (!visible(row, request)) throw notFound(EVENT_NOT_FOUND)
      if (row.organizerId !== organizer.id) throw forbidden(NOT_YOUR_EVENT)
      // an edit made on a stale copy (another tab, a co-organizer's change since) is a 409
      const seen = versionSeen(request)
      const batch = media.batch()
      let committed = false
      try {
        let input: Record<string, unknown>
        if (request.isMultipart()) {
          input = editFieldsOf(await readParts(request.parts(), batch, config.uploads))
        } else {
          const body = request.body
          if (typeof body !== 'object' || body === null || Array.isArray(body))
            throw invalid('Send the changes as a JSON object or as multipart/form-data.')
          input = body as Record<string, unknown>
        }
        const parsed = v.safeParse(EditEventFields, input)
        if (!parsed.success) {
          const issues = issuesOf(EditEventFields, parsed.issues)
          throw invalid(issues[0]?.message ?? 'Some fields are not right.', issues)
        }
        const { ticketTypes, images, videos, ...text } = parsed.output
        const details: Partial<EventDetails> = {
          ...text,
          ...editedMedia({ images, videos }, batch, row, config.uploads),
        }
        await refuseSaleAfterClose(row, details)
        const types = (await events.ticketTypesOf([id])).get(id) ?? []
        await batch.commit()
        committed = true
        await commands.edit(
          {
            eventId: id,
            by: organizer.id,
            details,
            ...(ticketTypes
              ? {
                  ticketTypes: ticketTypes.map((t) => ({
                    type: t.type,
                    pricePaise: toPaise(t.price),
                    quantity: t.quantity,
                    ...(t.taxRate === undefined ? {} : { taxRate: taxRateOf(t.taxRate).taxRate ?? 0 }),
                  })),
                }
              : {}),
            ticketTypeIds: types.map((type) => type.id),
          },
          { actor: organizer.id, requestId: request.id },
          seen,
        )
        committed = false
        return {
          message: 'Event updated successfully',
          event: await view((await events.byId(id)) as EventRow, request),
        }
      } catch (error) {
        await (committed ? batch.removeCommitted() : batch.discard())
        throw multipartRefusal(error)
      } finally {
        await batch.discard()
      }
    },
  )

  app.post(
    '/event/:id/cancel',
    {
      config: { access: ['organizers', 'admin'] },
      schema: { params: EventParams, body: CancelEventBody, response: replies({ 200: CancelEventReply }) },
    },
    async (request) => {
      const caller = callerOf(request)
      const { id } = request.params
      const row = await events.byId(id)
      if (!visible(row, request)) throw notFound(EVENT_NOT_FOUND)
      await commands.cancel(
        { eventId: id, by: caller.id, asAdmin: caller.role === 'admin', reason: request.body.reason },
        { actor: caller.id, requestId: request.id },
      )
      return {
        message: 'Event cancelled. Every paid order will be refunded.',
        event: await view((await events.byId(id)) as EventRow, request),
      }
    },
  )

  app.get(
    '/ticket/getorgid',
    {
      config: { access: ['organizers'], tokenScope: 'events:read' },
      schema: { response: replies({ 200: EventList }) },
    },
    async (request) => viewsOf(await events.byOrganizer(callerOf(request).id), mediaBaseOf(request, config)),
  )

  app.get(
    '/admin/events',
    { config: { access: ['admin'] }, schema: { response: replies({ 200: EventList }) } },
    async (request) => viewsOf(await events.all(), mediaBaseOf(request, config)),
  )

  app.put(
    '/admin/events/:id/status',
    {
      config: { access: ['admin'] },
      schema: { params: EventParams, body: ReviewBody, response: replies({ 200: ReviewReply }) },
    },
    async (request) => {
      const admin = callerOf(request)
      const { id } = request.params
      const decision = request.body.status
      // Two admins deciding at once: with If-Match (the version each saw), the second is a 409.
      const seen = versionSeen(request)
      await commands.review(
        { eventId: id, decision, by: admin.id, reason: request.body.reason || undefined },
        { actor: admin.id, requestId: request.id },
        seen,
      )
      return {
        message: decision === 'Approved' ? 'Event approved successfully!' : 'Event rejected !',
        event: await view((await events.byId(id)) as EventRow, request),
      }
    },
  )
}
