// npm run ledger:rebuild — empties every read model and replays the whole ledger into it.
import { ConfigError, loadConfig } from '../config.ts'
import { openDatabase } from '../db/connection.ts'
import { loadSettings } from '../env-file.ts'
import { rebuildReadModels } from '../ledger/rebuild.ts'
import { appLedger } from '../projections.ts'

try {
  const config = loadSettings(() => loadConfig())
  const connection = openDatabase(config.databaseFile, config.sqliteSynchronous)
  const started = performance.now()
  const { facts, tables } = rebuildReadModels(appLedger(connection))
  connection.close()
  const seconds = (performance.now() - started) / 1000
  console.log(
    `Rebuilt ${tables.length} tables (${tables.join(', ')}) from ${facts} facts in ${seconds.toFixed(2)} s.`,
  )
} catch (error) {
  console.error(error instanceof ConfigError ? error.message : error)
  process.exit(1)
}
