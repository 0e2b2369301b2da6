// The waiting room (issue 41): an event's on-sale time and, optionally, a room in front of its sale.
// Signed-in buyers who arrive before the on-sale time wait in the pre-queue and get a random place
// when it opens (arriving early gives no edge over arriving on time); later arrivals join at the
// back. People are admitted in line order, at a set rate or while checkouts in progress are below a
// target, each admission lasting ADMISSION_MINUTES; while the room is on, only the admitted book.
import * as v from 'valibot'
import { TicketTypeChoice } from './catalog.ts'
import { isInstant } from './common.ts'

export { QUEUE_MESSAGE, QUEUE_STATS_MESSAGE } from './live.ts'

const SaleTime = v.pipe(
  v.string('The on-sale time must be a date and time.'),
  v.isoTimestamp('The on-sale time must be a date and time (ISO 8601, e.g. 2026-12-24T10:00:00Z).'),
  // an offset without its minutes (+05) passes the pattern, not Date: read as no time at all
  v.check(isInstant, 'The on-sale time must be a date and time (ISO 8601, e.g. 2026-12-24T10:00:00Z).'),
)

/** the most ticket types given a sale time of their own */
export const MAX_TYPE_SALE_TIMES = 50

export const OnSaleBody = v.object({
  opensAt: SaleTime,
  waitingRoom: v.boolean('Waiting room must be true or false.'),
  /** people admitted a minute; absent or null (as the room's reply gives it): admitted while
   * checkouts in progress are below the target */
  admitPerMinute: v.optional(
    v.nullable(
      v.pipe(
        v.number('Admissions per minute must be a number.'),
        v.integer('Admissions per minute must be a whole number.'),
        v.minValue(1, 'Admissions per minute must be at least 1.'),
        v.maxValue(100_000, 'Admissions per minute must be 100000 or fewer.'),
      ),
    ),
  ),
  /**
   * ticket types that go on sale later than the event (an early bird, a second release): each named
   * (or by its id) with its own time, at or after the event's; the others open with the event. The
   * list replaces the last one given; absent, it is kept.
   */
  ticketTypes: v.optional(
    v.pipe(
      v.array(
        v.object({ ticketType: TicketTypeChoice, opensAt: SaleTime }),
        'ticketTypes is a list of ticket types with their sale times.',
      ),
      v.maxLength(
        MAX_TYPE_SALE_TIMES,
        `At most ${MAX_TYPE_SALE_TIMES} ticket types may have a sale time of their own.`,
      ),
    ),
  ),
})
export type OnSaleBody = v.InferOutput<typeof OnSaleBody>

/**
 * A sale time's settings as one text (its event's, the room's and each type's own time), the same
 * from the room as from its view: what a live room's join answers (WatchAck.saleTime).
 */
export function saleTimeTag(
  sale: {
    opensAt: string
    waitingRoom: boolean
    admitPerMinute: number | null
    ticketTypes: ReadonlyArray<{ ticketTypeId: string; opensAt: string }>
  } | null,
): string | null {
  if (!sale) return null
  const types = sale.ticketTypes.map((t) => `${t.ticketTypeId}@${t.opensAt}`).sort()
  return [sale.opensAt, sale.waitingRoom, sale.admitPerMinute ?? '', ...types].join(' ')
}

export const OnSaleView = v.object({
  opensAt: v.string(),
  waitingRoom: v.boolean(),
  /** null: admitted while checkouts in progress are below the target */
  admitPerMinute: v.nullable(v.number()),
  /** the ticket types with a sale time of their own (by name), in the event's order */
  ticketTypes: v.array(v.object({ ticketType: v.string(), ticketTypeId: v.string(), opensAt: v.string() })),
})
export type OnSaleView = v.InferOutput<typeof OnSaleView>
export const OnSaleReply = v.object({ message: v.string(), onsale: OnSaleView })

export const QueueStates = ['pre-queue', 'waiting', 'admitted', 'expired', 'closed'] as const
export type QueueState = (typeof QueueStates)[number]

/** one account's place (POST /event/{id}/queue, GET /event/{id}/queue/me, the live message `queue`) */
export const QueuePlace = v.object({
  state: v.picklist(QueueStates),
  /** while waiting: 1 is next */
  position: v.optional(v.number()),
  ahead: v.optional(v.number()),
  /** while waiting: the estimated wait, when a rate is known */
  etaSeconds: v.optional(v.number()),
  /** while waiting in a line its organizer paused (no wait is estimated then) */
  paused: v.optional(v.literal(true)),
  /** while admitted: until when a checkout may start (ISO) */
  admissionExpiresAt: v.optional(v.string()),
})
export type QueuePlace = v.InferOutput<typeof QueuePlace>
/** the live message: the place, and the event it is for */
export type QueuePush = QueuePlace & { eventId: string }

/** GET /event/{id}/queue: the sale as its organizer watches it */
export const QueueStats = v.object({
  waiting: v.number(),
  admitted: v.number(),
  inCheckout: v.number(),
  sold: v.number(),
  admitPerMinute: v.nullable(v.number()),
  paused: v.boolean(),
})
export type QueueStats = v.InferOutput<typeof QueueStats>
export type QueueStatsPush = QueueStats & { eventId: string }

export const NOT_ON_SALE_YET = 'Tickets for this event are not on sale yet.'
/** a ticket type with a later sale time of its own, asked for before it */
export const TYPE_NOT_ON_SALE_YET = 'These tickets are not on sale yet.'
export const TYPE_OPENS_BEFORE_SALE = 'A ticket type cannot go on sale before the event’s sale time.'
/** a sale time at or after booking closes (the event's start, or its sales end): nothing would be sold */
export const SALE_AFTER_BOOKING_CLOSES =
  'The sale must open before booking for the event closes (its start, or its sales end).'
export const TYPE_SALE_TIME_TWICE = 'Each ticket type may have one sale time.'
export const ADMISSION_NEEDED =
  'This sale has a waiting room: join the line on the event page, and book once you are admitted.'
export const NO_WAITING_ROOM = 'This event’s sale has no waiting room.'
export const NOT_IN_LINE = 'You are not in line for this event.'
export const SALE_OPENED = 'The sale has opened: only its admission rate can change now.'
export const ROOM_CLOSED = 'The event is sold out; join the waiting list to hear when tickets come back.'
