// Empties every read model and refills it from the ledger, in one transaction. The read models'
// secondary indexes are dropped for the replay and built again at the end (a bulk load is much
// faster into bare tables); primary keys and the conflict targets of upserts stay.
import { getTableName } from 'drizzle-orm'
import type { Ledger } from './ledger.ts'
import { REPLAY_ROWS } from './replay-rows.ts'

export function rebuildReadModels(
  ledger: Ledger,
  pageSize = 5000,
  /** rows the projections' replays hold in memory at most (fewer in a test: written and read back) */
  rowsHeld = REPLAY_ROWS,
): { facts: number; tables: string[] } {
  const tables = [...new Set(ledger.projections.flatMap((p) => p.tables.map((t) => getTableName(t))))]
  const marks = tables.map(() => '?').join(', ')
  const indexes = ledger.sqlite
    .prepare<string[], { name: string; sql: string }>(
      `SELECT name, sql FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL AND tbl_name IN (${marks})`,
    )
    .all(...tables)
  let facts = 0
  // A bulk load: a big page cache and in-memory sorts for the index builds, for its duration.
  const cacheSize = ledger.sqlite.pragma('cache_size', { simple: true })
  ledger.sqlite.pragma('cache_size = -524288')
  ledger.sqlite.pragma('temp_store = MEMORY')
  try {
    ledger.transaction(() => {
      for (const index of indexes) ledger.sqlite.prepare(`DROP INDEX "${index.name}"`).run()
      // Children before parents, in case a table refers to another.
      for (const table of [...tables].reverse()) ledger.sqlite.prepare(`DELETE FROM "${table}"`).run()
      ledger.replaying((project) => {
        let position = 0
        for (;;) {
          const page = ledger.replayFrom(position, pageSize)
          if (page.length === 0) break
          for (const fact of page) project(fact)
          facts += page.length
          position = page[page.length - 1]?.position ?? position
        }
      }, rowsHeld)
      for (const index of indexes) ledger.sqlite.prepare(index.sql).run()
    })
  } finally {
    ledger.sqlite.pragma(`cache_size = ${Number(cacheSize)}`)
    ledger.sqlite.pragma('temp_store = DEFAULT')
  }
  return { facts, tables }
}
