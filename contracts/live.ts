// Socket messages. Rooms are named like streams (kind-id), so one string names the stream, its
// jobs and its audience. A visitor may watch public rooms only; private rooms are joined by the
// server from the account in the handshake token.
import type { AttendeeRow, DashboardTotals, EventFigures } from './dashboards.ts'

export const rooms = {
  /** everyone looking at the public listing */
  listing: 'events',
  event: (eventId: string) => `event-${eventId}`,
  /** an event's attendee list, open on a dashboard: its organizer and the admins may watch it */
  attendees: (eventId: string) => `attendees-${eventId}`,
  user: (accountId: string) => `user-${accountId}`,
  organizer: (accountId: string) => `organizer-${accountId}`,
  admins: 'admins',
  /** everyone looking at the schedule calendar */
  schedule: 'schedule',
  /** an event's seat map, open on a page (issue 40): each seat's changes, as they happen */
  seats: (eventId: string) => `seats-${eventId}`,
}

/** the socket message a seat map's room hears (SeatsPush), apart from the facts' pushes */
export const SEATS_MESSAGE = 'seats'

/** the socket messages of a waiting room (issue 41, contracts/queue.ts): a buyer's place on their
 * private room, and the sale's figures on its organizer's and the admins' (here, apart from the
 * room's schemas, so that the web's live connection, loaded with every page, carries none) */
export const QUEUE_MESSAGE = 'queue'
export const QUEUE_STATS_MESSAGE = 'queue-stats'

/**
 * The name of a room a client may ask to watch: the listing, the schedule, single events
 * (`event:{id}` is accepted too) and an event's attendee list. The server still refuses the room
 * of an event that does not exist or that the asker may not see, and an attendee list to anyone
 * but the event's organizer and the admins (server/live/watch.ts).
 */
export function publicRoom(requested: unknown): string | null {
  if (typeof requested !== 'string') return null
  if (requested === rooms.listing || requested === rooms.schedule) return requested
  const eventId = eventOfRoom(requested)
  if (eventId) return rooms.event(eventId)
  const seatsOf = seatsOfRoom(requested)
  if (seatsOf) return rooms.seats(seatsOf)
  const listOf = attendeesOfRoom(requested)
  return listOf ? rooms.attendees(listOf) : null
}

/** The event whose seat map a room name asks for (`seats-<id>`), or null. */
export function seatsOfRoom(room: string): string | null {
  return /^seats-([a-zA-Z0-9_-]{1,64})$/.exec(room)?.[1] ?? null
}

/** The event whose attendee list a room name asks for (`attendees-<id>`), or null. */
export function attendeesOfRoom(room: string): string | null {
  return /^attendees-([a-zA-Z0-9_-]{1,64})$/.exec(room)?.[1] ?? null
}

/**
 * Whether anyone may watch the room (the listing, the schedule, an approved event's): what goes
 * there names no person and no order (server/live/pushes.ts).
 */
export function isPublicRoom(room: string): boolean {
  return (
    room === rooms.listing ||
    room === rooms.schedule ||
    eventOfRoom(room) !== null ||
    seatsOfRoom(room) !== null
  )
}

/** The event a room name asks for (`event-<id>` or `event:<id>`), or null. */
export function eventOfRoom(room: string): string | null {
  return /^event[-:]([a-zA-Z0-9_-]{1,64})$/.exec(room)?.[1] ?? null
}

/**
 * The answer to `watch`: the room joined, or why not (nothing is joined then). A seat map's room
 * (`seats-<eventId>`) says which version of the map the event has once joined (`seatMap`, null: none
 * yet), an event's room (`event-<id>`) its sale time as saleTimeTag gives it (`saleTime`, null: none
 * set): a page that read either before joining knows whether it changed meanwhile, unpushed to it.
 */
export type WatchAck =
  | { ok: true; room: string; seatMap?: number | null; saleTime?: string | null }
  | { ok: false; message: string }

/**
 * Every push: the fact's type, the ledger position the push is as of (its fact's, or a later one
 * its process had read when it read the push's data; never lower than an earlier push of the same
 * thing from that process), and what the audience may see of it.
 */
export type LivePush<Data = Record<string, unknown>> = {
  position: number
  type: string
  /**
   * The fact's stream. In a public room, an event's or a session's only: a message to one caused by
   * an order (or a waiting list) names the event it is about instead, as an order's stream name is
   * the order's id.
   */
  stream: string
  at: string
  data: Data
}

export const liveEvents = { push: 'fact', watch: 'watch', unwatch: 'unwatch' } as const

/**
 * EventSubmitted, EventApproved, EventRejected, EventEdited, EventCancelled: who sees it refetches
 * what it shows. `organizerId` goes to the organizer's and the admins' rooms only: the public rooms
 * (the event's, the listing) hear of the event, not of the account behind it.
 */
export type EventStatusPush = {
  eventId: string
  organizerId?: string
  approvalStatus: string
  title?: string
}

/** Every hold, sale, release, cancel: the ticket type's availability as of this push's position. A
 * fast sale's facts are gathered: the first goes at once, then at most one count per ticket type
 * every LIVE_FIGURES_EVERY_MS, as of the latest fact. */
export type AvailabilityPush = { eventId: string; ticketTypeId: string; available: number }

/** A change to one order or ticket, for its buyer/owner (user room) and its organizer. */
export type TicketPush = { orderId: string; eventId: string; status: string; paymentStatus: string }

/** SessionScheduled: to the schedule and the event's room. */
export type SessionPush = {
  sessionId: string
  eventId: string
  sessionTitle: string
  startTime: string
  endTime: string
}

/** ScheduleNoticePosted: to each attendee's own room. */
export type NoticePush = {
  noticeId: string
  eventId: string
  eventTitle: string
  startTime: string
  endTime: string
}

/**
 * EventEdited that moved an approved event (its date, time or place), to each holder's own room,
 * and TicketCancelled of a ticket cancelled with its event, to its holder's: what the event is now
 * (issue 17).
 */
export type HolderNoticePush = {
  eventId: string
  eventTitle: string
  change: 'moved' | 'cancelled'
  date: string
  time: string
  location: string
  /** the reason given for a cancellation */
  reason?: string
}

/**
 * A waiting list changed (issue 17): to the event's room (pages showing a place in line fetch it
 * again); WaitlistOffered also to the person offered seats, with the offer.
 */
export type WaitlistPush = {
  eventId: string
  ticketTypeId: string
  offer?: { eventTitle: string; ticketType: string; quantity: number; offerUntil: string }
}

/** InquiryOpened (admins) and InquiryAnswered (admins and the asker). */
export type InquiryPush = {
  inquiryId: string
  userId: string
  subject?: string
  status: 'Pending' | 'Replied'
}

export type AccountRegisteredPush = { accountId: string; username: string; email: string; role: string }

/**
 * An event's dashboard row as of this push (contracts/dashboards.ts EventFigures), to its
 * organizer's room and the admins' on every fact that moves its figures (an order's facts, a
 * review): a dashboard replaces the row it holds when the push's position is newer. `figures`
 * tells it apart from the other pushes of the same fact.
 */
export type FiguresPush = {
  eventId: string
  figures: EventFigures
  /**
   * The receiving dashboard's totals when the row was read (issue 14): the organizer's own to its
   * room, the site's to the admins'. Absent, a page moves its totals by the row's change.
   */
  totals?: DashboardTotals
  /**
   * Only sales moved the row since the last push (no review, edit or cancellation): a page the
   * event is not on keeps its rows (their order and filters do not depend on sales) and takes the
   * totals, instead of being fetched again on every sale.
   */
  salesOnly?: boolean
}

/**
 * The people whose attendance of an event changed (issue, cancel, transfer: both people), to the
 * organizer's room and the admins', gathered like the rows (at most one push per event every
 * LIVE_FIGURES_EVERY_MS): each person's row now, with `tickets: 0` when they no longer attend.
 * `attendees` tells it apart.
 */
export type AttendeePush = { eventId: string; attendees: AttendeeRow[] }

/**
 * An event's check-in figures (issue 16): the shape of GET /checkin/{eventId}/summary, to the
 * event's dashboard rooms (its organizer's and the admins') when a PassAdmitted or PassScanRefused
 * is appended. Not a fact's type: its push is named `checkin-summary`, and its position is that of
 * the latest fact it reflects, so a dashboard keeps the newest one.
 */
export type CheckinSummaryPush = {
  eventId: string
  ticketTypes: { ticketType: string; admitted: number; expected: number }[]
  /** minute: 'YYYY-MM-DDTHH:MM' (UTC) */
  perMinute: { minute: string; admitted: number }[]
  doubleEntries: {
    passId: string
    device: string
    scannedAt: string
    firstDevice: string | null
    firstAdmittedAt: string | null
    holder: string | null
  }[]
}

/** the `type` of a check-in summary's push */
export const CHECKIN_SUMMARY = 'checkin-summary'

/** The facts of an order: each pushes the order's new state (all but a refund paid out, the ticket
 * type's availability too). */
export type OrderFactType =
  | 'TicketsHeld'
  | 'TicketsIssued'
  | 'PaymentFailed'
  | 'HoldExpired'
  | 'TicketCancelled'
  | 'TicketTransferred'
  | 'PaymentRefunded'

/** One member per fact type (distributed over a union of types), so `push.type` narrows `data`. */
type PushOf<Type extends string, Data> = Type extends string ? LivePush<Data> & { type: Type } : never

/**
 * Every push a client can hear, keyed by its fact's type (what server/live/pushes.ts sends for
 * each). An order's fact reaches the event's room as availability and the order's people as its
 * state: `'available' in push.data` tells the two apart.
 */
/**
 * A seat map's changes (issue 40), to its room `seats-<eventId>` as the socket message `seats`: each
 * seat whose status moved, as of the fact. A new plan has its `version` (read the map again: a seat
 * it removed is told by nothing else) and, as changes, the seats it added, blocked or freed. Names no
 * order and no person.
 */
export type SeatsPush = {
  eventId: string
  changes: Array<{ id: string; status: 'free' | 'held' | 'sold' | 'blocked' }>
  version?: number
}

/** OnSaleSet (issue 41), to the event's room: its sale time or waiting room changed (read it again) */
export type SaleTimePush = { eventId: string }

export type FactPush =
  | PushOf<'OnSaleSet', SaleTimePush>
  | PushOf<'AccountRegistered', AccountRegisteredPush>
  | PushOf<'EventSubmitted' | 'EventApproved' | 'EventRejected', EventStatusPush | FiguresPush>
  | PushOf<'EventEdited' | 'EventCancelled', EventStatusPush | FiguresPush | HolderNoticePush>
  | PushOf<'SeatMapPlaced', EventStatusPush | FiguresPush>
  | PushOf<
      'WaitlistJoined' | 'WaitlistLeft' | 'WaitlistOffered' | 'WaitlistOfferLapsed' | 'WaitlistServed',
      WaitlistPush | AvailabilityPush
    >
  | PushOf<OrderFactType, AvailabilityPush | TicketPush | FiguresPush | AttendeePush | HolderNoticePush>
  | PushOf<'SessionScheduled', SessionPush>
  | PushOf<'ScheduleNoticePosted', NoticePush>
  | PushOf<'InquiryOpened' | 'InquiryAnswered', InquiryPush>
  | PushOf<typeof CHECKIN_SUMMARY, CheckinSummaryPush>

/** The handshake refusal when an address has LIVE_CONNECTIONS_PER_ADDRESS sockets open already. */
export const TOO_MANY_CONNECTIONS =
  'Too many live connections from your address; close some tabs and try again.'

/**
 * The handshake refusal when an address has sent LIVE_MESSAGES_PER_ADDRESS messages (handshakes,
 * watches) in its window already, over all its sockets.
 */
export const TOO_MANY_MESSAGES = 'Too many live messages from your address; try again in a few seconds.'

/** A refused handshake's `data` (connect_error's): when the client may try again. */
export type LiveRefusal = { retryAfterMs: number }
