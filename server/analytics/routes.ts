// Organizer tools: analytics per event, attendees per event, and the attendee CSV export.
import { Readable } from 'node:stream'
import type { FastifyInstance } from 'fastify'
import { AnalyticsParams, AnalyticsReply, AttendeesByEvent, csvColumns } from '../../contracts/analytics.ts'
import { seatText } from '../../contracts/seating.ts'
import type { AccountQueries } from '../accounts/queries.ts'
import type { BookingQueries, OrderRow } from '../booking/queries.ts'
import type { CatalogQueries, EventRow } from '../catalog/queries.ts'
import { notFound } from '../errors.ts'
import { callerOf } from '../http/access.ts'
import { replies, type ValibotTypeProvider } from '../http/valibot.ts'
import { rupeesCell, sharesOf, toRupees } from '../money.ts'
import type { SeatingQueries } from '../seating/queries.ts'
import { csvRow } from './csv.ts'
import type { AnalyticsQueries } from './queries.ts'

const PAGE = 1000

export type AnalyticsRoutesOptions = {
  sales: AnalyticsQueries
  events: CatalogQueries
  booking: BookingQueries
  accounts: AccountQueries
  /** the seats of seated orders (issue 40), for the export's seat column */
  seating: Pick<SeatingQueries, 'labelsOf'>
}

export async function analyticsRoutes(fastify: FastifyInstance, options: AnalyticsRoutesOptions) {
  const app = fastify.withTypeProvider<ValibotTypeProvider>()
  const { sales, events, booking, accounts, seating } = options

  /** An organizer sees its own events; an admin sees every event. */
  const eventsOf = (caller: { id: string; role: string }): Promise<EventRow[]> =>
    caller.role === 'admin' ? events.all() : events.byOrganizer(caller.id)

  const attendeesOf = async (tickets: OrderRow[]) => {
    const people = new Map(
      (await accounts.byIds([...new Set(tickets.map((t) => t.ownerId ?? t.buyerId))])).map((a) => [a.id, a]),
    )
    return tickets.flatMap((t) => {
      const person = people.get(t.ownerId ?? t.buyerId)
      return person ? [{ ticket: t, person }] : []
    })
  }

  app.get(
    '/ticket/analytics/:eventId',
    {
      config: { access: ['organizers', 'admin'], tokenScope: 'orders:read', tokenEvent: 'eventId' },
      schema: { params: AnalyticsParams, response: replies({ 200: AnalyticsReply }) },
    },
    async (request) => {
      const caller = callerOf(request)
      const event = await events.byId(request.params.eventId)
      if (!event || (caller.role !== 'admin' && event.organizerId !== caller.id))
        throw notFound('Event not found.')
      const rows = new Map((await sales.byTicketType(event.id)).map((r) => [r.ticketTypeId, r]))
      const types = (await events.ticketTypesOf([event.id])).get(event.id) ?? []
      const analytics = types.map((t) => {
        const r = rows.get(t.id)
        return {
          ticketType: t.type,
          totalRevenue: toRupees(r?.revenuePaise ?? 0),
          totalTicketsSold: r?.ticketsSold ?? 0,
          paymentStatus: [{ Pending: r?.pending ?? 0, Completed: r?.completed ?? 0, Failed: r?.failed ?? 0 }],
        }
      })
      const totals = await sales.totals(event.id)
      const attendees = (await booking.attendeeIds(event.id)).length
      const timeline = await sales.timeline(event.id)
      return {
        event: {
          _id: event.id,
          title: event.title,
          date: event.date,
          location: event.location,
          category: event.category,
          approvalStatus: event.approvalStatus,
        },
        analytics,
        // summed in paise (integers, exact), in rupees only here
        totals: {
          ticketsSold: totals.ticketsSold,
          revenue: toRupees(totals.revenuePaise),
          attendees,
          Pending: totals.pending,
          Completed: totals.completed,
          Failed: totals.failed,
        },
        timeline: timeline.map(({ at, tickets, revenuePaise }) => ({
          at,
          tickets,
          revenue: toRupees(revenuePaise),
        })),
      }
    },
  )

  app.get(
    '/organizers/attendees',
    {
      config: { access: ['organizers', 'admin'], tokenScope: 'attendees:read' },
      schema: { response: replies({ 200: AttendeesByEvent }) },
    },
    async (request) => {
      const mine = await eventsOf(callerOf(request))
      const byEvent = []
      for (const event of mine) {
        const tickets: OrderRow[] = []
        for (let after = ''; ; ) {
          const page = await booking.issuedPage([event.id], after, PAGE)
          tickets.push(...page)
          if (page.length < PAGE) break
          after = page[page.length - 1]?.id ?? after
        }
        byEvent.push({
          _id: event.id,
          title: event.title,
          category: event.category,
          location: event.location,
          date: event.date,
          time: event.time,
          approvalStatus: event.approvalStatus,
          reviewReason: event.reviewReason,
          attendees: (await attendeesOf(tickets)).map(({ ticket, person }) => ({
            _id: person.id,
            ticketId: ticket.id,
            username: person.username,
            email: person.email,
            phone: person.phone,
            ticketType: ticket.ticketType,
            quantity: ticket.quantity,
            paymentStatus: ticket.paymentStatus,
          })),
        })
      }
      return byEvent
    },
  )

  app.get(
    '/organizers/attendees.csv',
    { config: { access: ['organizers', 'admin'], tokenScope: 'attendees:read' } },
    async (request, reply) => {
      const caller = callerOf(request)
      const mine = new Map((await eventsOf(caller)).map((e) => [e.id, e]))
      const eventIds = [...mine.keys()]
      // The payment status POST /auth/getbyid gives: the attendee's best for the caller's events.
      const organizerId = caller.role === 'admin' ? undefined : caller.id
      // A page of rows at a time: a long export never holds all its rows, and other requests
      // are served between pages.
      async function* rows() {
        yield csvRow([...csvColumns])
        for (let after = ''; ; ) {
          const page = await booking.issuedPage(eventIds, after, PAGE)
          const attendees = await attendeesOf(page)
          const best = await booking.bestPaymentStatuses(
            [...new Set(attendees.map((a) => a.person.id))],
            organizerId,
          )
          const seatsOf = await seating.labelsOf(page.map((ticket) => ticket.id))
          for (const { ticket, person } of attendees) {
            const event = mine.get(ticket.eventId)
            const shares = sharesOf(ticket.amountPaise, ticket.quantity)
            const seats = seatsOf.get(ticket.id) ?? []
            // A row per admission, numbered as the door's passes are (1..quantity), with its seat
            // (its pass's: the order's seats in the order its hold named them)
            for (const [i, share] of shares.entries()) {
              const seat = seats[i]
              yield csvRow([
                event?.title,
                event?.category,
                person.username,
                person.email,
                person.phone,
                best.get(person.id) ?? ticket.paymentStatus,
                ticket.ticketType,
                1,
                rupeesCell(share),
                ticket.id,
                `${i + 1} of ${ticket.quantity}`,
                seat ? seatText(seat) : '',
              ])
            }
          }
          if (page.length < PAGE) return
          after = page[page.length - 1]?.id ?? after
          await new Promise((resolve) => setImmediate(resolve))
        }
      }
      return reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', 'attachment; filename="attendees_by_events.csv"')
        .header('cache-control', 'no-store')
        .send(Readable.from(rows()))
    },
  )
}
