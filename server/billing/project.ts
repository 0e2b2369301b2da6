// Folds the billing area's facts into billing_profiles, booking_fees and invoice_documents (issue
// 42), on either store.
import { sql } from 'drizzle-orm'
import type { CreditNoteIssued, InvoiceIssued } from '../booking/facts.ts'
import { statement } from '../db/sql.ts'
import type { StoredFact } from '../ledger/ledger.ts'
import { readProjection } from '../ledger/read-projection.ts'
import type { Series } from './documents.ts'
import type { BillingFact } from './facts.ts'
import { billingProfiles, bookingFees, invoiceDocuments } from './tables.ts'

const putProfile = statement<{
  organizerId: string
  legalName: string
  gstin: string | null
  address: string
  state: string
  invoicePrefix: string
  at: string
}>(
  (
    p,
  ) => sql`INSERT INTO billing_profiles (organizer_id, legal_name, gstin, address, state, invoice_prefix, updated_at)
    VALUES (${p.organizerId}, ${p.legalName}, ${p.gstin}, ${p.address}, ${p.state}, ${p.invoicePrefix}, ${p.at})
    ON CONFLICT (organizer_id) DO UPDATE SET legal_name = excluded.legal_name, gstin = excluded.gstin,
      address = excluded.address, state = excluded.state, invoice_prefix = excluded.invoice_prefix,
      updated_at = excluded.updated_at`,
)

const putFee = statement<{
  perTicketPaise: number
  percent: number
  ratePercent: number
  at: string
  by: string
}>(
  (p) => sql`INSERT INTO booking_fees (id, per_ticket_paise, percent, rate_percent, updated_at, updated_by)
    VALUES ('platform', ${p.perTicketPaise}, ${p.percent}, ${p.ratePercent}, ${p.at}, ${p.by})
    ON CONFLICT (id) DO UPDATE SET per_ticket_paise = excluded.per_ticket_paise, percent = excluded.percent,
      rate_percent = excluded.rate_percent, updated_at = excluded.updated_at, updated_by = excluded.updated_by`,
)

const putDocument = statement<{
  supplierId: string
  series: Series
  fy: string
  seq: number
  number: string
  orderId: string
  organizerId: string
  buyerId: string
  of: string
  issuedOn: string
  issuedAt: string
  document: string
}>(
  (p) => sql`INSERT INTO invoice_documents (supplier_id, series, fy, seq, number, order_id, organizer_id,
      buyer_id, of, issued_on, issued_at, document)
    VALUES (${p.supplierId}, ${p.series}, ${p.fy}, ${p.seq}, ${p.number}, ${p.orderId}, ${p.organizerId},
      ${p.buyerId}, ${p.of}, ${p.issuedOn}, ${p.issuedAt}, ${p.document})`,
)

/** a document issued, in its series (a number drawn twice is refused by the table's key) */
const documentRow = (series: Series, fact: StoredFact<InvoiceIssued | CreditNoteIssued>) => {
  const d = fact.data
  return {
    supplierId: d.supplierId,
    series,
    fy: d.fy,
    seq: d.seq,
    number: d.number,
    orderId: d.orderId,
    organizerId: d.organizerId,
    buyerId: d.buyerId,
    of: d.of,
    issuedOn: d.document.date,
    issuedAt: fact.at,
    document: JSON.stringify(d.document),
  }
}

export const billingProjection = readProjection<BillingFact | InvoiceIssued | CreditNoteIssued>({
  name: 'billing',
  tables: [billingProfiles, bookingFees, invoiceDocuments],
  handlers: {
    BillingProfileSet: (fact, x) => x.run(putProfile, { ...fact.data, at: fact.at }),
    BookingFeeSet: (fact, x) => x.run(putFee, { ...fact.data, at: fact.at, by: fact.meta.actor ?? 'system' }),
    InvoiceIssued: (fact, x) => x.run(putDocument, documentRow('invoice', fact)),
    CreditNoteIssued: (fact, x) => x.run(putDocument, documentRow('credit-note', fact)),
  },
})
