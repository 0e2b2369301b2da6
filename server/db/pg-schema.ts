// The ledger and the consumers' checkpoints on PostgreSQL (issue 15: DATABASE_URL), the same
// columns as server/db/schema.ts has for SQLite. Facts keep their JSON as text, byte for byte what
// SQLite holds, so a ledger copied from one store to the other is the same ledger.
import { bigint, integer, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core'

export const pgLedger = pgTable(
  'ledger',
  {
    position: bigint('position', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    stream: text('stream').notNull(),
    version: integer('version').notNull(),
    type: text('type').notNull(),
    data: text('data').notNull(),
    meta: text('meta').notNull(),
    at: text('at').notNull(),
  },
  // The backstop of every stream's versions: two appends of one version can never both commit.
  (t) => [uniqueIndex('ledger_stream_version').on(t.stream, t.version)],
)

export const pgCheckpoints = pgTable('checkpoints', {
  name: text('name').primaryKey(),
  position: bigint('position', { mode: 'number' }).notNull(),
  at: text('at').notNull(),
})
