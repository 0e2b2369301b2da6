// The ledger and the consumers' checkpoints. Read-model tables live beside their module
// (server/<module>/tables.ts); drizzle.config.ts collects them all for migrations.
import { integer, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core'

export type FactMeta = {
  /** account id of whoever caused the fact, or 'system' */
  actor?: string
  requestId?: string
  /** position of the fact this one reacts to, when a consumer or worker appended it */
  causation?: number
}

export const ledger = sqliteTable(
  'ledger',
  {
    position: integer('position').primaryKey(),
    stream: text('stream').notNull(),
    version: integer('version').notNull(),
    type: text('type').notNull(),
    data: text('data', { mode: 'json' }).notNull().$type<unknown>(),
    meta: text('meta', { mode: 'json' }).notNull().$type<FactMeta>(),
    at: text('at').notNull(),
  },
  (t) => [uniqueIndex('ledger_stream_version').on(t.stream, t.version)],
)

export const checkpoints = sqliteTable('checkpoints', {
  name: text('name').primaryKey(),
  position: integer('position').notNull(),
  at: text('at').notNull(),
})

/**
 * Mails sent, by job id: a mail job that runs again (a worker killed after sending, a Redis that
 * lost its data and had the job enqueued again) sends nothing twice. Not a read model: it records
 * the outside world, so a rebuild keeps it.
 */
export const sentMails = sqliteTable('sent_mails', {
  jobId: text('job_id').primaryKey(),
  sentAt: text('sent_at').notNull(),
})
