// Which audience hears of which fact, and what it sees: derived from ledger facts (and the read
// models as of the push), never carrying password hashes, reset tokens or payment secrets.

import type { AttendeeRow, DashboardTotals, EventFigures } from '../../contracts/dashboards.ts'
import {
  type AccountRegisteredPush,
  type AttendeePush,
  type AvailabilityPush,
  CHECKIN_SUMMARY,
  type CheckinSummaryPush,
  type EventStatusPush,
  type FactPush,
  type FiguresPush,
  type HolderNoticePush,
  type InquiryPush,
  isPublicRoom,
  type NoticePush,
  rooms,
  type SaleTimePush,
  SEATS_MESSAGE,
  type SeatsPush,
  type SessionPush,
  type TicketPush,
  type WaitlistPush,
} from '../../contracts/live.ts'
import {
  QUEUE_MESSAGE,
  QUEUE_STATS_MESSAGE,
  type QueuePush,
  type QueueStatsPush,
} from '../../contracts/queue.ts'
import type { SeatChanges } from '../../contracts/seating.ts'
import type { AccountFact } from '../accounts/facts.ts'
import type { BillingFact } from '../billing/facts.ts'
import type { BookingFact } from '../booking/facts.ts'
import type { BookingQueries } from '../booking/queries.ts'
import type { CatalogFact } from '../catalog/facts.ts'
import type { CatalogQueries } from '../catalog/queries.ts'
import { streams } from '../ids.ts'
import type { IntegrationFact } from '../integrations/facts.ts'
import { typedFact } from '../ledger/decider.ts'
import type { StoredFact } from '../ledger/ledger.ts'
import { type LinePlace, placeOf, type Room, statsOf } from '../queue/decide.ts'
import type { QueueFact } from '../queue/facts.ts'
import type { QueueQueries } from '../queue/queries.ts'
import type { ScheduleFact } from '../schedule/facts.ts'
import type { SeatingQueries } from '../seating/queries.ts'
import type { SupportFact } from '../support/facts.ts'
import type { WaitlistFact } from '../waitlist/facts.ts'

export type KnownFact =
  | AccountFact
  | CatalogFact
  | BookingFact
  | ScheduleFact
  | SupportFact
  | WaitlistFact
  | QueueFact
  | BillingFact
  | IntegrationFact

/**
 * One audience's message: its data is one of the shapes of contracts/live.ts's FactPush; `type` when
 * it is not the fact's own (a check-in summary's push is `checkin-summary`).
 */
export type Push = {
  room: string
  /** a seat map's changes go to its room as the message `seats` (SeatsPush), the rest as facts */
  data: FactPush['data'] | SeatsPush | QueuePush | QueueStatsPush
  type?: string
  /** the message this one is the public copy of: a socket that hears that one is not sent this */
  copyOf?: FactPush['data']
}

/**
 * The stream a message names. In a private room, the fact's own. A message to any public room
 * (isPublicRoom) names an event's or a session's stream only, the public things it reports on: an
 * order's facts (and a waiting list's) reach an event's room as its seats on sale, named by the
 * event, since an order's stream name is the order's id, which a visitor must not learn.
 */
export function streamShown(stream: string, data: FactPush['data'], audience: readonly string[]): string {
  if (!audience.some(isPublicRoom)) return stream
  if (stream.startsWith(streams.event('')) || stream.startsWith(streams.session(''))) return stream
  // every message to a public room is about one event
  return 'eventId' in data ? streams.event(data.eventId) : ''
}

/**
 * One message to these rooms, and to the public rooms among them the same without the account
 * behind it (an event's status: its organizer's id stays in the organizer's and the admins' rooms).
 * A socket in both (an organizer watching its event's page) hears the full one only.
 */
function withPublicCopy(audience: string[], data: EventStatusPush): Push[] {
  const { organizerId: _, ...publicData } = data
  return audience.map((room) =>
    isPublicRoom(room) ? { room, data: publicData, copyOf: data } : { room, data },
  )
}

/** The door's reads (the check-in area's, handed in by the composition root). */
export type CheckinReads = {
  /** an event's check-in summary now (GET /checkin/{eventId}/summary's shape) */
  summary: (eventId: string) => Promise<CheckinSummaryPush>
}

/**
 * An event's check-in summary is due for these rooms as of this fact (socket.ts gathers them: at
 * most one summary per event and interval, as of the latest fact).
 */
export type CheckinDue = (eventId: string, audience: string[], fact: StoredFact) => void | Promise<void>

/** the rooms that follow an event's door: its organizer's, the admins', its attendee list's */
export const checkinAudience = (eventId: string, organizerId: string) => [
  rooms.organizer(organizerId),
  rooms.admins,
  rooms.attendees(eventId),
]

/** which places a line's push carries: everyone in line, only those still waiting, or none (the figures alone) */
export type LinePlaces = 'everyone' | 'waiting' | 'none'

/**
 * A waiting room's news is due for this process's sockets (socket.ts gathers it): 'places', everyone
 * behind an admission moved; 'figures', only the organizer's figures (a join); 'now', everyone at
 * once (the opening, a pause or resumption, a new rate, the close).
 */
export type LineDue = (eventId: string, what: 'places' | 'figures' | 'now') => void

/** The dashboards' reads (the analytics area's, handed in by the composition root). */
export type DashboardReads = {
  /** an event's dashboard row as of this position, or null when the event is gone */
  figures: (eventId: string, position: number) => Promise<EventFigures | null>
  /** one person's attendance of an event as the attendee list shows it (tickets 0: gone) */
  attendee: (eventId: string, accountId: string) => Promise<AttendeeRow | null>
  /** an organizer's totals, or the site's (null), as the dashboards' pages carry them */
  totals?: (organizerId: string | null) => Promise<DashboardTotals>
}

/**
 * An event's dashboard row is due for these rooms (none: only its attendee list is watched) as of
 * this fact, and these people's attendance of it for the event's attendee-list room (socket.ts
 * gathers them: one row and one list of people per event and interval).
 */
export type FiguresDue = (
  eventId: string,
  audience: string[],
  fact: StoredFact,
  people: string[],
  /** the fact is an order's: only sales moved the row (its status, title and date did not) */
  sales: boolean,
) => void | Promise<void>

/** the dashboards' pushes of one event: its row (when `withRow`), and the people whose attendance
 * moved */
export async function dashboardPushes(
  dashboards: DashboardReads,
  eventId: string,
  position: number,
  people: Iterable<string>,
  withRow = true,
): Promise<{ figures: FiguresPush | null; attendees: AttendeePush | null }> {
  const row = withRow ? await dashboards.figures(eventId, position) : null
  const rows: AttendeeRow[] = []
  for (const id of people) {
    const attendee = await dashboards.attendee(eventId, id)
    if (attendee) rows.push(attendee)
  }
  return {
    figures: row ? { eventId, figures: row } : null,
    attendees: rows.length > 0 ? { eventId, attendees: rows } : null,
  }
}

/**
 * Whether a ticket type's seats on sale go to its event's room with this fact. A caller that says
 * no sends them later itself, as of its latest fact (socket.ts: at most one count per interval).
 */
export type AvailabilityNow = (ticketTypeId: string, eventId: string, fact: StoredFact) => boolean

/** a ticket type's seats on sale as its event's room hears them, or null when it is gone */
export async function availabilityOf(
  reads: { booking: Pick<BookingQueries, 'available'>; catalog: Pick<CatalogQueries, 'ticketType'> },
  ticketTypeId: string,
): Promise<AvailabilityPush | null> {
  const ticketType = await reads.catalog.ticketType(ticketTypeId)
  if (!ticketType) return null
  return { eventId: ticketType.eventId, ticketTypeId, available: await reads.booking.available(ticketType) }
}

export function createPushes(
  reads: {
    booking: BookingQueries
    catalog: CatalogQueries
    dashboards: DashboardReads
    checkin?: CheckinReads
    seating?: Pick<SeatingQueries, 'lastOfOrder'>
    queue?: Pick<QueueQueries, 'room' | 'place' | 'placesFrom' | 'placesIn' | 'inCheckout' | 'sold'>
  },
  options: {
    /** whether a room has anyone in it here: the dashboards' rows and the seats left are read only
     * for a listener */
    listening?: (room: string) => boolean
    /** where the rows go: by default read and pushed with the fact itself */
    figuresDue?: FiguresDue
    /** where the check-in summaries go: by default read and pushed with the fact itself */
    checkinDue?: CheckinDue
    /** whether a ticket type's seats on sale go with this fact (by default, always); when not, the
     * caller has gathered them and sends them later, as of its latest fact (socket.ts) */
    availabilityNow?: AvailabilityNow
    /** where a waiting room's places and figures go: by default read and pushed with each fact;
     * when given, each fact's own news goes at once (a joiner's place, the admitted's admission)
     * and the rest is gathered by the caller, who asks lineNow for it (socket.ts) */
    lineDue?: LineDue
  } = {},
) {
  const { booking, catalog: events, dashboards } = reads
  const listening = options.listening ?? (() => true)
  const watched = (organizerId: string) => listening(rooms.organizer(organizerId)) || listening(rooms.admins)
  /** the rows read with each fact being pushed (by default), keyed by the fact: pushesOf may be
   * called again before an earlier call is done */
  const current = new Map<StoredFact, Push[]>()
  const figuresDue: FiguresDue =
    options.figuresDue ??
    (async (eventId, audience, fact, people) => {
      const due = await dashboardPushes(dashboards, eventId, fact.position, people, audience.length > 0)
      const pushes = current.get(fact)
      if (!pushes) return
      const { figures, attendees } = due
      if (figures) pushes.push(...audience.map((room) => ({ room, data: figures })))
      if (attendees) pushes.push({ room: rooms.attendees(eventId), data: attendees })
    })

  const checkinDue: CheckinDue =
    options.checkinDue ??
    (async (eventId, audience, fact) => {
      if (!reads.checkin) return
      const data = await reads.checkin.summary(eventId)
      current.get(fact)?.push(...audience.map((room) => ({ room, data, type: CHECKIN_SUMMARY })))
    })
  /** each event's organizer (it never changes), so a scan costs no event read once one is known */
  const organizers = new Map<string, string>()
  const organizerOf = async (eventId: string): Promise<string | null> => {
    const known = organizers.get(eventId)
    if (known) return known
    const organizerId = (await events.byId(eventId))?.organizerId ?? null
    if (organizerId) {
      if (organizers.size >= 10_000) organizers.clear()
      organizers.set(eventId, organizerId)
    }
    return organizerId
  }
  /** a scan's fact: the event's check-in summary, due to whoever follows its door here */
  const atTheDoor = async (eventId: string, fact: StoredFact): Promise<Push[]> => {
    if (!reads.checkin) return []
    const organizerId = await organizerOf(eventId)
    if (!organizerId) return []
    const audience = checkinAudience(eventId, organizerId).filter(listening)
    if (audience.length > 0) await checkinDue(eventId, audience, fact)
    return []
  }

  /**
   * The event's dashboard row, due to its organizer and the admins when one of them is connected,
   * and these people's attendance, due to whoever has the event's attendee list open (a dashboard of
   * a thousand events shows none of them until a row is opened: nobody is sent every buyer).
   */
  const figures = async (
    eventId: string,
    organizerId: string,
    fact: StoredFact,
    people: string[] = [],
    sales = false,
  ): Promise<Push[]> => {
    const rowsWatched = watched(organizerId)
    const listWatched = people.length > 0 && listening(rooms.attendees(eventId))
    if (rowsWatched || listWatched)
      await figuresDue(
        eventId,
        rowsWatched ? [rooms.organizer(organizerId), rooms.admins] : [],
        fact,
        listWatched ? people : [],
        sales,
      )
    return []
  }

  /** a ticket type's seats on sale for its event's room, read only when someone here watches it
   * and only when they go with this fact */
  const availability = async (ticketTypeId: string, eventId: string, fact: StoredFact): Promise<Push[]> => {
    if (!listening(rooms.event(eventId))) return []
    if (options.availabilityNow && !options.availabilityNow(ticketTypeId, eventId, fact)) return []
    const data = await availabilityOf(reads, ticketTypeId)
    return data ? [{ room: rooms.event(data.eventId), data }] : []
  }

  /**
   * The order's availability, and its state for its owner (or buyer). Its organizer and the admins
   * follow it on their dashboards (the event's row and attendees, gathered), not order by order.
   * The order is read once for both.
   */
  const orderChanged = async (
    orderId: string,
    fact: StoredFact,
    /** whose attendance moved (the dashboards' lists); who else is told of the order's state */
    { attending = [], extraAccounts = [] }: { attending?: string[]; extraAccounts?: string[] } = {},
  ): Promise<Push[]> => {
    const order = await booking.byId(orderId)
    if (!order) return []
    // on the dashboards: its event's row, and the people whose attendance moved
    await figures(order.eventId, order.organizerId, fact, attending, true)
    const data: TicketPush = {
      orderId,
      eventId: order.eventId,
      status: order.status,
      paymentStatus: order.paymentStatus,
    }
    const people = new Set([order.ownerId ?? order.buyerId, ...extraAccounts])
    return [
      ...(await availability(order.ticketTypeId, order.eventId, fact)),
      ...(await seatsMoved(orderId, order.eventId)),
      ...[...people].map((id) => ({ room: rooms.user(id), data })),
      ...(await saleFigures(order.eventId, order.organizerId)),
    ]
  }

  /**
   * A sale with a waiting room: its figures (in checkout, sold) move with each hold, payment,
   * lapse and cancellation, told to its organizer and the admins when they watch (gathered with the
   * line's, at most once a second, where the caller gathers them).
   */
  const saleFigures = async (eventId: string, organizerId: string): Promise<Push[]> => {
    const queue = reads.queue
    if (!queue || !watched(organizerId)) return []
    const room = await queue.room(eventId)
    if (!room?.waitingRoom) return []
    if (options.lineDue) {
      options.lineDue(eventId, 'figures')
      return []
    }
    return statsPushes(room, new Date().toISOString(), false)
  }

  /** the seats an order's fact moved, as they are now, for whoever shows the event's map here */
  const seatsMoved = async (orderId: string, eventId: string): Promise<Push[]> => {
    if (!reads.seating || !listening(rooms.seats(eventId))) return []
    const seats = await reads.seating.lastOfOrder(orderId)
    if (seats.length === 0) return []
    const data: SeatsPush = { eventId, changes: seats.map((s) => ({ id: s.id, status: s.status })) }
    return [{ room: rooms.seats(eventId), type: SEATS_MESSAGE, data }]
  }

  /**
   * A line's checkouts in progress and tickets sold, for its organizer's figures. A join changes
   * neither: thousands of joins in an on-sale's first seconds reuse the counts read in the last
   * second instead of counting the line again each (each count reads the line's admitted places).
   */
  const counts = new Map<string, { at: number; inCheckout: number; sold: number }>()
  const countsOf = async (
    queue: Pick<QueueQueries, 'inCheckout' | 'sold'>,
    eventId: string,
    now: string,
    joinOnly: boolean,
  ) => {
    const kept = counts.get(eventId)
    if (joinOnly && kept && Date.parse(now) - kept.at < 1000) return kept
    const [inCheckout, sold] = await Promise.all([queue.inCheckout(eventId, now), queue.sold(eventId)])
    if (counts.size >= 10_000) counts.clear()
    const fresh = { at: Date.parse(now), inCheckout, sold }
    counts.set(eventId, fresh)
    return fresh
  }

  /** whether a closed room's event was called off: then everyone in its line hears it closed */
  const calledOff = async (room: Room) =>
    room.closedAt !== null && (await reads.catalog.cancelled(room.eventId))

  /** each of these places, to its person where they are connected here */
  const placePushes = (room: Room, places: LinePlace[], now: string, calledOff = false): Push[] => {
    const pushes: Push[] = []
    for (const place of places) {
      const to = rooms.user(place.accountId)
      if (listening(to))
        pushes.push({
          room: to,
          type: QUEUE_MESSAGE,
          data: { eventId: room.eventId, ...placeOf(room, place, now, calledOff) },
        })
    }
    return pushes
  }

  /** the sale's figures, to its organizer and the admins where connected here */
  const statsPushes = async (room: Room, now: string, joinOnly: boolean): Promise<Push[]> => {
    const queue = reads.queue
    const audience = [rooms.organizer(room.organizerId), rooms.admins].filter(listening)
    if (!queue || audience.length === 0) return []
    const { inCheckout, sold } = await countsOf(queue, room.eventId, now, joinOnly)
    const data: QueueStatsPush = { eventId: room.eventId, ...statsOf(room, { inCheckout, sold }, now) }
    return audience.map((to) => ({ room: to, type: QUEUE_STATS_MESSAGE, data }))
  }

  /**
   * A line as it stands now: the places of `places` (everyone in it, only those not yet admitted,
   * or none) and the sale's figures. The room is read before the places: a place is never shown
   * against a line newer than the place's own row.
   */
  const lineNow = async (eventId: string, places: LinePlaces): Promise<Push[]> => {
    const queue = reads.queue
    if (!queue) return []
    const room = await queue.room(eventId)
    if (!room) return []
    const now = new Date().toISOString()
    const moved =
      places === 'none'
        ? []
        : await queue.placesFrom(eventId, places === 'everyone' ? 1 : room.admittedThrough + 1)
    return [...placePushes(room, moved, now, await calledOff(room)), ...(await statsPushes(room, now, false))]
  }

  /**
   * A waiting room's fact: each person whose place or state it moves hears theirs (on their private
   * room, where they are connected here), and the organizer and the admins the sale's figures.
   * With lineDue, a join's place and an admission go at once and the places of everyone behind and
   * the figures are gathered (at most one of each a second); the rarer facts (the opening, a pause,
   * the close) are due at once.
   */
  const lineMoved = async (fact: StoredFact<QueueFact>): Promise<Push[]> => {
    const queue = reads.queue
    if (!queue) return []
    const { eventId } = fact.data
    const lineDue = options.lineDue
    if (lineDue) {
      if (fact.type === 'QueueJoined' || fact.type === 'QueueAdmitted') {
        const room = await queue.room(eventId)
        if (!room) return []
        let own: LinePlace[] = []
        if (fact.type === 'QueueJoined') {
          const place = listening(rooms.user(fact.data.accountId))
            ? await queue.place(eventId, fact.data.accountId)
            : undefined
          if (place) own = [place]
        } else own = await queue.placesIn(eventId, fact.data.from, fact.data.through)
        lineDue(eventId, fact.type === 'QueueJoined' ? 'figures' : 'places')
        return placePushes(room, own, new Date().toISOString())
      }
      lineDue(eventId, 'now')
      return []
    }
    const room = await queue.room(eventId)
    if (!room) return []
    const now = new Date().toISOString()
    let moved: LinePlace[] = []
    if (fact.type === 'QueueJoined') {
      // the one who joined, when connected here
      const place = listening(rooms.user(fact.data.accountId))
        ? await queue.place(eventId, fact.data.accountId)
        : undefined
      if (place) moved = [place]
    } else if (fact.type === 'QueueAdmitted') moved = await queue.placesFrom(eventId, fact.data.from)
    else moved = await queue.placesFrom(eventId, 1)
    return [
      ...placePushes(room, moved, now, await calledOff(room)),
      ...(await statsPushes(room, now, fact.type === 'QueueJoined')),
    ]
  }

  return Object.assign(pushesOf, { lineNow })

  async function pushesOf(stored: StoredFact): Promise<Push[]> {
    const due: Push[] = []
    current.set(stored, due)
    try {
      const pushes = await pushesOfFact(stored)
      return [...pushes, ...due]
    } finally {
      current.delete(stored)
    }
  }

  async function pushesOfFact(stored: StoredFact): Promise<Push[]> {
    const fact = typedFact<KnownFact>(stored)
    switch (fact.type) {
      case 'AccountRegistered': {
        const { accountId, username, email, role } = fact.data
        const data: AccountRegisteredPush = { accountId, username, email, role }
        return [{ room: rooms.admins, data }]
      }
      case 'PasswordResetRequested':
      case 'PasswordReset':
        return []
      case 'EventSubmitted': {
        const { eventId, organizerId, title } = fact.data
        const data: EventStatusPush = { eventId, organizerId, title, approvalStatus: 'Pending' }
        return [
          ...[rooms.admins, rooms.organizer(organizerId)].map((room) => ({ room, data })),
          ...(await figures(eventId, organizerId, stored)),
        ]
      }
      case 'EventApproved':
      case 'EventRejected': {
        const { eventId, organizerId } = fact.data
        const approvalStatus = fact.type === 'EventApproved' ? 'Approved' : 'Rejected'
        const data: EventStatusPush = { eventId, organizerId, approvalStatus }
        // The public hears of an event when it is approved, and when an approved one is withdrawn;
        // a rejection of an event that was never public stays between its organizer and admins.
        const wasPublic = fact.type === 'EventApproved' || fact.data.wasApproved === true
        const audience = [rooms.admins, rooms.organizer(organizerId)]
        if (wasPublic) audience.push(rooms.event(eventId), rooms.listing)
        return [...withPublicCopy(audience, data), ...(await figures(eventId, organizerId, stored))]
      }
      case 'TicketsHeld':
      case 'PaymentFailed':
      case 'HoldExpired':
        return orderChanged(fact.data.orderId, stored)
      case 'TicketsIssued':
      case 'TicketCancelled': {
        const pushes = [
          ...(await orderChanged(fact.data.orderId, stored, { attending: [fact.data.ownerId] })),
        ]
        // a ticket cancelled with its event: its holder is told, by this very fact (not by a list of
        // holders read later, which the cancellation may have emptied meanwhile)
        if (fact.type === 'TicketCancelled' && fact.data.eventCancelled) {
          const event = await events.byId(fact.data.eventId)
          if (event) {
            const notice: HolderNoticePush = {
              eventId: event.id,
              eventTitle: event.title,
              change: 'cancelled',
              date: event.date,
              time: event.time,
              location: event.location,
              reason: fact.data.eventCancelled.reason,
            }
            pushes.push({ room: rooms.user(fact.data.ownerId), data: notice })
          }
        }
        return pushes
      }
      case 'TicketTransferred': {
        const { orderId, fromId, toId } = fact.data
        return orderChanged(orderId, stored, { attending: [fromId, toId], extraAccounts: [fromId] })
      }
      // a refund asked for comes with its cancel (pushed above); one paid out later is news to the
      // ticket's holder alone (the seats and figures did not move)
      case 'PaymentCaptured':
      case 'RefundRequested':
        return []
      case 'PaymentRefunded': {
        const order = await booking.byId(fact.data.orderId)
        if (!order) return []
        const data: TicketPush = {
          orderId: order.id,
          eventId: order.eventId,
          status: order.status,
          paymentStatus: order.paymentStatus,
        }
        return [{ room: rooms.user(order.ownerId ?? order.buyerId), data }]
      }
      case 'SessionScheduled': {
        const { sessionId, eventId, sessionTitle, startTime, endTime } = fact.data
        const data: SessionPush = { sessionId, eventId, sessionTitle, startTime, endTime }
        // The public schedule shows approved events only; until then its organizer alone hears.
        const event = await events.byId(eventId)
        if (event?.approvalStatus !== 'Approved')
          return [{ room: rooms.organizer(fact.data.organizerId), data }]
        return [rooms.schedule, rooms.event(eventId), rooms.organizer(fact.data.organizerId)].map((room) => ({
          room,
          data,
        }))
      }
      case 'ScheduleNoticePosted': {
        const { noticeId, eventId, startTime, endTime } = fact.data
        const data: NoticePush = {
          noticeId,
          eventId,
          eventTitle: (await events.byId(eventId))?.title ?? '',
          startTime,
          endTime,
        }
        return (await booking.attendeeIds(eventId)).map((id) => ({ room: rooms.user(id), data }))
      }
      case 'InquiryOpened': {
        const { inquiryId, userId, subject } = fact.data
        const data: InquiryPush = { inquiryId, userId, subject, status: 'Pending' }
        return [{ room: rooms.admins, data }]
      }
      case 'InquiryAnswered': {
        const { inquiryId, userId } = fact.data
        const data: InquiryPush = { inquiryId, userId, status: 'Replied' }
        return [rooms.admins, rooms.user(userId)].map((room) => ({ room, data }))
      }
      case 'PassAdmitted':
      case 'PassScanRefused':
        return atTheDoor(fact.data.eventId, stored)
      case 'DoorStaffAdded':
      case 'DoorStaffInvited':
      case 'DoorStaffAccepted':
      case 'DoorStaffRemoved':
      case 'PromoCodeCreated':
      case 'PromoCodeDisabled':
        return []
      case 'WaitlistJoined':
      case 'WaitlistLeft':
      case 'WaitlistOffered':
      case 'WaitlistOfferLapsed':
      case 'WaitlistServed': {
        // the ticket type's seats on sale (offers hold some), and a nudge to pages showing places
        const { eventId, ticketTypeId } = fact.data
        const data: WaitlistPush = { eventId, ticketTypeId }
        const pushes: Push[] = [
          ...(await availability(ticketTypeId, eventId, stored)),
          { room: rooms.event(eventId), data },
        ]
        if (fact.type === 'WaitlistOffered') {
          const [event, type] = await Promise.all([events.byId(eventId), events.ticketType(ticketTypeId)])
          const offer = {
            eventTitle: event?.title ?? '',
            ticketType: type?.type ?? '',
            quantity: fact.data.quantity,
            offerUntil: fact.data.offerUntil,
          }
          pushes.push({ room: rooms.user(fact.data.accountId), data: { ...data, offer } })
        }
        return pushes
      }
      case 'OnSaleSet': {
        // the event's page shows the sale's time: read again by whoever has it open
        const { eventId } = fact.data
        const data: SaleTimePush = { eventId }
        return [
          ...(await lineMoved(stored as StoredFact<QueueFact>)),
          ...(listening(rooms.event(eventId)) ? [{ room: rooms.event(eventId), data }] : []),
        ]
      }
      case 'QueueJoined':
      case 'QueueOpened':
      case 'QueueAdmitted':
      case 'QueuePaused':
      case 'QueueResumed':
      case 'QueueClosed':
        return lineMoved(stored as StoredFact<QueueFact>)
      // an organizer's own settings, the platform's fee (read by each checkout), and documents
      // fetched when asked for: nobody watches them live
      case 'BillingProfileSet':
      case 'BookingFeeSet':
      case 'InvoiceIssued':
      case 'CreditNoteIssued':
      case 'ApiTokenCreated':
      case 'ApiTokenRevoked':
      case 'WebhookEndpointAdded':
      case 'WebhookEndpointRemoved':
      case 'WebhookQueued':
      case 'WebhookDelivered':
      case 'WebhookAttemptFailed':
      case 'WebhookEndpointDisabled':
      case 'WebhookEndpointTurnedOn':
      case 'WebhookRetryAsked':
        return []
      case 'SeatMapPlaced':
      case 'EventEdited':
      case 'EventCancelled': {
        // The event's page, the listing (when it is public) and the dashboards show it as it is
        // now; its holders hear of a new date, time or place, or of its cancellation, in person.
        const { eventId, organizerId } = fact.data
        const event = await events.byId(eventId)
        if (!event) return []
        const data: EventStatusPush = { eventId, organizerId, approvalStatus: event.approvalStatus }
        const audience = [rooms.admins, rooms.organizer(organizerId)]
        const isPublic = event.approvalStatus === 'Approved'
        if (isPublic) audience.push(rooms.event(eventId), rooms.listing)
        const pushes: Push[] = [
          ...withPublicCopy(audience, data),
          ...(await figures(eventId, organizerId, stored)),
        ]
        // a move is told here; a cancellation with each ticket it cancels (TicketCancelled)
        // a new plan: the seats it added, blocked or freed, those it removed, and its version, at
        // which whoever shows the map reads it again
        if (fact.type === 'SeatMapPlaced') {
          const { changes = [], removed, version } = fact.data
          const data: SeatChanges = { eventId, changes, version, ...(removed ? { removed } : {}) }
          pushes.push({ room: rooms.seats(eventId), type: SEATS_MESSAGE, data })
        }
        if (isPublic && fact.type === 'EventEdited' && fact.data.moved !== undefined) {
          const notice: HolderNoticePush = {
            eventId,
            eventTitle: event.title,
            change: 'moved',
            date: event.date,
            time: event.time,
            location: event.location,
          }
          for (const id of await booking.attendeeIds(eventId))
            pushes.push({ room: rooms.user(id), data: notice })
        }
        return pushes
      }
      default:
        return (fact satisfies never) && []
    }
  }
}
