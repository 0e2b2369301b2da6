// The ledger's contract on both stores (issue 15): SQLite under DATA_DIR and PostgreSQL, each a real
// database (PostgreSQL: a database of this file's own). The same cases run on each, through the
// async face the PostgreSQL ledger has; then what only several writers at once can show, on
// PostgreSQL: readers never skip a fact, and decisions are never made on stale state.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { EMAIL_TAKEN } from '../../server/accounts/decide.ts'
import { registerAccount } from '../../server/accounts/register.ts'
import { bookingCommands, type SeatsLeft } from '../../server/booking/commands.ts'
import { NOT_ENOUGH_TICKETS } from '../../server/booking/decide.ts'
import type { TicketTypeRow } from '../../server/catalog/queries.ts'
import { openDatabase } from '../../server/db/connection.ts'
import { openPostgres, type PgConnection } from '../../server/db/pg-connection.ts'
import { type LedgerCursor, type LedgerPort, wait } from '../../server/db/store.ts'
import { DomainError } from '../../server/errors.ts'
import { type Decider, fold, handleCommand } from '../../server/ledger/decider.ts'
import { Ledger, type StoredFact, StreamVersionConflict } from '../../server/ledger/ledger.ts'
import { PgLedger, type PgProjection, type PgTx, pgLedgerPort } from '../../server/ledger/pg-ledger.ts'
import { sqliteLedgerPort } from '../../server/ledger/sqlite-port.ts'
import { type AppLedger, type Store as AppStore, postgresStore as appStoreOn } from '../../server/stores.ts'
import { freshDatabase, heldAppend, type TestDatabase } from '../support/postgres.ts'
import { allFacts } from '../support/stores.ts'

const fact = (n: number) => ({ type: 'Counted', data: { n } })
const sleepFor = (ms: number) => new Promise((r) => setTimeout(r, ms))

/** What the cases below use of a ledger: the PostgreSQL one's (async) face. */
type Store = {
  append(stream: string, expected: number | 'any', facts: ReturnType<typeof fact>[]): Promise<StoredFact[]>
  readStream(stream: string): Promise<StoredFact[]>
  readFrom(position: number, limit?: number): Promise<StoredFact[]>
  head(): Promise<number>
  version(stream: string): Promise<number>
  batch(fns: Array<'ok' | 'fail'>): Promise<Array<'ok' | 'failed'>>
  /** the ledger as the app's decisions see it (db/store.ts) */
  port: LedgerPort<unknown>
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
    port: sqliteLedgerPort(ledger, {}),
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
    port: pgLedgerPort(ledger, () => ({})),
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

  it("keeps a decider's state after a heavy fact or every few facts, and decides on it and the facts after", async () => {
    type Counting = { type: 'Counted'; data: { n: number } } | { type: 'Heavy'; data: { body: string } }
    const counter: Decider<{ sum: number; heavy: number }, { add: number } | 'heavy', Counting> = {
      initialState: () => ({ sum: 0, heavy: 0 }),
      evolve: (state, f) =>
        f.type === 'Heavy' ? { ...state, heavy: state.heavy + 1 } : { ...state, sum: state.sum + f.data.n },
      decide: (command) =>
        command === 'heavy'
          ? [{ type: 'Heavy', data: { body: 'x'.repeat(1000) } }]
          : [{ type: 'Counted', data: { n: command.add } }],
      snapshot: { kind: 'counter-1', after: new Set(['Heavy']), every: 3 },
    }
    const stream = 'kept-1'
    const run = (command: { add: number } | 'heavy') =>
      handleCommand(store.port, counter, { stream, command })
    const kept = () =>
      store.port.transaction(function* (tx) {
        return yield* wait(tx.readSnapshot(stream))
      })
    await run({ add: 1 })
    await run({ add: 2 })
    expect(await kept()).toBeUndefined()
    // the third fact read or decided since none was kept
    expect((await run({ add: 3 })).state).toEqual({ sum: 6, heavy: 0 })
    const third = (await store.readStream(stream))[2]
    expect(await kept()).toEqual({
      stream,
      kind: 'counter-1',
      version: 3,
      position: third?.position,
      state: { sum: 6, heavy: 0 },
    })
    // one fact after it: decided on the state kept and that fact, nothing kept again
    const fourth = await run({ add: 4 })
    expect(fourth).toMatchObject({ state: { sum: 10, heavy: 0 }, version: 4 })
    expect((await kept())?.version).toBe(3)
    // a heavy fact is kept at once, with the facts before it
    expect((await run('heavy')).version).toBe(5)
    expect(await kept()).toMatchObject({
      stream,
      kind: 'counter-1',
      version: 5,
      state: { sum: 10, heavy: 1 },
    })
    const all = (await store.readStream(stream)) as StoredFact<Counting>[]
    expect((await run({ add: 5 })).state).toEqual(
      fold(counter, [...all, { type: 'Counted', data: { n: 5 } }] as never),
    )
    // a decider whose state changed shape reads none of it: the whole stream
    const renamed = { ...counter, snapshot: { ...counter.snapshot, kind: 'counter-2' } } as typeof counter
    const whole = await handleCommand(store.port, renamed, { stream, command: { add: 0 } })
    expect(whole).toMatchObject({ state: { sum: 15, heavy: 1 }, version: 7 })
    expect(await kept()).toMatchObject({ kind: 'counter-2', version: 7 })
    // one whose fact is not where it was (a ledger restored without it) is not read either
    await store.port.transaction(function* (tx) {
      const position = (yield* wait(tx.positionOf(stream, 7))) as number
      yield* wait(
        tx.writeSnapshot({
          stream,
          kind: 'counter-2',
          version: 7,
          position: position + 1,
          state: { sum: 99, heavy: 0 },
        }),
      )
    })
    expect((await handleCommand(store.port, renamed, { stream, command: { add: 1 } })).state).toEqual({
      sum: 16,
      heavy: 1,
    })
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

describe('the ledger on PostgreSQL across a power of ten in transaction ids', () => {
  it('tails in the order of the transactions as numbers: 98, 99, 100, 101, each once', async () => {
    // Transactions' ids cross 10^k as a database ages: facts of tx 99 and 100 are then tailed
    // together. Four facts given those ids (below any running transaction's, so settled), in a
    // database of their own (ids out of commit order at its head would mislead any other reader),
    // read two at a time from just before them, as a consumer reads its pages.
    const db = await freshDatabase()
    const connection = await openPostgres(db.url)
    try {
      const reader = new PgLedger(connection.pool)
      const positions = new Map<string, number>()
      for (const tx of ['100', '98', '101', '99']) {
        const { rows } = await connection.pool.query<{ position: string }>(
          `INSERT INTO ledger (stream, version, type, data, meta, at, tx)
           VALUES ($1, 1, 'Counted', '{"n":1}', '{}', $2, $3::xid8) RETURNING position`,
          [`across-${tx}`, new Date().toISOString(), tx],
        )
        positions.set(tx, Number(rows[0]?.position))
      }
      const seen: number[] = []
      let cursor: LedgerCursor = { position: 0, tx: '97' }
      for (let page = 0; page < 10; page++) {
        const facts = await reader.tail(cursor, 2)
        if (facts.length === 0) break
        for (const { fact } of facts) seen.push(fact.position)
        cursor = facts.at(-1)?.cursor ?? cursor
      }
      expect(seen).toEqual(['98', '99', '100', '101'].map((tx) => positions.get(tx)))
    } finally {
      await connection.close()
      await db.drop()
    }
  })
})

describe('the ledger on PostgreSQL with several writers at once', () => {
  let connections: PgConnection[] = []
  const ledgers = (count: number, watermark = true) =>
    connections.slice(0, count).map((c) => new PgLedger(c.pool, [], undefined, undefined, watermark))
  beforeAll(async () => {
    // four pools: four processes' worth of connections
    connections = await Promise.all([1, 2, 3, 4].map(() => openPostgres(database.url, 4)))
  })
  afterAll(async () => {
    await Promise.all(connections.map((c) => c.close()))
  })

  const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

  /**
   * Tails the ledger as a consumer does (from its cursor), until `done` says so once nothing more
   * comes (or 20 s have passed); what it saw, in order. The watermark is the whole cluster's oldest
   * running transaction, so other databases' work can hold a reader back a moment: it polls.
   */
  const tail = (ledger: PgLedger, from: LedgerCursor, done: (seen: StoredFact[]) => boolean) =>
    (async () => {
      const seen: StoredFact[] = []
      let cursor = from
      const until = Date.now() + 20_000
      for (;;) {
        const facts = await ledger.tail(cursor, 100)
        for (const f of facts) seen.push(f.fact)
        cursor = facts.at(-1)?.cursor ?? cursor
        if (facts.length === 0 && (done(seen) || Date.now() > until)) return seen
        if (facts.length === 0) await sleep(2)
      }
    })()

  /** resolves to true if the promise settles within `ms` */
  const within = (promise: Promise<unknown>, ms: number) =>
    Promise.race([promise.then(() => true), sleep(ms).then(() => false)])

  /**
   * A fact whose transaction is still open when a later one commits: appended at position p, held
   * open until the other has committed (p + 1) and a reader has read, then committed. What the reader
   * sees of the two, tailing from before p: read once now, then until it has both (or for a while).
   */
  async function slowThenFast(watermark: boolean) {
    const [slow, fast, reader] = ledgers(3, watermark) as [PgLedger, PgLedger, PgLedger]
    const start = await reader.cursorAt(await reader.head())
    const ours = (facts: StoredFact[]) => facts.filter((f) => f.stream === 'slow-1' || f.stream === 'fast-1')
    const { release, committed: slowDone } = await heldAppend(slow, 'slow-1', fact(1))
    // The fast writer appends to another stream: it does not wait for the slow one.
    const fastDone = fast.append('fast-1', 'any', [fact(2)])
    const fastFirst = await within(fastDone, 2000)
    // A consumer reads now, and moves its cursor past what it read.
    const readNow = await reader.tail(start, 100)
    const cursor = readNow.at(-1)?.cursor ?? start
    release()
    await Promise.all([slowDone, fastDone])
    const seenAfter = await (watermark
      ? tail(reader, cursor, (seen) => ours(seen).length >= 2 - ours(readNow.map((f) => f.fact)).length)
      : reader.tail(cursor, 100).then((facts) => facts.map((f) => f.fact)))
    const everything = await reader.readFrom(start.position, 100)
    return {
      fastFirst,
      seen: ours([...readNow.map((f) => f.fact), ...seenAfter]).map((f) => f.stream),
      stored: ours(everything).map((f) => f.stream),
    }
  }

  it('a reader tailing the ledger sees every fact: it reads no further than the oldest transaction still running', async () => {
    const run = await slowThenFast(true)
    expect(run.fastFirst).toBe(true)
    expect(run.stored).toEqual(['slow-1', 'fast-1'])
    // in (transaction, position) order: slow-1's transaction began its append first
    expect(run.seen).toEqual(['slow-1', 'fast-1'])
  })

  it('(the same without the watermark skips a fact: the test above fails on such a reader)', async () => {
    const run = await slowThenFast(false)
    expect(run.fastFirst).toBe(true)
    // both facts are stored, but the reader, past fast-1, never sees slow-1
    expect(run.stored).toEqual(['slow-1', 'fast-1'])
    expect(run.seen).toEqual(['fast-1'])
  })

  it('opens every connection with idle_in_transaction_session_timeout at 30 s: no reader is held back for ever', async () => {
    const [connection] = connections as [PgConnection]
    const { rows } = await connection.pool.query<{ timeout: string }>(
      "SELECT current_setting('idle_in_transaction_session_timeout') AS timeout",
    )
    expect(rows[0]?.timeout).toBe('30s')
  })

  it("a fact committed below the head changes the ledger's version, though not the head", async () => {
    const [slow, fast, reader] = ledgers(3) as [PgLedger, PgLedger, PgLedger]
    const { release, committed: slowDone } = await heldAppend(slow, 'late-1', fact(1))
    const before = await reader.ledgerVersion()
    const fastPosition = (await fast.append('early-1', 'any', [fact(2)]))[0]?.position
    const head = await reader.head()
    const version = await reader.ledgerVersion()
    expect(head).toBe(fastPosition)
    expect(version).not.toBe(before)
    // nothing committed since: the same version
    expect(await reader.ledgerVersion()).toBe(version)
    release()
    const latePosition = await slowDone
    expect(latePosition).toBeLessThan(head)
    // the late fact is below the head, which stays; the version moves
    expect(await reader.head()).toBe(head)
    const after = await reader.ledgerVersion()
    expect(after).not.toBe(version)
    expect([before, version]).not.toContain(after)
  })

  it('appends to different streams do not wait for each other, in two pools', async () => {
    const [a, b] = ledgers(2) as [PgLedger, PgLedger]
    let release!: () => void
    const held = new Promise<void>((resolve) => {
      release = resolve
    })
    let appended!: () => void
    const aAppended = new Promise<void>((resolve) => {
      appended = resolve
    })
    const aDone = a.transaction(async (tx) => {
      await tx.append('apart-a', 0, [fact(1)])
      appended()
      await held
    })
    await aAppended
    // stream B, from another pool, while A's transaction is open: committed at once
    expect(await within(b.append('apart-b', 0, [fact(2)]), 2000)).toBe(true)
    // and stream B again, in a batch
    expect(
      await within(
        b.transactionInBatch((tx) => tx.append('apart-b', 1, [fact(3)])),
        2000,
      ),
    ).toBe(true)
    release()
    await aDone
    expect((await a.readStream('apart-b')).map((f) => f.version)).toEqual([1, 2])
  })

  it('decisions naming one lock take turns across pools; another lock does not wait', async () => {
    const [a, b] = ledgers(2) as [PgLedger, PgLedger]
    let release!: () => void
    const held = new Promise<void>((resolve) => {
      release = resolve
    })
    let locked!: () => void
    const aLocked = new Promise<void>((resolve) => {
      locked = resolve
    })
    const aDone = a.transaction(
      async (tx) => {
        // the locks are taken with the transaction's first statement
        await tx.query('SELECT 1')
        locked()
        await held
      },
      { lock: 'event:one' },
    )
    await aLocked
    const same = b.transaction((tx) => tx.append('locked-1', 0, [fact(1)]), { lock: 'event:one' })
    const other = b.transactionInBatch((tx) => tx.append('locked-2', 0, [fact(2)]), { lock: 'event:two' })
    expect(await within(other, 2000)).toBe(true)
    expect(await within(same, 300)).toBe(false)
    release()
    await aDone
    expect(await within(same, 5000)).toBe(true)
  })

  it('a decision that lost a race on its stream runs again on the stream as it is now', async () => {
    // Four pools decide on one stream at once: each reads its version, waits, appends after it.
    const writers = ledgers(4)
    const decide = (ledger: PgLedger, i: number, batch: boolean) => {
      const work = async (tx: PgTx) => {
        const version = await tx.version('raced-1')
        await sleep(20)
        return tx.append('raced-1', version, [fact(i)])
      }
      return batch ? ledger.transactionInBatch(work) : ledger.transaction(work)
    }
    const outcomes = await Promise.all(writers.map((ledger, i) => decide(ledger, i, i % 2 === 0)))
    expect(outcomes.map((facts) => facts[0]?.version).sort()).toEqual([1, 2, 3, 4])
    expect((await writers[0]?.readStream('raced-1'))?.map((f) => f.version)).toEqual([1, 2, 3, 4])
  })

  it('four writers appending 800 facts at once, and a reader tailing them: each fact seen once, in (tx, position) order', async () => {
    const writers = ledgers(4)
    const reader = new PgLedger((connections[0] as PgConnection).pool)
    const start = await reader.cursorAt(await reader.head())
    const mine = (facts: StoredFact[]) => facts.filter((f) => f.stream.startsWith('writer-'))
    const seen = tail(reader, start, (facts) => mine(facts).length >= 800)
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
    const all = written.flat().sort((a, b) => a - b)
    expect(all).toHaveLength(800)
    const tailed = mine(await seen).map((f) => f.position)
    expect([...tailed].sort((a, b) => a - b)).toEqual(all)
    const { rows } = await (connections[0] as PgConnection).pool.query<{ position: number }>(
      'SELECT position FROM ledger WHERE position = ANY($1) ORDER BY tx, position',
      [all],
    )
    expect(tailed).toEqual(rows.map((r) => r.position))
  })

  it("decides under the event's lock: 300 holds of one seat each, from four pools at once, on 100 seats hold exactly 100", async () => {
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
      ledger.transactionInBatch(
        async (tx) => {
          const [row] = await tx.query<{ held: number }>("SELECT held FROM seats_held WHERE event = 'gala'")
          // the await between the read and the append is where another process's hold would slip in
          await new Promise((r) => setImmediate(r))
          if ((row?.held ?? 0) >= 100) return 'sold out'
          await tx.append(`hold-${buyer}`, 0, [{ type: 'SeatHeld', data: { buyer } }])
          return 'held'
        },
        { lock: 'event:gala' },
      )
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

describe('the statements of a transaction on PostgreSQL, sent together', () => {
  let connection: PgConnection
  beforeAll(async () => {
    connection = await openPostgres(database.url, 4)
    await connection.pool.query('CREATE TABLE counted (n int PRIMARY KEY CHECK (n >= 0))')
  })
  afterAll(async () => {
    await connection?.close()
  })

  /** the round trips the pool's connections make while `run` runs: each simple or prepared query is one */
  async function roundTrips<T>(run: () => Promise<T>): Promise<{ result: T; trips: string[] }> {
    const trips: string[] = []
    const query = pg.Client.prototype.query
    pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
      const q = args[0] as string | { text: string }
      trips.push(typeof q === 'string' ? q : q.text)
      return (query as (...a: unknown[]) => unknown).apply(this, args)
    } as typeof query
    try {
      return { result: await run(), trips }
    } finally {
      pg.Client.prototype.query = query
    }
  }
  // a projection whose writes nobody reads: sent with what follows them
  const counting: PgProjection = {
    name: 'counted',
    handlers: {
      async Counted(f, tx) {
        tx.exec('INSERT INTO counted (n) VALUES ($1)', [(f.data as { n: number }).n])
      },
    },
  }

  it("sends BEGIN and the locks with the first read, a turn's reads together, and the projections' writes with the commit: three round trips", async () => {
    const ledger = new PgLedger(connection.pool, [counting])
    const { result, trips } = await roundTrips(() =>
      ledger.transaction(
        async (tx) => {
          const [a, b, c] = await Promise.all([
            tx.query<{ v: string }>('SELECT $1::text AS v', ["it's"]),
            tx.query<{ v: number }>('SELECT $1::int + 1 AS v', [41]),
            tx.readStream('sent-together'),
          ])
          await tx.append('sent-together', c.length, [fact(7)])
          return [a[0]?.v, b[0]?.v]
        },
        { lock: 'event:together' },
      ),
    )
    expect(result).toEqual(["it's", 42])
    expect(trips).toHaveLength(3)
    expect(trips[0]).toMatch(
      /^BEGIN;\nSELECT pg_advisory_xact_lock_shared\(\d+\);\nSELECT pg_advisory_xact_lock\(-?\d+\);\nSELECT 'it''s'::text/,
    )
    expect(trips[1]).toMatch(/^\s*INSERT INTO ledger/)
    expect(trips[2]).toBe("INSERT INTO counted (n) VALUES ('7');\nCOMMIT")
    const { rows } = await connection.pool.query('SELECT n FROM counted WHERE n = 7')
    expect(rows).toEqual([{ n: 7 }])
  })

  it('reads values written in as literals as they were sent as parameters', async () => {
    const ledger = new PgLedger(connection.pool, [])
    const values: unknown[] = [
      'O\'Brien \\ "quoted" $1 -- not a comment',
      'ಕನ್ನಡ ₹1,499',
      -12.5,
      9007199254740993n,
      true,
      null,
      ['a,b', 'c"d', 'e\\f', "g'h", null],
      JSON.stringify({ note: "it's", n: [1, 2] }),
      Buffer.from([0, 255, 39, 92]),
    ]
    const text =
      'SELECT $1::text AS a, $2::text AS b, $3::numeric AS c, $4::bigint AS d, $5::boolean AS e, $6::text AS f, $7::text[] AS g, $8::jsonb AS h, $9::bytea AS i'
    const asParameters = (await connection.pool.query(text, values)).rows[0]
    const together = await ledger.transaction(async (tx) => {
      const [, rows] = await Promise.all([tx.query('SELECT 1'), tx.query(text, values)])
      return rows[0]
    })
    expect(together).toEqual(asParameters)
    expect(together?.g).toEqual(['a,b', 'c"d', 'e\\f', "g'h", null])
  })

  it("a write that fails in a batch fails only its own work, though it was sent with the next work's read", async () => {
    const ledger = new PgLedger(connection.pool, [counting])
    const work = (n: number) =>
      ledger
        .transactionInBatch(async (tx) => {
          await tx.query('SELECT 1')
          await tx.append(`batch-write-${n}`, 0, [fact(n)])
        })
        .then(
          () => 'ok',
          (error: Error) => error.message,
        )
    // -1 breaks the table's check: its write is sent with the next work's read
    const outcomes = await Promise.all([101, -1, 102, 103].map(work))
    expect(outcomes[1]).toMatch(/check constraint/)
    expect(outcomes.filter((o) => o === 'ok')).toHaveLength(3)
    const { rows } = await connection.pool.query('SELECT n FROM counted WHERE n > 100 ORDER BY n')
    expect(rows.map((r) => r.n)).toEqual([101, 102, 103])
    expect(await ledger.readStream('batch-write--1')).toEqual([])
  })
})

describe("two processes selling the last seats of one event on PostgreSQL (booking's holds)", () => {
  let db: TestDatabase
  let stores: AppStore[] = []
  beforeAll(async () => {
    db = await freshDatabase()
    // two processes' stores, each its own pool, on one database (migrated by the first to open)
    stores = [appStoreOn(await openPostgres(db.url, 4)), appStoreOn(await openPostgres(db.url, 4))]
  })
  afterAll(async () => {
    await Promise.all(stores.map((s) => s.close()))
    await db?.drop()
  })

  /** a ticket type of `seats` seats on sale (its catalogue row, as the catalogue keeps it) */
  async function onSale(id: string, seats: number): Promise<TicketTypeRow> {
    const row = {
      id,
      eventId: `event-${id}`,
      rank: 0,
      type: 'General Admission',
      pricePaise: 50_000,
      quantity: seats,
    }
    await (stores[0] as AppStore).postgres?.connection.pool.query(
      'INSERT INTO event_ticket_types (id, event_id, rank, type, price_paise, quantity) VALUES ($1, $2, $3, $4, $5, $6)',
      [row.id, row.eventId, row.rank, row.type, row.pricePaise, row.quantity],
    )
    return row as TicketTypeRow
  }

  /** 40 buyers, 20 through each process, hold one seat each at once; the holds that succeeded */
  async function sell(ticketType: TicketTypeRow, ledgerOf: (store: AppStore) => AppLedger) {
    // the seats left are read, then a moment passes before the hold is decided (as a request's
    // other reads would take): the window another process's hold would use
    const slowly: SeatsLeft = async (type, _order, booking) => {
      const left = await booking.available(type)
      await sleepFor(5)
      return left
    }
    const limits = {
      salesCloseAt: '2999-01-01T00:00:00.000Z',
      maxHeldFromAddress: 100,
      maxTicketsPerAccount: 10,
    }
    const outcomes = await Promise.all(
      Array.from({ length: 40 }, (_, buyer) => {
        const commands = bookingCommands(ledgerOf(stores[buyer % 2] as AppStore), slowly)
        const orderId = `${ticketType.id}-order-${buyer}`
        return commands
          .hold(
            {
              orderId,
              buyerId: `buyer-${buyer}`,
              eventId: ticketType.eventId,
              organizerId: 'organizer-1',
              ticketTypeId: ticketType.id,
              ticketType: 'General Admission',
              quantity: 1,
              unitPricePaise: 50_000,
              amountPaise: 50_000,
              provider: 'local',
              providerOrderId: orderId,
              heldUntil: '2999-01-01T00:00:00.000Z',
            },
            ticketType,
            { actor: `buyer-${buyer}` },
            limits,
          )
          .then(
            () => 'held' as const,
            (error: unknown) => {
              if (error instanceof DomainError && error.message === NOT_ENOUGH_TICKETS)
                return 'sold out' as const
              throw error
            },
          )
      }),
    )
    const { rows } = await (
      (stores[0] as AppStore).postgres as { connection: PgConnection }
    ).connection.pool.query('SELECT held FROM inventory WHERE ticket_type_id = $1', [ticketType.id])
    return { held: outcomes.filter((o) => o === 'held').length, inventory: rows[0]?.held }
  }

  it("hold exactly the seats there are: each hold decides under its event's lock", async () => {
    const sold = await sell(await onSale('last-seats', 10), (store) => store.ledger)
    expect(sold).toEqual({ held: 10, inventory: 10 })
  })

  it('make one account of two sign-ups with one e-mail, one through each process', async () => {
    const email = 'same@example.com'
    const outcomes = await Promise.all(
      stores.map((store, i) =>
        registerAccount(store.ledger, {
          username: `twin-${i}`,
          email,
          password: 'a long password 1',
          role: 'user',
        }).then(
          () => 'made' as const,
          (error: unknown) => {
            if (error instanceof DomainError && error.message === EMAIL_TAKEN) return 'taken' as const
            throw error
          },
        ),
      ),
    )
    expect([...outcomes].sort()).toEqual(['made', 'taken'])
    const { rows } = await (
      (stores[0] as AppStore).postgres as { connection: PgConnection }
    ).connection.pool.query("SELECT count(*)::int AS n FROM ledger WHERE type = 'AccountRegistered'")
    expect(rows[0]).toEqual({ n: 1 })
  })

  it('(without the lock, the same sale holds more seats than there are: the test above fails so)', async () => {
    const unlocked = (store: AppStore): AppLedger => ({
      ...store.ledger,
      transactionInBatch: (work) => store.ledger.transactionInBatch(work),
    })
    const sold = await sell(await onSale('no-lock', 10), unlocked)
    expect(sold.held).toBeGreaterThan(10)
    expect(sold.inventory).toBe(sold.held)
  })
})
