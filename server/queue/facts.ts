// Facts of an event's sale and its waiting room (issue 41), on the stream room-<eventId>: the
// on-sale time and room set by the organizer, each account joining the line once, the pre-queue
// given its random places when the sale opens, admissions in line order, pauses, and the room
// closing when the event sells out. Every admission is one of these facts.

type OfEvent = { eventId: string }

/** the sale's time, and its room: admitPerMinute null admits while checkouts in progress are below the target */
export type OnSaleSet = {
  type: 'OnSaleSet'
  data: OfEvent & {
    organizerId: string
    opensAt: string
    waitingRoom: boolean
    admitPerMinute: number | null
    /** ticket types with a later sale time of their own (absent in facts from before: none) */
    typeOpens?: Array<{ ticketTypeId: string; opensAt: string }>
  }
}

/**
 * An account in line, once. Before the sale opens it waits in the pre-queue with a secret random
 * draw (its place is the draw's rank among the pre-queue's when the sale opens); after, its line is
 * the next at the back.
 */
export type QueueJoined = {
  type: 'QueueJoined'
  data: OfEvent & { accountId: string; at: string } & (
      | { early: true; draw: string; line: null }
      | { early: false; draw: null; line: number }
    )
}

/** the sale opened at `at`: the pre-queue's `early` people take lines 1..early by their draws */
export type QueueOpened = { type: 'QueueOpened'; data: OfEvent & { at: string; early: number } }

/**
 * Lines `from`..`through` admitted, each until expiresAt. creditAt: up to when a set rate's
 * admissions are given (the next are due a minute / rate after it).
 */
export type QueueAdmitted = {
  type: 'QueueAdmitted'
  data: OfEvent & { from: number; through: number; at: string; expiresAt: string; creditAt: string }
}

export type QueuePaused = { type: 'QueuePaused'; data: OfEvent & { by: string; at: string } }
export type QueueResumed = { type: 'QueueResumed'; data: OfEvent & { by: string; at: string } }

/** sold out: everyone still waiting is told, and offered the waiting list */
export type QueueClosed = { type: 'QueueClosed'; data: OfEvent & { at: string } }

export type QueueFact =
  | OnSaleSet
  | QueueJoined
  | QueueOpened
  | QueueAdmitted
  | QueuePaused
  | QueueResumed
  | QueueClosed
