// The waits for ledger streams to grow (server/booking/stream-waits.ts, what a buyer's confirmation
// waits on), on a real SQLite ledger opened twice, as two processes open it: an append of this
// process wakes its wait at once, another process's append is found by the one shared tail of the
// ledger within its poll (long before the wait's own fallback read), and a wait nobody appends to
// ends at its fallback. On PostgreSQL, a fact committing below a position the shared tail has
// passed still wakes its wait.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { streamWaits } from '../../server/booking/stream-waits.ts'
import { openDatabase } from '../../server/db/connection.ts'
import { openPostgres, type PgConnection } from '../../server/db/pg-connection.ts'
import { Ledger } from '../../server/ledger/ledger.ts'
import { PgLedger, pgLedgerPort } from '../../server/ledger/pg-ledger.ts'
import { sqliteLedgerPort } from '../../server/ledger/sqlite-port.ts'
import { freshDatabase, heldAppend, type TestDatabase } from '../support/postgres.ts'

let dir: string
let here: Ledger
let elsewhere: Ledger

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'stream-waits-'))
  here = new Ledger(openDatabase(join(dir, 'ledger.sqlite')), [])
  elsewhere = new Ledger(openDatabase(join(dir, 'ledger.sqlite')), [])
})

afterAll(() => {
  rmSync(dir, { recursive: true, force: true })
})

const fact = { type: 'Counted', data: { n: 1 } }
/** the ledger as the app's port gives it */
const port = (ledger: Ledger) => sqliteLedgerPort(ledger, {})
const timed = async (work: () => Promise<void>) => {
  const started = performance.now()
  await work()
  return performance.now() - started
}

describe('stream waits', () => {
  it("wakes a wait at once on this process's append, and on another's within the shared poll", async () => {
    const waits = streamWaits(port(here), { pollMs: 50, fallbackMs: 10_000 })
    const mine = await waits.watch('order-a')
    const ms = await timed(async () => {
      setTimeout(() => here.append('order-a', 'any', [fact]), 20)
      await mine.next()
    })
    expect(mine.grew).toBe(true)
    expect(ms).toBeLessThan(1000)
    mine.stop()

    const theirs = await waits.watch('order-b')
    // another stream growing wakes nobody
    elsewhere.append('order-c', 'any', [fact])
    const other = await timed(async () => {
      setTimeout(() => elsewhere.append('order-b', 'any', [fact]), 100)
      await theirs.next()
    })
    expect(theirs.grew).toBe(true)
    expect(other).toBeGreaterThanOrEqual(90)
    expect(other).toBeLessThan(2000)
    theirs.stop()
    expect(waits.watched).toBe(0)
  })

  it('ends a wait nobody appends to at its fallback, and at the time asked if sooner', async () => {
    const waits = streamWaits(port(here), { pollMs: 50, fallbackMs: 300 })
    const quiet = await waits.watch('order-quiet')
    const fallback = await timed(() => quiet.next())
    expect(quiet.grew).toBe(false)
    expect(fallback).toBeGreaterThanOrEqual(250)
    expect(fallback).toBeLessThan(2000)
    const sooner = await timed(() => quiet.next(50))
    expect(sooner).toBeLessThan(250)
    quiet.stop()
    expect(waits.watched).toBe(0)
  })
})

describe('stream waits on PostgreSQL', () => {
  let database: TestDatabase
  let connections: PgConnection[] = []
  beforeAll(async () => {
    database = await freshDatabase()
    // two processes' worth of connections: a slow writer's and a fast writer's, the waits on the second
    connections = await Promise.all([1, 2].map(() => openPostgres(database.url, 4)))
  })
  afterAll(async () => {
    await Promise.all(connections.map((c) => c.close()))
    await database?.drop()
  })

  it('hears a fact that commits below a position the shared read has passed, with no read of its own', async () => {
    const [slow, fast] = connections.map((c) => new PgLedger(c.pool, [])) as [PgLedger, PgLedger]
    // the wait's own read is a minute away: only the shared read can wake it in time
    const waits = streamWaits(
      pgLedgerPort(fast, () => ({})),
      { pollMs: 50, fallbackMs: 60_000 },
    )
    const watch = await waits.watch('slow-1')
    // slow-1 takes its position first and commits last; fast-1 commits above it meanwhile, and the
    // shared read polls past fast-1 several times while slow-1 is still uncommitted
    const { release, committed: slowDone } = await heldAppend(slow, 'slow-1', fact)
    await fast.append('fast-1', 'any', [fact])
    await new Promise((r) => setTimeout(r, 300))
    expect(watch.grew).toBe(false)
    release()
    await slowDone
    const heard = await timed(() => watch.next())
    expect(watch.grew).toBe(true)
    expect(heard).toBeLessThan(5000)
    watch.stop()
    expect(waits.watched).toBe(0)
  })
})
