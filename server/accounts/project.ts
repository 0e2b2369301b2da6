import { eq } from 'drizzle-orm'
import { projection } from '../ledger/ledger.ts'
import type { AccountFact } from './facts.ts'
import { accounts, passwordResetLinks } from './tables.ts'

export const accountsProjection = projection<AccountFact>({
  name: 'accounts',
  tables: [accounts, passwordResetLinks],
  handlers: {
    AccountRegistered(fact, db) {
      const d = fact.data
      db.insert(accounts)
        .values({
          id: d.accountId,
          username: d.username,
          email: d.email,
          role: d.role,
          phone: d.phone,
          passwordHash: d.passwordHash,
          passwordChangedAt: Date.parse(fact.at),
          createdAt: fact.at,
        })
        .run()
    },
    PasswordResetRequested(fact, db) {
      const { accountId, tokenHash, expiresAt } = fact.data
      db.delete(passwordResetLinks).where(eq(passwordResetLinks.accountId, accountId)).run()
      db.insert(passwordResetLinks).values({ tokenHash, accountId, expiresAt }).run()
    },
    PasswordReset(fact, db) {
      const { accountId, passwordHash } = fact.data
      db.update(accounts)
        .set({ passwordHash, passwordChangedAt: Date.parse(fact.at) })
        .where(eq(accounts.id, accountId))
        .run()
      db.delete(passwordResetLinks).where(eq(passwordResetLinks.accountId, accountId)).run()
    },
  },
})
