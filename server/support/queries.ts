// The support desk's reads, on either store.
import { sql } from 'drizzle-orm'
import { after, type DialectKit, type Sql, statement } from '../db/sql.ts'
import type { AsyncQueries } from '../db/store.ts'
import { streams } from '../ids.ts'
import { type InquiryRow, inquiries } from './tables.ts'

export type { InquiryRow }

/**
 * Newest first (text compared byte by byte); ties in time (the same millisecond) by arrival, the
 * newest first: the position of the inquiry's first fact (the ledger's (stream, version) key), the
 * order SQLite's rowid kept (an update on PostgreSQL moves a row, so its order is not arrival's).
 */
const newestFirst = (d: DialectKit) =>
  sql`ORDER BY ${d.bytes(sql`created_at`)} DESC,
    (SELECT l.position FROM ledger l WHERE l.stream = ${streams.inquiry('')} || inquiries.id AND l.version = 1) DESC`

const all = statement<Record<string, never>, InquiryRow>(
  (_, d) => sql`SELECT ${inquiries.columns()} FROM inquiries ${newestFirst(d)}`,
)

const page = statement<{ limit: number; offset: number }, InquiryRow>(
  (p, d) =>
    sql`SELECT ${inquiries.columns()} FROM inquiries ${newestFirst(d)} LIMIT ${p.limit} OFFSET ${p.offset}`,
)

const count = statement<Record<string, never>, { n: number | string }>(
  () => sql`SELECT count(*) AS n FROM inquiries`,
)

const ofUser = statement<{ userId: string }, InquiryRow>(
  (p, d) => sql`SELECT ${inquiries.columns()} FROM inquiries WHERE user_id = ${p.userId} ${newestFirst(d)}`,
)

const byId = statement<{ id: string }, InquiryRow>(
  (p) => sql`SELECT ${inquiries.columns()} FROM inquiries WHERE id = ${p.id}`,
)

export const supportQueries = (x: Sql) => {
  const row = inquiries.decode(x.dialect)
  const rows = (found: Record<string, unknown>[]) => found.map(row)
  return {
    all: () => after(x.all(all, {}), rows),
    /** `limit` of them from `offset`, in the order of all() */
    page: (limit: number, offset: number) => after(x.all(page, { limit, offset }), rows),
    // PostgreSQL's count(*) is a bigint, answered as text
    count: () => after(x.get(count, {}), (found) => Number(found?.n ?? 0)),
    ofUser: (userId: string) => after(x.all(ofUser, { userId }), rows),
    byId: (id: string) => after(x.get(byId, { id }), (found) => (found ? row(found) : undefined)),
  }
}

/** the reads on either store, awaited (db/store.ts) */
export type SupportQueries = AsyncQueries<ReturnType<typeof supportQueries>>
