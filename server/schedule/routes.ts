// /schedule and /notify (API.md): sessions of an event, and notices to its attendees.
import type { FastifyInstance } from 'fastify'
import { MessageReply } from '../../contracts/common.ts'
import {
  NotifyBody,
  ScheduleBody,
  ScheduleQuery,
  SessionList,
  SessionView,
} from '../../contracts/schedule.ts'
import type { CatalogQueries, EventRow } from '../catalog/queries.ts'
import { notFound } from '../errors.ts'
import { callerOf } from '../http/access.ts'
import { replies, type ValibotTypeProvider } from '../http/valibot.ts'
import { newId, streams } from '../ids.ts'
import { handleCommand } from '../ledger/decider.ts'
import type { Platform } from '../platform.ts'
import { scheduleDecider } from './decide.ts'
import type { ScheduleQueries, SessionRow } from './queries.ts'

export type ScheduleRoutesOptions = {
  platform: Pick<Platform, 'ledger'>
  events: CatalogQueries
  schedule: ScheduleQueries
}

export async function scheduleRoutes(fastify: FastifyInstance, options: ScheduleRoutesOptions) {
  const app = fastify.withTypeProvider<ValibotTypeProvider>()
  const { events, schedule } = options
  const { ledger } = options.platform

  const view = (s: SessionRow, event: EventRow | undefined) => ({
    _id: s.id,
    eventId: s.eventId,
    eventTitle: event?.title ?? '',
    sessionTitle: s.sessionTitle,
    description: s.description,
    startTime: s.startTime,
    endTime: s.endTime,
    speakers: s.speakers,
    location: s.location,
  })

  /** The caller's own event (admins may act on any): otherwise it does not exist for them. */
  const ownEvent = async (eventId: string, caller: { id: string; role: string }) => {
    const event = await events.byId(eventId)
    if (!event || (caller.role !== 'admin' && event.organizerId !== caller.id))
      throw notFound('Event not found.')
    return event
  }

  app.get(
    '/schedule',
    {
      config: { access: 'anyone' },
      schema: { querystring: ScheduleQuery, response: replies({ 200: SessionList }) },
    },
    async (request) => {
      const { eventId } = request.query
      const caller = request.account
      let shown: EventRow[]
      if (eventId) {
        const event = await events.byId(eventId)
        const visible =
          event &&
          (event.approvalStatus === 'Approved' ||
            caller?.role === 'admin' ||
            caller?.id === event.organizerId)
        shown = visible ? [event] : []
      } else {
        shown = await events.approved()
      }
      const byId = new Map(shown.map((e) => [e.id, e]))
      return (await schedule.ofEvents([...byId.keys()])).map((s) => view(s, byId.get(s.eventId)))
    },
  )

  app.post(
    '/schedule',
    {
      config: { access: ['organizers'] },
      schema: { body: ScheduleBody, response: replies({ 201: SessionView }) },
    },
    async (request, reply) => {
      const organizer = callerOf(request)
      const body = request.body
      const event = await ownEvent(body.eventId, organizer)
      const sessionId = newId()
      await handleCommand(ledger, scheduleDecider, {
        stream: streams.session(sessionId),
        command: {
          type: 'Schedule',
          session: {
            sessionId,
            eventId: event.id,
            organizerId: event.organizerId,
            sessionTitle: body.sessionTitle,
            description: body.description,
            startTime: body.startTime,
            endTime: body.endTime,
            speakers: body.speakers,
            location: body.location,
          },
        },
        meta: { actor: organizer.id, requestId: request.id },
      })
      return reply.code(201).send(view((await schedule.byId(sessionId)) as SessionRow, event))
    },
  )

  app.post(
    '/notify',
    {
      config: { access: ['organizers'] },
      schema: { body: NotifyBody, response: replies({ 202: MessageReply }) },
    },
    async (request, reply) => {
      const organizer = callerOf(request)
      const event = await ownEvent(request.body.eventId, organizer)
      const noticeId = newId()
      await handleCommand(ledger, scheduleDecider, {
        stream: streams.notice(noticeId),
        command: {
          type: 'PostNotice',
          notice: {
            noticeId,
            eventId: event.id,
            organizerId: event.organizerId,
            startTime: request.body.startTime,
            endTime: request.body.endTime,
          },
        },
        meta: { actor: organizer.id, requestId: request.id },
      })
      return reply.code(202).send({ message: 'The attendees are being notified.' })
    },
  )
}
