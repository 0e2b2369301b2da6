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
  ReviewBody,
  ReviewReply,
} from '../../contracts/catalog.ts'
import { decisionLocks, wait } from '../db/store.ts'
import { DomainError, forbidden, invalid, notFound } from '../errors.ts'
import { callerOf } from '../http/access.ts'
import { gzipJsonArray } from '../http/gzip-groups.ts'
import { mediaBaseOf } from '../http/media-urls.ts'
import { NUL_REFUSED } from '../http/nul-text.ts'
import { issuesOf, replies, toJson, type ValibotTypeProvider } from '../http/valibot.ts'
import { newId, streams } from '../ids.ts'
import { decideIn, handleCommand } from '../ledger/decider.ts'
import { toPaise } from '../money.ts'
import type { Platform } from '../platform.ts'
import { EVENT_NOT_FOUND, type EventDetails, eventDecider, NOT_YOUR_EVENT } from './decide.ts'
import type { EventSubmitted } from './facts.ts'
import { eventFragments, type Fragment } from './fragments.ts'
import type { MediaBatch, MediaStore } from './media.ts'
import { createMediaStore } from './media-store.ts'
import { type CatalogQueries, type EventExtras, type EventRow, noExtras } from './queries.ts'

export type CatalogRoutesOptions = {
  platform: Pick<Platform, 'ledger' | 'config'>
  events: CatalogQueries
  extras?: EventExtras
  /** the event of an order (booking's read), to tell which event an order's fact changes */
  eventOfOrder?: (orderId: string) => Promise<string | undefined>
  /** where uploads are kept; by default createMediaStore(config) without a PostgreSQL pool */
  media?: MediaStore
}

/** below this, a body goes as it is */
const GZIP_FROM = 1024
/** whether an Accept-Encoding takes gzip (not refused with q=0) */
export function takesGzip(accept: string | string[] | undefined): boolean {
  // the same few headers come again and again (each browser sends its own every time)
  if (typeof accept === 'string') {
    let takes = gzipTakers.get(accept)
    if (takes === undefined) {
      takes = takesGzipParsed(accept)
      if (gzipTakers.size >= 100) gzipTakers.clear()
      gzipTakers.set(accept, takes)
    }
    return takes
  }
  return takesGzipParsed(accept)
}
const gzipTakers = new Map<string, boolean>()

function takesGzipParsed(accept: string | string[] | undefined): boolean {
  for (const part of String(accept ?? '').split(',')) {
    const [coding = '', ...params] = part.trim().toLowerCase().split(';')
    if (coding.trim() !== 'gzip' && coding.trim() !== '*') continue
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='))
    return q === undefined || Number(q.slice(2)) > 0
  }
  return false
}

export async function catalogRoutes(fastify: FastifyInstance, options: CatalogRoutesOptions) {
  const app = fastify.withTypeProvider<ValibotTypeProvider>()
  const { ledger, config } = options.platform
  const extras: EventExtras = options.extras ?? (() => noExtras)
  /** the event objects of API.md, with what other areas add to them */
  const viewsOf = async (rows: EventRow[], mediaBase: string) =>
    events.toViews(rows, await extras(rows.map((r) => r.id)), mediaBase)
  const { events } = options
  const media = options.media ?? createMediaStore(config, null)
  await media.sweep()

  await app.register(multipart, {
    limits: {
      fileSize: Math.max(config.uploads.imageMaxBytes, config.uploads.videoMaxBytes) + 1,
      files: config.uploads.maxImages + config.uploads.maxVideos,
      fields: 20,
      fieldSize: 256 * 1024,
      parts: config.uploads.maxImages + config.uploads.maxVideos + 20,
    },
  })

  // Listings put together once per ledger version (LedgerPort.version: the head on SQLite; on
  // PostgreSQL more than the head, which a fact committing below it leaves as it was): while
  // nothing happens, every reader gets the same bytes; the first read after a new fact joins them
  // again from the events' objects, of which only the changed ones are made again. A client that
  // takes gzip (every browser) gets them compressed, also once per version, from groups of events
  // of which only the changed ones are compressed again (gzip-groups.ts). Issue 18: a listing of
  // 1,000 events is ~0.6 MB of JSON, several times less gzipped, and sending the bytes was most of
  // its cost.
  const serializeOne = fastJson(toJson(EventView) as unknown as Parameters<typeof fastJson>[0])
  // each event's object made once per change of that event (fragments.ts)
  const fragments = eventFragments({
    ledger,
    eventOfOrder: options.eventOfOrder ?? (async () => undefined),
    eventOfTicketType: async (id) => (await events.ticketType(id))?.eventId,
    build: async (rows, base) => (await viewsOf(rows, base)).map((view) => serializeOne(view)),
  })
  /** a listing: its events' objects, their length joined, and (made when first asked for) the
   * JSON text and its gzip (gzip-groups.ts, which never makes the whole text) */
  type Body = { items: Fragment[]; length: number; json?: string; gzipped?: Buffer }
  const lists: { version: string; bodies: Map<string, Body>; count?: number } = {
    version: '',
    bodies: new Map(),
  }
  /**
   * the cache as of the ledger's version (read once per request): emptied when it differs, since
   * a fact came since (or, rarely, the request read the version before one that came: it starts the
   * cache again, which costs a listing made twice, never a stale one)
   */
  const listsAt = (version: string) => {
    if (version !== lists.version) {
      lists.version = version
      lists.bodies.clear()
      lists.count = undefined
    }
  }
  const sendList = async (
    reply: FastifyReply,
    version: string,
    key: string,
    rows: () => Promise<EventRow[]>,
  ) => {
    listsAt(version)
    // Media URLs are absolute against a base that, outside production, is the asker's origin.
    const base = mediaBaseOf(reply.request, config)
    const cacheKey = `${base} ${key}`
    let body = lists.bodies.get(cacheKey)
    if (body === undefined) {
      const items = await fragments.of(rows, base)
      body = { items, length: items.reduce((n, item) => n + item.json.length + 1, 1) }
      // kept only under the version this request read: a newer fact may have come while it was made
      if (lists.version === version && lists.bodies.size < 100) lists.bodies.set(cacheKey, body)
    }
    // added to what is there (CORS varies by Origin)
    const vary = reply.getHeader('vary')
    reply
      .type('application/json; charset=utf-8')
      .header('vary', vary ? `${vary}, Accept-Encoding` : 'Accept-Encoding')
    if (body.length >= GZIP_FROM && takesGzip(reply.request.headers['accept-encoding'])) {
      body.gzipped ??= gzipJsonArray(body.items)
      return reply.header('content-encoding', 'gzip').send(body.gzipped)
    }
    body.json ??= `[${body.items.map((item) => item.json).join(',')}]`
    return reply.send(body.json)
  }

  /** A multipart body's text fields, its files staged in `batch` (at most the limits, per kind). */
  const readParts = async (request: FastifyRequest, batch: MediaBatch) => {
    const fields: Record<string, string> = {}
    const counts = { image: 0, video: 0 }
    for await (const part of request.parts()) {
      const field = part.fieldname.replace(/\[\]$/, '')
      if (part.type === 'field') {
        const value = String(part.value)
        // refused at the door as in a JSON body (nul-text.ts), whichever store would keep it
        if (value.includes('\u0000') || field.includes('\u0000'))
          throw invalid(NUL_REFUSED, [{ field: field.replaceAll('\u0000', ''), message: NUL_REFUSED }])
        fields[field] = value
        continue
      }
      const kind = field === 'images' ? 'image' : field === 'videos' ? 'video' : null
      if (!kind) {
        const message = `Files go in "images" or "videos", not "${field.slice(0, 40)}".`
        throw invalid(message, [{ field: field.slice(0, 40), message }])
      }
      if (!part.filename && part.file.readableLength === 0) {
        part.file.resume() // an empty file input
        continue
      }
      const max = kind === 'image' ? config.uploads.maxImages : config.uploads.maxVideos
      if (++counts[kind] > max)
        throw invalid(`At most ${max} ${kind}s per event.`, [
          { field, message: `At most ${max} ${kind}s per event.` },
        ])
      await batch.add(kind, part.filename, part.file)
    }
    return fields
  }
  /** the event's version the caller saw (If-Match), to change it only as seen; undefined: any */
  const versionSeen = (request: FastifyRequest): number | undefined => {
    const ifMatch = request.headers['if-match']
    if (typeof ifMatch !== 'string') return undefined
    const seen = /^(?:W\/)?"?(\d+)"?$/.exec(ifMatch.trim())
    if (!seen) throw invalid('If-Match must be the event version, such as "2".')
    return Number(seen[1])
  }
  /** the multipart parser's complaints about a malformed body carry no status of their own */
  const multipartRefusal = (error: unknown) =>
    error instanceof Error &&
    !(error instanceof DomainError) &&
    /multipart|boundary|part header/i.test(error.message) &&
    !('code' in error)
      ? invalid(`The upload is not valid multipart/form-data (${error.message}).`)
      : error

  const view = async (row: EventRow, request: FastifyRequest) =>
    (await viewsOf([row], mediaBaseOf(request, config)))[0] as EventView
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
      listsAt(version)
      const total = lists.count ?? (await events.approvedCount())
      if (lists.version === version) lists.count = total
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
    { config: { access: 'anyone' }, schema: { params: EventParams, response: replies({ 200: EventView }) } },
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
    { config: { access: ['organizers'] }, schema: { response: replies({ 201: CreateEventReply }) } },
    async (request, reply) => {
      if (!request.isMultipart()) throw invalid('Send the event as multipart/form-data.')
      const organizer = callerOf(request)
      const batch = media.batch()
      let committed = false
      try {
        const fields = await readParts(request, batch)

        let ticketTypes: unknown = fields.ticketTypes
        try {
          ticketTypes = JSON.parse(fields.ticketTypes ?? '')
        } catch {
          if (fields.ticketTypes !== undefined) {
            throw invalid('Ticket types must be a JSON list of {type, price, quantity}.', [
              {
                field: 'ticketTypes',
                message: 'Ticket types must be a JSON list of {type, price, quantity}.',
              },
            ])
          }
        }
        const parsed = v.safeParse(CreateEventFields, { ...fields, ticketTypes })
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
          })),
          ...(input.salesEnd ? { salesEnd: input.salesEnd } : {}),
        }
        // Files first, so a committed event never points at a missing file; if the append is
        // refused, the moved files are removed again below.
        await batch.commit()
        committed = true
        await handleCommand(ledger, eventDecider, {
          stream: streams.event(eventId),
          command: { type: 'Submit', event, now: new Date().toISOString(), timeZone: config.timeZone },
          meta: { actor: organizer.id, requestId: request.id },
        })
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

  /** the stored form of a media URL the views gave (absolute against some base), if it is one */
  const storedMedia = (url: string, own: Array<{ url: string }>) => {
    const path = url.startsWith('/') ? url : URL.canParse(url) ? new URL(url).pathname : url
    return own.find((m) => m.url === path || m.url === url)
  }

  app.put(
    '/event/:id',
    {
      config: { access: ['organizers'] },
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
          const fields = await readParts(request, batch)
          input = { ...fields }
          for (const key of ['ticketTypes', 'images', 'videos']) {
            const text = fields[key]
            if (text === undefined) continue
            try {
              input[key] = JSON.parse(text)
            } catch {
              const message =
                key === 'ticketTypes'
                  ? 'Ticket types must be a JSON list of {type, price, quantity}.'
                  : `${key === 'images' ? 'Images' : 'Videos'} to keep must be a JSON list of {url}.`
              throw invalid(message, [{ field: key, message }])
            }
          }
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
        const details: Partial<EventDetails> = { ...text }
        for (const [kind, kept, current, max] of [
          ['image', images, row.images, config.uploads.maxImages],
          ['video', videos, row.videos, config.uploads.maxVideos],
        ] as const) {
          const added = batch.urls(kind)
          if (!kept && added.length === 0) continue
          const keep = (kept ?? current).map((m) => {
            const own = storedMedia(m.url, current)
            if (!own)
              throw invalid(`Only the event's own ${kind}s can be kept.`, [
                { field: `${kind}s`, message: `Only the event's own ${kind}s can be kept.` },
              ])
            return own
          })
          const all = [...keep, ...added]
          if (all.length > max)
            throw invalid(`At most ${max} ${kind}s per event.`, [
              { field: `${kind}s`, message: `At most ${max} ${kind}s per event.` },
            ])
          details[kind === 'image' ? 'images' : 'videos'] = all
        }
        const types = (await events.ticketTypesOf([id])).get(id) ?? []
        await batch.commit()
        committed = true
        await ledger.transaction(
          function* (tx) {
            const taken: Record<string, number> = {}
            for (const type of types) taken[type.id] = yield* wait(tx.reads.booking.seatsTaken(type.id))
            return yield* decideIn(tx, eventDecider, {
              stream: streams.event(id),
              expectedVersion: seen,
              command: {
                type: 'Edit',
                eventId: id,
                by: organizer.id,
                details,
                ...(ticketTypes
                  ? {
                      ticketTypes: ticketTypes.map((t) => ({
                        type: t.type,
                        pricePaise: toPaise(t.price),
                        quantity: t.quantity,
                      })),
                    }
                  : {}),
                taken,
                newId,
                now: new Date().toISOString(),
                timeZone: config.timeZone,
              },
              meta: { actor: organizer.id, requestId: request.id },
            })
            // the seats taken are read under the event's lock: no hold takes one before it commits
          },
          { lock: decisionLocks.event(id) },
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
      await handleCommand(ledger, eventDecider, {
        stream: streams.event(id),
        command: {
          type: 'Cancel',
          eventId: id,
          by: caller.id,
          asAdmin: caller.role === 'admin',
          reason: request.body.reason,
          now: new Date().toISOString(),
          timeZone: config.timeZone,
        },
        meta: { actor: caller.id, requestId: request.id },
        // a hold or a payment deciding now is committed before it (and so cancelled after it)
        lock: decisionLocks.event(id),
      })
      return {
        message: 'Event cancelled. Every paid order will be refunded.',
        event: await view((await events.byId(id)) as EventRow, request),
      }
    },
  )

  app.get(
    '/ticket/getorgid',
    { config: { access: ['organizers'] }, schema: { response: replies({ 200: EventList }) } },
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
      await handleCommand(ledger, eventDecider, {
        stream: streams.event(id),
        command: {
          type: 'Review',
          eventId: id,
          decision,
          by: admin.id,
          reason: request.body.reason || undefined,
        },
        meta: { actor: admin.id, requestId: request.id },
        expectedVersion: seen,
      })
      return {
        message: decision === 'Approved' ? 'Event approved successfully!' : 'Event rejected !',
        event: await view((await events.byId(id)) as EventRow, request),
      }
    },
  )
}
