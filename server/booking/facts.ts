// Facts of an order's stream (order-<id>). A paid order is the ticket: the ticket's id is the
// order's id, so everything that happens to a ticket is decided against one stream.
import type { TicketTypeName } from '../../contracts/catalog.ts'

export type TicketsHeld = {
  type: 'TicketsHeld'
  data: {
    orderId: string
    buyerId: string
    eventId: string
    organizerId: string
    ticketTypeId: string
    ticketType: TicketTypeName
    quantity: number
    /** rupees */
    unitPrice: number
    /** rupees: unitPrice × quantity */
    amount: number
    provider: string
    providerOrderId: string
    heldUntil: string
    /** a keyed hash of the buyer's client address (never the address), for the per-address cap */
    clientKey?: string
  }
}

export type PaymentCaptured = {
  type: 'PaymentCaptured'
  data: { orderId: string; paymentId: string; amount: number; method: string | null }
}

export type TicketsIssued = {
  type: 'TicketsIssued'
  data: {
    orderId: string
    ownerId: string
    eventId: string
    ticketTypeId: string
    quantity: number
    amount: number
    /** true when the hold had lapsed and the seats were taken again at payment time */
    afterExpiry: boolean
  }
}

export type PaymentFailed = {
  type: 'PaymentFailed'
  data: { orderId: string; paymentId: string | null; reason: string }
}

export type HoldExpired = { type: 'HoldExpired'; data: { orderId: string } }

export type TicketCancelled = {
  type: 'TicketCancelled'
  data: { orderId: string; ownerId: string; eventId: string; ticketTypeId: string; quantity: number }
}

export type TicketTransferred = {
  type: 'TicketTransferred'
  data: { orderId: string; fromId: string; toId: string }
}

export type RefundRequested = {
  type: 'RefundRequested'
  data: {
    orderId: string
    paymentId: string
    /** rupees */
    amount: number
    reason: 'cancelled' | 'sold out after hold expired' | 'duplicate payment'
  }
}

export type PaymentRefunded = {
  type: 'PaymentRefunded'
  data: { orderId: string; paymentId: string; refundId: string; amount: number }
}

export type BookingFact =
  | TicketsHeld
  | PaymentCaptured
  | TicketsIssued
  | PaymentFailed
  | HoldExpired
  | TicketCancelled
  | TicketTransferred
  | RefundRequested
  | PaymentRefunded
