// Reads of the accounts area; other areas read accounts only through these.
import { asc, eq, inArray, sql } from 'drizzle-orm'
import type { Db } from '../db/connection.ts'
import type { AsyncQueries } from '../db/store.ts'
import { accounts, passwordResetLinks } from './tables.ts'

export type Account = typeof accounts.$inferSelect

export function accountQueries(db: Db) {
  // Asked on every signed-in request: prepared once.
  const byId = db
    .select()
    .from(accounts)
    .where(eq(accounts.id, sql.placeholder('id')))
    .prepare()
  const byEmail = db
    .select()
    .from(accounts)
    .where(eq(accounts.email, sql.placeholder('email')))
    .prepare()
  return {
    byId: (id: string): Account | undefined => byId.get({ id }),
    byEmail: (email: string): Account | undefined => byEmail.get({ email: email.toLowerCase() }),
    byIds: (ids: string[]): Account[] =>
      ids.length === 0 ? [] : db.select().from(accounts).where(inArray(accounts.id, ids)).all(),
    all: (): Account[] => db.select().from(accounts).orderBy(asc(accounts.createdAt), asc(accounts.id)).all(),
    resetLinkOwner: (tokenHash: string): string | undefined =>
      db
        .select({ accountId: passwordResetLinks.accountId })
        .from(passwordResetLinks)
        .where(eq(passwordResetLinks.tokenHash, tokenHash))
        .get()?.accountId,
  }
}

/** the SQLite reads as they answer, at once */
export type AccountQueriesNow = ReturnType<typeof accountQueries>
/** the reads on either store, awaited (db/store.ts) */
export type AccountQueries = AsyncQueries<AccountQueriesNow>
