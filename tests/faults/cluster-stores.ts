// The store under the cluster test (issue 15): the SQLite file in the shared data folder (the
// default), or a PostgreSQL database of its own (--store postgres) that holds the ledger, every read
// model, the consumers' checkpoints and the media for every process. Either way the same invariants
// are checked (tests/support/faults.ts checkInvariants). On PostgreSQL they are checked on a SQLite
// copy of its ledger, made with copyLedger (server/ledger/copy.ts) from one snapshot of the live
// database, which also gives every PostgreSQL read-model table as it stood at that moment: each must
// equal the copy's, row for row (the copy's read models are built by replaying the ledger, so this
// is "read models equal a rebuild" across the stores).
import { randomBytes } from 'node:crypto'
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type pg from 'pg'
import { openDatabase } from '../../server/db/connection.ts'
import { openPostgres, type PgConnection } from '../../server/db/pg-connection.ts'
import { copyLedger } from '../../server/ledger/copy.ts'
import type { StoredFact } from '../../server/ledger/ledger.ts'
import { PgLedger } from '../../server/ledger/pg-ledger.ts'
import { pgAppLedger } from '../../server/pg-projections.ts'
import { appLedger, readModelTables } from '../../server/projections.ts'
import { upcasters } from '../../server/upcasters.ts'
import { everyFact } from '../support/db.ts'
import {
  checkInvariants,
  type InvariantReport,
  type Op,
  readLedger,
  type ServerEnv,
} from '../support/faults.ts'
import {
  documentRowProblems,
  type InvoiceDocumentRow,
  samePostgresCommit,
} from '../support/invoice-invariants.ts'
import { freshDatabase, type TestDatabase } from '../support/postgres.ts'
import { pgRows, sqliteColumns, sqliteRows } from '../support/stores.ts'

export const storeNames = ['sqlite', 'postgres'] as const
export type StoreName = (typeof storeNames)[number]
export const storeLabel: Record<StoreName, string> = { sqlite: 'SQLite', postgres: 'PostgreSQL' }

export type ClusterReport = InvariantReport & {
  /** PostgreSQL only: read-model tables whose rows differ from the SQLite copy's */
  stores: string[]
}

export type ClusterStore = {
  name: StoreName
  /** what every app and worker process is given beside the fault environment */
  env: ServerEnv
  /** what one more process is given beside that (on PostgreSQL: a data folder of its own) */
  processEnv(): ServerEnv
  /** every fact of the live ledger, in position order */
  facts(): Promise<StoredFact[]>
  /** the fault harness's invariants on the live store, against the recorded history */
  check(ops: Op[], scratchDir: string): Promise<ClusterReport>
  /** after the processes are gone: anything the store saw that it should not have */
  afterwards(): string[]
  close(): Promise<void>
}

/**
 * The store for a data folder that seed() (tests/bench/lib/seed.ts) has filled: SQLite uses that
 * file; PostgreSQL gets a fresh database, into which the seeded ledger is copied (PgLedger.copyIn,
 * every fact projected on arrival), and the SQLite file is then removed so that no process can
 * read it by mistake.
 */
export async function openClusterStore(
  name: StoreName,
  dataDir: string,
  /** keep the PostgreSQL database after the run (--keep), for a look at it */
  keep = false,
): Promise<ClusterStore> {
  const databaseFile = join(dataDir, 'ticketing.sqlite')
  if (name === 'sqlite') {
    return {
      name,
      env: {},
      processEnv: () => ({}),
      facts: async () => readLedger(databaseFile),
      check: async (ops, scratchDir) => ({ ...checkInvariants(databaseFile, ops, scratchDir), stores: [] }),
      afterwards: () => [],
      close: async () => {},
    }
  }
  const database = await freshDatabase()
  let postgres: PgConnection | null = null
  try {
    postgres = await openPostgres(database.url, 4)
    const seeded = openDatabase(databaseFile, 'NORMAL')
    try {
      await copyLedger(
        { store: 'sqlite', ledger: appLedger(seeded) },
        { store: 'postgres', ledger: pgAppLedger(postgres.pool) },
      )
    } finally {
      seeded.close()
    }
    for (const suffix of ['', '-wal', '-shm']) rmSync(`${databaseFile}${suffix}`, { force: true })
    const jwtSecret = readFileSync(join(dataDir, 'jwt-secret'), 'utf8')
    return postgresStore(
      postgres,
      keep ? { ...database, drop: async () => {} } : database,
      dataDir,
      jwtSecret,
    )
  } catch (error) {
    await postgres?.close()
    await database.drop()
    throw error
  }
}

function postgresStore(
  postgres: PgConnection,
  database: TestDatabase,
  sharedDir: string,
  jwtSecret: string,
): ClusterStore {
  const ledger = pgAppLedger(postgres.pool)
  const outbox = join(sharedDir, 'outbox')
  mkdirSync(outbox, { recursive: true })
  /** each process's own data folder */
  const dirs: string[] = []
  return {
    name: 'postgres',
    // The buyers' tokens are signed with the secret seed() kept in the data folder: every process
    // must check them with it, and PostgreSQL makes JWT_SECRET required.
    env: { DATABASE_URL: database.url, JWT_SECRET: jwtSecret.trim() },
    // Nothing a process needs lives in its data folder on PostgreSQL (the local gateway's records
    // and the mail record are in the database too): each gets an empty one, whose outbox (the
    // mails written when no SMTP server is set) is the shared one the checks read.
    processEnv() {
      const dir = mkdtempSync(join(tmpdir(), 'cluster-process-'))
      symlinkSync(outbox, join(dir, 'outbox'))
      dirs.push(dir)
      return { DATA_DIR: dir }
    },
    // Appends commit in position order (PgLedger's append lock): pages read one after another
    // make a prefix of the ledger.
    facts: () => everyFact(ledger),
    check: (ops, scratchDir) => checkPostgres(postgres.pool, ops, scratchDir),
    // (the media store stages an upload in uploads/.incoming before it goes into the database: a
    // scratch folder, emptied at start; folders alone hold nothing)
    afterwards: () =>
      dirs.flatMap((dir) => {
        const kept = filesIn(dir).filter(
          (file) => !file.startsWith('outbox/') && !file.startsWith('uploads/.incoming/'),
        )
        return kept.length
          ? [`a process on PostgreSQL kept ${kept.join(', ')} in its own data folder (${dir})`]
          : []
      }),
    async close() {
      for (const dir of dirs) rmSync(dir, { recursive: true, force: true })
      await postgres.close()
      await database.drop()
    },
  }
}

/** The files under a folder (not following the outbox's link), as paths relative to it. */
function filesIn(dir: string, under = ''): string[] {
  return readdirSync(join(dir, under), { withFileTypes: true }).flatMap((entry) => {
    const path = under ? `${under}/${entry.name}` : entry.name
    if (entry.isSymbolicLink()) return []
    return entry.isDirectory() ? filesIn(dir, path) : [path]
  })
}

/**
 * One REPEATABLE READ snapshot of the live PostgreSQL database: its ledger copied into a new SQLite
 * file (copyLedger, the copy's read models built fact by fact) and every read-model table read. Then
 * the SQLite invariants on the copy, and each PostgreSQL table against the copy's. The invoices'
 * "appended with the payment" is judged by the transaction id PostgreSQL keeps with each fact (the
 * ledger's tx column, read in the same snapshot), and PostgreSQL's invoice_documents against the
 * facts themselves.
 */
async function checkPostgres(pool: pg.Pool, ops: Op[], scratchDir: string): Promise<ClusterReport> {
  const copyFile = join(scratchDir, `pg-copy-${randomBytes(4).toString('hex')}.sqlite`)
  const tables = readModelTables()
  const copy = openDatabase(copyFile, 'NORMAL')
  const stores: string[] = []
  /** the transaction of each order stream's fact, by position */
  const txOf = new Map<number, string>()
  let documents: InvoiceDocumentRow[] = []
  try {
    // A client of the store's pool reads bigints as numbers, as the app does.
    const client = await pool.connect()
    const live = new Map<string, Array<Record<string, unknown>>>()
    try {
      await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY')
      // The ledger's reads go through this one client, so through this one snapshot.
      const snapshot = new PgLedger(client as unknown as pg.Pool, [], undefined, upcasters)
      await copyLedger({ store: 'postgres', ledger: snapshot }, { store: 'sqlite', ledger: appLedger(copy) })
      // (on SQLite's columns: PostgreSQL's tables may have columns of their own beside them)
      for (const table of tables)
        live.set(table, await pgRows(client as unknown as pg.Pool, table, sqliteColumns(copy.sqlite, table)))
      const txs = await client.query<{ position: string | number; tx: string }>(
        "SELECT position, tx::text AS tx FROM ledger WHERE stream LIKE 'order-%'",
      )
      for (const row of txs.rows) txOf.set(Number(row.position), row.tx)
      documents = (await client.query<InvoiceDocumentRow>('SELECT * FROM invoice_documents')).rows
      await client.query('COMMIT')
    } finally {
      client.release()
    }
    for (const table of tables) {
      const want = sqliteRows(copy.sqlite, table).map((r) => JSON.stringify(r))
      const have = (live.get(table) ?? []).map((r) => JSON.stringify(r))
      const wanted = new Set(want)
      const had = new Set(have)
      const extra = have.filter((r) => !wanted.has(r))
      const missing = want.filter((r) => !had.has(r))
      if (extra.length || missing.length || want.length !== have.length)
        stores.push(
          `${table}: ${have.length} rows on PostgreSQL, ${want.length} in its ledger's SQLite copy; ` +
            `${extra.length} only on PostgreSQL, ${missing.length} only in the copy` +
            (extra[0] ? `; e.g. PostgreSQL ${extra[0].slice(0, 300)}` : '') +
            (missing[0] ? `; copy ${missing[0].slice(0, 300)}` : ''),
        )
    }
  } finally {
    copy.close()
  }
  try {
    const report = checkInvariants(copyFile, ops, scratchDir, samePostgresCommit(txOf))
    const invoices = [
      ...report.invoices,
      ...documentRowProblems(readLedger(copyFile), documents, 'PostgreSQL'),
    ]
    return { ...report, invoices, stores, ok: report.ok && invoices.length === 0 && stores.length === 0 }
  } finally {
    for (const suffix of ['', '-wal', '-shm']) rmSync(`${copyFile}${suffix}`, { force: true })
  }
}
