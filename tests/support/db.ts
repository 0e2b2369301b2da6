// The app's database as a test reads it, on either store (issue 15: the integration suite runs on
// SQLite and on PostgreSQL). A test that looks behind the API (a row, a count, a stored hash) writes
// its SQL once, with `?` placeholders: on SQLite it runs on the app's connection, on PostgreSQL the
// same text with the `?`s numbered ($1…$n) runs on the app's pool. The tables and their snake_case
// columns are the same on both stores; answers are given in SQLite's form (booleans as 0/1, big
// integers and numerics as numbers), so one expectation holds on both.
//
// Mind PostgreSQL where the text differs: an unquoted alias is folded to lower case (write
// `AS "paymentStatus"`), and SQLite's functions (json_set, …) have other names there.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { isDeepStrictEqual } from 'node:util'
import type { FastifyInstance } from 'fastify'
import type pg from 'pg'
import { eventDecider } from '../../server/catalog/decide.ts'
import type { Config } from '../../server/config.ts'
import { migrationsFolder, openDatabase } from '../../server/db/connection.ts'
import { openPostgres, pgMigrationsFolder } from '../../server/db/pg-connection.ts'
import { type Decider, fold } from '../../server/ledger/decider.ts'
import type { StoredFact } from '../../server/ledger/ledger.ts'
import { rebuildReadModels } from '../../server/ledger/rebuild.ts'
import { pgAppLedger } from '../../server/pg-projections.ts'
import { appLedger, readModelTables } from '../../server/projections.ts'
import type { Store } from '../../server/stores.ts'

export type Row = Record<string, unknown>

/** anything that carries the app's store (a FastifyInstance, or a composed platform's holder) */
export type HasStore = FastifyInstance | { platform: { store: Store } }

/** the store this run of the suite uses: TEST_STORE=postgres (vitest's integration-pg), else SQLite */
export const testStore: 'sqlite' | 'postgres' = process.env.TEST_STORE === 'postgres' ? 'postgres' : 'sqlite'

export const storeOf = (app: HasStore): Store => app.platform.store

/** which store the app runs on */
export const storeKind = (app: HasStore): 'sqlite' | 'postgres' =>
  storeOf(app).postgres ? 'postgres' : 'sqlite'

/** `?` placeholders numbered for PostgreSQL ($1…$n); a `?` inside a quoted string or name is kept */
export const numberedPlaceholders = (sql: string): string => {
  let n = 0
  return sql.replace(/'(?:[^']|'')*'|"(?:[^"]|"")*"|\?/g, (match) => (match === '?' ? `$${++n}` : match))
}

const NUMERIC = 1700

/** a value as SQLite gives it: booleans as 0/1, bigints as numbers */
const sqliteForm = (value: unknown): unknown => {
  if (typeof value === 'boolean') return value ? 1 : 0
  if (typeof value === 'bigint') return Number(value)
  return value
}

/** a PostgreSQL result's rows as dbRows answers them (as SQLite's would be) */
export function pgForm(result: pg.QueryResult): Row[] {
  const numerics = new Set(result.fields.filter((f) => f.dataTypeID === NUMERIC).map((f) => f.name))
  return (result.rows as Row[]).map((row) =>
    Object.fromEntries(
      Object.entries(row).map(([k, v]) => [
        k,
        numerics.has(k) && typeof v === 'string' ? Number(v) : sqliteForm(v),
      ]),
    ),
  )
}

function sqliteHandle(store: Store) {
  if (!store.sqlite) throw new Error('the store is neither SQLite nor PostgreSQL')
  return store.sqlite.connection.sqlite
}

/** The app's SQLite database itself, for a test about SQLite (skipped on PostgreSQL). */
export function sqliteOf(app: HasStore) {
  if (!storeOf(app).sqlite) throw new Error('this test is about SQLite, and the app runs on PostgreSQL')
  return sqliteHandle(storeOf(app))
}

/**
 * What a migration's hand-written backfill (its text from `-- Backfill`) makes of the app's rows:
 * `forget` puts the columns back as the migration found them (their defaults), the backfill runs,
 * and `reads` are answered, all in a transaction rolled back after, on the app's store.
 */
export async function afterBackfill(
  app: HasStore,
  migration: { sqlite: string; postgres: string },
  forget: string,
  reads: string[],
): Promise<Row[][]> {
  const store = storeOf(app)
  const file = store.postgres
    ? join(pgMigrationsFolder, migration.postgres)
    : join(migrationsFolder, migration.sqlite)
  const text = readFileSync(file, 'utf8')
  const backfill = text.slice(text.indexOf('-- Backfill'))
  if (store.postgres) {
    const client = await store.postgres.connection.pool.connect()
    try {
      await client.query('BEGIN')
      await client.query(forget)
      await client.query(backfill)
      const answers: Row[][] = []
      for (const read of reads) answers.push(pgForm(await client.query(read)))
      return answers
    } finally {
      await client.query('ROLLBACK')
      client.release()
    }
  }
  const sqlite = sqliteOf(app)
  sqlite.exec('SAVEPOINT backfill')
  try {
    sqlite.exec(forget)
    sqlite.exec(backfill)
    return reads.map((read) => sqlite.prepare(read).all() as Row[])
  } finally {
    sqlite.exec('ROLLBACK TO backfill')
    sqlite.exec('RELEASE backfill')
  }
}

/** The app's SQLite ledger itself (the Ledger class), for a test about SQLite. */
export function sqliteLedger(app: HasStore) {
  const { sqlite } = storeOf(app)
  if (!sqlite) throw new Error('this test is about SQLite, and the app runs on PostgreSQL')
  return sqlite.ledger
}

/** The rows a query answers (`?` placeholders), on the app's store. */
export async function dbRows<R extends object = Row>(
  app: HasStore,
  sql: string,
  ...params: unknown[]
): Promise<R[]> {
  const store = storeOf(app)
  if (store.postgres)
    return pgForm(await store.postgres.connection.pool.query(numberedPlaceholders(sql), params)) as R[]
  const statement = sqliteHandle(store).prepare(sql)
  if (!statement.reader) {
    statement.run(...params)
    return []
  }
  return (statement.all(...params) as Row[]).map(
    (row) => Object.fromEntries(Object.entries(row).map(([k, v]) => [k, sqliteForm(v)])) as R,
  )
}

/** The first row a query answers, if any. */
export const dbRow = async <R extends object = Row>(
  app: HasStore,
  sql: string,
  ...params: unknown[]
): Promise<R | undefined> => (await dbRows<R>(app, sql, ...params))[0]

/** The first column of the first row (a count, one value), or undefined without a row. */
export async function dbValue<T = unknown>(
  app: HasStore,
  sql: string,
  ...params: unknown[]
): Promise<T | undefined> {
  const row = await dbRow(app, sql, ...params)
  return row === undefined ? undefined : (Object.values(row)[0] as T)
}

/** How many rows a table holds. */
export const dbCount = async (app: HasStore, table: string): Promise<number> =>
  Number(await dbValue(app, `SELECT count(*) AS n FROM "${table}"`))

/** SQL for one field of a fact's JSON data (the ledger's data column), as text on PostgreSQL. */
export const factField = (app: HasStore, field: string): string => {
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(field)) throw new Error(`not a plain field name: ${field}`)
  return storeKind(app) === 'postgres' ? `(data::jsonb ->> '${field}')` : `json_extract(data, '$.${field}')`
}

/** The tables of the app's database (every table of SQLite's; PostgreSQL's in the app's schema). */
export async function tableNames(app: HasStore): Promise<string[]> {
  const rows =
    storeKind(app) === 'postgres'
      ? await dbRows<{ name: string }>(
          app,
          "SELECT table_name AS name FROM information_schema.tables WHERE table_schema = current_schema() AND table_type = 'BASE TABLE' ORDER BY 1",
        )
      : await dbRows<{ name: string }>(app, "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY 1")
  return rows.map((row) => row.name)
}

/** Runs a statement that writes (`?` placeholders): how many rows it changed. */
export async function dbRun(app: HasStore, sql: string, ...params: unknown[]): Promise<number> {
  const store = storeOf(app)
  if (store.postgres) {
    return (await store.postgres.connection.pool.query(numberedPlaceholders(sql), params)).rowCount ?? 0
  }
  return sqliteHandle(store)
    .prepare(sql)
    .run(...params).changes
}

/** Runs SQL text of one or more statements, without parameters. */
export async function dbExec(app: HasStore, sql: string): Promise<void> {
  const store = storeOf(app)
  if (store.postgres) await store.postgres.connection.pool.query(sql)
  else sqliteHandle(store).exec(sql)
}

/**
 * Rewrites one field of the JSON data of the stored facts of a stream with a type (a test-only
 * trick: a stored fact is never rewritten otherwise): how many facts it changed.
 */
export async function rewriteFactData(
  app: HasStore,
  { stream, type, field, value }: { stream: string; type: string; field: string; value: string | number },
): Promise<number> {
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(field)) throw new Error(`not a plain field name: ${field}`)
  // The ledger keeps a fact's JSON as text on both stores, byte for byte.
  const sql =
    storeKind(app) === 'postgres'
      ? `UPDATE ledger SET data = jsonb_set(data::jsonb, '{${field}}', to_jsonb(?::${typeof value === 'number' ? 'numeric' : 'text'}))::text WHERE stream = ? AND type = ?`
      : `UPDATE ledger SET data = json_set(data, '$.${field}', ?) WHERE stream = ? AND type = ?`
  return dbRun(app, sql, value, stream, type)
}

/** Every fact of a ledger (either store's), in position order, read a page at a time. */
export async function everyFact(ledger: {
  readFrom(position: number, limit: number): Promise<StoredFact[]>
}): Promise<StoredFact[]> {
  const facts: StoredFact[] = []
  for (let after = 0; ; ) {
    const page = await ledger.readFrom(after, 5000)
    if (page.length === 0) return facts
    facts.push(...page)
    after = (page.at(-1) as StoredFact).position
  }
}

/** Every fact of the app's ledger, in position order. */
export const ledgerFacts = (app: HasStore): Promise<StoredFact[]> => everyFact(storeOf(app).ledger)

/** the deciders that keep snapshots of their streams, by the kind of snapshot each keeps */
const keepers: Record<string, Pick<Decider<unknown, never, never>, 'initialState' | 'evolve'>> = {
  [eventDecider.snapshot?.kind ?? '']: eventDecider as never,
}

/**
 * The decisions' kept states (stream_snapshots) that are not what their streams fold to as of their
 * version (as stored: JSON), or whose fact is not at their position: the streams, with why.
 */
export async function snapshotsDisagreeing(app: HasStore): Promise<string[]> {
  const kept = await dbRows<{
    stream: string
    kind: string
    version: number
    position: number
    state: string
  }>(app, 'SELECT stream, kind, version, position, state FROM stream_snapshots')
  const wrong: string[] = []
  for (const row of kept) {
    const decider = keepers[row.kind]
    if (!decider) {
      wrong.push(`${row.stream} (no decider keeps ${row.kind})`)
      continue
    }
    const facts = (await storeOf(app).ledger.readStream(row.stream)).filter((f) => f.version <= row.version)
    if (facts.length !== Number(row.version) || facts.at(-1)?.position !== Number(row.position))
      wrong.push(`${row.stream} (its fact ${row.version} is not at ${row.position})`)
    else if (
      !isDeepStrictEqual(JSON.parse(JSON.stringify(fold(decider, facts as never[]))), JSON.parse(row.state))
    )
      wrong.push(`${row.stream} (not the state its facts fold to)`)
  }
  return wrong
}

/**
 * Empties every read model and replays the whole ledger into it, on the app's store (ledger:rebuild).
 * First, the decisions' kept states are held to their streams (snapshotsDisagreeing): a rebuild
 * leaves them, so they must already be what the ledger says.
 */
export async function rebuildStore(app: HasStore): Promise<{ facts: number; tables: string[] }> {
  const wrong = await snapshotsDisagreeing(app)
  if (wrong.length > 0) throw new Error(`kept states that their streams disagree with: ${wrong.join('; ')}`)
  const store = storeOf(app)
  if (store.postgres) {
    const tables = readModelTables()
    return { facts: await store.postgres.ledger.rebuild(tables), tables }
  }
  if (!store.sqlite) throw new Error('the store is neither SQLite nor PostgreSQL')
  return rebuildReadModels(store.sqlite.ledger)
}

/**
 * A test's own connection to an app's database while the app is down: history written straight
 * into the ledger, the way an older version of the app or a restored backup left it. The same SQL
 * (`?` placeholders) on either store.
 */
export type OfflineStore = {
  readonly kind: 'sqlite' | 'postgres'
  run(sql: string, ...params: unknown[]): Promise<void>
  rows<R extends object = Row>(sql: string, ...params: unknown[]): Promise<R[]>
  /** runs work's statements in one transaction */
  transaction(work: () => Promise<void>): Promise<void>
  /** empties the read models and replays the ledger into them (npm run ledger:rebuild) */
  rebuild(): Promise<{ facts: number; tables: string[] }>
  close(): Promise<void>
}

/** The database of an app's settings (its DATABASE_URL, else its SQLite file), opened by the test. */
export async function openOffline(config: Config): Promise<OfflineStore> {
  if (!config.databaseUrl) {
    const connection = openDatabase(config.databaseFile, config.sqliteSynchronous)
    const { sqlite } = connection
    return {
      kind: 'sqlite',
      run: async (sql, ...params) => {
        sqlite.prepare(sql).run(...params)
      },
      rows: async <R extends object>(sql: string, ...params: unknown[]) =>
        sqlite.prepare(sql).all(...params) as R[],
      async transaction(work) {
        sqlite.exec('BEGIN IMMEDIATE')
        try {
          await work()
          sqlite.exec('COMMIT')
        } catch (error) {
          sqlite.exec('ROLLBACK')
          throw error
        }
      },
      rebuild: async () => rebuildReadModels(appLedger(connection)),
      close: async () => connection.close(),
    }
  }
  const connection = await openPostgres(config.databaseUrl, 2)
  let client: pg.PoolClient | null = null
  const query = (sql: string, params: unknown[]) =>
    (client ?? connection.pool).query(numberedPlaceholders(sql), params)
  return {
    kind: 'postgres',
    run: async (sql, ...params) => {
      await query(sql, params)
    },
    rows: async <R extends object>(sql: string, ...params: unknown[]) =>
      pgForm(await query(sql, params)) as R[],
    async transaction(work) {
      client = await connection.pool.connect()
      try {
        await client.query('BEGIN')
        await work()
        await client.query('COMMIT')
      } catch (error) {
        await client.query('ROLLBACK')
        throw error
      } finally {
        client.release()
        client = null
      }
    },
    async rebuild() {
      const tables = readModelTables()
      return { facts: await pgAppLedger(connection.pool).rebuild(tables), tables }
    },
    close: () => connection.close(),
  }
}
