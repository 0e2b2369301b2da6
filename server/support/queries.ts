import { desc, eq, sql } from 'drizzle-orm'
import type { Db } from '../db/connection.ts'
import type { AsyncQueries } from '../db/store.ts'
import { inquiries } from './tables.ts'

export type InquiryRow = typeof inquiries.$inferSelect

export const supportQueries = (db: Db) => ({
  all: (): InquiryRow[] =>
    // Ties in time (the same millisecond) go by arrival: the table's rowid.
    db.select().from(inquiries).orderBy(desc(inquiries.createdAt), desc(sql`rowid`)).all(),
  /** `limit` of them from `offset`, in the order of all() */
  page: (limit: number, offset: number): InquiryRow[] =>
    db
      .select()
      .from(inquiries)
      .orderBy(desc(inquiries.createdAt), desc(sql`rowid`))
      .limit(limit)
      .offset(offset)
      .all(),
  count: (): number => db.select({ n: sql<number>`count(*)` }).from(inquiries).get()?.n ?? 0,
  ofUser: (userId: string): InquiryRow[] =>
    db
      .select()
      .from(inquiries)
      .where(eq(inquiries.userId, userId))
      .orderBy(desc(inquiries.createdAt), desc(sql`rowid`))
      .all(),
  byId: (id: string): InquiryRow | undefined => db.select().from(inquiries).where(eq(inquiries.id, id)).get(),
})

/** the SQLite reads as they answer, at once */
export type SupportQueriesNow = ReturnType<typeof supportQueries>
/** the reads on either store, awaited (db/store.ts) */
export type SupportQueries = AsyncQueries<SupportQueriesNow>
