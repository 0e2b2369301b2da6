import { index, integer, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core'
import type { Role } from '../../contracts/accounts.ts'

export const accounts = sqliteTable(
  'accounts',
  {
    id: text('id').primaryKey(),
    username: text('username').notNull(),
    email: text('email').notNull(),
    role: text('role').notNull().$type<Role>(),
    phone: text('phone'),
    passwordHash: text('password_hash').notNull(),
    /** ms since epoch; tokens issued before it are no longer accepted */
    passwordChangedAt: integer('password_changed_at').notNull(),
    createdAt: text('created_at').notNull(),
  },
  (t) => [uniqueIndex('accounts_email').on(t.email), index('accounts_role').on(t.role)],
)

/** Which account a reset-link hash belongs to; the decision about it is made on the account stream. */
export const passwordResetLinks = sqliteTable('password_reset_links', {
  tokenHash: text('token_hash').primaryKey(),
  accountId: text('account_id').notNull(),
  expiresAt: text('expires_at').notNull(),
})
