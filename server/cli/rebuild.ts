// npm run ledger:rebuild — empties every read model and replays the whole ledger into it.
import { ConfigError, loadConfig } from '../config.ts'
import { openDatabase } from '../db/connection.ts'
import { openPostgres } from '../db/pg-connection.ts'
import { loadSettings } from '../env-file.ts'
import { rebuildReadModels } from '../ledger/rebuild.ts'
import { pgAppLedger } from '../pg-projections.ts'
import { appLedger, readModelTables } from '../projections.ts'

function rebuildOnSqlite(file: string, synchronous: 'FULL' | 'NORMAL') {
  const connection = openDatabase(file, synchronous)
  try {
    return rebuildReadModels(appLedger(connection))
  } finally {
    connection.close()
  }
}

/** The same tables (by name) as on SQLite, emptied and replayed by PostgreSQL's projections. */
async function rebuildOnPostgres(url: string) {
  const connection = await openPostgres(url, 2)
  try {
    const tables = readModelTables()
    return { facts: await pgAppLedger(connection.pool).rebuild(tables), tables }
  } finally {
    await connection.close()
  }
}

try {
  const config = loadSettings(() => loadConfig())
  const started = performance.now()
  const { facts, tables } = config.databaseUrl
    ? await rebuildOnPostgres(config.databaseUrl)
    : rebuildOnSqlite(config.databaseFile, config.sqliteSynchronous)
  const seconds = (performance.now() - started) / 1000
  console.log(
    `Rebuilt ${tables.length} tables (${tables.join(', ')}) from ${facts} facts in ${seconds.toFixed(2)} s.`,
  )
} catch (error) {
  console.error(error instanceof ConfigError ? error.message : error)
  process.exit(1)
}
