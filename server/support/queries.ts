import { desc, eq, sql } from 'drizzle-orm'
import type { Db } from '../db/connection.ts'
import { inquiries } from './tables.ts'

export type InquiryRow = typeof inquiries.$inferSelect

export const supportQueries = (db: Db) => ({
  all: (): InquiryRow[] =>
    // Ties in time (the same millisecond) go by arrival: the table's rowid.
    db.select().from(inquiries).orderBy(desc(inquiries.createdAt), desc(sql`rowid`)).all(),
  ofUser: (userId: string): InquiryRow[] =>
    db
      .select()
      .from(inquiries)
      .where(eq(inquiries.userId, userId))
      .orderBy(desc(inquiries.createdAt), desc(sql`rowid`))
      .all(),
  byId: (id: string): InquiryRow | undefined => db.select().from(inquiries).where(eq(inquiries.id, id)).get(),
})

export type SupportQueries = ReturnType<typeof supportQueries>
