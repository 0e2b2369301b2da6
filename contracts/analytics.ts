// Organizer tools: sales analytics per event, attendee lists (API.md /ticket/analytics).
import * as v from 'valibot'
import { PathParams } from './common.ts'

export const StatusCounts = v.object({ Pending: v.number(), Completed: v.number(), Failed: v.number() })

export const AnalyticsRow = v.object({
  ticketType: v.string(),
  totalRevenue: v.number(),
  totalTicketsSold: v.number(),
  paymentStatus: v.array(StatusCounts),
})

export const AnalyticsReply = v.object({
  event: v.object({
    _id: v.string(),
    title: v.string(),
    date: v.string(),
    location: v.string(),
    category: v.string(),
    approvalStatus: v.string(),
  }),
  analytics: v.array(AnalyticsRow),
  totals: v.object({
    ticketsSold: v.number(),
    revenue: v.number(),
    attendees: v.number(),
    Pending: v.number(),
    Completed: v.number(),
    Failed: v.number(),
  }),
  /** net tickets and revenue per hour (ISO hour), for the sales-over-time chart */
  timeline: v.array(v.object({ at: v.string(), tickets: v.number(), revenue: v.number() })),
})
export type AnalyticsReply = v.InferOutput<typeof AnalyticsReply>

export const AnalyticsParams = PathParams({
  eventId: v.pipe(v.string(), v.regex(/^[a-zA-Z0-9_-]{1,64}$/, 'Event not found.')),
})

export const Attendee = v.object({
  _id: v.string(),
  ticketId: v.string(),
  username: v.string(),
  email: v.string(),
  phone: v.nullable(v.string()),
  ticketType: v.string(),
  quantity: v.number(),
  paymentStatus: v.string(),
})
export type Attendee = v.InferOutput<typeof Attendee>

export const AttendeesByEvent = v.array(
  v.object({
    _id: v.string(),
    title: v.string(),
    category: v.string(),
    location: v.string(),
    date: v.string(),
    time: v.string(),
    approvalStatus: v.string(),
    /** the admin's reason for the latest approval or rejection, when one was given */
    reviewReason: v.optional(v.nullable(v.string())),
    attendees: v.array(Attendee),
  }),
)
export type AttendeesByEvent = v.InferOutput<typeof AttendeesByEvent>

/**
 * The attendee export's header: SPEC's columns first, in its order, then what each row's admission
 * is: a row per admission (one person let in), so quantity is 1 and amount its share of what the
 * order paid, and summing a column gives the tickets and the money; the order id and "n of N" tie
 * the rows of one order together, as the door's passes do.
 */
export const csvColumns = [
  'eventName',
  'eventCategory',
  'username',
  'email',
  'phone',
  'paymentStatus',
  'ticketType',
  'quantity',
  'amount',
  'orderId',
  'admission',
  /** a seated order's seat for that admission ("Stalls, Row F, Seat 12"); empty otherwise */
  'seat',
] as const
