// The facts that change what an event sold and who attends (contracts/live.ts TicketPush): its
// organizer's room and the admins' room hear every one of them.
import type { LivePush } from '../../../../contracts/live.ts'

const ticketFacts = new Set([
  'TicketsHeld',
  'TicketsIssued',
  'PaymentFailed',
  'HoldExpired',
  'TicketCancelled',
  'TicketTransferred',
])

export const isTicketPush = (push: LivePush): boolean => ticketFacts.has(push.type)

/** a ticket push about this event */
export const concernsEvent = (push: LivePush, eventId: string): boolean =>
  isTicketPush(push) && push.data.eventId === eventId
