// What a cancelled ticket's card says (web/src/screens/booking/ticket-ending.ts): who cancelled it,
// and its refund, on its way or paid out on a day.
import { describe, expect, it } from 'vitest'
import type { Registration } from '../../contracts/booking.ts'
import { cancelledText, isCancelled, refundText } from '../../web/src/screens/booking/ticket-ending.ts'

const ticket: Registration = {
  _id: 't1',
  eventId: 'e1',
  eventTitle: 'River Ragas',
  eventDate: '2030-06-15',
  eventTime: '19:30',
  eventLocation: 'Ghats, Varanasi',
  image: null,
  ticketType: 'VIP',
  quantity: 2,
  totalAmount: 3000,
  paymentStatus: 'Cancelled',
}
// midday UTC: the same day in any zone the tests may run in
const day = '2030-05-02T12:00:00.000Z'

describe('a cancelled ticket', () => {
  it('says its holder cancelled it, and when', () => {
    expect(cancelledText({ ...ticket, cancelledBy: 'holder', cancelledAt: day })).toBe(
      'Cancelled by you on 2 May 2030.',
    )
  })

  it("says it went with its event, with the organizer's reason when there is one", () => {
    expect(cancelledText({ ...ticket, cancelledBy: 'event', cancelReason: 'The ghats are flooded.' })).toBe(
      'Cancelled because the event was cancelled: The ghats are flooded.',
    )
    expect(cancelledText({ ...ticket, cancelledBy: 'event' })).toBe(
      'Cancelled because the event was cancelled.',
    )
    expect(cancelledText(ticket)).toBe('Cancelled.')
  })

  it('says its refund is on its way, then on which day it was paid out', () => {
    expect(refundText({ ...ticket, refundAmount: 3000, refundedAt: null })).toBe(
      'Refund of ₹3,000 on its way.',
    )
    expect(refundText({ ...ticket, refundAmount: 3000, refundedAt: day })).toBe(
      'Refunded ₹3,000 on 2 May 2030.',
    )
    // a free ticket had nothing to give back
    expect(refundText(ticket)).toBeNull()
  })

  it('is told apart from a ticket that holds', () => {
    expect(isCancelled(ticket)).toBe(true)
    expect(isCancelled({ ...ticket, paymentStatus: 'Completed' })).toBe(false)
  })
})
