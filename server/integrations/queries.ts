// Reads of the integrations area (issue 43), on either store.
import { sql } from 'drizzle-orm'
import { after, type Now, type Sql, statement } from '../db/sql.ts'
import type { AsyncQueries } from '../db/store.ts'
import { type ApiTokenRow, apiTokens } from './tables.ts'

const byId = statement<{ id: string }, Record<string, unknown>>(
  (p) => sql`SELECT ${apiTokens.columns()} FROM api_tokens WHERE id = ${p.id}`,
)

const ofAccount = statement<{ accountId: string }, Record<string, unknown>>(
  (
    p,
  ) => sql`SELECT ${apiTokens.columns()} FROM api_tokens WHERE account_id = ${p.accountId} AND revoked_at IS NULL
    ORDER BY created_at, id`,
)

export function integrationQueries(x: Sql) {
  const row = apiTokens.decode(x.dialect)
  return {
    /** a token by its id (revoked ones too) */
    token: (id: string) =>
      after(x.get(byId, { id }), (found) => (found ? (row(found) as ApiTokenRow) : undefined)),
    /** an account's tokens not revoked, oldest first */
    tokensOf: (accountId: string) =>
      after(x.all(ofAccount, { accountId }), (rows) => rows.map((r) => row(r) as ApiTokenRow)),
  }
}

export type IntegrationQueriesNow = Now<ReturnType<typeof integrationQueries>>
export type IntegrationQueries = AsyncQueries<ReturnType<typeof integrationQueries>>
