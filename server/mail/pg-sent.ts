// sent.ts on PostgreSQL (issue 15): which mail jobs have been sent, shared by every worker process.
import { eq } from 'drizzle-orm'
import type { NodePgDatabase } from 'drizzle-orm/node-postgres'
import type { AsyncQueries } from '../db/store.ts'
import { pgSentMails } from './pg-tables.ts'
import { RECORDED_SINCE, type SentMailRecord } from './sent.ts'

export function pgSentMailRecord(db: NodePgDatabase): AsyncQueries<SentMailRecord> {
  const sentAt = async (jobId: string) =>
    (await db.select({ sentAt: pgSentMails.sentAt }).from(pgSentMails).where(eq(pgSentMails.jobId, jobId)))[0]
      ?.sentAt
  return {
    wasSent: async (jobId) => (await sentAt(jobId)) !== undefined,
    async record(jobId) {
      await db.insert(pgSentMails).values({ jobId, sentAt: new Date().toISOString() }).onConflictDoNothing()
    },
    /** Facts recorded before this moment had their mails sent untracked (the migration's row). */
    recordedSince: async () => (await sentAt(RECORDED_SINCE)) ?? '',
  }
}
