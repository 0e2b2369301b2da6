// The billing area's read models (issue 42), declared once for both stores (db/read-model.ts).
import { type RowOf, readModelTable } from '../db/read-model.ts'

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
