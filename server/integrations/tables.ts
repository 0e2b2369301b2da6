// The integrations area's read models (issue 43), declared once for both stores.
import type { TokenScope } from '../../contracts/tokens.ts'
import { type RowOf, readModelTable } from '../db/read-model.ts'

export const apiTokens = readModelTable(
  'api_tokens',
  (k) => ({
    id: k.text('id').primaryKey(),
    accountId: k.text('account_id').notNull(),
    name: k.text('name').notNull(),
    scopes: k.json<TokenScope[]>('scopes').notNull(),
    eventIds: k.json<string[] | null>('event_ids'),
    expiresAt: k.text('expires_at'),
    secretHash: k.text('secret_hash').notNull(),
    createdAt: k.text('created_at').notNull(),
    revokedAt: k.text('revoked_at'),
  }),
  (t, i) => [i.index('api_tokens_account').on(t.accountId)],
)

export type ApiTokenRow = RowOf<typeof apiTokens>
