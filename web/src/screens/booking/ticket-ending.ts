// How a cancelled ticket ended, as its card says it: who cancelled it (its holder, or the event being
// called off, with the organizer's reason) and its refund, on its way or paid out on a day.
import type { Registration } from '../../../../contracts/booking.ts'
import { formatDay, formatPrice } from '../../ui/format.ts'

export const endingTexts = {
  heading: 'Cancelled tickets',
  byHolder: (day: string) => `Cancelled by you on ${day}.`,
  withEvent: (reason: string | undefined) =>
    reason
      ? `Cancelled because the event was cancelled: ${reason}`
      : 'Cancelled because the event was cancelled.',
  byOrganizer: 'Cancelled and refunded by the organizer.',
  cancelled: 'Cancelled.',
  refunded: (amount: number, day: string) => `Refunded ${formatPrice(amount)} on ${day}.`,
  refunding: (amount: number) => `Refund of ${formatPrice(amount)} on its way.`,
} as const

/** what ended the ticket */
export function cancelledText(ticket: Registration): string {
  if (ticket.cancelledBy === 'event') return endingTexts.withEvent(ticket.cancelReason)
  if (ticket.cancelledBy === 'organizer') return endingTexts.byOrganizer
  if (ticket.cancelledBy === 'holder' && ticket.cancelledAt)
    return endingTexts.byHolder(formatDay(ticket.cancelledAt))
  return endingTexts.cancelled
}

/** its refund, or null when nothing was paid */
export function refundText(ticket: Registration): string | null {
  if (!ticket.refundAmount) return null
  return ticket.refundedAt
    ? endingTexts.refunded(ticket.refundAmount, formatDay(ticket.refundedAt))
    : endingTexts.refunding(ticket.refundAmount)
}

/** a ticket no longer valid: the dashboard lists it apart, the registrations list not at all */
export const isCancelled = (ticket: Registration): boolean => ticket.paymentStatus === 'Cancelled'
