// queries.ts on PostgreSQL (issue 15): the same answers from the same rows, awaited.
import { asc, eq, inArray, sql } from 'drizzle-orm'
import type { NodePgDatabase } from 'drizzle-orm/node-postgres'
import type { AsyncQueries } from '../db/store.ts'
import { pgAccounts, pgPasswordResetLinks } from './pg-tables.ts'
import type { AccountQueries } from './queries.ts'

/** text ordered byte by byte, as SQLite's BINARY collation orders it, whatever the database's */
const binary = (column: typeof pgAccounts.createdAt | typeof pgAccounts.id) => sql`${column} collate "C"`

export function pgAccountQueries(db: NodePgDatabase): AsyncQueries<AccountQueries> {
  // Asked on every signed-in request: prepared once (named, so each connection plans it once).
  const byId = db
    .select()
    .from(pgAccounts)
    .where(eq(pgAccounts.id, sql.placeholder('id')))
    .prepare('accounts_by_id')
  const byEmail = db
    .select()
    .from(pgAccounts)
    .where(eq(pgAccounts.email, sql.placeholder('email')))
    .prepare('accounts_by_email')
  return {
    byId: async (id) => (await byId.execute({ id }))[0],
    byEmail: async (email) => (await byEmail.execute({ email: email.toLowerCase() }))[0],
    // by id, as SQLite's plan reads them (its key's index, in order); callers key them by id anyway
    byIds: async (ids) =>
      ids.length === 0
        ? []
        : db
            .select()
            .from(pgAccounts)
            .where(inArray(pgAccounts.id, ids))
            .orderBy(asc(binary(pgAccounts.id))),
    all: () =>
      db
        .select()
        .from(pgAccounts)
        .orderBy(asc(binary(pgAccounts.createdAt)), asc(binary(pgAccounts.id))),
    resetLinkOwner: async (tokenHash) =>
      (
        await db
          .select({ accountId: pgPasswordResetLinks.accountId })
          .from(pgPasswordResetLinks)
          .where(eq(pgPasswordResetLinks.tokenHash, tokenHash))
      )[0]?.accountId,
  }
}
