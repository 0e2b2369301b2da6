// What the screens read, as TanStack Query options: one key per kind of server state, so a live
// push (live/follow.ts) can update or refetch exactly what it changed, wherever it is on screen.
// Keys that share a first part are refetched together (['inquiries'] covers both lists).
import { infiniteQueryOptions, keepPreviousData, queryOptions } from '@tanstack/react-query'
import { INQUIRY_PAGE_LIMIT, type InquiryView } from '../../../contracts/support.ts'
import { fetchAccounts, fetchProfile } from './accounts.ts'
import { fetchRegistrations, fetchTicket } from './booking.ts'
import { fetchEvent, fetchEvents } from './catalog.ts'
import { fetchCheckinSummary, fetchDoorStaff, fetchManifest, fetchPasses } from './checkin.ts'
import { fetchAttendees, fetchDashboardEvents, fetchEventFigures } from './dashboards.ts'
import { type AttendeesQuery, type DashboardQuery, keys } from './keys.ts'
import { fetchAnalytics } from './organizers.ts'
import { fetchPromoCodes, fetchPromoPrice } from './promo.ts'
import { fetchSessions } from './schedule.ts'
import { siteQuery } from './site.ts'
import { fetchInquiryPage, fetchMyInquiries } from './support.ts'
import { fetchMyWaitlist } from './waitlist.ts'

export type { AttendeesQuery, DashboardQuery }
export { keys }

export const eventsQuery = () => queryOptions({ queryKey: keys.events, queryFn: fetchEvents })

export const eventQuery = (id: string) =>
  queryOptions({ queryKey: keys.event(id), queryFn: () => fetchEvent(id) })

/**
 * a page of dashboard rows; while another page or search loads, the last one stays on screen. A
 * screen mounting on a page fetched or pushed in the last 2 s shows it as it is: the one the
 * dashboard's route fetched while the screen's code loaded (routes/prefetch.ts) is not fetched again.
 * (Not a staleTime: a page stays stale for the refetch of every reconnection, live/follow.ts.)
 */
export const dashboardEventsQuery = (query: DashboardQuery) =>
  queryOptions({
    queryKey: keys.dashboardEvents(query),
    queryFn: () => fetchDashboardEvents(query),
    placeholderData: keepPreviousData,
    refetchOnMount: (cached) => Date.now() - cached.state.dataUpdatedAt > 2000,
  })

export const eventFiguresQuery = (eventId: string) =>
  queryOptions({ queryKey: keys.eventFigures(eventId), queryFn: () => fetchEventFigures(eventId) })

/** a page of an event's attendees; while another page or search loads, the last one stays */
export const attendeesQuery = (eventId: string, query: AttendeesQuery) =>
  queryOptions({
    queryKey: keys.attendees(eventId, query),
    queryFn: () => fetchAttendees(eventId, query),
    placeholderData: keepPreviousData,
  })

export const analyticsQuery = (eventId: string) =>
  queryOptions({
    queryKey: keys.analytics(eventId),
    queryFn: () =>
      fetchAnalytics(eventId).catch((error: unknown) => {
        console.error(`Analytics of event ${eventId} could not be fetched`, error)
        throw error
      }),
  })

export const sessionsQuery = (eventId?: string) =>
  queryOptions({ queryKey: keys.sessions(eventId), queryFn: () => fetchSessions(eventId) })

/** a ticket with its event's title (null when the event cannot be read) */
export const ticketQuery = (ticketId: string) =>
  queryOptions({
    queryKey: keys.ticket(ticketId),
    queryFn: async () => {
      const ticket = await fetchTicket(ticketId)
      const eventTitle = await fetchEvent(ticket.eventId).then(
        (event) => event.title,
        () => null,
      )
      return { ticket, eventTitle }
    },
  })

/** a ticket just booked, with its event */
export const bookedTicketQuery = (ticketId: string, eventId: string) =>
  queryOptions({
    queryKey: [...keys.ticket(ticketId), 'booked', eventId] as const,
    queryFn: async () => {
      const [ticket, event] = await Promise.all([fetchTicket(ticketId), fetchEvent(eventId)])
      return { ticket, event }
    },
  })

/** a ticket's passes, each with its QR code's text and whether it was used */
export const passesQuery = (ticketId: string) =>
  queryOptions({ queryKey: keys.passes(ticketId), queryFn: () => fetchPasses(ticketId) })

/** the check-in screen's manifest, fetched again every minute while the screen is open */
export const checkinManifestQuery = (eventId: string) =>
  queryOptions({
    queryKey: keys.checkinManifest(eventId),
    queryFn: () => fetchManifest(eventId),
    refetchInterval: 60_000,
  })

export const checkinSummaryQuery = (eventId: string) =>
  queryOptions({ queryKey: keys.checkinSummary(eventId), queryFn: () => fetchCheckinSummary(eventId) })

export const doorStaffQuery = (eventId: string) =>
  queryOptions({ queryKey: keys.doorStaff(eventId), queryFn: () => fetchDoorStaff(eventId) })

export const myWaitlistQuery = () => queryOptions({ queryKey: keys.myWaitlist, queryFn: fetchMyWaitlist })

export const myTicketsQuery = () =>
  queryOptions({
    queryKey: keys.myTickets,
    queryFn: async () => {
      const [profile, tickets] = await Promise.all([fetchProfile(), fetchRegistrations()])
      return { profile, tickets }
    },
  })

export const profileQuery = () => queryOptions({ queryKey: keys.profile, queryFn: () => fetchProfile() })

export const accountsQuery = () => queryOptions({ queryKey: keys.accounts, queryFn: fetchAccounts })

/** every inquiry, newest first, a page at a time (an inbox may hold thousands): a page short of
 * INQUIRY_PAGE_LIMIT is the last */
export const inquiriesQuery = () =>
  infiniteQueryOptions({
    queryKey: [...keys.inquiries, 'all'] as const,
    queryFn: ({ pageParam }) => fetchInquiryPage(pageParam),
    initialPageParam: 1,
    getNextPageParam: (last: InquiryView[], pages: InquiryView[][]) =>
      last.length < INQUIRY_PAGE_LIMIT ? undefined : pages.length + 1,
  })

export const myInquiriesQuery = () =>
  queryOptions({ queryKey: [...keys.inquiries, 'mine'] as const, queryFn: fetchMyInquiries })

/** the installation's settings: they change only with a restart, so they are read once */
export { siteQuery }

export const promoCodesQuery = (eventId: string) =>
  queryOptions({ queryKey: keys.promoCodes(eventId), queryFn: () => fetchPromoCodes(eventId) })

/** a code's price for one order: asked again when the type or quantity changes; a refusal is final */
export const promoPriceQuery = (eventId: string, code: string, ticketType: string, quantity: number) =>
  queryOptions({
    queryKey: keys.promoPrice(eventId, code, ticketType, quantity),
    queryFn: () => fetchPromoPrice(eventId, code, ticketType, quantity),
    retry: false,
    staleTime: 30_000,
  })
