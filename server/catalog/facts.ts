// Facts of an event's stream (event-<id>). Prices are in integer paise (pricePaise); events
// submitted before that hold rupees in `price`, upcast when read (catalogUpcasters).
import type { TicketTypeName } from '../../contracts/catalog.ts'
import type { Box, SeatNumber } from '../../contracts/seating.ts'
import type { Upcaster } from '../ledger/upcast.ts'
import { paiseFromStoredRupees } from '../money.ts'

/** a ticket type as the event's facts carry it; taxRate: its GST rate in percent (absent: none) */
export type EventTicketType = {
  ticketTypeId: string
  type: TicketTypeName
  pricePaise: number
  quantity: number
  taxRate?: number
}

export type EventSubmitted = {
  type: 'EventSubmitted'
  data: {
    eventId: string
    organizerId: string
    title: string
    description: string
    /** YYYY-MM-DD */
    date: string
    /** HH:MM */
    time: string
    location: string
    category: string
    images: Array<{ url: string }>
    videos: Array<{ url: string }>
    ticketTypes: EventTicketType[]
    /** YYYY-MM-DDTHH:MM in TIMEZONE: booking closes then if earlier than the start. Facts from
     * before sales ends existed have none. */
    salesEnd?: string
    /** the GST state code of where it is held (issue 42): absent or null, none given */
    state?: string | null
    /** whether its prices include GST; absent (facts from before taxes): they do */
    pricesIncludeTax?: boolean
  }
}

export type EventApproved = {
  type: 'EventApproved'
  /** reason: the admin's words to the organizer, when given */
  data: { eventId: string; organizerId: string; by: string; reason?: string }
}
export type EventRejected = {
  type: 'EventRejected'
  /** wasApproved: it had been public until now (so its public audience hears it leave) */
  data: { eventId: string; organizerId: string; by: string; wasApproved?: boolean; reason?: string }
}

/**
 * An account the organizer (or an admin: `by`) named as door staff before invitations existed. No
 * longer decided: read as an invitation to that account (its id is the account's), to be accepted
 * before it may scan, since the account never agreed to see the holders' names.
 */
export type DoorStaffAdded = {
  type: 'DoorStaffAdded'
  data: { eventId: string; accountId: string; by: string }
}
/**
 * The organizer (or an admin: `by`) invited an e-mail address to scan this event's passes at the
 * door; the invitation is mailed there (again, when it is sent again while pending). Whether an
 * account has that address is not looked at: the account that has it, now or once it signs up,
 * accepts.
 */
export type DoorStaffInvited = {
  type: 'DoorStaffInvited'
  data: { eventId: string; invitationId: string /** lower-case */; email: string; by: string }
}
/** The account the invitation was for accepted it: it scans the event's passes from now on. */
export type DoorStaffAccepted = {
  type: 'DoorStaffAccepted'
  data: { eventId: string; invitationId: string; accountId: string }
}
/**
 * The invitation is gone: withdrawn or its member removed by the organizer, or declined or left by
 * its account (`by`). accountId: the account it was accepted by (or made for), if any. Facts from
 * before invitations have no invitationId: the account's id was it (upcast).
 */
export type DoorStaffRemoved = {
  type: 'DoorStaffRemoved'
  data: { eventId: string; invitationId: string; accountId: string | null; by: string }
}

/** A promo code of the event (issue 17): its terms, fixed once made (a code is disabled, never edited). */
export type PromoCodeCreated = {
  type: 'PromoCodeCreated'
  data: {
    eventId: string
    /** upper-case */
    code: string
    /** one of the two is set */
    percentOff: number | null
    amountOffPaise: number | null
    /** null: every ticket type */
    ticketTypeIds: string[] | null
    maxUses: number | null
    startsAt: string | null
    endsAt: string | null
    by: string
  }
}
/** The code takes nothing off from now on (orders that hold it keep their price). */
export type PromoCodeDisabled = {
  type: 'PromoCodeDisabled'
  data: { eventId: string; code: string; by: string }
}

/**
 * The organizer changed the event (issue 17): `details` holds every field that changed, with its
 * new value; `ticketTypes`, when they changed, is the whole new list (a type kept keeps its id; a
 * type left out had nothing sold or held). `moved`: the date, time or location of an approved
 * event changed, so its holders are told (their values before).
 */
export type EventEdited = {
  type: 'EventEdited'
  data: {
    eventId: string
    organizerId: string
    by: string
    details: Partial<{
      title: string
      description: string
      date: string
      time: string
      location: string
      category: string
      images: Array<{ url: string }>
      videos: Array<{ url: string }>
      salesEnd: string | null
      state: string | null
      pricesIncludeTax: boolean
    }>
    ticketTypes?: EventTicketType[]
    moved?: { date: string; time: string; location: string }
  }
}

/** The event is called off (issue 17): sales stop, every order is released or refunded (a job). */
export type EventCancelled = {
  type: 'EventCancelled'
  data: { eventId: string; organizerId: string; by: string; reason: string }
}

/** a seat of an event's plan (issue 40): its id is the server's (seating/plan.ts's seatId) */
export type PlacedSeat = {
  id: string
  number: SeatNumber
  x: number
  y: number
  /** not for sale */
  blocked: boolean
  accessible: false | 'wheelchair' | 'companion'
}
/** a section of the plan: the seats of one ticket type, row by row */
export type PlanSection = {
  name: string
  ticketTypeId: string
  rows: Array<{ label: string; seats: PlacedSeat[] }>
}

/**
 * The organizer saved the event's seat map (issue 40): the whole plan, its `version` (1 for the
 * first), and the capacity each seated ticket type now has (its seats not blocked). No seat held or
 * sold moved or vanished (decided against the seats taken, read under the event's lock).
 */
export type SeatMapPlaced = {
  type: 'SeatMapPlaced'
  data: {
    eventId: string
    organizerId: string
    by: string
    version: number
    stage: Box | null
    sections: PlanSection[]
    capacities: Record<string, number>
    /** the seats whose status the plan changed (added, blocked or no longer blocked), as the map's
     * room tells them; absent from the first plan, and from plans saved before it was kept */
    changes?: Array<{ id: string; status: 'free' | 'blocked' }>
    /** the seats the plan no longer has (each free: a held or sold seat may not vanish), as the map's
     * room tells them; absent when none, and from plans saved before it was kept */
    removed?: string[]
  }
}

export type CatalogFact =
  | EventSubmitted
  | EventApproved
  | EventRejected
  | DoorStaffAdded
  | DoorStaffInvited
  | DoorStaffAccepted
  | DoorStaffRemoved
  | PromoCodeCreated
  | PromoCodeDisabled
  | EventEdited
  | EventCancelled
  | SeatMapPlaced

/**
 * Old shapes of the catalogue's facts as they are read now. An event's decisions fold a snapshot of
 * its state (eventDecider.snapshot): a new upcaster here that changes what the state holds needs the
 * snapshot's kind changed with it, or the states kept before it go on without it.
 */
export const catalogUpcasters = {
  /** Before prices were kept in paise: ticketTypes[].price in rupees. */
  EventSubmitted(data) {
    const types = data.ticketTypes
    if (!Array.isArray(types) || types.every((t) => 'pricePaise' in t)) return data
    return {
      ...data,
      ticketTypes: types.map((t: Record<string, unknown>) => {
        if ('pricePaise' in t) return t
        const { price, ...rest } = t
        return { ...rest, pricePaise: paiseFromStoredRupees(price) }
      }),
    }
  },
  /** Before invitations: the account's id named what was removed. */
  DoorStaffRemoved(data) {
    if (typeof data.invitationId === 'string') return data
    return { ...data, invitationId: data.accountId }
  },
} satisfies Partial<Record<CatalogFact['type'], Upcaster>>
