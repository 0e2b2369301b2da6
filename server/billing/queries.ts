// Reads of the billing area (issue 42), on either store; other areas read it only through these.
import { sql } from 'drizzle-orm'
import { after, type Now, type Sql, statement } from '../db/sql.ts'
import type { AsyncQueries } from '../db/store.ts'
import type { Series } from './documents.ts'
import {
  type BillingProfileRow,
  billingProfiles,
  type InvoiceDocumentRow,
  invoiceDocuments,
} from './tables.ts'

const profile = statement<{ organizerId: string }, Record<string, unknown>>(
  (p) => sql`SELECT ${billingProfiles.columns()} FROM billing_profiles WHERE organizer_id = ${p.organizerId}`,
)

const lastSeq = statement<{ supplierId: string; series: Series; fy: string }, { seq: number | null }>(
  (p) => sql`SELECT max(seq) AS seq FROM invoice_documents
    WHERE supplier_id = ${p.supplierId} AND series = ${p.series} AND fy = ${p.fy}`,
)

const ofOrder = statement<{ orderId: string }, Record<string, unknown>>(
  (p) => sql`SELECT ${invoiceDocuments.columns()} FROM invoice_documents WHERE order_id = ${p.orderId}
    ORDER BY series, seq`,
)

const issuedBy = statement<{ supplierId: string; from: string; to: string }, Record<string, unknown>>(
  (p) => sql`SELECT ${invoiceDocuments.columns()} FROM invoice_documents
    WHERE supplier_id = ${p.supplierId} AND issued_on >= ${p.from} AND issued_on <= ${p.to}
    ORDER BY issued_on, series = 'credit-note', fy, seq`,
)

export function billingQueries(x: Sql) {
  const row = billingProfiles.decode(x.dialect)
  const document = invoiceDocuments.decode(x.dialect)
  const documents = (rows: Record<string, unknown>[]) => rows.map((r) => document(r) as InvoiceDocumentRow)
  return {
    /** the last number of a supplier's series in a financial year (0 before the first) */
    lastSeq: (supplierId: string, series: Series, fy: string) =>
      after(x.get(lastSeq, { supplierId, series, fy }), (found) => Number(found?.seq ?? 0)),
    /** an order's documents: its invoices, then its credit notes */
    documentsOf: (orderId: string) => after(x.all(ofOrder, { orderId }), documents),
    /** a supplier's documents issued from one day to another (YYYY-MM-DD, both included) */
    issuedBy: (supplierId: string, from: string, to: string) =>
      after(x.all(issuedBy, { supplierId, from, to }), documents),
    /** the organizer's billing profile, or undefined before one is set */
    profile: (organizerId: string) =>
      after(x.get(profile, { organizerId }), (found): BillingProfileRow | undefined =>
        found ? (row(found) as BillingProfileRow) : undefined,
      ),
  }
}

export type BillingQueriesNow = Now<ReturnType<typeof billingQueries>>
export type BillingQueries = AsyncQueries<ReturnType<typeof billingQueries>>
