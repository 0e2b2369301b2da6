// Facts of a ticket type's waiting list (issue 17), on its stream waitlist-<ticketTypeId>: people
// join when it is sold out, leave, are offered seats held for them alone when seats come back, and
// book with the offer or let it lapse (it passes on).

type Entry = { eventId: string; ticketTypeId: string; entryId: string; accountId: string }

export type WaitlistJoined = {
  type: 'WaitlistJoined'
  data: Entry & { ticketType: string; quantity: number }
}
/** wasOffered: seats were held for the entry, and come back */
export type WaitlistLeft = { type: 'WaitlistLeft'; data: Entry & { wasOffered: boolean } }
/** `quantity` seats held for the entry alone until offerUntil (ISO) */
export type WaitlistOffered = {
  type: 'WaitlistOffered'
  data: Entry & { quantity: number; offerUntil: string }
}
/** the offer ran out unused: the entry is done, its seats pass on */
export type WaitlistOfferLapsed = { type: 'WaitlistOfferLapsed'; data: Entry }
/** the entry booked with its offer: the order holds the seats now */
export type WaitlistServed = { type: 'WaitlistServed'; data: Entry & { orderId: string } }

export type WaitlistFact =
  | WaitlistJoined
  | WaitlistLeft
  | WaitlistOffered
  | WaitlistOfferLapsed
  | WaitlistServed
