// Accounts, their passwords and their live reset links, on either store.
import { sql } from 'drizzle-orm'
import { statement } from '../db/sql.ts'
import { wait } from '../db/store.ts'
import { readProjection } from '../ledger/read-projection.ts'
import type { AccountFact } from './facts.ts'
import { type Account, accounts, passwordResetLinks } from './tables.ts'

const insertAccount = statement<Account>(
  (
    p,
  ) => sql`INSERT INTO accounts (id, username, email, role, phone, password_hash, password_changed_at, created_at)
    VALUES (${p.id}, ${p.username}, ${p.email}, ${p.role}, ${p.phone}, ${p.passwordHash}, ${p.passwordChangedAt},
      ${p.createdAt})`,
)

const forgetLinks = statement<{ accountId: string }>(
  (p) => sql`DELETE FROM password_reset_links WHERE account_id = ${p.accountId}`,
)

const insertLink = statement<{ tokenHash: string; accountId: string; expiresAt: string }>(
  (p) => sql`INSERT INTO password_reset_links (token_hash, account_id, expires_at)
    VALUES (${p.tokenHash}, ${p.accountId}, ${p.expiresAt})`,
)

const setPassword = statement<{ accountId: string; passwordHash: string; passwordChangedAt: number }>(
  (
    p,
  ) => sql`UPDATE accounts SET password_hash = ${p.passwordHash}, password_changed_at = ${p.passwordChangedAt}
    WHERE id = ${p.accountId}`,
)

export const accountsProjection = readProjection<AccountFact>({
  name: 'accounts',
  tables: [accounts, passwordResetLinks],
  handlers: {
    AccountRegistered: (fact, x) => {
      const d = fact.data
      return x.run(insertAccount, {
        id: d.accountId,
        username: d.username,
        email: d.email,
        role: d.role,
        phone: d.phone,
        passwordHash: d.passwordHash,
        passwordChangedAt: Date.parse(fact.at),
        createdAt: fact.at,
      })
    },
    // a new link replaces the account's earlier one
    *PasswordResetRequested(fact, x) {
      const { accountId, tokenHash, expiresAt } = fact.data
      yield* wait(x.run(forgetLinks, { accountId }))
      yield* wait(x.run(insertLink, { tokenHash, accountId, expiresAt }))
    },
    *PasswordReset(fact, x) {
      const { accountId, passwordHash } = fact.data
      yield* wait(x.run(setPassword, { accountId, passwordHash, passwordChangedAt: Date.parse(fact.at) }))
      yield* wait(x.run(forgetLinks, { accountId }))
    },
  },
})
