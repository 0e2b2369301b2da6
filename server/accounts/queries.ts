// Reads of the accounts area; other areas read accounts only through these.
import { asc, eq, inArray } from 'drizzle-orm'
import type { Db } from '../db/connection.ts'
import { accounts, passwordResetLinks } from './tables.ts'

export type Account = typeof accounts.$inferSelect

export const accountQueries = (db: Db) => ({
  byId: (id: string): Account | undefined => db.select().from(accounts).where(eq(accounts.id, id)).get(),
  byEmail: (email: string): Account | undefined =>
    db.select().from(accounts).where(eq(accounts.email, email.toLowerCase())).get(),
  byIds: (ids: string[]): Account[] =>
    ids.length === 0 ? [] : db.select().from(accounts).where(inArray(accounts.id, ids)).all(),
  all: (): Account[] => db.select().from(accounts).orderBy(asc(accounts.createdAt), asc(accounts.id)).all(),
  resetLinkOwner: (tokenHash: string): string | undefined =>
    db
      .select({ accountId: passwordResetLinks.accountId })
      .from(passwordResetLinks)
      .where(eq(passwordResetLinks.tokenHash, tokenHash))
      .get()?.accountId,
})

export type AccountQueries = ReturnType<typeof accountQueries>
