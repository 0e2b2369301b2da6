// Empties every read model and refills it from the ledger, in one transaction.
import { getTableName } from 'drizzle-orm'
import type { Ledger } from './ledger.ts'

export function rebuildReadModels(ledger: Ledger, pageSize = 5000): { facts: number; tables: string[] } {
  const tables = [...new Set(ledger.projections.flatMap((p) => p.tables.map((t) => getTableName(t))))]
  let facts = 0
  ledger.transaction(() => {
    // Children before parents, in case a table refers to another.
    for (const table of [...tables].reverse()) ledger.sqlite.prepare(`DELETE FROM "${table}"`).run()
    let position = 0
    for (;;) {
      const page = ledger.readFrom(position, pageSize)
      if (page.length === 0) break
      for (const fact of page) ledger.project(fact)
      facts += page.length
      position = page[page.length - 1]?.position ?? position
    }
  })
  return { facts, tables }
}
