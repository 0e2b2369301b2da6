// Folds the integrations area's facts into api_tokens (issue 43), on either store.
import { sql } from 'drizzle-orm'
import { statement } from '../db/sql.ts'
import { readProjection } from '../ledger/read-projection.ts'
import type { IntegrationFact } from './facts.ts'
import { apiTokens } from './tables.ts'

const insertToken = statement<{
  id: string
  accountId: string
  name: string
  scopes: string
  eventIds: string | null
  expiresAt: string | null
  secretHash: string
  at: string
}>(
  (
    p,
  ) => sql`INSERT INTO api_tokens (id, account_id, name, scopes, event_ids, expires_at, secret_hash, created_at)
    VALUES (${p.id}, ${p.accountId}, ${p.name}, ${p.scopes}, ${p.eventIds}, ${p.expiresAt}, ${p.secretHash}, ${p.at})`,
)

const revoke = statement<{ id: string; at: string }>(
  (p) => sql`UPDATE api_tokens SET revoked_at = ${p.at} WHERE id = ${p.id}`,
)

export const integrationsProjection = readProjection<IntegrationFact>({
  name: 'integrations',
  tables: [apiTokens],
  handlers: {
    ApiTokenCreated: (fact, x) => {
      const d = fact.data
      return x.run(insertToken, {
        id: d.tokenId,
        accountId: d.accountId,
        name: d.name,
        scopes: JSON.stringify(d.scopes),
        eventIds: d.eventIds ? JSON.stringify(d.eventIds) : null,
        expiresAt: d.expiresAt,
        secretHash: d.secretHash,
        at: fact.at,
      })
    },
    ApiTokenRevoked: (fact, x) => x.run(revoke, { id: fact.data.tokenId, at: fact.at }),
  },
})
