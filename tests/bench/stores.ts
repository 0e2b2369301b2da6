// stores: the hot fact of a sale (a hold of one seat, with every projection the app runs) appended
// on both stores the same way, for where each store is the better choice (issue 15). Each store:
// holds one after another (each its own commit), and 64 holds in flight through group commit
// (transactionInBatch), from one connection pool and from two (two processes' worth of pools, in one
// process). Baselines measured the same way: the same row inserted raw, one commit each. SQLite with
// synchronous=FULL (its default); PostgreSQL as this machine runs it (fsync on, as installed).
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { openDatabase } from '../../server/db/connection.ts'
import { openPostgres } from '../../server/db/pg-connection.ts'
import type { PgLedger } from '../../server/ledger/pg-ledger.ts'
import { pgAppLedger } from '../../server/pg-projections.ts'
import { appLedger } from '../../server/projections.ts'
import { freshDatabase } from '../support/postgres.ts'
import { eventFacts, heldFact } from './lib/fixtures.ts'
import { round } from './lib/stats.ts'

const MS = 3000
const IN_FLIGHT = 64

export type StoreFigures = {
  store: 'SQLite' | 'PostgreSQL'
  /** holds one after another, each its own commit */
  sequentialPerSecond: number
  /** the same row inserted raw, one commit each, one after another */
  rawSequentialPerSecond: number
  /** 64 holds in flight, group commit, one pool */
  groupedPerSecond: number
  /** the same from two pools (PostgreSQL only) */
  groupedTwoPoolsPerSecond?: number
}

const { seed, stream } = eventFacts('org', 'admin', 0, 100_000_000)
const type = seed.ticketTypes[0] as (typeof seed.ticketTypes)[number]
let n = 0
const holdFacts = () => {
  const orderId = `o${++n}`
  return { stream: `order-${orderId}`, facts: [heldFact(seed, type, orderId, 'buyer')] }
}
const RAW_ROW = JSON.stringify({ orderId: 'raw', quantity: 1 })

/** operations done in MS by `workers` loops each running `op` one after another */
async function rate(op: () => Promise<unknown>, workers = 1): Promise<number> {
  const until = performance.now() + MS
  let done = 0
  await Promise.all(
    Array.from({ length: workers }, async () => {
      while (performance.now() < until) {
        await op()
        done++
      }
    }),
  )
  return round(done / (MS / 1000), 0)
}

async function sqliteFigures(): Promise<StoreFigures> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-stores-'))
  const connection = openDatabase(join(dir, 'ledger.sqlite'), 'FULL')
  try {
    const ledger = appLedger(connection)
    ledger.append(stream.stream, 0, stream.facts)
    connection.sqlite.exec(
      'CREATE TABLE raw (position INTEGER PRIMARY KEY, stream TEXT, version INTEGER, type TEXT, data TEXT, meta TEXT, at TEXT)',
    )
    const insert = connection.sqlite.prepare(
      'INSERT INTO raw (stream, version, type, data, meta, at) VALUES (?, 1, ?, ?, ?, ?)',
    )
    const raw = connection.sqlite.transaction(() =>
      insert.run(`r${++n}`, 'TicketsHeld', RAW_ROW, '{}', new Date().toISOString()),
    )
    const one = async () => {
      const h = holdFacts()
      ledger.append(h.stream, 0, h.facts)
    }
    const grouped = () =>
      ledger.transactionInBatch(() => {
        const h = holdFacts()
        ledger.append(h.stream, 0, h.facts)
      })
    return {
      store: 'SQLite',
      sequentialPerSecond: await rate(one),
      rawSequentialPerSecond: await rate(async () => raw.immediate()),
      groupedPerSecond: await rate(grouped, IN_FLIGHT),
    }
  } finally {
    connection.close()
    rmSync(dir, { recursive: true, force: true })
  }
}

async function postgresFigures(): Promise<StoreFigures> {
  const database = await freshDatabase()
  const pools = [await openPostgres(database.url, 8), await openPostgres(database.url, 8)]
  try {
    const [first, second] = pools.map((p) => pgAppLedger(p.pool)) as [PgLedger, PgLedger]
    await first.append(stream.stream, 0, stream.facts)
    const pool = pools[0]?.pool
    await pool?.query(
      'CREATE TABLE raw (position bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY, stream text, version int, type text, data text, meta text, at text)',
    )
    const grouped = (ledger: PgLedger) => () =>
      ledger.transactionInBatch(async (tx) => {
        const h = holdFacts()
        await tx.append(h.stream, 0, h.facts)
      })
    return {
      store: 'PostgreSQL',
      sequentialPerSecond: await rate(() => {
        const h = holdFacts()
        return first.append(h.stream, 0, h.facts)
      }),
      rawSequentialPerSecond: await rate(async () =>
        pool?.query(
          "INSERT INTO raw (stream, version, type, data, meta, at) VALUES ($1, 1, 'TicketsHeld', $2, '{}', $3)",
          [`r${++n}`, RAW_ROW, new Date().toISOString()],
        ),
      ),
      groupedPerSecond: await rate(grouped(first), IN_FLIGHT),
      groupedTwoPoolsPerSecond: await (async () => {
        const halves = await Promise.all(
          [first, second].map((ledger) => rate(grouped(ledger), IN_FLIGHT / 2)),
        )
        return halves.reduce((a, b) => a + b, 0)
      })(),
    }
  } finally {
    await Promise.all(pools.map((p) => p.close()))
    await database.drop()
  }
}

export async function benchStores(): Promise<StoreFigures[]> {
  return [await sqliteFigures(), await postgresFigures()]
}

if (import.meta.url === `file://${process.argv[1]}`) console.log(await benchStores())
