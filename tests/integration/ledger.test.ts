import { spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Worker } from 'node:worker_threads'
import { getTableName } from 'drizzle-orm'
import { sqliteTable, text } from 'drizzle-orm/sqlite-core'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { type Connection, openDatabase } from '../../server/db/connection.ts'
import { Consumer } from '../../server/ledger/consumer.ts'
import { Ledger, type StoredFact, StreamVersionConflict } from '../../server/ledger/ledger.ts'
import { sqliteLedgerPort } from '../../server/ledger/sqlite-port.ts'
import { projections } from '../../server/projections.ts'
import { bearer, signUp } from '../support/accounts.ts'
import { sameStore, startApp, type TestApp } from '../support/app.ts'
import { dbExec, dbRows, rebuildStore, testStore } from '../support/db.ts'

let dir: string
let connection: Connection
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'ledger-test-'))
  connection = openDatabase(join(dir, 'ledger.sqlite'))
})
afterEach(() => {
  connection.close()
  rmSync(dir, { recursive: true, force: true })
})

const fact = (n: number) => ({ type: 'Counted', data: { n } })

// The SQLite ledger itself (the Ledger class on a file of its own): the same in both runs of the suite,
// so run once, in the SQLite one; ledger-stores.test.ts holds both stores' ledgers to one contract.
const onPostgres = testStore === 'postgres'

describe.skipIf(onPostgres)('the SQLite connection', () => {
  it('keeps the page cache SQLITE_CACHE_MB asks for: 16 MB unless told', () => {
    const kib = (c: Connection) => -Number(c.sqlite.pragma('cache_size', { simple: true }))
    expect(kib(connection)).toBe(16 * 1024)
    const larger = openDatabase(join(dir, 'ledger.sqlite'), 'FULL', 64)
    try {
      expect(kib(larger)).toBe(64 * 1024)
    } finally {
      larger.close()
    }
  })
})

describe.skipIf(onPostgres)('append', () => {
  it('gives each stream versions 1, 2, … and the ledger increasing positions', () => {
    const ledger = new Ledger(connection, [])
    const a = ledger.append('thing-a', 0, [fact(1), fact(2)])
    const b = ledger.append('thing-b', 0, [fact(3)])
    const c = ledger.append('thing-a', 2, [fact(4)])
    expect([...a, ...c].map((f) => f.version)).toEqual([1, 2, 3])
    expect([...a, ...b, ...c].map((f) => f.position)).toEqual([1, 2, 3, 4])
    expect(ledger.readStream('thing-a').map((f) => f.data)).toEqual([{ n: 1 }, { n: 2 }, { n: 4 }])
    expect(ledger.readFrom(2).map((f) => f.position)).toEqual([3, 4])
  })

  it('refuses an append whose expected version is stale, with a typed conflict', () => {
    const ledger = new Ledger(connection, [])
    ledger.append('thing-a', 0, [fact(1)])
    let caught: unknown
    try {
      ledger.append('thing-a', 0, [fact(2)])
    } catch (error) {
      caught = error
    }
    expect(caught).toBeInstanceOf(StreamVersionConflict)
    expect(caught).toMatchObject({ stream: 'thing-a', expected: 0, actual: 1 })
    expect(ledger.readStream('thing-a')).toHaveLength(1)
  })

  it('lets exactly one of 50 concurrent appends with the same expected version succeed (one process)', async () => {
    const ledger = new Ledger(connection, [])
    // Each contender reads the version, then does async work (as a route hashing a password
    // would), then appends with what it read.
    const contenders = Array.from({ length: 50 }, async (_, i) => {
      const expected = ledger.version('race-1')
      await new Promise((r) => setTimeout(r, Math.random() * 5))
      try {
        ledger.append('race-1', expected, [fact(i)])
        return 'ok'
      } catch (error) {
        if (error instanceof StreamVersionConflict) return 'conflict'
        throw error
      }
    })
    const outcomes = await Promise.all(contenders)
    expect(outcomes.filter((o) => o === 'ok')).toHaveLength(1)
    expect(outcomes.filter((o) => o === 'conflict')).toHaveLength(49)
    expect(ledger.readStream('race-1')).toHaveLength(1)
  })

  it('lets exactly one of 50 appends from 10 threads with their own connections succeed', async () => {
    const file = join(dir, 'ledger.sqlite')
    const signal = new SharedArrayBuffer(8)
    const flag = new Int32Array(signal)
    const workers = Array.from(
      { length: 10 },
      (_, i) =>
        new Worker(new URL('./fixtures/worker-bootstrap.mjs', import.meta.url), {
          workerData: {
            module: './append-worker.ts',
            file,
            stream: 'race-2',
            attempts: 5,
            signal,
            name: `w${i}`,
          },
        }),
    )
    const results = workers.map(
      (worker) =>
        new Promise<string[]>((resolve, reject) => {
          worker.once('message', resolve)
          worker.once('error', reject)
        }),
    )
    while (Atomics.load(flag, 1) < workers.length) await new Promise((r) => setTimeout(r, 10))
    Atomics.store(flag, 0, 1)
    Atomics.notify(flag, 0)
    const outcomes = (await Promise.all(results)).flat()
    expect(outcomes).toHaveLength(50)
    expect(outcomes.filter((o) => o === 'ok')).toHaveLength(1)
    expect(outcomes.filter((o) => o === 'conflict')).toHaveLength(49)
    expect(new Ledger(connection, []).readStream('race-2')).toHaveLength(1)
  })

  it('writes nothing when an inline projection fails: fact and read model commit together', () => {
    const tally = sqliteTable('tally', { name: text('name').primaryKey() })
    connection.sqlite.exec('CREATE TABLE tally (name TEXT PRIMARY KEY)')
    const ledger = new Ledger(connection, [
      {
        name: 'tally',
        tables: [tally],
        // (built as entries: a capitalised key reads to the linter like a React component)
        handlers: (db) =>
          Object.fromEntries([
            [
              'Counted',
              (f: StoredFact) => {
                db.insert(tally)
                  .values({ name: String((f.data as { n: number }).n) })
                  .run()
              },
            ],
          ]),
      },
    ])
    ledger.append('thing-a', 0, [fact(1)])
    // The second fact's projection hits the primary key: the whole append must roll back.
    expect(() => ledger.append('thing-b', 0, [fact(2), fact(1)])).toThrow()
    expect(ledger.head()).toBe(1)
    expect(connection.sqlite.prepare('SELECT name FROM tally').all()).toEqual([{ name: '1' }])
  })

  it('tells listeners about new facts only after the outermost transaction commits', () => {
    const ledger = new Ledger(connection, [])
    const heard: number[] = []
    ledger.onAppend((head) => heard.push(head))
    ledger.transaction(() => {
      ledger.append('thing-a', 0, [fact(1)])
      ledger.append('thing-b', 0, [fact(2)])
      expect(heard).toEqual([])
    })
    expect(heard).toEqual([2])
    expect(() =>
      ledger.transaction(() => {
        ledger.append('thing-c', 0, [fact(3)])
        throw new Error('decided against it')
      }),
    ).toThrow('decided against it')
    expect(heard).toEqual([2])
    expect(ledger.head()).toBe(2)
  })
})

describe.skipIf(onPostgres)('group commit (transactionInBatch)', () => {
  it('commits the work of one turn once; a failing piece rolls back alone and the others see each other', async () => {
    const ledger = new Ledger(connection, [])
    const heard: Array<{ head: number; streams: string[] }> = []
    ledger.onAppend((head, streams) => heard.push({ head, streams: [...streams].sort() }))
    const settled = await Promise.allSettled([
      ledger.transactionInBatch(() => ledger.append('thing-a', 0, [fact(1)])[0]?.position),
      ledger.transactionInBatch(() => {
        ledger.append('thing-b', 0, [fact(2)])
        throw new Error('refused after appending')
      }),
      // sees the first piece's fact, uncommitted yet, in the same transaction
      ledger.transactionInBatch(() => ledger.append('thing-a', 1, [fact(3)])[0]?.version),
      ledger.transactionInBatch(() => ledger.append('thing-a', 0, [fact(4)])),
    ])
    expect(settled.map((s) => s.status)).toEqual(['fulfilled', 'rejected', 'fulfilled', 'rejected'])
    expect(settled[0]).toMatchObject({ value: 1 })
    expect(settled[2]).toMatchObject({ value: 2 })
    expect((settled[3] as PromiseRejectedResult).reason).toBeInstanceOf(StreamVersionConflict)
    expect(ledger.readStream('thing-a').map((f) => f.data)).toEqual([{ n: 1 }, { n: 3 }])
    expect(ledger.readStream('thing-b')).toEqual([])
    // one commit, heard once, with the head of what was kept
    expect(heard).toEqual([{ head: ledger.head(), streams: ['thing-a'] }])
  })

  it('answers only after the commit: a batch whose commit fails fails every piece', async () => {
    const ledger = new Ledger(connection, [])
    // Another connection holds the write lock past the busy timeout, so the commit cannot start.
    const other = openDatabase(join(dir, 'ledger.sqlite'))
    other.sqlite.pragma('busy_timeout = 0')
    connection.sqlite.pragma('busy_timeout = 50')
    other.sqlite.prepare('BEGIN IMMEDIATE').run()
    try {
      const settled = await Promise.allSettled([
        ledger.transactionInBatch(() => ledger.append('thing-a', 0, [fact(1)])),
        ledger.transactionInBatch(() => ledger.append('thing-b', 0, [fact(2)])),
      ])
      expect(settled.map((s) => s.status)).toEqual(['rejected', 'rejected'])
    } finally {
      other.sqlite.prepare('ROLLBACK').run()
      other.close()
    }
    expect(ledger.head()).toBe(0)
  })
})

describe.skipIf(onPostgres)('consumers', () => {
  it('resume from their stored checkpoint after a crash, without skipping or repeating a fact', async () => {
    const ledger = new Ledger(connection, [])
    for (let i = 1; i <= 100; i++) ledger.append(`thing-${i % 7}`, 'any', [fact(i)])
    const seen: number[] = []
    let crashAt: number | null = 40
    const handle = (f: StoredFact) => {
      if (f.position === crashAt) throw new Error('crash')
      seen.push(f.position)
    }
    const first = new Consumer(sqliteLedgerPort(ledger, {}), 'audit', handle, { batchSize: 16 })
    await expect(first.drain()).rejects.toThrow('crash')
    expect(await first.checkpoint()).toBe(39)
    crashAt = null
    // A new process: a new consumer of the same name, on a new connection to the same file.
    const reopened = openDatabase(join(dir, 'ledger.sqlite'))
    const second = new Consumer(sqliteLedgerPort(new Ledger(reopened, []), {}), 'audit', handle, {
      batchSize: 16,
    })
    expect(await second.checkpoint()).toBe(39)
    await second.drain()
    reopened.close()
    expect(seen).toEqual(Array.from({ length: 100 }, (_, i) => i + 1))
  })

  it('handle a round all together when asked: every fact once it succeeds, the whole round again when it fails', async () => {
    const ledger = new Ledger(connection, [])
    for (let i = 1; i <= 40; i++) ledger.append(`thing-${i % 5}`, 'any', [fact(i)])
    const rounds: number[][] = []
    let failures = 1
    const consumer = new Consumer(
      sqliteLedgerPort(ledger, {}),
      'together',
      () => {
        throw new Error('handled one at a time')
      },
      {
        batchSize: 16,
        handleAll: async (facts) => {
          rounds.push(facts.map((f) => f.position))
          if (facts[0]?.position === 17 && failures-- > 0) throw new Error('fails once')
        },
      },
    )
    await expect(consumer.drain()).rejects.toThrow('fails once')
    // the round that failed is not taken as handled
    expect(await consumer.checkpoint()).toBe(16)
    await consumer.drain()
    const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i)
    expect(rounds).toEqual([range(1, 16), range(17, 32), range(17, 32), range(33, 40)])
    expect(await consumer.checkpoint()).toBe(40)
  })

  it('wake up for facts appended after they started and stop cleanly', async () => {
    const ledger = new Ledger(connection, [])
    const seen: number[] = []
    const consumer = new Consumer(
      sqliteLedgerPort(ledger, {}),
      'live-test',
      (f) => void seen.push(f.position),
      {
        pollMs: 5000,
      },
    )
    consumer.start()
    ledger.append('thing-a', 0, [fact(1), fact(2)])
    const deadline = Date.now() + 2000
    while (seen.length < 2 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 5))
    await consumer.stop()
    expect(seen).toEqual([1, 2])
    expect(await consumer.checkpoint()).toBe(2)
  })

  it('with an in-memory checkpoint start at the head, ignoring older facts', async () => {
    const ledger = new Ledger(connection, [])
    ledger.append('thing-a', 0, [fact(1)])
    const seen: number[] = []
    const consumer = new Consumer(sqliteLedgerPort(ledger, {}), 'memory', (f) => void seen.push(f.position), {
      checkpoint: 'memory',
    })
    await consumer.drain()
    ledger.append('thing-a', 1, [fact(2)])
    await consumer.drain()
    expect(seen).toEqual([2])
  })
})

describe('rebuild', () => {
  let t: TestApp
  beforeEach(async () => {
    t = await startApp({ RATE_LIMITS: 'off' })
  })
  afterEach(async () => {
    await t.close()
  })

  const dumpReadModels = async (app: TestApp['app']) => {
    const tables = [...new Set(projections.flatMap((p) => p.tables.map((table) => getTableName(table))))]
    return Object.fromEntries(
      await Promise.all(
        tables.map(async (name) => [name, await dbRows(app, `SELECT * FROM "${name}" ORDER BY 1`)] as const),
      ),
    )
  }

  it('drops every read model and rebuilds tables equal to the live ones', async () => {
    const { app } = t
    const [asha, ravi] = await Promise.all([signUp(app, 'Asha'), signUp(app, 'Ravi'), signUp(app, 'Meera')])
    for (const person of [asha, ravi]) {
      await app.inject({
        method: 'POST',
        url: '/api/v1/auth/forgotpassword',
        payload: { email: person.email },
      })
    }
    const profile = await app.inject({
      method: 'GET',
      url: '/api/v1/auth/profile',
      headers: bearer(asha.token),
    })
    expect(profile.statusCode).toBe(200)
    const live = await dumpReadModels(app)
    expect((live.accounts as unknown[]).length).toBe(4)
    expect((live.password_reset_links as unknown[]).length).toBe(2)

    await dbExec(app, 'DELETE FROM accounts; DELETE FROM password_reset_links')
    const result = await rebuildStore(app)
    expect(result.facts).toBe(await app.platform.ledger.head())
    expect(await dumpReadModels(app)).toEqual(live)
  })

  it('runs as `npm run ledger:rebuild` on a data folder', async () => {
    const { app, config } = t
    await signUp(app, 'Kiran')
    const live = await dumpReadModels(app)
    await dbExec(app, "UPDATE accounts SET username = 'tampered'")
    const run = spawnSync(process.execPath, ['--import', 'tsx', 'server/cli/rebuild.ts'], {
      // on PostgreSQL, the app's database (DATABASE_URL) rather than a file in the data folder
      env: { ...process.env, DATA_DIR: config.dataDir, ...sameStore(config) },
      encoding: 'utf8',
    })
    expect(run.status, run.stderr).toBe(0)
    expect(run.stdout).toMatch(/Rebuilt \d+ tables .* from \d+ facts/)
    expect(await dumpReadModels(app)).toEqual(live)
  })
})
