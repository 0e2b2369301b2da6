// Waiting lists (issue 17): when a ticket type is sold out, a signed-in person joins its list for a
// number of seats; seats that come back are offered in the order joined, held for that person alone
// for OFFER_MINUTES. A group keeps its place; a later, smaller entry is offered seats only while the
// group's do not fit.
import * as v from 'valibot'
import { TicketTypeChoice } from './catalog.ts'

export const WaitlistJoinBody = v.object({
  ticketType: TicketTypeChoice,
  quantity: v.pipe(
    v.number('Quantity must be a number.'),
    v.integer('Quantity must be a whole number.'),
    v.minValue(1, 'Quantity must be at least 1.'),
    v.maxValue(1000, 'Quantity must be 1000 or fewer.'),
  ),
})
/** DELETE /event/{eventId}/waitlist: leaves the list of one ticket type, or every list of the event */
export const WaitlistLeaveQuery = v.object({ ticketType: v.optional(TicketTypeChoice) })

export const WaitlistJoinReply = v.object({ position: v.number() })

export const WaitlistEntryView = v.object({
  eventId: v.string(),
  ticketTypeId: v.string(),
  ticketType: v.string(),
  quantity: v.number(),
  /** place in line among the entries still waiting or holding an offer (an offer counts until it is
   * booked, left or lapsed) */
  position: v.number(),
  status: v.picklist(['waiting', 'offered']),
  /** while offered: until when the seats are held (ISO) */
  offerUntil: v.nullable(v.string()),
})
export type WaitlistEntryView = v.InferOutput<typeof WaitlistEntryView>
export const WaitlistMine = v.array(WaitlistEntryView)

/** the rule the event page states */
export const WAITLIST_RULE =
  'Places are offered in the order people joined. A group keeps its place: a later, smaller request is offered seats only while the group does not fit.'
