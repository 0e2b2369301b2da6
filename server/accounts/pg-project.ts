// project.ts on PostgreSQL (issue 15): the same rows from the same facts, in the append's transaction.
import type { StoredFact } from '../ledger/ledger.ts'
import type { PgProjection, PgTx } from '../ledger/pg-ledger.ts'
import type { AccountFact } from './facts.ts'

type Handlers = {
  [T in AccountFact['type']]: (fact: StoredFact<Extract<AccountFact, { type: T }>>, tx: PgTx) => Promise<void>
}

const forgetLinks = (tx: PgTx, accountId: string) =>
  tx.query('DELETE FROM password_reset_links WHERE account_id = $1', [accountId])

const handlers: Handlers = {
  async AccountRegistered(fact, tx) {
    const d = fact.data
    await tx.query(
      `INSERT INTO accounts (id, username, email, role, phone, password_hash, password_changed_at, created_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
      [d.accountId, d.username, d.email, d.role, d.phone, d.passwordHash, Date.parse(fact.at), fact.at],
    )
  },
  async PasswordResetRequested(fact, tx) {
    const { accountId, tokenHash, expiresAt } = fact.data
    await forgetLinks(tx, accountId)
    await tx.query(
      'INSERT INTO password_reset_links (token_hash, account_id, expires_at) VALUES ($1, $2, $3)',
      [tokenHash, accountId, expiresAt],
    )
  },
  async PasswordReset(fact, tx) {
    const { accountId, passwordHash } = fact.data
    await tx.query('UPDATE accounts SET password_hash = $1, password_changed_at = $2 WHERE id = $3', [
      passwordHash,
      Date.parse(fact.at),
      accountId,
    ])
    await forgetLinks(tx, accountId)
  },
}

export const pgAccountsProjection: PgProjection = {
  name: 'accounts',
  handlers: handlers as PgProjection['handlers'],
}
