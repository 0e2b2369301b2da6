// Which mail jobs have been sent (see the sent_mails table).
import { eq, sql } from 'drizzle-orm'
import type { Db } from '../db/connection.ts'
import { committedPerTurn } from '../db/per-turn.ts'
import { sentMails } from '../db/schema.ts'

/**
 * The row migration 0005 wrote (on PostgreSQL, the migration of its sent_mails): when sent mails
 * began to be recorded.
 */
export const RECORDED_SINCE = '~recorded-since'

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
  // The mails sent in one turn of the event loop (the queue runs several at once) are recorded in
  // one commit: each on its own was a commit, and with FULL durability an fsync, holding the event
  // loop ~0.7 ms per mail (issue 18's purchase profile). Each is answered once its commit is done.
  const addAll = db.$client.transaction((ids: string[], at: string) => {
    for (const id of ids) add.run({ id, at })
  })
  const record = committedPerTurn<string>((ids) => addAll.immediate(ids, new Date().toISOString()))
  return {
    wasSent: (jobId: string) => find.get({ id: jobId }) !== undefined,
    record,
    /** Facts recorded before this moment had their mails sent untracked (before the table existed). */
    recordedSince: () => find.get({ id: RECORDED_SINCE })?.sentAt ?? '',
  }
}

export type SentMailRecord = ReturnType<typeof sentMailRecord>

/**
 * What both records offer (this one on SQLite, answering at once; pgSentMailRecord on PostgreSQL,
 * answering promises): every answer is to be awaited.
 */
export type SentMails = {
  [K in keyof SentMailRecord]: (
    ...args: Parameters<SentMailRecord[K]>
  ) => ReturnType<SentMailRecord[K]> | Promise<ReturnType<SentMailRecord[K]>>
}
