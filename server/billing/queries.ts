// Reads of the billing area (issue 42), on either store; other areas read it only through these.
import { sql } from 'drizzle-orm'
import { after, type Now, type Sql, statement } from '../db/sql.ts'
import type { AsyncQueries } from '../db/store.ts'
import { type BillingProfileRow, billingProfiles } from './tables.ts'

const profile = statement<{ organizerId: string }, Record<string, unknown>>(
  (p) => sql`SELECT ${billingProfiles.columns()} FROM billing_profiles WHERE organizer_id = ${p.organizerId}`,
)

export function billingQueries(x: Sql) {
  const row = billingProfiles.decode(x.dialect)
  return {
    /** the organizer's billing profile, or undefined before one is set */
    profile: (organizerId: string) =>
      after(x.get(profile, { organizerId }), (found): BillingProfileRow | undefined =>
        found ? (row(found) as BillingProfileRow) : undefined,
      ),
  }
}

export type BillingQueriesNow = Now<ReturnType<typeof billingQueries>>
export type BillingQueries = AsyncQueries<ReturnType<typeof billingQueries>>
