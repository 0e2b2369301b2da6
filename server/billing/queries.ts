// Reads of the billing area (issue 42), on either store; other areas read it only through these.
import { sql } from 'drizzle-orm'
import { after, type Now, type Sql, statement } from '../db/sql.ts'
import type { AsyncQueries } from '../db/store.ts'
import type { Series } from './documents.ts'
import {
  type BillingProfileRow,
  type BookingFeeRow,
  billingProfiles,
  bookingFees,
  type InvoiceDocumentRow,
  invoiceDocuments,
} from './tables.ts'

const profile = statement<{ organizerId: string }, Record<string, unknown>>(
  (p) => sql`SELECT ${billingProfiles.columns()} FROM billing_profiles WHERE organizer_id = ${p.organizerId}`,
)

const fee = statement<Record<string, never>, Record<string, unknown>>(
  () => sql`SELECT ${bookingFees.columns()} FROM booking_fees WHERE id = 'platform'`,
)

const lastSeq = statement<{ supplierId: string; series: Series; fy: string }, { seq: number | null }>(
  (p) => sql`SELECT max(seq) AS seq FROM invoice_documents
    WHERE supplier_id = ${p.supplierId} AND series = ${p.series} AND fy = ${p.fy}`,
)

const ofOrder = statement<{ orderId: string }, Record<string, unknown>>(
  (p) => sql`SELECT ${invoiceDocuments.columns()} FROM invoice_documents WHERE order_id = ${p.orderId}
    ORDER BY series, seq`,
)

const seriesOfOrders = statement<{ orderIds: string[] }, { orderId: string; series: Series }>(
  (p, d) => sql`SELECT DISTINCT order_id AS "orderId", series FROM invoice_documents
    WHERE ${d.inList(sql`order_id`, p.orderIds)} AND "of" = 'tickets' ORDER BY order_id, series DESC`,
)

/** a document's place in a register: its day, then invoices before credit notes, by year and number */
export type RegisterPlace = { issuedOn: string; credit: 0 | 1; fy: string; seq: number }

/** before every document of a register from the day `from` */
const registerStart = (from: string): RegisterPlace => ({ issuedOn: from, credit: 0, fy: '', seq: 0 })

// The place's row value seeks invoice_documents_register (supplier, day, credit, year, number) on
// both stores: a batch reads its own rows, however many came before it in the register.
const issuedBy = statement<
  { supplierId: string; to: string; limit: number } & RegisterPlace,
  Record<string, unknown>
>(
  (p) => sql`SELECT ${invoiceDocuments.columns()} FROM invoice_documents
    WHERE supplier_id = ${p.supplierId} AND issued_on <= ${p.to}
      AND (issued_on, credit, fy, seq) > (${p.issuedOn}, ${p.credit}, ${p.fy}, ${p.seq})
    ORDER BY issued_on, credit, fy, seq LIMIT ${p.limit}`,
)

// A buyer's documents are those of their orders: the buyer's orders (orders_buyer_event), then each
// one's documents (invoice_documents_order). A document names its order's buyer.
const ofBuyersOrders = (buyerId: unknown) =>
  sql`order_id IN (SELECT id FROM orders WHERE buyer_id = ${buyerId})`

const boughtBy = statement<{ buyerId: string; limit: number; offset: number }, Record<string, unknown>>(
  (p) => sql`SELECT ${invoiceDocuments.columns()} FROM invoice_documents WHERE ${ofBuyersOrders(p.buyerId)}
    ORDER BY issued_at DESC, order_id DESC, series, "of" DESC LIMIT ${p.limit} OFFSET ${p.offset}`,
)

const countBoughtBy = statement<{ buyerId: string }, { n: number | string }>(
  (p) => sql`SELECT COUNT(*) AS n FROM invoice_documents WHERE ${ofBuyersOrders(p.buyerId)}`,
)

export function billingQueries(x: Sql) {
  const row = billingProfiles.decode(x.dialect)
  const document = invoiceDocuments.decode(x.dialect)
  const feeRow = bookingFees.decode(x.dialect)
  const documents = (rows: Record<string, unknown>[]) => rows.map((r) => document(r) as InvoiceDocumentRow)
  return {
    /** the last number of a supplier's series in a financial year (0 before the first) */
    lastSeq: (supplierId: string, series: Series, fy: string) =>
      after(x.get(lastSeq, { supplierId, series, fy }), (found) => Number(found?.seq ?? 0)),
    /** an order's documents: its invoices, then its credit notes */
    documentsOf: (orderId: string) => after(x.all(ofOrder, { orderId }), documents),
    /** the series of orders' documents for their tickets (not the platform's fee), by order:
     * 'invoice', then 'credit-note' when it has one; an order without any is left out */
    seriesOf: (orderIds: readonly string[]) => {
      if (orderIds.length === 0) return new Map<string, Series[]>()
      return after(x.all(seriesOfOrders, { orderIds: [...new Set(orderIds)] }), (rows) => {
        const byOrder = new Map<string, Series[]>()
        for (const row of rows) byOrder.set(row.orderId, [...(byOrder.get(row.orderId) ?? []), row.series])
        return byOrder
      })
    },
    /** the documents issued to an account as a buyer (the fee's too), newest first by when each
     * was issued (a refund's credit note where the refund falls, not where its order does); at one
     * time, by order, an order's credit notes before its invoices */
    boughtBy: (buyerId: string, limit: number, offset = 0) =>
      after(x.all(boughtBy, { buyerId, limit, offset }), documents),
    /** how many documents were issued to an account as a buyer */
    countBoughtBy: (buyerId: string) =>
      after(x.get(countBoughtBy, { buyerId }), (found) => Number(found?.n ?? 0)),
    /** a supplier's documents issued from one day to another (YYYY-MM-DD, both included), the
     * first `limit` of them after `place` in the register's order (day, invoices before credit
     * notes, year, number): a register read in batches, each from where the last ended */
    issuedBy: (supplierId: string, from: string, to: string, limit: number, place = registerStart(from)) =>
      after(x.all(issuedBy, { supplierId, to, limit, ...place }), documents),
    /** a statement as this store runs it (the register's, a buyer's documents'), and its parameters'
     * names in order: its plan's test */
    sqlOf: (which: 'register' | 'boughtBy') => {
      const { text, params } = (which === 'register' ? issuedBy : boughtBy).compile(x.dialect)
      return { text, names: params.map((p) => (p as { name: string }).name) }
    },
    /** the platform's booking fee as its admins last set it, or undefined before one did */
    bookingFee: () =>
      after(x.get(fee, {}), (found): BookingFeeRow | undefined =>
        found ? (feeRow(found) as BookingFeeRow) : undefined,
      ),
    /** the organizer's billing profile, or undefined before one is set */
    profile: (organizerId: string) =>
      after(x.get(profile, { organizerId }), (found): BillingProfileRow | undefined =>
        found ? (row(found) as BillingProfileRow) : undefined,
      ),
  }
}

export type BillingQueriesNow = Now<ReturnType<typeof billingQueries>>
export type BillingQueries = AsyncQueries<ReturnType<typeof billingQueries>>
