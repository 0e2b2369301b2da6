// Folds the billing area's facts into billing_profiles (issue 42), on either store.
import { sql } from 'drizzle-orm'
import { statement } from '../db/sql.ts'
import { readProjection } from '../ledger/read-projection.ts'
import type { BillingFact } from './facts.ts'
import { billingProfiles } from './tables.ts'

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

export const billingProjection = readProjection<BillingFact>({
  name: 'billing',
  tables: [billingProfiles],
  handlers: {
    BillingProfileSet: (fact, x) => x.run(putProfile, { ...fact.data, at: fact.at }),
  },
})
