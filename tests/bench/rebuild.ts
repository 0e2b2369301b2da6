// rebuild: facts/s for `ledger:rebuild` over a million facts, against a raw read of the ledger
// plus raw inserts of the same rows (the least any replay must do).
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { openDatabase } from '../../server/db/connection.ts'
import { rebuildReadModels } from '../../server/ledger/rebuild.ts'
import { appLedger } from '../../server/projections.ts'
import { accountFacts, eventFacts, paidOrderFacts, type Stream } from './lib/fixtures.ts'
import { median, round } from './lib/stats.ts'

export type RebuildResult = {
  facts: number
  rebuildFactsPerSecond: number
  rawCopyRowsPerSecond: number
  ratio: number
  rounds: number
}

/** Writes the streams straight into the ledger table (fast), as the app would have appended them. */
function writeLedger(connection: ReturnType<typeof openDatabase>, streams: Iterable<Stream>): number {
  const insert = connection.sqlite.prepare(
    'INSERT INTO ledger (stream, version, type, data, meta, at) VALUES (?, ?, ?, ?, ?, ?)',
  )
  let n = 0
  const at = new Date().toISOString()
  connection.sqlite.transaction(() => {
    for (const { stream, facts } of streams) {
      facts.forEach((fact, i) => {
        insert.run(stream, i + 1, fact.type, JSON.stringify(fact.data), '{"actor":"bench"}', at)
        n++
      })
    }
  })()
  return n
}

function* history(target: number): Generator<Stream> {
  const accounts = accountFacts(1000, '$argon2id$v=19$m=19456,t=2,p=1$bench$bench')
  yield* accounts
  const buyers = accounts.map((a) => (a.facts[0]?.data as { accountId: string } | undefined)?.accountId ?? '')
  const events = Array.from({ length: 200 }, (_, i) => eventFacts(buyers[0] as string, 'admin', i))
  for (const e of events) yield e.stream
  let written = accounts.length + events.length * 2
  for (let i = 0; written < target; i++) {
    const event = events[i % events.length]?.seed
    if (!event) break
    const order = paidOrderFacts(event, buyers[i % buyers.length] as string, i)
    written += order.facts.length
    yield order
  }
}

export function benchRebuild(target = 1_000_000, rounds = 3): RebuildResult {
  const dir = mkdtempSync(join(tmpdir(), 'bench-rebuild-'))
  try {
    const connection = openDatabase(join(dir, 'ledger.sqlite'), 'NORMAL')
    const facts = writeLedger(connection, history(target))
    const ledger = appLedger(connection)
    connection.sqlite.exec(
      'CREATE TABLE copy (position INTEGER PRIMARY KEY, stream TEXT NOT NULL, version INTEGER NOT NULL, type TEXT NOT NULL, data TEXT NOT NULL, meta TEXT NOT NULL, at TEXT NOT NULL)',
    )
    const copyInsert = connection.sqlite.prepare(
      'INSERT INTO copy (position, stream, version, type, data, meta, at) VALUES (?, ?, ?, ?, ?, ?, ?)',
    )
    const readPage = connection.sqlite.prepare(
      'SELECT * FROM ledger WHERE position > ? ORDER BY position LIMIT 5000',
    )
    const rawCopy = () => {
      connection.sqlite.exec('DELETE FROM copy')
      connection.sqlite.transaction(() => {
        for (let position = 0; ; ) {
          const page = readPage.raw().all(position) as unknown[][]
          if (page.length === 0) break
          for (const row of page) copyInsert.run(...row)
          position = page[page.length - 1]?.[0] as number
        }
      })()
    }
    const ours: number[] = []
    const base: number[] = []
    for (let i = 0; i < rounds; i++) {
      let start = performance.now()
      rawCopy()
      base.push((facts * 1000) / (performance.now() - start))
      start = performance.now()
      const result = rebuildReadModels(ledger)
      if (result.facts !== facts) throw new Error(`rebuilt ${result.facts} of ${facts} facts`)
      ours.push((facts * 1000) / (performance.now() - start))
    }
    connection.close()
    const rebuildFactsPerSecond = median(ours)
    const rawCopyRowsPerSecond = median(base)
    return {
      facts,
      rebuildFactsPerSecond: round(rebuildFactsPerSecond, 0),
      rawCopyRowsPerSecond: round(rawCopyRowsPerSecond, 0),
      ratio: round(rebuildFactsPerSecond / rawCopyRowsPerSecond, 3),
      rounds,
    }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(benchRebuild(Number(process.argv[2] ?? 1_000_000), Number(process.argv[3] ?? 3)))
}
