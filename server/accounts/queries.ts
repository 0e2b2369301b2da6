// Reads of the accounts area, on either store; other areas read accounts only through these.
import { sql } from 'drizzle-orm'
import { after, type Sql, statement } from '../db/sql.ts'
import type { AsyncQueries } from '../db/store.ts'
import { type Account, accounts } from './tables.ts'

export type { Account }

// Asked on every signed-in request: prepared once per SQLite connection.
const byId = statement<{ id: string }, Account>(
  (p) => sql`SELECT ${accounts.columns()} FROM accounts WHERE id = ${p.id}`,
)

const byEmail = statement<{ email: string }, Account>(
  (p) => sql`SELECT ${accounts.columns()} FROM accounts WHERE email = ${p.email}`,
)

/** by id, byte by byte (the order SQLite's plan read them in, by its key); callers key them by id anyway */
const byIds = statement<{ ids: string[] }, Account>(
  (p, d) => sql`SELECT ${accounts.columns()} FROM accounts WHERE ${d.inList(sql`id`, p.ids)}
    ORDER BY ${d.bytes(sql`id`)}`,
)

const all = statement<Record<string, never>, Account>(
  (_, d) =>
    sql`SELECT ${accounts.columns()} FROM accounts ORDER BY ${d.bytes(sql`created_at`)}, ${d.bytes(sql`id`)}`,
)

const resetLinkOwner = statement<{ tokenHash: string }, { accountId: string }>(
  (p) => sql`SELECT account_id AS "accountId" FROM password_reset_links WHERE token_hash = ${p.tokenHash}`,
)

export function accountQueries(x: Sql) {
  const row = accounts.decode(x.dialect)
  const one = (found: Record<string, unknown> | undefined) => (found ? row(found) : undefined)
  return {
    byId: (id: string) => after(x.get(byId, { id }), one),
    byEmail: (email: string) => after(x.get(byEmail, { email: email.toLowerCase() }), one),
    byIds: (ids: string[]) => (ids.length === 0 ? [] : after(x.all(byIds, { ids }), (rows) => rows.map(row))),
    all: () => after(x.all(all, {}), (rows) => rows.map(row)),
    resetLinkOwner: (tokenHash: string) =>
      after(x.get(resetLinkOwner, { tokenHash }), (found) => found?.accountId),
  }
}

/** the reads on either store, awaited (db/store.ts) */
export type AccountQueries = AsyncQueries<ReturnType<typeof accountQueries>>
