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

/**
 * The state a decider kept of a stream as of a version (ledger/decider.ts): an event's stream holds
 * every seat map its organizer saved, and a decision reads the snapshot and the facts after it, not
 * every plan again. Not a read model: only decisions read it, under their stream's version, and a
 * snapshot stays true of its version for ever, so a rebuild keeps it.
 */
export const streamSnapshots = sqliteTable('stream_snapshots', {
  stream: text('stream').primaryKey(),
  /** the decider and the shape of its state: a snapshot of another kind is not used */
  kind: text('kind').notNull(),
  version: integer('version').notNull(),
  /** the ledger position of the stream's fact at that version: a snapshot whose fact is not there
   * (a ledger restored without it) is not used */
  position: integer('position').notNull(),
  state: text('state').notNull(),
})
