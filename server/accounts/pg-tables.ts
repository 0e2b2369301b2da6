// The accounts area's read tables on PostgreSQL (issue 15): tables.ts's columns, keys and indexes
// in pg-core, so a row reads the same from either store.
import { bigint, index, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core'
import type { Role } from '../../contracts/accounts.ts'

export const pgAccounts = pgTable(
  'accounts',
  {
    id: text('id').primaryKey(),
    username: text('username').notNull(),
    email: text('email').notNull(),
    role: text('role').notNull().$type<Role>(),
    phone: text('phone'),
    passwordHash: text('password_hash').notNull(),
    /** ms since epoch (beyond a 32-bit integer); tokens issued before it are no longer accepted */
    passwordChangedAt: bigint('password_changed_at', { mode: 'number' }).notNull(),
    createdAt: text('created_at').notNull(),
  },
  (t) => [uniqueIndex('accounts_email').on(t.email), index('accounts_role').on(t.role)],
)

/** Which account a reset-link hash belongs to; the decision about it is made on the account stream. */
export const pgPasswordResetLinks = pgTable('password_reset_links', {
  tokenHash: text('token_hash').primaryKey(),
  accountId: text('account_id').notNull(),
  expiresAt: text('expires_at').notNull(),
})
