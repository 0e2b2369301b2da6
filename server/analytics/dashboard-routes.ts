// /dashboard/* (contracts/dashboards.ts): the organizer's and the admin's dashboards at scale — a
// page of event rows with their figures, one event's figures, a page of its attendees. An
// organizer reads its own events only; an admin every event. Each answer carries the ledger
// position it is as of (read before the rows), so a client drops pushes it already reflects.
import type { FastifyInstance } from 'fastify'
import {
  AttendeesPage,
  AttendeesQuery,
  DashboardEventParams,
  DashboardEventsPage,
  DashboardEventsQuery,
  EventFigures,
} from '../../contracts/dashboards.ts'
import { notFound } from '../errors.ts'
import { callerOf } from '../http/access.ts'
import { replies, type ValibotTypeProvider } from '../http/valibot.ts'
import { toRupees } from '../money.ts'
import { attendeeView, type DashboardQueries, figuresView } from './dashboards.ts'

export type DashboardRoutesOptions = {
  dashboards: DashboardQueries
  /**
   * the position every answer is as of, read before its rows: every fact at or below it has
   * committed (LedgerPort.settledHead), so a push of a fact the rows do not show is above it
   */
  head: () => Promise<number>
}

export async function dashboardRoutes(fastify: FastifyInstance, options: DashboardRoutesOptions) {
  const app = fastify.withTypeProvider<ValibotTypeProvider>()
  const { dashboards, head } = options
  const access = { access: ['organizers', 'admin'] as const }

  /** the event, if the caller may see its dashboard (its organizer, an admin) */
  const figuresFor = async (caller: { id: string; role: string }, eventId: string) => {
    const row = await dashboards.figuresOf(eventId)
    if (!row || (caller.role !== 'admin' && row.organizerId !== caller.id)) throw notFound('Event not found.')
    return row
  }

  app.get(
    '/dashboard/events',
    {
      config: access,
      schema: { querystring: DashboardEventsQuery, response: replies({ 200: DashboardEventsPage }) },
    },
    async (request) => {
      const caller = callerOf(request)
      const { page, limit, status, search } = request.query
      const organizerId = caller.role === 'admin' ? null : caller.id
      const position = await head()
      const { rows, total } = await dashboards.eventsPage({ organizerId, status, search, page, limit })
      const totals = await dashboards.totals(organizerId)
      return {
        events: rows.map((row) => figuresView(row, position)),
        total,
        page,
        limit,
        totals: { events: totals.events, sold: totals.ticketsSold, revenue: toRupees(totals.revenuePaise) },
      }
    },
  )

  app.get(
    '/dashboard/events/:eventId',
    { config: access, schema: { params: DashboardEventParams, response: replies({ 200: EventFigures }) } },
    async (request) => {
      const position = await head()
      return figuresView(await figuresFor(callerOf(request), request.params.eventId), position)
    },
  )

  app.get(
    '/dashboard/events/:eventId/attendees',
    {
      config: { ...access, tokenScope: 'attendees:read', tokenEvent: 'eventId' },
      schema: {
        params: DashboardEventParams,
        querystring: AttendeesQuery,
        response: replies({ 200: AttendeesPage }),
      },
    },
    async (request) => {
      const { eventId } = request.params
      const position = await head()
      await figuresFor(callerOf(request), eventId)
      const { page, limit, search } = request.query
      const { rows, total } = await dashboards.attendeesPage(eventId, page, limit, search)
      return { attendees: rows.map(attendeeView), total, page, limit, position }
    },
  )
}
