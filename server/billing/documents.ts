// Invoices, bills of supply and credit notes (issue 42), pure: a paid order's document drawn from
// the terms it was priced on, a credit note against it, their numbers, and the API's view of them.
// A document is kept whole in the ledger (InvoiceIssued, CreditNoteIssued on the order's stream), in
// paise, so it reads the same for ever, whatever the organizer's profile or the event become.
import {
  type DocumentKind,
  type DocumentMoney,
  type InvoiceDocument,
  SAC_ADMISSION,
  SAC_BOOKING_FEE,
} from '../../contracts/billing.ts'
import { type SeatLabel, seatText } from '../../contracts/seating.ts'
import { toRupees } from '../money.ts'
import { orderMoney, type PricedOrder, type TaxLine } from './tax.ts'

/** whose series a document is numbered in: the organizer's (the tickets) or the platform's (the fee) */
export const PLATFORM_SUPPLIER = 'platform'

/** a document's numbering: its supplier's own series, per kind, per financial year */
export type Series = 'invoice' | 'credit-note'

/** a document as the ledger keeps it: amounts in paise */
export type StoredDocument = {
  kind: DocumentKind
  number: string
  date: string
  supplier: { legalName: string; gstin: string | null; address: string; state: string }
  buyer: { name: string; email: string }
  placeOfSupply: string
  lines: Array<{ description: string; sac: string; quantity: number } & TaxLine>
  totals: TaxLine
  against?: string
  ticketId: string
  event: { _id: string; title: string; date: string }
}

/** what numbers a document: its supplier, series, financial year and place in it */
export type DocumentNumber = { supplierId: string; series: Series; fy: string; seq: number; number: string }

/**
 * The financial year (April to March) of a day, as four digits: 2026-12-02 and 2027-03-31 are
 * 2627, 2027-04-01 is 2728.
 */
export function financialYear(day: string): string {
  const year = Number(day.slice(0, 4))
  const month = Number(day.slice(5, 7))
  const start = month >= 4 ? year : year - 1
  return `${String(start % 100).padStart(2, '0')}${String((start + 1) % 100).padStart(2, '0')}`
}

/**
 * A document's number: the supplier's prefix (at most 5), the financial year, `/` for an invoice or
 * `C` for a credit note, and its place in that series, six digits: INV2627/000042, INV2627C000003.
 * From the millionth document of a series in a year the year is its last two digits, so the number
 * stays within 16 characters (GST's limit) up to 99,999,999: INV27/1000000. The two forms never
 * meet: the separator stands 7 characters from the end in one, 8 or 9 in the other.
 */
export function documentNumber(prefix: string, fy: string, series: Series, seq: number): string {
  const separator = series === 'invoice' ? '/' : 'C'
  if (seq > 999_999) return `${prefix}${fy.slice(2)}${separator}${seq}`
  return `${prefix}${fy}${separator}${String(seq).padStart(6, '0')}`
}

/** the supplier and the buyer of a document, as they were when it was issued */
export type DocumentParties = {
  supplier: StoredDocument['supplier']
  buyer: StoredDocument['buyer']
  event: StoredDocument['event']
}

/** a paid order's priced parts and what it was for (TicketsHeld's data) */
export type InvoicedOrder = PricedOrder & {
  orderId: string
  ticketType: string
  promoCode?: string
  seats?: readonly SeatLabel[]
}

const sum = (lines: readonly TaxLine[]): TaxLine =>
  lines.reduce(
    (t, l) => ({
      taxableValue: t.taxableValue + l.taxableValue,
      cgst: t.cgst + l.cgst,
      sgst: t.sgst + l.sgst,
      igst: t.igst + l.igst,
      total: t.total + l.total,
    }),
    { taxableValue: 0, cgst: 0, sgst: 0, igst: 0, total: 0 },
  )

const taxedAny = (line: TaxLine) => line.cgst + line.sgst + line.igst > 0

/**
 * The organizer's document for a paid order's tickets: a tax invoice when they charge GST (a
 * GSTIN and a rate), else a bill of supply; one line, the tickets, as they were priced.
 */
export function ticketsInvoice(order: InvoicedOrder, parties: DocumentParties, day: string, number: string) {
  const money = orderMoney(order)
  const tax = order.tax
  const seats = order.seats?.length ? `; ${order.seats.map(seatText).join('; ')}` : ''
  const promo = order.promoCode ? ` (promo code ${order.promoCode})` : ''
  const line = {
    description: `${order.ticketType}: ${parties.event.title}, ${parties.event.date}${seats}${promo}`,
    sac: SAC_ADMISSION,
    quantity: order.quantity,
    ...money.tickets,
  }
  const document: StoredDocument = {
    kind: tax?.gstin && taxedAny(money.tickets) ? 'tax-invoice' : 'bill-of-supply',
    number,
    date: day,
    ...parties,
    placeOfSupply: tax?.placeOfSupply ?? parties.supplier.state,
    lines: [line],
    totals: sum([line]),
    ticketId: order.orderId,
  }
  return document
}

/** The platform's document for an order's booking fee (none when no fee was charged). */
export function feeInvoice(
  order: InvoicedOrder,
  parties: DocumentParties,
  day: string,
  number: string,
): StoredDocument | null {
  const money = orderMoney(order)
  if (money.fee.total === 0) return null
  const line = { description: 'Booking fee', sac: SAC_BOOKING_FEE, quantity: order.quantity, ...money.fee }
  return {
    kind: order.fee?.platformGstin && taxedAny(money.fee) ? 'tax-invoice' : 'bill-of-supply',
    number,
    date: day,
    ...parties,
    // supplied where the platform is: the buyer's address is not known (see orderMoney)
    placeOfSupply: parties.supplier.state,
    lines: [line],
    totals: sum([line]),
    ticketId: order.orderId,
  }
}

/** A credit note for the whole of an invoice (a refund gives everything back), in its own series. */
export const creditNote = (invoice: StoredDocument, day: string, number: string): StoredDocument => ({
  ...invoice,
  kind: 'credit-note',
  number,
  date: day,
  against: invoice.number,
})

const rupees = (m: TaxLine): DocumentMoney => ({
  taxableValue: toRupees(m.taxableValue),
  cgst: toRupees(m.cgst),
  sgst: toRupees(m.sgst),
  igst: toRupees(m.igst),
  total: toRupees(m.total),
})

/** A document as the API gives it: money in rupees. */
export function documentView(d: StoredDocument): InvoiceDocument {
  return {
    kind: d.kind,
    number: d.number,
    date: d.date,
    supplier: d.supplier,
    buyer: d.buyer,
    placeOfSupply: d.placeOfSupply,
    lines: d.lines.map((l) => ({
      description: l.description,
      sac: l.sac,
      quantity: l.quantity,
      ...rupees(l),
    })),
    totals: rupees(d.totals),
    ...(d.against ? { against: d.against } : {}),
    ticketId: d.ticketId,
    event: d.event,
  }
}
