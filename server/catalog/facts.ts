// Facts of an event's stream (event-<id>). Prices are in integer paise (pricePaise); events
// submitted before that hold rupees in `price`, upcast when read (catalogUpcasters).
import type { TicketTypeName } from '../../contracts/catalog.ts'
import type { Upcaster } from '../ledger/upcast.ts'
import { paiseFromStoredRupees } from '../money.ts'

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
    ticketTypes: Array<{ ticketTypeId: string; type: TicketTypeName; pricePaise: number; quantity: number }>
    /** YYYY-MM-DDTHH:MM in TIMEZONE: booking closes then if earlier than the start. Facts from
     * before sales ends existed have none. */
    salesEnd?: string
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

/** An account the organizer (or an admin: `by`) lets scan this event's passes at the door (issue 16). */
export type DoorStaffAdded = {
  type: 'DoorStaffAdded'
  data: { eventId: string; accountId: string; by: string }
}
/** That account may no longer scan this event's passes. */
export type DoorStaffRemoved = {
  type: 'DoorStaffRemoved'
  data: { eventId: string; accountId: string; by: string }
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
    }>
    ticketTypes?: Array<{ ticketTypeId: string; type: TicketTypeName; pricePaise: number; quantity: number }>
    moved?: { date: string; time: string; location: string }
  }
}

/** The event is called off (issue 17): sales stop, every order is released or refunded (a job). */
export type EventCancelled = {
  type: 'EventCancelled'
  data: { eventId: string; organizerId: string; by: string; reason: string }
}

export type CatalogFact =
  | EventSubmitted
  | EventApproved
  | EventRejected
  | DoorStaffAdded
  | DoorStaffRemoved
  | PromoCodeCreated
  | PromoCodeDisabled
  | EventEdited
  | EventCancelled

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
} satisfies Partial<Record<CatalogFact['type'], Upcaster>>
