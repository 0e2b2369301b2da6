// Taxes and invoices (issue 42), for Indian GST first: an organizer's billing profile (legal name,
// GSTIN, address, state, invoice prefix). Without a GSTIN no tax is charged and a bill of supply is
// issued instead of a tax invoice. Place of supply for admission to an event is the state where it
// is held: the same state as the organizer's gives CGST + SGST, half each; another gives IGST.
import * as v from 'valibot'
import { hasWholePaise, isCalendarDate, pageNumber } from './common.ts'

/** GST state codes (the first two digits of a GSTIN), with the state or territory each names */
export const GST_STATES: Readonly<Record<string, string>> = {
  '01': 'Jammu and Kashmir',
  '02': 'Himachal Pradesh',
  '03': 'Punjab',
  '04': 'Chandigarh',
  '05': 'Uttarakhand',
  '06': 'Haryana',
  '07': 'Delhi',
  '08': 'Rajasthan',
  '09': 'Uttar Pradesh',
  '10': 'Bihar',
  '11': 'Sikkim',
  '12': 'Arunachal Pradesh',
  '13': 'Nagaland',
  '14': 'Manipur',
  '15': 'Mizoram',
  '16': 'Tripura',
  '17': 'Meghalaya',
  '18': 'Assam',
  '19': 'West Bengal',
  '20': 'Jharkhand',
  '21': 'Odisha',
  '22': 'Chhattisgarh',
  '23': 'Madhya Pradesh',
  '24': 'Gujarat',
  '26': 'Dadra and Nagar Haveli and Daman and Diu',
  '27': 'Maharashtra',
  '29': 'Karnataka',
  '30': 'Goa',
  '31': 'Lakshadweep',
  '32': 'Kerala',
  '33': 'Tamil Nadu',
  '34': 'Puducherry',
  '35': 'Andaman and Nicobar Islands',
  '36': 'Telangana',
  '37': 'Andhra Pradesh',
  '38': 'Ladakh',
  '97': 'Other Territory',
}

const CHARACTERS = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ'

/** A GSTIN's check character, from its first 14 (the GSTN's mod-36 scheme: weights 1 and 2 in turn) */
export function gstinCheckCharacter(first14: string): string {
  let sum = 0
  for (let i = 0; i < 14; i++) {
    const product = CHARACTERS.indexOf(first14[i] as string) * (i % 2 === 0 ? 1 : 2)
    sum += Math.floor(product / 36) + (product % 36)
  }
  return CHARACTERS[(36 - (sum % 36)) % 36] as string
}

/** What is wrong with a GSTIN, in a sentence naming it; null when it is well formed */
export function gstinProblem(gstin: string): string | null {
  if (!/^\d{2}[A-Z]{5}\d{4}[A-Z][1-9A-Z]Z[0-9A-Z]$/.test(gstin))
    return `GSTIN ${gstin} is not in the form of a GSTIN: 2 digits of the state, the 10 characters of a PAN, the entity's number, Z and a check character (15 in all, capitals).`
  const state = gstin.slice(0, 2)
  if (!GST_STATES[state]) return `GSTIN ${gstin} starts with ${state}, which is no state's code.`
  const check = gstinCheckCharacter(gstin.slice(0, 14))
  if (gstin[14] !== check) return `GSTIN ${gstin} has the wrong check character: it should end in ${check}.`
  return null
}

const text = (label: string, max: number) =>
  v.pipe(
    v.string(`${label} is required.`),
    v.trim(),
    v.nonEmpty(`${label} is required.`),
    v.maxLength(max, `${label} must be at most ${max} characters.`),
  )

export const StateCode = v.pipe(
  v.string('State must be a two-digit GST state code.'),
  v.trim(),
  v.check(
    (code) => GST_STATES[code] !== undefined,
    'State must be a two-digit GST state code (27 for Maharashtra).',
  ),
)

/** the longest invoice prefix: with the financial year and a number of 6 digits, 16 characters */
export const MAX_INVOICE_PREFIX = 5

export const BillingBody = v.pipe(
  v.object({
    legalName: text('Legal name', 200),
    gstin: v.optional(
      v.nullable(
        v.pipe(
          v.string('GSTIN must be text.'),
          v.trim(),
          v.toUpperCase(),
          v.check(
            (g) => g === '' || gstinProblem(g) === null,
            (issue) => gstinProblem(String(issue.input)) ?? '',
          ),
        ),
      ),
    ),
    address: text('Address', 500),
    state: StateCode,
    invoicePrefix: v.pipe(
      v.string('Invoice prefix is required.'),
      v.trim(),
      v.toUpperCase(),
      v.regex(
        new RegExp(`^[A-Z0-9]{1,${MAX_INVOICE_PREFIX}}$`),
        `Invoice prefix must be 1 to ${MAX_INVOICE_PREFIX} letters or digits.`,
      ),
    ),
  }),
  v.forward(
    v.check(
      // a state not given (or not one) is the state's own issue, not the GSTIN's
      (b) => !b.gstin || GST_STATES[b.state] === undefined || b.gstin.slice(0, 2) === b.state,
      (issue) => {
        const b = issue.input as { gstin: string; state: string }
        return `GSTIN ${b.gstin} is registered in state ${b.gstin.slice(0, 2)}, not in the state given (${b.state}).`
      },
    ),
    ['gstin'],
  ),
)
export type BillingBody = v.InferOutput<typeof BillingBody>

export const BillingView = v.object({
  legalName: v.string(),
  gstin: v.nullable(v.string()),
  address: v.string(),
  state: v.string(),
  invoicePrefix: v.string(),
})
export type BillingView = v.InferOutput<typeof BillingView>

export const NO_BILLING_PROFILE = 'You have no billing profile yet.'

/** the money of an order as the checkout shows it, in rupees (API.md, POST /ticket/create) */
export const Breakdown = v.object({
  base: v.number(),
  cgst: v.number(),
  sgst: v.number(),
  igst: v.number(),
  fee: v.number(),
  feeTax: v.number(),
  total: v.number(),
})
export type Breakdown = v.InferOutput<typeof Breakdown>

/** the GST rates a ticket type may have, in percent, unless GST_RATES sets others */
export const DEFAULT_GST_RATES: readonly number[] = [0, 5, 12, 18, 28, 40]

/** SAC of admission to events (heading 9996, recreational and cultural services) and of the fee */
export const SAC_ADMISSION = '9996'
export const SAC_BOOKING_FEE = '998599'

export const documentKinds = ['tax-invoice', 'bill-of-supply', 'credit-note'] as const
export type DocumentKind = (typeof documentKinds)[number]

/** money on a document, in rupees (up to two decimals), as the API gives money */
export type DocumentMoney = { taxableValue: number; cgst: number; sgst: number; igst: number; total: number }

/**
 * An invoice, bill of supply or credit note as GET /ticket/{id}/invoice?format=json gives it
 * (API.md, "Taxes and invoices"); a credit note names the invoice it is against.
 */
export type InvoiceDocument = {
  kind: DocumentKind
  number: string
  /** YYYY-MM-DD, the day of issue in the platform's time zone */
  date: string
  supplier: { legalName: string; gstin: string | null; address: string; state: string }
  buyer: { name: string; email: string }
  /** the GST state code of the place of supply (where the event is held) */
  placeOfSupply: string
  lines: Array<{ description: string; sac: string; quantity: number } & DocumentMoney>
  totals: DocumentMoney
  /** a credit note: the number of the invoice it is against */
  against?: string
  /** the ticket (order) it is for */
  ticketId: string
  /** the event, by title */
  event: { _id: string; title: string; date: string }
}

/** what a document is for: the tickets (the organizer's) or the booking fee (the platform's) */
export type DocumentOf = 'tickets' | 'fee'

/** GET /account/invoices: a document issued to the caller as a buyer, and what it is for */
export type BuyerDocument = InvoiceDocument & { of: DocumentOf }

/** GET /account/invoices without `page`: the newest this many */
export const BUYER_DOCUMENTS_MAX = 500
/** GET /account/invoices?page=: a page's documents unless `limit` says (at most BUYER_DOCUMENTS_MAX) */
export const BUYER_DOCUMENT_PAGE_LIMIT = 50

/** GET /account/invoices's paging, as GET /event's: absent, the newest BUYER_DOCUMENTS_MAX; with
 * `page` (from 1), that page of `limit` documents, newest first, still a bare array, the whole count
 * in the X-Total-Count header and the next page's address in Link */
export const BuyerDocumentsQuery = v.object({
  page: pageNumber('page', 100_000),
  limit: pageNumber('limit', BUYER_DOCUMENTS_MAX),
})

export const NO_INVOICE = 'This ticket has no invoice yet.'
export const NO_CREDIT_NOTE = 'This ticket has no credit note.'

/** GET /ticket/{id}/invoice and /credit-note: JSON or the PDF; the tickets' document or the fee's */
export const DocumentQuery = v.object({
  format: v.optional(v.picklist(['json', 'pdf'], 'Format must be json or pdf.')),
  of: v.optional(v.picklist(['tickets', 'fee'], 'Of must be tickets or fee.')),
})

/** a day, or nothing: left blank (a form's empty field, `?from=&to=`) it is not given */
const day = (label: string) =>
  v.optional(
    v.pipe(
      v.string(`${label} must be a date (YYYY-MM-DD).`),
      v.trim(),
      v.check(
        (text) => text === '' || /^\d{4}-\d{2}-\d{2}$/.test(text),
        `${label} must be a date (YYYY-MM-DD).`,
      ),
      v.check((text) => text === '' || isCalendarDate(text), `${label} must be a real day on the calendar.`),
      v.transform((text) => (text === '' ? undefined : text)),
    ),
  )

export const FROM_AFTER_TO = 'From must not be after to.'

/** GET /organizer/invoices: the days issued from and to (both included), JSON or CSV */
export const InvoicesQuery = v.pipe(
  v.object({
    from: day('From'),
    to: day('To'),
    format: v.optional(v.picklist(['json', 'csv'], 'Format must be json or csv.')),
  }),
  v.forward(
    v.partialCheck([['from'], ['to']], (q) => !q.from || !q.to || q.from <= q.to, FROM_AFTER_TO),
    ['from'],
  ),
)

/** the columns of GET /organizer/invoices?format=csv: what a monthly GST return needs */
export const invoiceCsvColumns = [
  'number',
  'kind',
  'date',
  'ticket',
  'buyer',
  'email',
  'placeOfSupply',
  'taxableValue',
  'cgst',
  'sgst',
  'igst',
  'total',
  'against',
] as const

/** the platform's booking fee in rupees a ticket and a percent of the price, with its GST rate */
export const FeeView = v.object({ perTicket: v.number(), percent: v.number(), taxRate: v.number() })
export type FeeView = v.InferOutput<typeof FeeView>

/**
 * a fee in words, as the admin's screen and the activity feed give it; `taxed`: whether GST is
 * charged on the fee at all (the platform has a GSTIN)
 */
export function feeSummary(fee: FeeView, taxed = true): string {
  const parts = [
    fee.perTicket > 0
      ? `₹${fee.perTicket.toLocaleString('en-IN', { maximumFractionDigits: 2 })} a ticket`
      : '',
    fee.percent > 0 ? `${fee.percent}% of the price` : '',
  ].filter(Boolean)
  if (parts.length === 0) return 'none'
  return taxed
    ? `${parts.join(' and ')}, GST ${fee.taxRate}% on it`
    : `${parts.join(' and ')}, no GST on it (the platform has no GSTIN: PLATFORM_GSTIN is not set)`
}

/**
 * PUT /admin/booking-fee: the platform's fee on each paid order from now on, rupees a ticket and a
 * percent of the tickets' price (both 0: none), and its GST rate (one of the configured ones,
 * checked by the server). Orders already held keep the fee they were priced with.
 */
export const BookingFeeBody = v.object({
  perTicket: v.pipe(
    v.number('Fee per ticket must be a number of rupees.'),
    v.minValue(0, 'Fee per ticket cannot be negative.'),
    v.maxValue(10_000, 'Fee per ticket must be at most ₹10,000.'),
    v.check(hasWholePaise, 'Fee per ticket can have at most two decimals.'),
  ),
  percent: v.pipe(
    v.number('Fee percent must be a number.'),
    v.minValue(0, 'Fee percent cannot be negative.'),
    v.maxValue(50, 'Fee percent must be at most 50.'),
    v.check(hasWholePaise, 'Fee percent can have at most two decimals.'),
  ),
  taxRate: v.pipe(v.number('GST rate must be a number.'), v.minValue(0, 'GST rate cannot be negative.')),
})
export type BookingFeeBody = v.InferOutput<typeof BookingFeeBody>

/** GET and PUT /admin/booking-fee: the fee charged now, and when an admin last set it (null: the
 * deployment's settings give it) */
export const BookingFeeView = v.object({
  ...FeeView.entries,
  updatedAt: v.nullable(v.string()),
  /** whether GST is charged on the fee: only when the platform has a GSTIN (PLATFORM_GSTIN);
   * without one, its documents are bills of supply */
  taxed: v.boolean(),
})
export type BookingFeeView = v.InferOutput<typeof BookingFeeView>

/** GET /tax-rates: the GST rates a ticket type may have, and the platform's booking fee if any */
export const TaxRatesView = v.object({
  rates: v.array(v.number()),
  fee: v.nullable(FeeView),
})
