// Pure decisions about an event's waiting room (issue 41), taken under the room's lock against its
// row (what its stream's facts folded to, kept by the projection in the same transaction): the sale
// time set, a join, the opening, admissions at a set rate or to a number of checkouts in progress,
// pauses, and the close when the event sells out. And what each person in line is told.
import type { QueuePlace, QueueStats } from '../../contracts/queue.ts'
import {
  NO_WAITING_ROOM,
  SALE_OPENED,
  TYPE_OPENS_BEFORE_SALE,
  TYPE_SALE_TIME_TWICE,
} from '../../contracts/queue.ts'
import { conflict, invalid } from '../errors.ts'
import type { QueueFact } from './facts.ts'
import type { QueuePlaceRow, QueueRoomRow, TypeOpening } from './tables.ts'

export type Room = Omit<QueueRoomRow, 'eventId'> & { eventId: string }
export type Place = Pick<QueuePlaceRow, 'accountId' | 'line' | 'draw' | 'expiresAt'>
/** what a place's message is made of */
export type LinePlace = Pick<Place, 'accountId' | 'line' | 'expiresAt'>

/** the most a set rate admits at once after a lull (its credit does not pile up): seconds' worth */
const MOST_BURST_SECONDS = 2

const plus = (at: string, ms: number) => new Date(Date.parse(at) + ms).toISOString()

export const isOpen = (room: Pick<Room, 'openedAt'>) => room.openedAt !== null

/**
 * The on-sale time and room set; after the opening only the rate and the ticket types' own times may
 * change. A ticket type's own time is at or after the event's (before it nothing of the event is
 * sold); `typeOpens` absent keeps those set before.
 */
export function setOnSale(
  room: Room | undefined,
  change: {
    eventId: string
    organizerId: string
    opensAt: string
    waitingRoom: boolean
    admitPerMinute: number | null
    typeOpens?: TypeOpening[]
  },
): QueueFact[] {
  const opensAt = new Date(change.opensAt).toISOString()
  if (room && isOpen(room) && (opensAt !== room.opensAt || change.waitingRoom !== room.waitingRoom))
    throw conflict(SALE_OPENED)
  const given = change.typeOpens ?? room?.typeOpens ?? []
  if (new Set(given.map((t) => t.ticketTypeId)).size !== given.length) throw invalid(TYPE_SALE_TIME_TWICE)
  const typeOpens = given.map((t) => ({
    ticketTypeId: t.ticketTypeId,
    opensAt: new Date(t.opensAt).toISOString(),
  }))
  if (typeOpens.some((t) => t.opensAt < opensAt)) throw invalid(TYPE_OPENS_BEFORE_SALE)
  const { typeOpens: _, ...settings } = change
  return [
    {
      type: 'OnSaleSet',
      data: { ...settings, opensAt, ...(typeOpens.length > 0 ? { typeOpens } : {}) },
    },
  ]
}

/** when a ticket type goes on sale: its own time, else its event's */
export const typeOpensAt = (room: Pick<Room, 'opensAt' | 'typeOpens'>, ticketTypeId: string): string =>
  room.typeOpens?.find((t) => t.ticketTypeId === ticketTypeId)?.opensAt ?? room.opensAt

/** the sale opens at its time: the pre-queue takes its random places (nothing when not due) */
export function open(room: Room, now: string): QueueFact[] {
  if (isOpen(room) || now < room.opensAt || !room.waitingRoom) return []
  return [{ type: 'QueueOpened', data: { eventId: room.eventId, at: now, early: room.early } }]
}

/** an account joining: its first join only (a second one keeps the place the first had) */
export function join(room: Room, accountId: string, now: string, draw: () => string): QueueFact[] {
  if (!room.waitingRoom) throw conflict(NO_WAITING_ROOM)
  if (room.closedAt !== null) return []
  const { eventId } = room
  return isOpen(room)
    ? [
        {
          type: 'QueueJoined',
          data: { eventId, accountId, at: now, early: false, draw: null, line: room.nextLine },
        },
      ]
    : [{ type: 'QueueJoined', data: { eventId, accountId, at: now, early: true, draw: draw(), line: null } }]
}

/** people in line not yet admitted (the pre-queue before the opening) */
export const waitingIn = (room: Room) =>
  isOpen(room) ? room.nextLine - 1 - room.admittedThrough : room.early

/**
 * The next admissions: a set rate's due since its credit (no more than a short burst's worth after
 * a lull), or as many as bring the checkouts in progress up to the target; in line order.
 */
export function admit(
  room: Room,
  now: string,
  rules: { admissionMinutes: number; checkoutTarget: number; inCheckout: number },
): QueueFact[] {
  if (!room.waitingRoom || !isOpen(room) || room.paused || room.closedAt !== null) return []
  const waiting = waitingIn(room)
  let due: number
  let creditAt: string
  if (room.admitPerMinute !== null) {
    const perMs = room.admitPerMinute / 60_000
    const from = room.creditAt ?? room.openedAt ?? now
    const earned = Math.floor((Date.parse(now) - Date.parse(from)) * perMs)
    const most = Math.max(1, Math.ceil(MOST_BURST_SECONDS * 1000 * perMs))
    due = Math.min(earned, most, waiting)
    // what was earned and not given (nobody waiting, or past the burst) is not kept
    creditAt = due === earned ? plus(from, due / perMs) : now
  } else {
    due = Math.min(Math.max(0, rules.checkoutTarget - rules.inCheckout), waiting)
    creditAt = now
  }
  if (due <= 0) return []
  return [
    {
      type: 'QueueAdmitted',
      data: {
        eventId: room.eventId,
        from: room.admittedThrough + 1,
        through: room.admittedThrough + due,
        at: now,
        expiresAt: plus(now, rules.admissionMinutes * 60_000),
        creditAt,
      },
    },
  ]
}

export function pause(room: Room, by: string, now: string): QueueFact[] {
  // a sale without a room has no line to stop
  if (!room.waitingRoom) throw conflict(NO_WAITING_ROOM)
  return room.paused ? [] : [{ type: 'QueuePaused', data: { eventId: room.eventId, by, at: now } }]
}

export function resume(room: Room, by: string, now: string): QueueFact[] {
  // a line paused before its room was turned off may still be let go
  if (!room.waitingRoom && !room.paused) throw conflict(NO_WAITING_ROOM)
  return room.paused ? [{ type: 'QueueResumed', data: { eventId: room.eventId, by, at: now } }] : []
}

/**
 * The event sold out while the room is on (every seat sold, none only held), or called off (open
 * or not yet: the line is for a sale that will not happen): it closes.
 */
export function close(room: Room, soldOut: boolean, now: string, calledOff = false): QueueFact[] {
  if (!room.waitingRoom || room.closedAt !== null) return []
  if (!calledOff && (!soldOut || !isOpen(room))) return []
  return [{ type: 'QueueClosed', data: { eventId: room.eventId, at: now } }]
}

/** people admitted a minute: the set rate, or what the room has admitted since it opened */
export function rateOf(room: Room, now: string): number | null {
  if (room.admitPerMinute !== null) return room.admitPerMinute
  if (!room.openedAt || room.admittedThrough === 0) return null
  const minutes = (Date.parse(now) - Date.parse(room.openedAt)) / 60_000
  return minutes > 0 ? room.admittedThrough / minutes : null
}

const roundRate = (rate: number | null) =>
  rate === null ? null : Math.max(0.01, Math.round(rate * 100) / 100)

/** the sale as its organizer watches it (GET /event/{id}/queue, the live message `queue-stats`) */
export function statsOf(room: Room, counts: { inCheckout: number; sold: number }, now: string): QueueStats {
  return {
    waiting: room.closedAt === null ? waitingIn(room) : 0,
    admitted: room.admittedThrough,
    inCheckout: counts.inCheckout,
    sold: counts.sold,
    // a room following capacity: the rate it has admitted at, to two decimals (a figure to read)
    admitPerMinute: room.admitPerMinute ?? roundRate(rateOf(room, now)),
    paused: room.paused,
  }
}

/** what one person in line is told now */
export function placeOf(room: Room, place: LinePlace, now: string, calledOff = false): QueuePlace {
  // an event called off: nothing will be sold, to anyone in line, admitted or not (a room closed
  // by a sell-out leaves an admission running as it was)
  if (calledOff) return { state: 'closed' }
  if (place.line !== null && place.line <= room.admittedThrough) {
    const admissionExpiresAt = place.expiresAt ?? now
    return admissionExpiresAt > now ? { state: 'admitted', admissionExpiresAt } : { state: 'expired' }
  }
  if (!room.waitingRoom || room.closedAt !== null) return { state: 'closed' }
  if (place.line === null) return { state: 'pre-queue' }
  const position = place.line - room.admittedThrough
  // paused: nobody is admitted until it resumes, so no wait is estimated; the person is told why
  if (room.paused) return { state: 'waiting', position, ahead: position - 1, paused: true }
  const rate = rateOf(room, now)
  return {
    state: 'waiting',
    position,
    ahead: position - 1,
    ...(rate ? { etaSeconds: Math.ceil((position * 60) / rate) } : {}),
  }
}
