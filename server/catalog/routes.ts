// /event*, /admin/events*, /ticket/getorgid (API.md).
import multipart from '@fastify/multipart'
import fastJson from 'fast-json-stringify'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import * as v from 'valibot'
import {
  CreateEventFields,
  CreateEventReply,
  EventFilterQuery,
  EventList,
  EventParams,
  EventView,
  ReviewBody,
  ReviewReply,
} from '../../contracts/catalog.ts'
import { invalid, notFound } from '../errors.ts'
import { callerOf } from '../http/access.ts'
import { mediaBaseOf } from '../http/media-urls.ts'
import { issuesOf, replies, toJson, type ValibotTypeProvider } from '../http/valibot.ts'
import { newId, streams } from '../ids.ts'
import { handleCommand } from '../ledger/decider.ts'
import { toPaise } from '../money.ts'
import type { Platform } from '../platform.ts'
import { EVENT_NOT_FOUND, eventDecider } from './decide.ts'
import type { EventSubmitted } from './facts.ts'
import type { MediaStore } from './media.ts'
import { createMediaStore } from './media-store.ts'
import { type CatalogQueries, type EventExtras, type EventRow, noExtras } from './queries.ts'

export type CatalogRoutesOptions = {
  platform: Pick<Platform, 'ledger' | 'config'>
  events: CatalogQueries
  extras?: EventExtras
  /** where uploads are kept; by default createMediaStore(config) without a PostgreSQL pool */
  media?: MediaStore
}

const todayIn = (timeZone: string) => new Intl.DateTimeFormat('en-CA', { timeZone }).format(new Date())

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

  // Listings serialised once per ledger head: while nothing happens, every reader gets the same
  // bytes; the first read after a new fact makes them again.
  const serializeList = fastJson(toJson(EventList) as unknown as Parameters<typeof fastJson>[0])
  const lists = { head: -1, bodies: new Map<string, string>() }
  const sendList = async (reply: FastifyReply, key: string, rows: () => Promise<EventRow[]>) => {
    const head = await ledger.head()
    if (lists.head !== head) {
      lists.head = head
      lists.bodies.clear()
    }
    // Media URLs are absolute against a base that, outside production, is the asker's origin.
    const base = mediaBaseOf(reply.request, config)
    const cacheKey = `${base} ${key}`
    let body = lists.bodies.get(cacheKey)
    if (body === undefined) {
      body = serializeList(await viewsOf(await rows(), base))
      if (lists.bodies.size < 100) lists.bodies.set(cacheKey, body)
    }
    return reply.type('application/json; charset=utf-8').send(body)
  }

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
    { config: { access: 'anyone' }, schema: { response: replies({ 200: EventList }) } },
    async (request, reply) => {
      // Every change to what the listing shows is a fact, so the ledger's head names its version:
      // a client that has it gets 304 without the listing being read at all.
      const etag = `W/"ledger-${await ledger.head()}"`
      reply.header('etag', etag).header('cache-control', 'no-cache')
      // No body and no length: a 304 carries neither.
      if (request.headers['if-none-match'] === etag) return (reply as FastifyReply).code(304).send()
      return sendList(reply, 'all', () => events.approved())
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
      return sendList(reply, `${filterType}:${search}`, () => events.filtered(filterType, search))
    },
  )

  app.get(
    '/event/:id',
    { config: { access: 'anyone' }, schema: { params: EventParams, response: replies({ 200: EventView }) } },
    async (request) => {
      const row = await events.byId(request.params.id)
      if (!visible(row, request)) throw notFound(EVENT_NOT_FOUND)
      return view(row, request)
    },
  )

  app.post(
    '/event/create',
    { config: { access: ['organizers'] }, schema: { response: replies({ 201: CreateEventReply }) } },
    async (request, reply) => {
      if (!request.isMultipart()) throw invalid('Send the event as multipart/form-data.')
      const organizer = callerOf(request)
      const fields: Record<string, string> = {}
      const batch = media.batch()
      const counts = { image: 0, video: 0 }
      let committed = false
      try {
        for await (const part of request.parts()) {
          const field = part.fieldname.replace(/\[\]$/, '')
          if (part.type === 'field') {
            fields[field] = String(part.value)
            continue
          }
          const kind = field === 'images' ? 'image' : field === 'videos' ? 'video' : null
          if (!kind) throw invalid(`Files go in "images" or "videos", not "${field.slice(0, 40)}".`)
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
          command: { type: 'Submit', event, today: todayIn(config.timeZone) },
          meta: { actor: organizer.id, requestId: request.id },
        })
        committed = false
        const row = (await events.byId(eventId)) as EventRow
        return reply
          .code(201)
          .send({ message: 'Event created successfully', event: await view(row, request) })
      } catch (error) {
        await (committed ? batch.removeCommitted() : batch.discard())
        // The multipart parser's complaints about a malformed body carry no status of their own.
        if (
          error instanceof Error &&
          /multipart|boundary|part header/i.test(error.message) &&
          !('code' in error)
        ) {
          throw invalid(`The upload is not valid multipart/form-data (${error.message}).`)
        }
        throw error
      } finally {
        await batch.discard()
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
      const ifMatch = request.headers['if-match']
      const seen = typeof ifMatch === 'string' ? /^(?:W\/)?"?(\d+)"?$/.exec(ifMatch.trim()) : null
      if (typeof ifMatch === 'string' && !seen)
        throw invalid('If-Match must be the event version, such as "2".')
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
        expectedVersion: seen ? Number(seen[1]) : undefined,
      })
      return {
        message: decision === 'Approved' ? 'Event approved successfully!' : 'Event rejected !',
        event: await view((await events.byId(id)) as EventRow, request),
      }
    },
  )
}
