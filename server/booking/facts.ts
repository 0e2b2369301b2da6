// Facts of an order's stream (order-<id>). A paid order is the ticket: the ticket's id is the
// order's id, so everything that happens to a ticket is decided against one stream.
// Money is in integer paise, and each field says so in its name (amountPaise): facts written
// before that said rupees in `amount` and `unitPrice`, and are upcast when read (bookingUpcasters).
import type { DocumentOf as ContractDocumentOf } from '../../contracts/billing.ts'
import type { TicketTypeName } from '../../contracts/catalog.ts'
import type { SeatLabel } from '../../contracts/seating.ts'
import type { StoredDocument } from '../billing/documents.ts'
import type { HeldParties } from '../billing/invoicing.ts'
import type { OrderFeeTerms, OrderTaxTerms } from '../billing/tax.ts'
import type { Upcaster } from '../ledger/upcast.ts'
import { paiseFromStoredRupees } from '../money.ts'

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
    unitPricePaise: number
    /** unitPricePaise × quantity */
    amountPaise: number
    provider: string
    providerOrderId: string
    heldUntil: string
    /** a keyed hash of the buyer's client address (never the address), for the per-address cap */
    clientKey?: string
    /** the promo code used (issue 17): amountPaise is after its discount */
    promoCode?: string
    discountPaise?: number
    /** a seated order (issue 40): the seats it holds, one per ticket (quantity of them) */
    seats?: SeatsHeld
    /**
     * the GST terms it was priced on (issue 42), when its organizer had a billing profile: its paid
     * order gets the organizer's invoice. amountPaise is then the total with any tax added
     */
    tax?: OrderTaxTerms
    /** the platform's booking fee charged on it (in amountPaise), invoiced by the platform */
    fee?: OrderFeeTerms
    /** with tax terms or a fee: who its invoices will name, as they were when it was priced */
    invoicing?: HeldParties
  }
}

/** the seats of a seated order, as its tickets, passes and mails name them */
export type SeatsHeld = SeatLabel[]

export type PaymentCaptured = {
  type: 'PaymentCaptured'
  /** amountPaise: what the provider says was paid */
  data: { orderId: string; paymentId: string; amountPaise: number; method: string | null }
}

export type TicketsIssued = {
  type: 'TicketsIssued'
  data: {
    orderId: string
    ownerId: string
    eventId: string
    ticketTypeId: string
    quantity: number
    amountPaise: number
    /** true when the hold had lapsed and the seats were taken again at payment time */
    afterExpiry: boolean
    /**
     * after a lapse that was counted as released (no payment had failed): the sales figures move it
     * from released, not from failed. Absent before releases were told apart (see PaymentFailed).
     */
    fromReleased?: boolean
    /** a seated order's seat ids, sold to it (taken again after a lapse) */
    seats?: string[]
  }
}

/**
 * The order stopped waiting for its payment and gave its seats back: a payment the provider refused
 * (paymentId), or an unpaid checkout given up with none (closed, replaced, its event called off).
 */
export type PaymentFailed = {
  type: 'PaymentFailed'
  data: {
    orderId: string
    paymentId: string | null
    reason: string
    /**
     * true: no payment failed, the checkout was released, and the sales figures count it so (not as
     * Failed). A fact without it was written when every release counted as a failed payment; it is
     * still counted that way, so the figures rebuilt from the ledger equal the ones kept since.
     */
    released?: boolean
  }
}

/** An unpaid hold ran out; `released` as for PaymentFailed (absent on older facts: counted failed). */
export type HoldExpired = { type: 'HoldExpired'; data: { orderId: string; released?: boolean } }

export type TicketCancelled = {
  type: 'TicketCancelled'
  data: {
    orderId: string
    ownerId: string
    eventId: string
    ticketTypeId: string
    quantity: number
    /** the event was called off (issue 17): the reason given, for the holder's mail */
    eventCancelled?: { reason: string }
    /** cancelled and refunded by the event's organizer or an admin (`by`), after admission too */
    refundedBy?: { by: string; reason: string }
  }
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
    amountPaise: number
    reason: RefundReason
    /** 'promo code no longer valid': why the code was refused when the late payment arrived */
    promoRefusal?: string
  }
}

export type RefundReason =
  | 'cancelled'
  | 'sold out after hold expired'
  /** paid after the checkout was given up, and its promo code could no longer be used by then */
  | 'promo code no longer valid'
  | 'duplicate payment'
  | 'event cancelled'
  | 'refunded by organizer'

export type PaymentRefunded = {
  type: 'PaymentRefunded'
  data: { orderId: string; paymentId: string; refundId: string; amountPaise: number }
}

/**
 * One admission of a ticket let in at the door (issue 16): the first scan of its pass to reach the
 * ledger. scanId names the scan (sha256 of device, code and scannedAt), so the same scan sent again
 * is known; scannedAt is the door's clock, admittedAt when it counts as admitted (scannedAt, or the
 * server's time if the door's clock was ahead).
 */
export type PassAdmitted = {
  type: 'PassAdmitted'
  data: {
    orderId: string
    eventId: string
    ticketTypeId: string
    admission: number
    version: number
    scanId: string
    device: string
    scannedAt: string
    admittedAt: string
  }
}

/** A scan of an admission that was admitted already: a double entry, for the organizer's list. */
export type PassScanRefused = {
  type: 'PassScanRefused'
  data: {
    orderId: string
    eventId: string
    admission: number
    version: number
    scanId: string
    device: string
    scannedAt: string
    reason: 'already-admitted'
    firstAdmittedAt: string
    firstDevice: string
  }
}

/** what a document of an order is for: its tickets (the organizer's) or its booking fee (the platform's) */
export type DocumentOf = ContractDocumentOf

/**
 * An invoice (or bill of supply) for a paid order (issue 42), appended with the payment that
 * issued the ticket: its number is the next of its supplier's series for the financial year, read
 * under that supplier's lock, so numbers run without gaps on any store and in any process.
 */
export type InvoiceIssued = {
  type: 'InvoiceIssued'
  data: {
    orderId: string
    organizerId: string
    /** who bought the order: the invoice stays theirs, whoever holds the ticket since */
    buyerId: string
    of: DocumentOf
    /** the organizer's id, or 'platform' for the fee */
    supplierId: string
    fy: string
    seq: number
    number: string
    document: StoredDocument
  }
}

/** A credit note against an order's invoice, appended with the refund of its ticket; its own series. */
export type CreditNoteIssued = {
  type: 'CreditNoteIssued'
  data: InvoiceIssued['data']
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
  | PassAdmitted
  | PassScanRefused
  | InvoiceIssued
  | CreditNoteIssued

/**
 * Facts of the shapes before money was kept in paise: `amount` (and TicketsHeld's `unitPrice`) in
 * rupees, which the ledger holds for ever. Read as the current shape, with the same paise.
 */
const rupeesToPaise =
  (...fields: Array<[rupees: string, paise: string]>): Upcaster =>
  (data) => {
    if (fields.every(([, paise]) => paise in data)) return data
    const current: Record<string, unknown> = { ...data }
    for (const [rupees, paise] of fields) {
      current[paise] = paiseFromStoredRupees(data[rupees])
      delete current[rupees]
    }
    return current
  }

export const bookingUpcasters = {
  TicketsHeld: rupeesToPaise(['unitPrice', 'unitPricePaise'], ['amount', 'amountPaise']),
  PaymentCaptured: rupeesToPaise(['amount', 'amountPaise']),
  TicketsIssued: rupeesToPaise(['amount', 'amountPaise']),
  RefundRequested: rupeesToPaise(['amount', 'amountPaise']),
  PaymentRefunded: rupeesToPaise(['amount', 'amountPaise']),
} satisfies Partial<Record<BookingFact['type'], Upcaster>>
