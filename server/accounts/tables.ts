// The accounts area's read model, declared once for both stores (db/read-model.ts).
import type { Role } from '../../contracts/accounts.ts'
import { type RowOf, readModelTable } from '../db/read-model.ts'

export const accounts = readModelTable(
  'accounts',
  (k) => ({
    id: k.text('id').primaryKey(),
    username: k.text('username').notNull(),
    email: k.text('email').notNull(),
    role: k.text('role').notNull().$type<Role>(),
    phone: k.text('phone'),
    passwordHash: k.text('password_hash').notNull(),
    /** ms since epoch (beyond a 32-bit integer); tokens issued before it are no longer accepted */
    passwordChangedAt: k.bigint('password_changed_at').notNull(),
    createdAt: k.text('created_at').notNull(),
  }),
  (t, i) => [i.uniqueIndex('accounts_email').on(t.email), i.index('accounts_role').on(t.role)],
)

/** Which account a reset-link hash belongs to; the decision about it is made on the account stream. */
export const passwordResetLinks = readModelTable('password_reset_links', (k) => ({
  tokenHash: k.text('token_hash').primaryKey(),
  accountId: k.text('account_id').notNull(),
  expiresAt: k.text('expires_at').notNull(),
}))

export type Account = RowOf<typeof accounts>
