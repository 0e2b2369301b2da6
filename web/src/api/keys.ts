// The query keys, one per kind of server state, apart from the fetches (queries.ts): the live
// follower (live/follow.ts) loads with every page and needs only these, so the fetches and the
// contracts they check replies against stay in the chunks of the screens that use them.
// Keys that share a first part are refetched together (['inquiries'] covers both lists).
import type { FilterType } from './catalog.ts'

/** what a dashboard page of events asks for (GET /dashboard/events) */
export type DashboardQuery = {
  page: number
  limit: number
  status?: 'Pending' | 'Approved' | 'Rejected' | undefined
  search?: string | undefined
}

/** the page a dashboard opens on: its route fetches it while the screen's code loads */
export const FIRST_DASHBOARD_PAGE: DashboardQuery = { page: 1, limit: 25 }

/** what a page of an event's attendees asks for (GET /dashboard/events/:id/attendees) */
export type AttendeesQuery = { page: number; limit: number; search?: string | undefined }

export const keys = {
  /** the public listing (approved events) */
  events: ['events'] as const,
  event: (id: string) => ['event', id] as const,
  /** the events every one of these criteria finds (search: not live) */
  search: (criteria: { filterType: FilterType; search: string }[]) => ['search', criteria] as const,
  /** a page of the dashboard's event rows (the organizer's events, every event for an admin);
   * without a query: every page cached */
  dashboardEvents: (query?: DashboardQuery) =>
    query ? (['dashboard-events', query] as const) : (['dashboard-events'] as const),
  /** one event's dashboard row (its own page) */
  eventFigures: (eventId: string) => ['event-figures', eventId] as const,
  /** a page of an event's attendees; without a query: every page of that event cached */
  attendees: (eventId: string, query?: AttendeesQuery) =>
    query ? (['attendees', eventId, query] as const) : (['attendees', eventId] as const),
  analytics: (eventId: string) => ['analytics', eventId] as const,
  /** one attendee's tickets to an event (what its organizer may refund); apart from the attendee
   * pages, whose cached queries the live pushes read as pages */
  attendeeTickets: (eventId: string, accountId: string) => ['attendee-tickets', eventId, accountId] as const,
  /** an event's promo codes (its organizer's), and a code's price for one order (the booking screen) */
  promoCodes: (eventId: string) => ['promo-codes', eventId] as const,
  promoPrice: (eventId: string, code: string, ticketType: string, quantity: number) =>
    ['promo-price', eventId, code, ticketType, quantity] as const,
  /** the schedule's sessions: all of them, or one event's */
  sessions: (eventId?: string) => ['sessions', eventId ?? 'all'] as const,
  /** a ticket's screens; a ticket's id is its order's id */
  ticket: (ticketId: string) => ['ticket', ticketId] as const,
  /** a ticket's passes (its QR codes): under the ticket, so a push about it refetches them too */
  passes: (ticketId: string) => ['ticket', ticketId, 'passes'] as const,
  /** what a check-in screen works from offline (kept in IndexedDB as well) */
  checkinManifest: (eventId: string) => ['checkin-manifest', eventId] as const,
  /** an event's admissions per ticket type and minute, and its double entries (pushed live) */
  checkinSummary: (eventId: string) => ['checkin-summary', eventId] as const,
  /** the accounts that may scan an event's passes */
  doorStaff: (eventId: string) => ['door-staff', eventId] as const,
  /** the signed-in account with its tickets */
  myTickets: ['my-tickets'] as const,
  /** the caller's places on waiting lists and their offers (issue 17) */
  myWaitlist: ['my-waitlist'] as const,
  profile: ['profile'] as const,
  accounts: ['accounts'] as const,
  inquiries: ['inquiries'] as const,
  site: ['site'] as const,
  /** an event's seat map (issue 40), its seats' statuses pushed live (live/follow.ts) */
  seatMap: (eventId: string) => ['seatmap', eventId] as const,
  /** who holds one seat (the organizer's map), as of the seat's status shown */
  seatHolder: (eventId: string, seatId: string, status: string) =>
    ['seat-holder', eventId, seatId, status] as const,
  /** an event's sale time and waiting room (issue 41) */
  onSale: (eventId: string) => ['onsale', eventId] as const,
  /** the caller's place in an event's waiting room, pushed live as the message `queue` */
  queuePlace: (eventId: string) => ['queue-place', eventId] as const,
  /** the organizer's figures of an event's waiting room, pushed live as `queue-stats` */
  queueStats: (eventId: string) => ['queue-stats', eventId] as const,
}
