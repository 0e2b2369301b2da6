// queries.ts on PostgreSQL (issue 15): the same answers from the same rows, awaited.
import { desc, eq, type SQL, sql } from 'drizzle-orm'
import type { NodePgDatabase } from 'drizzle-orm/node-postgres'
import type { AsyncQueries } from '../db/store.ts'
import { streams } from '../ids.ts'
import { pgInquiries } from './pg-tables.ts'
import type { SupportQueries } from './queries.ts'

/**
 * Newest first; ties in time (the same millisecond) by arrival, as SQLite's rowid orders them.
 * PostgreSQL has no stable row order of its own (an update moves a row), so arrival is the
 * position of the inquiry's first fact, found by the ledger's (stream, version) key.
 */
const newestFirst: SQL[] = [
  desc(sql`${pgInquiries.createdAt} collate "C"`),
  desc(
    sql`(select l.position from ledger l where l.stream = ${streams.inquiry('')} || ${pgInquiries.id} and l.version = 1)`,
  ),
]

export const pgSupportQueries = (db: NodePgDatabase): AsyncQueries<SupportQueries> => ({
  all: () =>
    db
      .select()
      .from(pgInquiries)
      .orderBy(...newestFirst),
  page: (limit, offset) =>
    db
      .select()
      .from(pgInquiries)
      .orderBy(...newestFirst)
      .limit(limit)
      .offset(offset),
  count: async () => Number((await db.select({ n: sql<number>`count(*)` }).from(pgInquiries))[0]?.n ?? 0),
  ofUser: (userId) =>
    db
      .select()
      .from(pgInquiries)
      .where(eq(pgInquiries.userId, userId))
      .orderBy(...newestFirst),
  byId: async (id) => (await db.select().from(pgInquiries).where(eq(pgInquiries.id, id)))[0],
})
