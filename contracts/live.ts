// Socket messages. Rooms are named like streams (kind-id), so one string names the stream, its
// jobs and its audience. A visitor may watch public rooms only; private rooms are joined by the
// server from the account in the handshake token.
export const rooms = {
  /** everyone looking at the public listing */
  listing: 'events',
  event: (eventId: string) => `event-${eventId}`,
  user: (accountId: string) => `user-${accountId}`,
  organizer: (accountId: string) => `organizer-${accountId}`,
  admins: 'admins',
  /** everyone looking at the schedule calendar */
  schedule: 'schedule',
}

/** Rooms anyone may ask to watch: the listing and single events. `event:{id}` is accepted too. */
export function publicRoom(requested: unknown): string | null {
  if (typeof requested !== 'string') return null
  if (requested === rooms.listing || requested === rooms.schedule) return requested
  const match = /^event[-:]([a-zA-Z0-9_-]{1,64})$/.exec(requested)
  return match?.[1] ? rooms.event(match[1]) : null
}

/** Every push: the fact's type and position, and what the audience may see of it. */
export type LivePush<Data = Record<string, unknown>> = {
  position: number
  type: string
  stream: string
  at: string
  data: Data
}

export const liveEvents = { push: 'fact', watch: 'watch', unwatch: 'unwatch' } as const

/** EventSubmitted, EventApproved, EventRejected: who sees it refetches what it shows. */
export type EventStatusPush = { eventId: string; organizerId: string; approvalStatus: string; title?: string }

/** Every hold, sale, release, cancel: the ticket type's availability as of this push. */
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

/** InquiryOpened (admins) and InquiryAnswered (admins and the asker). */
export type InquiryPush = {
  inquiryId: string
  userId: string
  subject?: string
  status: 'Pending' | 'Replied'
}

export type AccountRegisteredPush = { accountId: string; username: string; email: string; role: string }
