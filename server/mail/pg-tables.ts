// The record of sent mails on PostgreSQL (issue 15): server/db/schema.ts's sent_mails in pg-core.
// Not a read model: it records the outside world, so a rebuild keeps it.
import { pgTable, text } from 'drizzle-orm/pg-core'

export const pgSentMails = pgTable('sent_mails', {
  jobId: text('job_id').primaryKey(),
  /** ISO time; for the '~recorded-since' row, when the table was made */
  sentAt: text('sent_at').notNull(),
})
