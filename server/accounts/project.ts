import { eq, sql } from 'drizzle-orm'
import { projection } from '../ledger/ledger.ts'
import type { AccountFact } from './facts.ts'
import { accounts, passwordResetLinks } from './tables.ts'

const p = sql.placeholder

export const accountsProjection = projection<AccountFact>({
  name: 'accounts',
  tables: [accounts, passwordResetLinks],
  handlers(db) {
    const insertAccount = db
      .insert(accounts)
      .values({
        id: p('id'),
        username: p('username'),
        email: p('email'),
        role: p('role'),
        phone: p('phone'),
        passwordHash: p('passwordHash'),
        passwordChangedAt: p('passwordChangedAt'),
        createdAt: p('createdAt'),
      })
      .prepare()
    const forgetLinks = db
      .delete(passwordResetLinks)
      .where(eq(passwordResetLinks.accountId, p('accountId')))
      .prepare()
    const insertLink = db
      .insert(passwordResetLinks)
      .values({ tokenHash: p('tokenHash'), accountId: p('accountId'), expiresAt: p('expiresAt') })
      .prepare()
    const setPassword = db
      .update(accounts)
      .set({ passwordHash: sql`${p('passwordHash')}`, passwordChangedAt: sql`${p('passwordChangedAt')}` })
      .where(eq(accounts.id, p('accountId')))
      .prepare()
    return {
      AccountRegistered(fact) {
        const d = fact.data
        insertAccount.run({
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
      PasswordResetRequested(fact) {
        const { accountId, tokenHash, expiresAt } = fact.data
        forgetLinks.run({ accountId })
        insertLink.run({ tokenHash, accountId, expiresAt })
      },
      PasswordReset(fact) {
        const { accountId, passwordHash } = fact.data
        setPassword.run({ passwordHash, passwordChangedAt: Date.parse(fact.at), accountId })
        forgetLinks.run({ accountId })
      },
    }
  },
})
