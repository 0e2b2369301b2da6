// The ledger and the consumers' checkpoints on PostgreSQL (issue 15: DATABASE_URL), the same
// columns as server/db/schema.ts has for SQLite. Facts keep their JSON as text, byte for byte what
// SQLite holds, so a ledger copied from one store to the other is the same ledger.
import { sql } from 'drizzle-orm'
import { bigint, customType, index, integer, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core'

/** a transaction's id as PostgreSQL gives it (pg_current_xact_id()), read and written as text */
const xid8 = customType<{ data: string; driverData: string }>({ dataType: () => 'xid8' })

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
    /** the transaction that appended the fact: readers tail the ledger in (tx, position) order,
     * only as far as no transaction still running can commit before (pg-ledger.ts) */
    tx: xid8('tx').notNull().default(sql`pg_current_xact_id()`),
  },
  (t) => [
    // The backstop of every stream's versions: two appends of one version can never both commit.
    uniqueIndex('ledger_stream_version').on(t.stream, t.version),
    index('ledger_tx_position').on(t.tx, t.position),
  ],
)

/** server/db/schema.ts's stream_snapshots: a decider's state of a stream as of a version */
export const pgStreamSnapshots = pgTable('stream_snapshots', {
  stream: text('stream').primaryKey(),
  kind: text('kind').notNull(),
  version: integer('version').notNull(),
  position: bigint('position', { mode: 'number' }).notNull(),
  state: text('state').notNull(),
})

export const pgCheckpoints = pgTable('checkpoints', {
  name: text('name').primaryKey(),
  /** the last fact the consumer handled: where it stands in the ledger's reading order is that
   * fact's (tx, position) (pg-ledger.ts) */
  position: bigint('position', { mode: 'number' }).notNull(),
  at: text('at').notNull(),
})
