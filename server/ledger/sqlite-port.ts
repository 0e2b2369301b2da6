// The SQLite ledger (ledger.ts) behind the store's port (db/store.ts): decisions run at once inside
// its synchronous write transaction; reads answer promises of what they read.
import { eq, sql } from 'drizzle-orm'
import { checkpoints } from '../db/schema.ts'
import { type DecisionTx, type LedgerPort, runNow } from '../db/store.ts'
import type { Ledger } from './ledger.ts'

export function sqliteLedgerPort<Reads>(ledger: Ledger, reads: Reads): LedgerPort<Reads> {
  const tx: DecisionTx<Reads> = {
    readStream: (stream) => ledger.readStream(stream),
    readStreamAfter: (stream, version) => ledger.readStreamAfter(stream, version),
    positionOf: (stream, version) => ledger.positionOf(stream, version),
    readSnapshot: (stream) => ledger.readSnapshot(stream),
    writeSnapshot: (snapshot) => ledger.writeSnapshot(snapshot),
    append: (stream, expectedVersion, facts, meta) => ledger.append(stream, expectedVersion, facts, meta),
    reads,
  }
  const readCheckpoint = ledger.db
    .select({ position: checkpoints.position })
    .from(checkpoints)
    .where(eq(checkpoints.name, sql.placeholder('name')))
    .prepare()
  const writeCheckpoint = ledger.db
    .insert(checkpoints)
    .values({
      name: sql.placeholder('name'),
      position: sql.placeholder('position'),
      at: sql.placeholder('at'),
    })
    .onConflictDoUpdate({
      target: checkpoints.name,
      set: { position: sql`excluded.position`, at: sql`excluded.at` },
    })
    .prepare()
  return {
    kind: 'sqlite',
    // one writer: every decision already runs alone (DecisionOptions' locks are for PostgreSQL)
    transaction: async (work) => ledger.transaction(() => runNow(work(tx))),
    transactionInBatch: (work) => ledger.transactionInBatch(() => runNow(work(tx))),
    readStream: async (stream) => ledger.readStream(stream),
    readFrom: async (position, limit) => ledger.readFrom(position, limit),
    head: async () => ledger.head(),
    // one writer: positions commit in order, so the head names everything committed
    version: async () => String(ledger.head()),
    settledHead: async () => ledger.head(),
    // positions commit in order here (one writer): the ledger is tailed in position order
    tail: async (after, limit) =>
      ledger.readFrom(after.position, limit).map((fact) => ({ fact, cursor: { position: fact.position } })),
    peek: async (after, limit) =>
      ledger
        .readFrom(after.position, limit)
        .map((fact) => ({ fact, cursor: { position: fact.position }, settled: true })),
    tailHead: async () => ({ position: ledger.head() }),
    cursorAt: async (position) => ({ position }),
    onAppend: (listener) => ledger.onAppend(listener),
    checkpoints: {
      read: async (name) => {
        const row = readCheckpoint.get({ name })
        return row ? { position: row.position } : undefined
      },
      write: async (name, cursor) => {
        writeCheckpoint.run({ name, position: cursor.position, at: new Date().toISOString() })
      },
    },
  }
}
