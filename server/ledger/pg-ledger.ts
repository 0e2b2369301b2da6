// The append-only ledger on PostgreSQL (issue 15): the contract of ledger.ts (streams with versions,
// one global position, projections in the append's own transaction, group commit, listeners after
// commit) over an async driver, for any number of processes on one database.
//
// Appends are serialised: a transaction that appends takes one advisory transaction lock
// (APPEND_LOCK) when it begins, as SQLite's BEGIN IMMEDIATE takes the write lock, and holds it
// until it ends. Two things follow.
// - Decisions are never made on stale state, in any process: reading a stream (or the seats left),
//   deciding and appending happen under the lock, so an availability read and the hold it allows
//   cannot interleave with another hold (no oversell across processes), and a version conflict is
//   only ever a client's stale If-Match. The unique (stream, version) key stays as the backstop.
// - Readers never skip a fact. A position is drawn from a sequence at insert but becomes visible at
//   commit: with two appenders at once, position 8 could commit while 7 is still open, and a
//   consumer that had read 8 would move its checkpoint past 7 for ever. Under the lock, positions
//   are drawn and committed in order, and PostgreSQL makes a commit visible before it releases the
//   transaction's locks, so every reader sees a prefix of the ledger (its only gaps are positions
//   of rolled-back transactions, which no fact will ever take). The test that fails without the
//   lock: tests/integration/ledger-stores.test.ts, "a reader tailing the ledger".
// The price is one appending transaction at a time across all processes, which group commit
// (transactionInBatch) spreads over every request of a turn of the event loop, as on SQLite.
import pg from 'pg'
import type { FactMeta } from '../db/schema.ts'
import { type DecisionTx, type LedgerPort, runLater } from '../db/store.ts'
import { decodeRow, type Fact, type LedgerRow, type StoredFact, StreamVersionConflict } from './ledger.ts'
import { inDependencyOrder } from './projection-order.ts'
import type { Upcasters } from './upcast.ts'

/** the advisory lock every appending transaction holds (one key, chosen once, for this table) */
export const APPEND_LOCK = 7_401_000

/** Folds facts into read-model tables on PostgreSQL, inside the append's transaction. */
export type PgProjection = {
  name: string
  /** one handler per fact type it reads, given the fact and the appending transaction */
  handlers: Partial<Record<string, (fact: StoredFact, tx: PgTx) => Promise<void>>>
  /** the projections whose read models this one reads: it runs after them for each fact */
  after?: readonly string[]
}

/** What runs inside one transaction of the ledger: its statements, its appends, its reads. */
export type PgTx = {
  query<R extends pg.QueryResultRow = Record<string, unknown>>(text: string, values?: unknown[]): Promise<R[]>
  append<F extends Fact>(
    stream: string,
    expectedVersion: number | 'any',
    facts: F[],
    meta?: FactMeta,
  ): Promise<StoredFact<F>[]>
  readStream(stream: string): Promise<StoredFact[]>
  version(stream: string): Promise<number>
}

class Transaction implements PgTx {
  /** the position of the last fact appended (0: none), and the streams that grew */
  lastAppended = 0
  touched = new Set<string>()
  /** appends begun in this transaction (group commit: did a failed work write anything?) */
  appends = 0
  constructor(
    private readonly client: pg.PoolClient,
    private readonly ledger: PgLedger,
  ) {}

  async query<R extends pg.QueryResultRow>(text: string, values?: unknown[]): Promise<R[]> {
    return (await this.client.query<R>(text, values)).rows
  }

  async version(stream: string): Promise<number> {
    const [row] = await this.query<{ v: number }>(
      'SELECT coalesce(max(version), 0)::int AS v FROM ledger WHERE stream = $1',
      [stream],
    )
    return row?.v ?? 0
  }

  async readStream(stream: string): Promise<StoredFact[]> {
    const rows = await this.query<LedgerRow>('SELECT * FROM ledger WHERE stream = $1 ORDER BY version', [
      stream,
    ])
    return rows.map(this.ledger.decode)
  }

  async append<F extends Fact>(
    stream: string,
    expectedVersion: number | 'any',
    facts: F[],
    meta: FactMeta = {},
  ): Promise<StoredFact<F>[]> {
    if (facts.length === 0) return []
    this.appends++
    const at = this.ledger.now().toISOString()
    const metaText = JSON.stringify(meta)
    // The stream's version is read and the facts inserted after it in one round trip; none are
    // inserted when it is not the one expected (then it is read again, to say which it is).
    const rows = await this.query<{ position: number; version: number }>(
      `INSERT INTO ledger (stream, version, type, data, meta, at)
       SELECT $1, head.v + f.n, f.t, f.d, $4, $5
       FROM (SELECT coalesce(max(version), 0)::int AS v FROM ledger WHERE stream = $1) AS head,
            unnest($2::text[], $3::text[]) WITH ORDINALITY AS f(t, d, n)
       WHERE $6::int IS NULL OR head.v = $6
       ORDER BY f.n
       RETURNING position, version`,
      [
        stream,
        facts.map((f) => f.type),
        facts.map((f) => JSON.stringify(f.data)),
        metaText,
        at,
        expectedVersion === 'any' ? null : expectedVersion,
      ],
    )
    if (rows.length === 0) {
      throw new StreamVersionConflict(stream, expectedVersion as number, await this.version(stream))
    }
    const first = Math.min(...rows.map((r) => r.version)) - 1
    const versions = facts.map((_, i) => first + i + 1)
    const positionOf = new Map(rows.map((r) => [r.version, r.position]))
    const stored = facts.map(
      (fact, i) =>
        ({
          ...fact,
          position: positionOf.get(versions[i] as number) as number,
          stream,
          version: versions[i] as number,
          meta,
          at,
        }) as StoredFact<F>,
    )
    for (const fact of stored) await this.ledger.project(fact, this)
    this.lastAppended = (stored[stored.length - 1] as StoredFact).position
    this.touched.add(stream)
    return stored
  }
}

/** a work of a batch failed after it wrote: the batch runs again without it */
class RunAgainWithout extends Error {
  constructor(
    readonly index: number,
    readonly failure: unknown,
  ) {
    super('run the batch again without one work')
  }
}

export class PgLedger {
  private readonly listeners = new Set<(head: number, streams: ReadonlySet<string>) => void>()
  private readonly byType = new Map<string, Array<NonNullable<PgProjection['handlers'][string]>>>()
  readonly projections: PgProjection[]

  constructor(
    readonly pool: pg.Pool,
    projections: PgProjection[] = [],
    readonly now: () => Date = () => new Date(),
    private readonly upcasters: Upcasters = {},
    /** tests only: false shows what the append lock prevents (see the head of this file) */
    private readonly serialiseAppends = true,
  ) {
    this.projections = inDependencyOrder(projections)
    for (const p of this.projections) {
      for (const [type, handler] of Object.entries(p.handlers)) {
        if (!handler) continue
        this.byType.set(type, [...(this.byType.get(type) ?? []), handler])
      }
    }
  }

  /** Applies one fact to every projection that reads its type, in the appending transaction. */
  async project(fact: StoredFact, tx: PgTx): Promise<void> {
    for (const handler of this.byType.get(fact.type) ?? []) await handler(fact, tx)
  }

  /**
   * Runs fn in one transaction that holds the append lock from its start (as SQLite's BEGIN
   * IMMEDIATE does): what fn reads cannot change under it before it commits. Listeners hear of
   * the facts it appended once it has committed.
   */
  async transaction<T>(fn: (tx: PgTx) => Promise<T>): Promise<T> {
    const { result, tx } = await this.inTransaction(async (tx) => ({ result: await fn(tx), tx }))
    this.heard(tx)
    return result
  }

  /**
   * This process's appending transactions, one after another. They would queue on the append lock
   * anyway; queued here instead, each waits without holding a pool connection, so reads (the live
   * pushes', the routes') are never starved of connections by transactions waiting for the lock.
   * Found by the cluster test on PostgreSQL: with a batch per turn of the event loop, 26 of 32
   * connections sat waiting on the lock, and pushes fell seconds behind the sale.
   */
  private turns: Promise<unknown> = Promise.resolve()

  private inTransaction<T>(fn: (tx: Transaction) => Promise<T>): Promise<T> {
    if (!this.serialiseAppends) return this.openTransaction(fn)
    const turn = this.turns.then(() => this.openTransaction(fn))
    this.turns = turn.catch(() => {})
    return turn
  }

  private async openTransaction<T>(fn: (tx: Transaction) => Promise<T>): Promise<T> {
    const client = await this.pool.connect()
    let broken: Error | undefined
    try {
      // one round trip: two statements in one simple query (the lock's key is a constant)
      await client.query(
        this.serialiseAppends ? `BEGIN; SELECT pg_advisory_xact_lock(${Number(APPEND_LOCK)})` : 'BEGIN',
      )
      const result = await fn(new Transaction(client, this))
      await client.query('COMMIT')
      return result
    } catch (error) {
      await client.query('ROLLBACK').catch((rollbackFailed: Error) => {
        broken = rollbackFailed
      })
      throw error
    } finally {
      // a connection that could not even roll back is not given to anyone else
      client.release(broken)
    }
  }

  private heard(tx: Transaction) {
    if (tx.lastAppended === 0) return
    for (const listener of this.listeners) listener(tx.lastAppended, tx.touched)
  }

  /** Work waiting for the next group commit. */
  private batch: Array<{
    fn: (tx: PgTx) => Promise<unknown>
    settle: (error: unknown, result?: unknown) => void
  }> = []

  /**
   * Like transaction(), but shares one commit with the other work queued in the same turn of the
   * event loop (group commit): each fn runs in a savepoint of its own, in arrival order, seeing what
   * the ones before it wrote, and a fn that throws rolls back alone. The promise settles once the
   * shared commit is durable; a commit that fails fails every fn of the batch.
   */
  transactionInBatch<T>(fn: (tx: PgTx) => Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      if (this.batch.length === 0) setImmediate(() => void this.commitBatch())
      this.batch.push({
        fn,
        settle: (error, result) => (error === undefined ? resolve(result as T) : reject(error)),
      })
    })
  }

  private async commitBatch() {
    // The batch is taken once this process's turn has come and the lock is held: the work that
    // arrived while an earlier batch was committing joins this one (group commit under load).
    let batch: typeof this.batch = []
    let taken = false
    const take = () => {
      if (taken) return
      taken = true
      batch = this.batch
      this.batch = []
    }
    let outcomes: Array<{ error?: unknown; result?: unknown }> = []
    let left: number[] = []
    let tx: Transaction | undefined
    // No savepoint per work (PostgreSQL makes each a subtransaction, and past 64 in one transaction
    // every snapshot in the database grows costly). A work refused before it appended (sold out,
    // any DomainError) has nothing to undo and is answered alone; the rare one that fails after it
    // wrote, or on a statement (which aborts the whole transaction), is answered with its error
    // and the batch is run again without it in a new transaction.
    for (;;) {
      try {
        tx = await this.inTransaction(async (t) => {
          if (!taken) {
            take()
            left = batch.map((_, i) => i)
          }
          outcomes = []
          for (const i of left) {
            const appendsBefore = t.appends
            try {
              outcomes[i] = { result: await (batch[i] as (typeof batch)[number]).fn(t) }
            } catch (error) {
              if (t.appends !== appendsBefore || error instanceof pg.DatabaseError) {
                throw new RunAgainWithout(i, error ?? new Error('failed'))
              }
              outcomes[i] = { error: error ?? new Error('failed') }
            }
          }
          return t
        })
        break
      } catch (error) {
        if (error instanceof RunAgainWithout) {
          const { index, failure } = error
          batch[index]?.settle(failure)
          left = left.filter((i) => i !== index)
          if (left.length > 0) continue
          return
        }
        if (!taken) {
          take()
          left = batch.map((_, i) => i)
        }
        for (const i of left) batch[i]?.settle(error ?? new Error('commit failed'))
        return
      }
    }
    this.heard(tx)
    for (const i of left) batch[i]?.settle(outcomes[i]?.error, outcomes[i]?.result)
  }

  /**
   * Copies facts in as they were stored elsewhere (positions, versions, times and meta kept), in
   * position order after everything here, each projected as if just appended: what a copy of a
   * ledger from SQLite (ledger:copy) and the stores' differential tests are made of. One
   * transaction; the position sequence then continues after the last fact copied.
   */
  async copyIn(facts: readonly StoredFact[]): Promise<void> {
    if (facts.length === 0) return
    await this.inTransaction(async (tx) => {
      for (const fact of facts) {
        await tx.query(
          `INSERT INTO ledger (position, stream, version, type, data, meta, at)
           OVERRIDING SYSTEM VALUE VALUES ($1, $2, $3, $4, $5, $6, $7)`,
          [
            fact.position,
            fact.stream,
            fact.version,
            fact.type,
            JSON.stringify(fact.data),
            JSON.stringify(fact.meta),
            fact.at,
          ],
        )
        await this.project(fact, tx)
      }
      await tx.query(
        "SELECT setval(pg_get_serial_sequence('ledger', 'position'), (SELECT max(position) FROM ledger))",
      )
    })
  }

  /**
   * Empties the read-model tables and replays the whole ledger through the projections, in one
   * transaction holding the append lock (ledger:rebuild): readers see the old models until it commits.
   */
  async rebuild(tables: readonly string[], pageSize = 5000): Promise<number> {
    let facts = 0
    await this.inTransaction(async (tx) => {
      if (tables.length > 0) await tx.query(`TRUNCATE ${tables.map((t) => `"${t}"`).join(', ')}`)
      for (let position = 0; ; ) {
        const page = (
          await tx.query<LedgerRow>('SELECT * FROM ledger WHERE position > $1 ORDER BY position LIMIT $2', [
            position,
            pageSize,
          ])
        ).map(this.decode)
        if (page.length === 0) break
        for (const fact of page) await this.project(fact, tx)
        facts += page.length
        position = (page[page.length - 1] as StoredFact).position
      }
    })
    return facts
  }

  /** Appends in a transaction of its own (see PgTx.append). */
  append<F extends Fact>(
    stream: string,
    expectedVersion: number | 'any',
    facts: F[],
    meta: FactMeta = {},
  ): Promise<StoredFact<F>[]> {
    return this.transaction((tx) => tx.append(stream, expectedVersion, facts, meta))
  }

  /** A stored row as a fact in its current shape (ledger.ts's decodeRow). */
  readonly decode = (row: LedgerRow): StoredFact => decodeRow(this.upcasters, row)

  private async rows(text: string, values: unknown[]): Promise<LedgerRow[]> {
    return (await this.pool.query<LedgerRow>(text, values)).rows
  }

  async version(stream: string): Promise<number> {
    const { rows } = await this.pool.query<{ v: number }>(
      'SELECT coalesce(max(version), 0)::int AS v FROM ledger WHERE stream = $1',
      [stream],
    )
    return rows[0]?.v ?? 0
  }

  async readStream(stream: string): Promise<StoredFact[]> {
    return (await this.rows('SELECT * FROM ledger WHERE stream = $1 ORDER BY version', [stream])).map(
      this.decode,
    )
  }

  /** Facts after a position, oldest first. */
  async readFrom(position: number, limit = 500): Promise<StoredFact[]> {
    return (
      await this.rows('SELECT * FROM ledger WHERE position > $1 ORDER BY position LIMIT $2', [
        position,
        limit,
      ])
    ).map(this.decode)
  }

  async head(): Promise<number> {
    const { rows } = await this.pool.query<{ p: number }>(
      'SELECT coalesce(max(position), 0) AS p FROM ledger',
    )
    return rows[0]?.p ?? 0
  }

  /** Called after each commit in this process that appended facts, with the new head and the
   * streams that grew. (Other processes' facts are found by polling, as on SQLite.) */
  onAppend(listener: (head: number, streams: ReadonlySet<string>) => void): () => void {
    this.listeners.add(listener)
    return () => this.listeners.delete(listener)
  }
}

/** The PostgreSQL ledger behind the store's port (db/store.ts): each step of a decision awaited in
 * a transaction that holds the append lock, with the reads it needs made on that transaction. */
export function pgLedgerPort<Reads>(ledger: PgLedger, readsOf: (tx: PgTx) => Reads): LedgerPort<Reads> {
  const decision = (tx: PgTx): DecisionTx<Reads> => ({
    readStream: (stream) => tx.readStream(stream),
    append: (stream, expectedVersion, facts, meta) => tx.append(stream, expectedVersion, facts, meta),
    reads: readsOf(tx),
  })
  return {
    kind: 'postgres',
    transaction: (work) => ledger.transaction((tx) => runLater(work(decision(tx)))),
    transactionInBatch: (work) => ledger.transactionInBatch((tx) => runLater(work(decision(tx)))),
    readStream: (stream) => ledger.readStream(stream),
    readFrom: (position, limit) => ledger.readFrom(position, limit),
    head: () => ledger.head(),
    onAppend: (listener) => ledger.onAppend(listener),
    checkpoints: {
      read: async (name) => {
        const { rows } = await ledger.pool.query<{ position: number }>(
          'SELECT position FROM checkpoints WHERE name = $1',
          [name],
        )
        return rows[0]?.position
      },
      write: async (name, position) => {
        await ledger.pool.query(
          `INSERT INTO checkpoints (name, position, at) VALUES ($1, $2, $3)
           ON CONFLICT (name) DO UPDATE SET position = excluded.position, at = excluded.at`,
          [name, position, new Date().toISOString()],
        )
      },
    },
  }
}
