// The ledger's contract on both stores (issue 15): SQLite under DATA_DIR and PostgreSQL, each a real
// database (PostgreSQL: a database of this file's own). The same cases run on each, through the
// async face the PostgreSQL ledger has; then what only several writers at once can show, on
// PostgreSQL: readers never skip a fact, and decisions are never made on stale state.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openDatabase } from '../../server/db/connection.ts'
import { openPostgres, type PgConnection } from '../../server/db/pg-connection.ts'
import { Ledger, type StoredFact, StreamVersionConflict } from '../../server/ledger/ledger.ts'
import { PgLedger, type PgProjection, type PgTx } from '../../server/ledger/pg-ledger.ts'
import { freshDatabase, type TestDatabase } from '../support/postgres.ts'
import { allFacts } from '../support/stores.ts'

const fact = (n: number) => ({ type: 'Counted', data: { n } })

/** What the cases below use of a ledger: the PostgreSQL one's (async) face. */
type Store = {
  append(stream: string, expected: number | 'any', facts: ReturnType<typeof fact>[]): Promise<StoredFact[]>
  readStream(stream: string): Promise<StoredFact[]>
  readFrom(position: number, limit?: number): Promise<StoredFact[]>
  head(): Promise<number>
  version(stream: string): Promise<number>
  batch(fns: Array<'ok' | 'fail'>): Promise<Array<'ok' | 'failed'>>
  close(): Promise<void>
}

const conflictOr = (run: () => Promise<unknown>) =>
  run().then(
    () => 'ok' as const,
    (error: unknown) => {
      if (error instanceof StreamVersionConflict) return 'conflict' as const
      throw error
    },
  )

async function sqliteStore(): Promise<Store> {
  const dir = mkdtempSync(join(tmpdir(), 'ledger-stores-'))
  const connection = openDatabase(join(dir, 'ledger.sqlite'))
  const ledger = new Ledger(connection, [])
  return {
    append: async (stream, expected, facts) => ledger.append(stream, expected, facts),
    readStream: async (stream) => ledger.readStream(stream),
    readFrom: async (position, limit) => ledger.readFrom(position, limit),
    head: async () => ledger.head(),
    version: async (stream) => ledger.version(stream),
    batch: (fns) =>
      Promise.all(
        fns.map((what, i) =>
          ledger
            .transactionInBatch(() => {
              ledger.append(`batch-${i}`, 0, [fact(i)])
              if (what === 'fail') throw new Error('refused')
            })
            .then(
              () => 'ok' as const,
              () => 'failed' as const,
            ),
        ),
      ),
    async close() {
      connection.close()
      rmSync(dir, { recursive: true, force: true })
    },
  }
}

async function postgresStore(database: TestDatabase): Promise<Store & { connection: PgConnection }> {
  const connection = await openPostgres(database.url)
  const ledger = new PgLedger(connection.pool, [])
  return {
    connection,
    append: (stream, expected, facts) => ledger.append(stream, expected, facts),
    readStream: (stream) => ledger.readStream(stream),
    readFrom: (position, limit) => ledger.readFrom(position, limit),
    head: () => ledger.head(),
    version: (stream) => ledger.version(stream),
    batch: (fns) =>
      Promise.all(
        fns.map((what, i) =>
          ledger
            .transactionInBatch(async (tx) => {
              await tx.append(`batch-${i}`, 0, [fact(i)])
              if (what === 'fail') throw new Error('refused')
            })
            .then(
              () => 'ok' as const,
              () => 'failed' as const,
            ),
        ),
      ),
    close: () => connection.close(),
  }
}

let database: TestDatabase
beforeAll(async () => {
  database = await freshDatabase()
})
afterAll(async () => {
  await database?.drop()
})

describe.each([
  ['SQLite', () => sqliteStore()],
  ['PostgreSQL', () => postgresStore(database)],
] as const)('the ledger on %s', (_, open) => {
  let store: Store
  beforeAll(async () => {
    store = await open()
  })
  afterAll(async () => {
    await store?.close()
  })

  it('gives each stream versions 1, 2, … and the ledger increasing positions', async () => {
    const a = await store.append('thing-a', 0, [fact(1), fact(2)])
    const b = await store.append('thing-b', 0, [fact(3)])
    const c = await store.append('thing-a', 2, [fact(4)])
    expect([...a, ...c].map((f) => f.version)).toEqual([1, 2, 3])
    const positions = [...a, ...b, ...c].map((f) => f.position)
    expect(positions).toEqual([...positions].sort((x, y) => x - y))
    expect(new Set(positions).size).toBe(4)
    expect((await store.readStream('thing-a')).map((f) => f.data)).toEqual([{ n: 1 }, { n: 2 }, { n: 4 }])
    expect((await store.readFrom(a[1]?.position ?? 0)).map((f) => f.position)).toEqual(positions.slice(2))
    expect(await store.head()).toBe(positions[3])
  })

  it('refuses an append at a stale version with a typed conflict, and keeps nothing of it', async () => {
    await store.append('thing-c', 0, [fact(1)])
    const refused = await store.append('thing-c', 0, [fact(2)]).catch((error: unknown) => error)
    expect(refused).toBeInstanceOf(StreamVersionConflict)
    expect(refused).toMatchObject({ stream: 'thing-c', expected: 0, actual: 1 })
    expect(await store.readStream('thing-c')).toHaveLength(1)
  })

  it('lets exactly one of 50 concurrent deciders at the same version append', async () => {
    // Each read the stream before any appended (as 50 requests deciding at once), then awaits
    // something (as a route hashing a password would) and appends at the version it read.
    const read = await Promise.all(Array.from({ length: 50 }, () => store.version('race-1')))
    expect(new Set(read)).toEqual(new Set([0]))
    const outcomes = await Promise.all(
      read.map(async (expected, i) => {
        await new Promise((r) => setTimeout(r, Math.random() * 5))
        return conflictOr(() => store.append('race-1', expected, [fact(i)]))
      }),
    )
    expect(outcomes.filter((o) => o === 'ok')).toHaveLength(1)
    expect(outcomes.filter((o) => o === 'conflict')).toHaveLength(49)
    expect(await store.readStream('race-1')).toHaveLength(1)
  })

  it('commits a batch together, rolling back only the work that failed (group commit)', async () => {
    const outcomes = await store.batch(['ok', 'fail', 'ok', 'fail', 'ok'])
    expect(outcomes).toEqual(['ok', 'failed', 'ok', 'failed', 'ok'])
    const kept = await Promise.all([0, 1, 2, 3, 4].map((i) => store.readStream(`batch-${i}`)))
    expect(kept.map((facts) => facts.length)).toEqual([1, 0, 1, 0, 1])
  })
})

describe('a SQLite ledger copied into PostgreSQL (copyIn)', () => {
  it('holds the same facts, positions and versions, and appends after them', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ledger-copy-'))
    const sqlite = openDatabase(join(dir, 'ledger.sqlite'))
    const source = new Ledger(sqlite, [])
    source.append('copy-a', 0, [fact(1), fact(2)])
    source.append('copy-b', 0, [fact(3)], { actor: 'someone', requestId: 'r-1' })
    source.append('copy-a', 2, [fact(4)])
    const copyDb = await freshDatabase()
    const target = await openPostgres(copyDb.url)
    try {
      const ledger = new PgLedger(target.pool)
      await ledger.copyIn(allFacts(source))
      expect(await ledger.readFrom(0, 100)).toEqual(allFacts(source))
      const [next] = await ledger.append('copy-a', 3, [fact(5)])
      expect(next).toMatchObject({ position: source.head() + 1, version: 4 })
    } finally {
      await target.close()
      await copyDb.drop()
      sqlite.close()
      rmSync(dir, { recursive: true, force: true })
    }
  })
})

describe('the ledger on PostgreSQL with several writers at once', () => {
  let connections: PgConnection[] = []
  const ledgers = (count: number, serialise = true) =>
    connections.slice(0, count).map((c) => new PgLedger(c.pool, [], undefined, undefined, serialise))
  beforeAll(async () => {
    // four pools: four processes' worth of connections
    connections = await Promise.all([1, 2, 3, 4].map(() => openPostgres(database.url, 4)))
  })
  afterAll(async () => {
    await Promise.all(connections.map((c) => c.close()))
  })

  /** Tails the ledger as a consumer does (from its checkpoint), until `stop`; what it saw, in order. */
  const tail = (ledger: PgLedger, from: number, stop: () => boolean) =>
    (async () => {
      const seen: number[] = []
      let checkpoint = from
      for (let idle = 0; idle < 3; ) {
        const facts = await ledger.readFrom(checkpoint, 100)
        for (const f of facts) seen.push(f.position)
        checkpoint = facts.at(-1)?.position ?? checkpoint
        if (facts.length === 0 && stop()) idle++
        if (facts.length === 0) await new Promise((r) => setTimeout(r, 2))
      }
      return seen
    })()

  /**
   * A fact whose transaction is still open when a later one commits: appended at position p, held
   * open until the other has committed (p + 1) and a reader has read, then committed. What the reader
   * sees of the ledger from just before p, read once now and once when both have committed.
   */
  async function slowThenFast(serialise: boolean) {
    const [slow, fast, reader] = ledgers(3, serialise) as [PgLedger, PgLedger, PgLedger]
    const start = await reader.head()
    let appended!: () => void
    const slowAppended = new Promise<void>((resolve) => {
      appended = resolve
    })
    let release!: () => void
    const held = new Promise<void>((resolve) => {
      release = resolve
    })
    const slowDone = slow.transaction(async (tx: PgTx) => {
      await tx.append('slow-1', 'any', [fact(1)])
      appended()
      await held
    })
    await slowAppended
    // The fast writer either waits for the slow one's lock (serialised) or commits at once.
    const fastDone = fast.append('fast-1', 'any', [fact(2)])
    const fastFirst = await Promise.race([
      fastDone.then(() => true),
      new Promise<boolean>((r) => setTimeout(() => r(false), 300)),
    ])
    // A consumer reads now, and moves its checkpoint past what it read.
    const readNow = await reader.readFrom(start, 100)
    const checkpoint = readNow.at(-1)?.position ?? start
    release()
    await Promise.all([slowDone, fastDone])
    const readAfter = await reader.readFrom(checkpoint, 100)
    const everything = await reader.readFrom(start, 100)
    return {
      fastFirst,
      seen: [...readNow, ...readAfter].map((f) => f.stream),
      stored: everything.map((f) => f.stream),
    }
  }

  it('a reader tailing the ledger sees every fact: appends are serialised, so positions become visible in order', async () => {
    const run = await slowThenFast(true)
    expect(run.fastFirst).toBe(false)
    expect(run.seen).toEqual(['slow-1', 'fast-1'])
    expect(run.stored).toEqual(['slow-1', 'fast-1'])
  })

  it('(the same without the append lock skips a fact: the test above fails on such a ledger)', async () => {
    const run = await slowThenFast(false)
    expect(run.fastFirst).toBe(true)
    // both facts are stored, but the reader, past fast-1's position, never sees slow-1
    expect(run.stored.sort()).toEqual(['fast-1', 'slow-1'])
    expect(run.seen).toEqual(['fast-1'])
  })

  it('four writers appending 800 facts at once, and a reader tailing them: each fact seen once, in order', async () => {
    const writers = ledgers(4)
    const reader = new PgLedger((connections[0] as PgConnection).pool)
    const start = await reader.head()
    let writing = true
    const seen = tail(reader, start, () => !writing)
    const written = await Promise.all(
      writers.map(async (ledger, w) => {
        const positions: number[] = []
        for (let i = 0; i < 200; i++) {
          const [stored] = await (i % 2 === 0
            ? ledger.append(`writer-${w}-${i}`, 0, [fact(i)])
            : ledger.transactionInBatch((tx) => tx.append(`writer-${w}-${i}`, 0, [fact(i)])))
          positions.push(stored?.position ?? 0)
        }
        return positions
      }),
    )
    writing = false
    const all = written.flat().sort((a, b) => a - b)
    expect(all).toHaveLength(800)
    expect(await seen).toEqual(all)
  })

  it('decides under the lock: 300 holds of one seat each, from four pools at once, on 100 seats hold exactly 100', async () => {
    // A projection keeps the seats held, in the append's transaction; a hold reads it and decides.
    const admin = new pg.Client({ connectionString: database.url })
    await admin.connect()
    await admin.query('CREATE TABLE seats_held (event text PRIMARY KEY, held int NOT NULL)')
    await admin.query("INSERT INTO seats_held VALUES ('gala', 0)")
    await admin.end()
    const counting: PgProjection = {
      name: 'seats',
      handlers: {
        async SeatHeld(_, tx) {
          await tx.query("UPDATE seats_held SET held = held + 1 WHERE event = 'gala'")
        },
      },
    }
    const writers = connections.map((c) => new PgLedger(c.pool, [counting]))
    const hold = (ledger: PgLedger, buyer: number) =>
      ledger.transactionInBatch(async (tx) => {
        const [row] = await tx.query<{ held: number }>("SELECT held FROM seats_held WHERE event = 'gala'")
        // the await between the read and the append is where another process's hold would slip in
        await new Promise((r) => setImmediate(r))
        if ((row?.held ?? 0) >= 100) return 'sold out'
        await tx.append(`hold-${buyer}`, 0, [{ type: 'SeatHeld', data: { buyer } }])
        return 'held'
      })
    const outcomes = await Promise.all(
      Array.from({ length: 300 }, (_, buyer) => hold(writers[buyer % 4] as PgLedger, buyer)),
    )
    expect(outcomes.filter((o) => o === 'held')).toHaveLength(100)
    const { rows } = await (connections[0] as PgConnection).pool.query(
      "SELECT (SELECT held FROM seats_held) AS held, (SELECT count(*)::int FROM ledger WHERE type = 'SeatHeld') AS facts",
    )
    expect(rows[0]).toEqual({ held: 100, facts: 100 })
  })
})
