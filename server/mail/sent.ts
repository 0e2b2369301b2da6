// Which mail jobs have been sent (see the sent_mails table).
import { eq, sql } from 'drizzle-orm'
import type { Db } from '../db/connection.ts'
import { sentMails } from '../db/schema.ts'

/** The row migration 0005 wrote: when sent mails began to be recorded. */
const SINCE = '~recorded-since'

export function sentMailRecord(db: Db) {
  const find = db
    .select({ sentAt: sentMails.sentAt })
    .from(sentMails)
    .where(eq(sentMails.jobId, sql.placeholder('id')))
    .prepare()
  const add = db
    .insert(sentMails)
    .values({ jobId: sql.placeholder('id'), sentAt: sql.placeholder('at') })
    .onConflictDoNothing()
    .prepare()
  return {
    wasSent: (jobId: string) => find.get({ id: jobId }) !== undefined,
    record: (jobId: string) => void add.run({ id: jobId, at: new Date().toISOString() }),
    /** Facts recorded before this moment had their mails sent untracked (before the table existed). */
    recordedSince: () => find.get({ id: SINCE })?.sentAt ?? '',
  }
}

export type SentMailRecord = ReturnType<typeof sentMailRecord>
