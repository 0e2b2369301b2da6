// append: facts/s for one fact and its inline projections, against raw better-sqlite3
// single-row insert transactions on the same pragmas, for synchronous NORMAL and FULL.
import { mkdtempSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { openDatabase } from '../../server/db/connection.ts'
import { Ledger } from '../../server/ledger/ledger.ts'
import { appLedger } from '../../server/projections.ts'
import { eventFacts, heldFact } from './lib/fixtures.ts'
import { median, opsPerSecond, round } from './lib/stats.ts'

export type AppendResult = {
  synchronous: 'NORMAL' | 'FULL'
  ledgerFactsPerSecond: number
  /** The same fact appended with no projection: what the ledger row and its checks cost alone. */
  ledgerOnlyFactsPerSecond: number
  rawInsertsPerSecond: number
  /** WAL pages each commit writes (the cost that grows with every table and index a fact touches). */
  walPagesPerCommit: { hold: number; ledgerOnly: number; raw: number }
  ratio: number
  rounds: number
}

const ROUNDS = 5
const ROUND_MS = 1500

export function benchAppend(synchronous: 'NORMAL' | 'FULL'): AppendResult {
  const dir = mkdtempSync(join(tmpdir(), 'bench-append-'))
  try {
    const connection = openDatabase(join(dir, 'ledger.sqlite'), synchronous)
    const ledger = appLedger(connection)
    const bare = new Ledger(connection, [])
    // An approved event whose seats the appended holds take (the flash sale's hot fact).
    const { seed, stream } = eventFacts('org', 'admin', 0, 100_000_000)
    ledger.append(stream.stream, 0, stream.facts)
    const type = seed.ticketTypes[0] as (typeof seed.ticketTypes)[number]
    let n = 0
    const holdIn = (into: Ledger) => () => {
      const orderId = `o${++n}`
      into.append(`order-${orderId}`, 0, [heldFact(seed, type, orderId, 'buyer')])
    }
    const hold = holdIn(ledger)
    const holdBare = holdIn(bare)
    // The baseline: the same row, inserted raw, one transaction each.
    connection.sqlite.exec(
      'CREATE TABLE raw (position INTEGER PRIMARY KEY, stream TEXT NOT NULL, version INTEGER NOT NULL, type TEXT NOT NULL, data TEXT NOT NULL, meta TEXT NOT NULL, at TEXT NOT NULL)',
    )
    const insert = connection.sqlite.prepare(
      'INSERT INTO raw (stream, version, type, data, meta, at) VALUES (?, ?, ?, ?, ?, ?)',
    )
    const rawTx = connection.sqlite.transaction((i: number) =>
      insert.run(
        `order-r${i}`,
        1,
        'TicketsHeld',
        JSON.stringify({ orderId: `r${i}`, quantity: 1 }),
        '{}',
        new Date().toISOString(),
      ),
    )
    let r = 0
    const raw = () => rawTx.immediate(++r)

    const ours: number[] = []
    const base: number[] = []
    const bareOnes: number[] = []
    for (let i = 0; i < ROUNDS; i++) {
      base.push(opsPerSecond(raw, ROUND_MS, 50))
      ours.push(opsPerSecond(hold, ROUND_MS, 50))
      bareOnes.push(opsPerSecond(holdBare, ROUND_MS, 50))
    }
    // Pages per commit, from the WAL's growth over 1,000 commits with checkpoints held off.
    const wal = join(dir, 'ledger.sqlite-wal')
    const pageSize = Number(connection.sqlite.pragma('page_size', { simple: true }))
    connection.sqlite.pragma('wal_autocheckpoint = 0')
    const pagesPerCommit = (op: () => void) => {
      connection.sqlite.pragma('wal_checkpoint(TRUNCATE)')
      for (let i = 0; i < 1000; i++) op()
      return round(statSync(wal).size / (pageSize + 24) / 1000, 2)
    }
    const walPagesPerCommit = {
      hold: pagesPerCommit(hold),
      ledgerOnly: pagesPerCommit(holdBare),
      raw: pagesPerCommit(raw),
    }
    connection.close()
    const ledgerFactsPerSecond = median(ours)
    const rawInsertsPerSecond = median(base)
    return {
      synchronous,
      ledgerFactsPerSecond: round(ledgerFactsPerSecond, 0),
      ledgerOnlyFactsPerSecond: round(median(bareOnes), 0),
      rawInsertsPerSecond: round(rawInsertsPerSecond, 0),
      walPagesPerCommit,
      ratio: round(ledgerFactsPerSecond / rawInsertsPerSecond, 3),
      rounds: ROUNDS,
    }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  for (const mode of ['NORMAL', 'FULL'] as const) console.log(benchAppend(mode))
}
