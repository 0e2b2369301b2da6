// The dashboards at scale (organizer's and admin's): one compact row of figures per event, paged,
// and one event's attendees, paged and searchable. Answered from read models shaped for them, in
// time that follows the page, not the number of events or attendees. These routes are additions
// to API.md's contract; the original client's routes answer as before.
import * as v from 'valibot'
import { ApprovalStatus } from './catalog.ts'
import { PathParams } from './common.ts'

/** a whole number from a query string, within bounds, or the default when absent */
const pageNumber = (fallback: number, max: number, message: string) =>
  v.optional(
    v.pipe(
      v.string(message),
      v.regex(/^\d{1,6}$/, message),
      v.transform(Number),
      v.minValue(1, message),
      v.maxValue(max, message),
    ),
    String(fallback),
  )

export const MAX_PAGE_SIZE = 100

export const DashboardEventsQuery = v.object({
  page: pageNumber(1, 100_000, 'Page must be a whole number from 1.'),
  limit: pageNumber(25, MAX_PAGE_SIZE, `Limit must be a whole number from 1 to ${MAX_PAGE_SIZE}.`),
  /** only the events of this status (the admin's review queue: Pending) */
  status: v.optional(
    v.picklist(['Pending', 'Approved', 'Rejected'], 'Status must be Pending, Approved or Rejected.'),
  ),
  /** words of the title (a plain substring, case-insensitive) */
  search: v.optional(v.pipe(v.string(), v.trim(), v.maxLength(200, 'The search term is too long.'))),
})
export type DashboardEventsQuery = v.InferOutput<typeof DashboardEventsQuery>

/** One event as a dashboard row: what it is and how its sale stands. Money in rupees. */
export const EventFigures = v.object({
  _id: v.string(),
  organizerId: v.string(),
  title: v.string(),
  description: v.string(),
  category: v.string(),
  location: v.string(),
  date: v.string(),
  time: v.string(),
  approvalStatus: ApprovalStatus,
  reviewReason: v.nullable(v.string()),
  /** when the event was called off (issue 17), or null */
  cancelledAt: v.nullable(v.string()),
  /** the event's version (an admin's review sends it as If-Match) */
  version: v.number(),
  /** seats the organizer set, over all ticket types */
  capacity: v.number(),
  /** tickets sold and not cancelled */
  sold: v.number(),
  /** seats on sale now (capacity − sold − held) */
  available: v.number(),
  /** completed payments less refunds, in rupees */
  revenue: v.number(),
  /** people holding a valid ticket */
  attendees: v.number(),
  Pending: v.number(),
  Completed: v.number(),
  Failed: v.number(),
  /** the ledger position these figures are as of: a push below what is shown is ignored */
  position: v.number(),
})
export type EventFigures = v.InferOutput<typeof EventFigures>

export const DashboardTotals = v.object({ events: v.number(), sold: v.number(), revenue: v.number() })
export type DashboardTotals = v.InferOutput<typeof DashboardTotals>

export const DashboardEventsPage = v.object({
  events: v.array(EventFigures),
  /** events matching the query, over all pages */
  total: v.number(),
  page: v.number(),
  limit: v.number(),
  /** the caller's whole account (organizer) or the whole site (admin), whatever the query */
  totals: DashboardTotals,
})
export type DashboardEventsPage = v.InferOutput<typeof DashboardEventsPage>

export const DashboardEventParams = PathParams({
  eventId: v.pipe(v.string(), v.regex(/^[a-zA-Z0-9_-]{1,64}$/, 'Event not found.')),
})

export const AttendeesQuery = v.object({
  page: pageNumber(1, 100_000, 'Page must be a whole number from 1.'),
  limit: pageNumber(50, MAX_PAGE_SIZE, `Limit must be a whole number from 1 to ${MAX_PAGE_SIZE}.`),
  /** part of a name or e-mail, case-insensitive */
  search: v.optional(v.pipe(v.string(), v.trim(), v.maxLength(200, 'The search term is too long.'))),
})

/** One person attending an event: their valid tickets to it (seats, over all their orders). */
export const AttendeeRow = v.object({
  _id: v.string(),
  username: v.string(),
  email: v.string(),
  tickets: v.number(),
})
export type AttendeeRow = v.InferOutput<typeof AttendeeRow>

export const AttendeesPage = v.object({
  attendees: v.array(AttendeeRow),
  total: v.number(),
  page: v.number(),
  limit: v.number(),
  position: v.number(),
})
export type AttendeesPage = v.InferOutput<typeof AttendeesPage>
