// A pool of PostgreSQL connections (DATABASE_URL=postgres://…), with drizzle's pg-core over it;
// PostgreSQL's migrations (migrations-pg/) are applied at open, one process at a time.
import { resolve } from 'node:path'
import { drizzle, type NodePgDatabase } from 'drizzle-orm/node-postgres'
import { migrate } from 'drizzle-orm/node-postgres/migrator'
import pg from 'pg'

export const pgMigrationsFolder = resolve(import.meta.dirname, '../../migrations-pg')

/** advisory lock key held while migrations are applied: processes starting together take turns */
const MIGRATIONS_LOCK = 7_401_001

export type PgConnection = { pool: pg.Pool; db: NodePgDatabase; close(): Promise<void> }

/** bigint columns (the ledger's positions) read as numbers: a ledger stays far below 2^53 facts */
const types: pg.CustomTypesConfig = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    oid === pg.types.builtins.INT8
      ? Number
      : pg.types.getTypeParser(oid, format)) as pg.CustomTypesConfig['getTypeParser'],
}

/**
 * How long a connection may sit idle inside a transaction before PostgreSQL ends the session (and
 * rolls the transaction back). Readers tail the ledger only as far as the oldest transaction still
 * running in the database (ledger/pg-ledger.ts): one left open by a stuck process would hold every
 * consumer, live push and activity feed back for as long as it stays open. No transaction of ours
 * waits on anything but its own statements, a lock, or the next step of its decision.
 */
export const IDLE_IN_TRANSACTION_MS = 30_000

export async function openPostgres(url: string, poolSize = 10): Promise<PgConnection> {
  const pool = new pg.Pool({
    connectionString: url,
    max: poolSize,
    types,
    idle_in_transaction_session_timeout: IDLE_IN_TRANSACTION_MS,
  })
  // An idle connection the server drops (a restart, a failover) is an error on the pool: it is
  // replaced on the next checkout, and must not take the process down.
  pool.on('error', () => {})
  // A checked-out connection that drops mid-query (a failover, a database dropped under it) emits
  // its error on the client: the query in flight rejects and is answered; without a listener the
  // process would end on an uncaught 'error'.
  pool.on('connect', (client) => client.on('error', () => {}))
  const client = await pool.connect()
  try {
    await client.query('SELECT pg_advisory_lock($1)', [MIGRATIONS_LOCK])
    try {
      await migrate(drizzle(client), { migrationsFolder: pgMigrationsFolder })
    } finally {
      await client.query('SELECT pg_advisory_unlock($1)', [MIGRATIONS_LOCK])
    }
  } finally {
    client.release()
  }
  return { pool, db: drizzle(pool), close: () => pool.end() }
}
