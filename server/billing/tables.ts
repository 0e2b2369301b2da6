// The billing area's read models (issue 42), declared once for both stores (db/read-model.ts).
import { sql } from 'drizzle-orm'
import type { DocumentOf } from '../booking/facts.ts'
import { type RowOf, readModelTable } from '../db/read-model.ts'
import type { Series, StoredDocument } from './documents.ts'

export const billingProfiles = readModelTable('billing_profiles', (k) => ({
  organizerId: k.text('organizer_id').primaryKey(),
  legalName: k.text('legal_name').notNull(),
  gstin: k.text('gstin'),
  address: k.text('address').notNull(),
  state: k.text('state').notNull(),
  invoicePrefix: k.text('invoice_prefix').notNull(),
  updatedAt: k.text('updated_at').notNull(),
}))

export type BillingProfileRow = RowOf<typeof billingProfiles>

/** the platform's booking fee as its admins last set it (BookingFeeSet): one row, id 'platform' */
export const bookingFees = readModelTable('booking_fees', (k) => ({
  id: k.text('id').primaryKey(),
  perTicketPaise: k.integer('per_ticket_paise').notNull(),
  percent: k.real('percent').notNull(),
  ratePercent: k.real('rate_percent').notNull(),
  updatedAt: k.text('updated_at').notNull(),
  /** the admin who set it */
  updatedBy: k.text('updated_by').notNull(),
}))

export type BookingFeeRow = RowOf<typeof bookingFees>

/**
 * Every invoice, bill of supply and credit note issued (InvoiceIssued, CreditNoteIssued), in its
 * supplier's series: the organizer's, or the platform's for booking fees. A series' next number is
 * its greatest seq plus one, read under the supplier's lock; the key refuses a number twice.
 */
export const invoiceDocuments = readModelTable(
  'invoice_documents',
  (k) => ({
    supplierId: k.text('supplier_id').notNull(),
    /** 'invoice' (tax invoices and bills of supply) or 'credit-note' */
    series: k.text('series').notNull().$type<Series>(),
    fy: k.text('fy').notNull(),
    seq: k.integer('seq').notNull(),
    number: k.text('number').notNull(),
    orderId: k.text('order_id').notNull(),
    /** the organizer of the order's event (the fee's documents too) */
    organizerId: k.text('organizer_id').notNull(),
    buyerId: k.text('buyer_id').notNull(),
    /** 'tickets' or 'fee' */
    of: k.text('of').notNull().$type<DocumentOf>(),
    /** the day of issue, YYYY-MM-DD */
    issuedOn: k.text('issued_on').notNull(),
    /** when it was issued (its fact's time, ISO 8601): a buyer's documents newest first. Always
     * written; the default is for the rows a migration finds, which it fills in from the ledger */
    issuedAt: k.text('issued_at').notNull().default(''),
    document: k.json<StoredDocument>('document').notNull(),
    /** 1 for a credit note, else 0: the register's order (invoices before credit notes) as a key */
    credit: k.integerOf('credit', sql`CASE WHEN series = 'credit-note' THEN 1 ELSE 0 END`).notNull(),
  }),
  (t, i) => [
    i.primaryKey({ columns: [t.supplierId, t.series, t.fy, t.seq] }),
    i.index('invoice_documents_order').on(t.orderId),
    // a register's order, so that each of its batches starts where the last ended
    i.index('invoice_documents_register').on(t.supplierId, t.issuedOn, t.credit, t.fy, t.seq),
    // no index of the buyer's: a buyer's documents are their orders' (orders_buyer_event, then
    // invoice_documents_order). One keyed by buyer took a page of its own at random in every
    // payment's commit, for a list each buyer reads now and then
  ],
)

export type InvoiceDocumentRow = RowOf<typeof invoiceDocuments>
