// The append-only ledger on PostgreSQL (issue 15): the contract of ledger.ts (streams with versions,
// one global position, projections in the append's own transaction, group commit, listeners after
// commit) over an async driver, for any number of processes on one database (issue 39).
//
// Appends do not wait for each other: two transactions appending to different streams run at once,
// in one process or in many. Two guarantees that SQLite's single writer gives for free are kept by
// other means.
// - Decisions are never made on stale state. A decision that reads only its own stream needs no
//   lock: the stream's version is checked as it appends (the insert is refused when the stream has
//   moved since it was read, and the unique (stream, version) key refuses the second of two that
//   insert at once), and a decision that lost such a race is run again on the stream as it is now
//   (a client's stale If-Match is refused by decideIn before it appends, and stays a 409). A
//   decision that reads read models beyond its stream (the seats left of an event, a promo code's
//   uses, a waiting list's free seats, whether an e-mail is taken) names a lock (DecisionOptions in
//   db/store.ts: the event, the e-mail): its transaction takes that advisory transaction lock when
//   it begins, so two holds for the last seats of one event, in any processes, decide one after
//   the other, each reading what the other committed (PostgreSQL makes a commit visible before it
//   releases the transaction's locks). Decisions of different events never wait for each other.
//   Within a process, transactions naming one lock queue here rather than on the database, so they
//   wait without holding a pool connection; group commit keeps one batch per set of locks. A batch
//   takes its locks in one order (sorted), and a deadlock or serialisation failure (40P01, 40001)
//   that rows locked in another order may still cause is retried, a few times, as a lost race is.
// - Readers never skip a fact. A position is drawn from a sequence at insert but becomes visible at
//   commit: with two appenders at once, position 8 can commit while 7 is still open, and a reader
//   that read 8 and moved on by position would never see 7. So each fact carries the transaction
//   that appended it (tx xid8, pg_current_xact_id()), readers tail the ledger in (tx, position)
//   order, and only as far as the oldest transaction still running in this database (BOUND): every
//   transaction that could still commit a fact has a tx at or above that bound, so nothing can ever
//   commit behind what a reader has read. A reader's cursor is the (tx, position) of the last fact
//   it read (LedgerCursor); a consumer keeps only that position as its checkpoint, since the fact
//   there gives its tx. readFrom() stays a look at the ledger in position order, not a way to tail
//   it. The test that fails without the bound: tests/integration/ledger-stores.test.ts, "a reader
//   tailing the ledger". (pg_snapshot_xmin(pg_current_snapshot()) alone would be such a bound, but
//   it is the oldest transaction of the whole server: creating a database elsewhere on it held
//   every reader here back for a second.)
// - A statement that reads tx as text (tx::text AS tx) orders by ledger.tx, never by the bare name:
//   PostgreSQL takes a bare ORDER BY name for the output column, and text puts 10000 before 9999,
//   so a reader whose page spanned a power of ten in xids read facts twice or passed some for good.
// Every appending transaction also holds one advisory lock (APPEND_LOCK) shared, which copyIn and
// rebuild take alone: while they run, nothing else appends.
import { createHash } from 'node:crypto'
import pg from 'pg'
import type { FactMeta } from '../db/schema.ts'
import { inlined } from '../db/sql.ts'
import {
  type DecisionOptions,
  type DecisionTx,
  type LedgerCursor,
  type LedgerPort,
  runLater,
  type StreamSnapshot,
  type TailedFact,
} from '../db/store.ts'
import { decodeRow, type Fact, type LedgerRow, type StoredFact, StreamVersionConflict } from './ledger.ts'
import { inDependencyOrder } from './projection-order.ts'
import type { Upcasters } from './upcast.ts'

/** the advisory lock every appending transaction holds shared, and copyIn and rebuild alone */
export const APPEND_LOCK = 7_401_000

/**
 * The bound below which facts are settled, as an xid8: the oldest transaction still running in this
 * database, or the next transaction to start when none is. Read in a statement of its own, before
 * the statement that reads facts below it: a transaction of the snapshot taken here that ends
 * before pg_stat_activity is read is not counted, and has committed (or not) before the facts are
 * read. The transactions of other databases on the server (in the snapshot too) cannot write here.
 * Prepared (two-phase) transactions would not be seen: the ledger is never written by one.
 */
const BOUND = `SELECT coalesce(
    (SELECT min(x) FROM pg_snapshot_xip(s) AS x
     WHERE (x::text::numeric % 4294967296)::text IN (
       SELECT backend_xid::text FROM pg_stat_activity
       WHERE datname = current_database() AND backend_xid IS NOT NULL)),
    pg_snapshot_xmax(s))::text AS bound
  FROM pg_current_snapshot() AS s`

/** tries of a decision that lost a race (its stream moved, a deadlock, a serialisation failure) */
const ATTEMPTS = 5

/** The advisory lock keys of a decision's named locks (DecisionOptions), in the order taken. */
export function lockKeys(lock: DecisionOptions['lock']): bigint[] {
  if (lock === undefined) return []
  const names = typeof lock === 'string' ? [lock] : lock
  const keys = new Set(names.map((name) => createHash('sha256').update(name).digest().readBigInt64BE(0)))
  return [...keys].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
}

/** A stream moved between a decision's read and its append: the decision runs again (see above). */
export class AppendRaced extends StreamVersionConflict {}

/** what running a transaction again may cure: a lost race on a stream, a deadlock, a serialisation failure */
const worthRetrying = (error: unknown) =>
  error instanceof AppendRaced ||
  (error instanceof pg.DatabaseError && (error.code === '40001' || error.code === '40P01'))

/** a short, growing, jittered pause before trying again */
const pause = (attempt: number) => new Promise((r) => setTimeout(r, Math.random() * 5 * attempt))

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
  query<R extends pg.QueryResultRow = Record<string, unknown>>(
    text: string,
    values?: unknown[],
    name?: string,
  ): Promise<R[]>
  /** a write nobody reads the answer of: sent with the next read or the commit (no round trip of its own) */
  exec(text: string, values?: unknown[]): void
  append<F extends Fact>(
    stream: string,
    expectedVersion: number | 'any',
    facts: F[],
    meta?: FactMeta,
  ): Promise<StoredFact<F>[]>
  readStream(stream: string): Promise<StoredFact[]>
  /** the stream's facts after a version, oldest first */
  readStreamAfter(stream: string, version: number): Promise<StoredFact[]>
  /** the ledger position of the stream's fact at a version (undefined: it has none) */
  positionOf(stream: string, version: number): Promise<number | undefined>
  /** the state a decider kept of the stream (decider.ts), if any */
  readSnapshot(stream: string): Promise<StreamSnapshot | undefined>
  /** keeps a decider's state of the stream, sent with the transaction's next statement */
  writeSnapshot(snapshot: StreamSnapshot): void
  version(stream: string): Promise<number>
}

/** a statement waiting to be sent: a read (with what awaits its rows) or a write nobody reads */
type Outgoing = {
  text: string
  values: unknown[]
  name?: string
  /** the work of a batch that sent it (-1: the transaction's own BEGIN and locks) */
  owner: number
  answer?: { resolve(rows: unknown[]): void; reject(error: unknown): void }
}

/**
 * One transaction of the ledger on one connection. Its statements are sent together: the writes
 * nobody reads the answer of (BEGIN and its locks, the projections' writes) wait for the next read
 * or for the commit, and the reads asked for in one turn of the event loop (a decision reading
 * several things at once) go with them, as one simple query: one round trip where each would have
 * taken its own. A read sent alone stays a prepared statement.
 */
class Transaction implements PgTx {
  /** the position of the last fact appended (0: none), and the streams that grew */
  lastAppended = 0
  touched = new Set<string>()
  /** appends begun in this transaction (group commit: did a failed work write anything?) */
  appends = 0
  /** the work of a batch now running (group commit: whose statements are sent) */
  owner = -1
  /** the works whose statements were in a send that failed (group commit: whose failure it is) */
  failedOwners = new Set<number>()
  private outgoing: Outgoing[] = []
  private sending = false
  constructor(
    private readonly client: pg.PoolClient,
    private readonly ledger: PgLedger,
  ) {}

  exec(text: string, values: unknown[] = []): void {
    this.outgoing.push({ text, values, owner: this.owner })
  }

  query<R extends pg.QueryResultRow>(text: string, values: unknown[] = [], name?: string): Promise<R[]> {
    return new Promise<R[]>((resolve, reject) => {
      const answer = { resolve: resolve as (rows: unknown[]) => void, reject }
      this.outgoing.push({ text, values, ...(name ? { name } : {}), owner: this.owner, answer })
      if (this.sending) return
      this.sending = true
      // the reads asked for in this turn go together
      process.nextTick(() => {
        this.sending = false
        void this.send()
      })
    })
  }

  /** Sends what waits: one prepared statement when it is a lone read, else one simple query. */
  private async send(suffix: string[] = [], explicit = false): Promise<void> {
    const batch = this.outgoing
    this.outgoing = []
    if (batch.length === 0 && suffix.length === 0) return
    const lone = batch.length === 1 && suffix.length === 0 ? batch[0] : undefined
    try {
      if (lone?.answer) {
        const { text, values, name } = lone
        lone.answer.resolve((await this.client.query(name ? { name, text, values } : { text, values })).rows)
        return
      }
      const text = [...batch.map((o) => inlined(o.text, o.values)), ...suffix].join(';\n')
      const answered = await this.client.query(text)
      const results = Array.isArray(answered) ? answered : [answered]
      for (const [i, o] of batch.entries()) o.answer?.resolve(results[i]?.rows ?? [])
    } catch (error) {
      for (const o of batch) this.failedOwners.add(o.owner)
      for (const o of batch) o.answer?.reject(error)
      if (explicit) throw error
    }
  }

  /** Sends the writes waiting (group commit: a work's own, so a failure is known to be its). */
  flush(): Promise<void> {
    return this.send([], true)
  }

  /** Sends what waits and commits, in one round trip. */
  commit(): Promise<void> {
    return this.send(['COMMIT'], true)
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

  async readStreamAfter(stream: string, version: number): Promise<StoredFact[]> {
    const rows = await this.query<LedgerRow>(
      'SELECT * FROM ledger WHERE stream = $1 AND version > $2 ORDER BY version',
      [stream, version],
    )
    return rows.map(this.ledger.decode)
  }

  async positionOf(stream: string, version: number): Promise<number | undefined> {
    const [row] = await this.query<{ position: number }>(
      'SELECT position FROM ledger WHERE stream = $1 AND version = $2',
      [stream, version],
    )
    return row?.position
  }

  async readSnapshot(stream: string): Promise<StreamSnapshot | undefined> {
    const [row] = await this.query<{ kind: string; version: number; position: number; state: string }>(
      'SELECT kind, version, position, state FROM stream_snapshots WHERE stream = $1',
      [stream],
    )
    return row && { stream, ...row, state: JSON.parse(row.state) }
  }

  writeSnapshot({ stream, kind, version, position, state }: StreamSnapshot): void {
    // written after the decision's append: a decision that lost a race on the stream is refused
    // there and never writes, and a work of a batch that fails after it is run again without it
    this.exec(
      `INSERT INTO stream_snapshots (stream, kind, version, position, state) VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (stream) DO UPDATE SET kind = excluded.kind, version = excluded.version,
         position = excluded.position, state = excluded.state`,
      [stream, kind, version, position, JSON.stringify(state)],
    )
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
    // inserted when it is not the one expected (then it is read again, to say which it is). Two
    // transactions inserting one version at once: the unique key makes the second wait for the
    // first, and refuses it once the first has committed. Either way the stream moved since the
    // decision read it: AppendRaced, and the decision runs again.
    let rows: Array<{ position: number; version: number }>
    try {
      rows = await this.query<{ position: number; version: number }>(
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
    } catch (error) {
      if (
        error instanceof pg.DatabaseError &&
        error.code === '23505' &&
        error.constraint === 'ledger_stream_version'
      ) {
        // (this transaction is aborted: the version is read outside it)
        throw new AppendRaced(
          stream,
          expectedVersion === 'any' ? -1 : expectedVersion,
          await this.ledger.version(stream),
        )
      }
      throw error
    }
    if (rows.length === 0) {
      throw new AppendRaced(stream, expectedVersion as number, await this.version(stream))
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

/** a batch's transaction hit a deadlock or a serialisation failure: it runs again whole */
class RunAgain extends Error {
  constructor(
    readonly failure: unknown,
    /** sending each work's writes before the next begins (a failure's work was not known) */
    readonly strict = false,
  ) {
    super('run the batch again')
  }
}

/** a work waiting for its batch's commit */
type Queued = {
  fn: (tx: PgTx) => Promise<unknown>
  settle: (error: unknown, result?: unknown) => void
  /** the batches it ran in that lost a race on its stream */
  raced: number
}

/** the work of one set of locks waiting for the next group commit, and whether one is under way */
type Pipeline = { name: string; keys: bigint[]; queue: Queued[]; running: boolean }

export class PgLedger {
  private readonly listeners = new Set<(head: number, streams: ReadonlySet<string>) => void>()
  private readonly byType = new Map<string, Array<NonNullable<PgProjection['handlers'][string]>>>()
  readonly projections: PgProjection[]

  constructor(
    readonly pool: pg.Pool,
    projections: PgProjection[] = [],
    readonly now: () => Date = () => new Date(),
    private readonly upcasters: Upcasters = {},
    /** tests only: false tails without the bound, to show what it prevents (see the head of this file) */
    private readonly watermark = true,
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
   * Runs fn in one transaction, holding the locks it names (options.lock) from its start: what fn
   * reads under them cannot change before it commits. A run that lost a race on a stream, or hit a
   * deadlock, is run again (fn must be a decision, free to run twice). Listeners hear of the facts
   * it appended once it has committed.
   */
  async transaction<T>(fn: (tx: PgTx) => Promise<T>, options: DecisionOptions = {}): Promise<T> {
    const keys = lockKeys(options.lock)
    for (let attempt = 1; ; attempt++) {
      try {
        const { result, tx } = await this.inTransaction(keys, async (tx) => ({ result: await fn(tx), tx }))
        this.heard(tx)
        return result
      } catch (error) {
        if (attempt >= ATTEMPTS || !worthRetrying(error)) throw error
        await pause(attempt)
      }
    }
  }

  /**
   * This process's transactions holding a lock, one after another per lock. They would queue on
   * the advisory lock anyway; queued here instead, each waits without holding a pool connection,
   * so reads (the live pushes', the routes') are never starved of connections by transactions
   * waiting for a lock. Found by the cluster test on PostgreSQL when every transaction took one
   * lock: with a batch per turn of the event loop, 26 of 32 connections sat waiting on it.
   */
  private readonly turns = new Map<bigint, Promise<void>>()

  private async inTransaction<T>(
    keys: readonly bigint[],
    fn: (tx: Transaction) => Promise<T>,
    alone = false,
  ): Promise<T> {
    if (keys.length === 0) return this.openTransaction(keys, fn, alone)
    const before = keys.flatMap((key) => this.turns.get(key) ?? [])
    let done!: () => void
    const mine = new Promise<void>((resolve) => {
      done = resolve
    })
    for (const key of keys) this.turns.set(key, mine)
    try {
      await Promise.all(before)
      return await this.openTransaction(keys, fn, alone)
    } finally {
      done()
      for (const key of keys) if (this.turns.get(key) === mine) this.turns.delete(key)
    }
  }

  private async openTransaction<T>(
    keys: readonly bigint[],
    fn: (tx: Transaction) => Promise<T>,
    alone: boolean,
  ): Promise<T> {
    const client = await this.pool.connect()
    let broken: Error | undefined
    try {
      // Sent with the transaction's first read (or its commit): the locks taken in one order
      // (sorted) by every transaction, so they never wait in a circle.
      const tx = new Transaction(client, this)
      tx.exec('BEGIN')
      tx.exec(`SELECT pg_advisory_xact_lock${alone ? '' : '_shared'}(${APPEND_LOCK})`)
      for (const key of keys) tx.exec(`SELECT pg_advisory_xact_lock(${BigInt(key)})`)
      const result = await fn(tx)
      await tx.commit()
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

  /** Work waiting for the next group commit, per set of locks. */
  private readonly pipelines = new Map<string, Pipeline>()

  /**
   * Like transaction(), but shares one commit with the other work queued in the same turn of the
   * event loop naming the same locks (group commit): each fn runs in arrival order, seeing what the
   * ones before it wrote, and a fn that throws rolls back alone. The promise settles once the
   * shared commit is durable; a commit that fails fails every fn of the batch. Work naming other
   * locks (other events) commits in batches of its own, at the same time.
   */
  transactionInBatch<T>(fn: (tx: PgTx) => Promise<T>, options: DecisionOptions = {}): Promise<T> {
    const keys = lockKeys(options.lock)
    return new Promise<T>((resolve, reject) => {
      this.queue(keys, {
        fn,
        settle: (error, result) => (error === undefined ? resolve(result as T) : reject(error)),
        raced: 0,
      })
    })
  }

  private queue(keys: bigint[], work: Queued) {
    const name = keys.join(',')
    let pipeline = this.pipelines.get(name)
    if (!pipeline) {
      pipeline = { name, keys, queue: [], running: false }
      this.pipelines.set(name, pipeline)
    }
    pipeline.queue.push(work)
    const ready = pipeline
    if (!ready.running && ready.queue.length === 1) setImmediate(() => void this.commitBatch(ready))
  }

  private async commitBatch(pipeline: Pipeline) {
    pipeline.running = true
    try {
      await this.runBatch(pipeline)
    } finally {
      pipeline.running = false
      if (pipeline.queue.length > 0) setImmediate(() => void this.commitBatch(pipeline))
      else if (this.pipelines.get(pipeline.name) === pipeline) this.pipelines.delete(pipeline.name)
    }
  }

  private async runBatch(pipeline: Pipeline) {
    // The batch is taken once this process's turn has come and the locks are held: the work that
    // arrived while an earlier batch was committing joins this one (group commit under load).
    let batch: Queued[] = []
    let left: number[] = []
    let taken = false
    const take = () => {
      if (taken) return
      taken = true
      batch = pipeline.queue
      pipeline.queue = []
      left = batch.map((_, i) => i)
    }
    let outcomes: Array<{ error?: unknown; result?: unknown }> = []
    let tx: Transaction | undefined
    let tries = 1
    // A work's projection writes are sent with the next work's first read: a statement of one work
    // may so fail in a send made by the next. Then the batch runs again, each work's writes sent
    // before the next work begins, so that the work a failure belongs to is known.
    let strict = false
    // No savepoint per work (PostgreSQL makes each a subtransaction, and past 64 in one transaction
    // every snapshot in the database grows costly). A work refused before it appended (sold out,
    // any DomainError) has nothing to undo and is answered alone; the rare one that fails after it
    // wrote, or on a statement (which aborts the whole transaction), is answered with its error
    // (or, when it lost a race on its stream, queued for the next batch) and the batch is run
    // again without it in a new transaction. A deadlock runs the whole batch again.
    for (;;) {
      try {
        tx = await this.inTransaction(pipeline.keys, async (t) => {
          take()
          outcomes = []
          if (strict) await t.flush()
          for (const i of left) {
            const appendsBefore = t.appends
            t.owner = i
            try {
              outcomes[i] = { result: await (batch[i] as Queued).fn(t) }
              if (strict) await t.flush()
            } catch (error) {
              if ([...t.failedOwners].some((owner) => owner !== i))
                throw strict ? error : new RunAgain(error, true)
              if (worthRetrying(error) && !(error instanceof AppendRaced)) throw new RunAgain(error)
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
        take()
        if (error instanceof RunAgainWithout) {
          const { index, failure } = error
          const work = batch[index] as Queued
          left = left.filter((i) => i !== index)
          if (failure instanceof AppendRaced && ++work.raced < ATTEMPTS) pipeline.queue.push(work)
          else work.settle(failure)
          if (left.length > 0) continue
          return
        }
        const failure = error instanceof RunAgain ? error.failure : error
        if (error instanceof RunAgain && error.strict && !strict) {
          strict = true
          continue
        }
        if (worthRetrying(failure) && tries++ < ATTEMPTS) {
          await pause(tries)
          continue
        }
        for (const i of left) batch[i]?.settle(failure ?? new Error('commit failed'))
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
    await this.inTransaction(
      [],
      async (tx) => {
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
      },
      true,
    )
  }

  /**
   * Empties the read-model tables and replays the whole ledger through the projections, in one
   * transaction holding the append lock alone (ledger:rebuild): nothing appends meanwhile, and
   * readers see the old models until it commits.
   */
  async rebuild(tables: readonly string[], pageSize = 5000): Promise<number> {
    let facts = 0
    await this.inTransaction(
      [],
      async (tx) => {
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
      },
      true,
    )
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

  /** Facts after a position, in position order, as committed now (not a way to tail: tail()). */
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

  /**
   * A position at or below which every fact has committed or never will: what a read made after it
   * is as of (a dashboard's rows), so that a fact the read does not show is at a position above it.
   * The head alone is not one here: a transaction that took a lower position may commit after it.
   * Every appending transaction holds APPEND_LOCK from before it takes a position, and positions
   * are taken in order, so one that took a position at or below the head read here holds that lock
   * still (it is listed, in the same statement, after the head was read) or has ended: the head is
   * answered once the transactions listed have ended. They are short; past `waitMs` (one stuck,
   * until idle_in_transaction_session_timeout ends it) the head is answered as it is. Reading
   * pg_locks briefly locks the lock manager's partitions: fine for an answer a client fetches at
   * most once a second (the dashboards), not for every request.
   */
  async settledHead(waitMs = 2_000): Promise<number> {
    const holders = `SELECT virtualtransaction FROM pg_locks
      WHERE locktype = 'advisory' AND classid = 0 AND objid = ${APPEND_LOCK} AND objsubid = 1 AND granted
        AND database = (SELECT oid FROM pg_database WHERE datname = current_database())`
    const { rows } = await this.pool.query<{ head: string; open: string[] }>(
      `SELECT (SELECT coalesce(max(position), 0) FROM ledger)::text AS head,
         ARRAY(${holders} AND pid <> pg_backend_pid()) AS open`,
    )
    const head = Number(rows[0]?.head ?? 0)
    const open = rows[0]?.open ?? []
    for (const until = Date.now() + waitMs; open.length > 0 && Date.now() < until; ) {
      const { rows: left } = await this.pool.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM (${holders} AND virtualtransaction = ANY($1::text[])) AS still`,
        [open],
      )
      if ((left[0]?.n ?? 0) === 0) break
      await new Promise((resolve) => setTimeout(resolve, 5))
    }
    return head
  }

  /**
   * A version of everything committed: it changes whenever any fact commits, and never comes back
   * (what an ETag or a cache of read models is keyed on). The head is not one here: a fact may
   * commit below a position already committed, and the head stays as it was.
   *
   * It is the newest settled fact in tail order (the greatest (tx, position) below the bound B) and
   * the number of facts committed at or above B. Sound, for a fact f that commits between two reads
   * (B1 then B2; B never goes back, as a transaction running at the second read with an xid below
   * B1 was already running at the first and counted):
   * - every transaction below B1 had ended before the first read's facts were read (BOUND), so f's
   *   transaction, which had not committed then, is at or above B1;
   * - if f is below B2 it is settled at the second read, and the newest settled fact is at least
   *   f, after every fact settled at the first read (all below B1): the first part changed;
   * - else, if the first part did not change, no fact committed between B1 and B2 (it would be a
   *   newer settled fact), so every fact counted at the first read (at or above B1) is counted at
   *   the second too, and f with them: the count grew.
   * Without the bound (tests only) it is the number of facts, as the ledger is only ever added to.
   */
  async ledgerVersion(): Promise<string> {
    const bound = await this.bound()
    if (bound === null) {
      const { rows } = await this.pool.query<{ n: string }>('SELECT count(*)::text AS n FROM ledger')
      return `n${rows[0]?.n ?? '0'}`
    }
    const { rows } = await this.pool.query<{ tx: string | null; position: string | null; above: string }>(
      `SELECT s.tx, s.position, (SELECT count(*) FROM ledger WHERE tx >= $1::xid8)::text AS above
       FROM (SELECT 1) AS one
       LEFT JOIN LATERAL (
         SELECT tx::text AS tx, position::text AS position FROM ledger
         WHERE tx < $1::xid8 ORDER BY ledger.tx DESC, ledger.position DESC LIMIT 1
       ) AS s ON true`,
      [bound],
    )
    const row = rows[0]
    return `${row?.tx ?? 0}.${row?.position ?? 0}.${row?.above ?? 0}`
  }

  /**
   * Facts after a cursor in (tx, position) order, each with the cursor after it, as far as no
   * transaction still running can commit a fact before them (see the head of this file).
   */
  async tail(after: LedgerCursor, limit = 500): Promise<TailedFact[]> {
    return this.read(after, limit, true)
  }

  /**
   * Every fact committed after a cursor, in (tx, position) order, each saying whether it is below
   * the bound (settled): those come first, as tail() gives them.
   */
  peek(after: LedgerCursor, limit = 500): Promise<Array<TailedFact & { settled: boolean }>> {
    return this.read(after, limit, false)
  }

  /**
   * The bound below which facts are settled (BOUND); none without the watermark (tests). Readers
   * asking at once share one reading: a bound read a moment earlier is at most as far on, so the
   * facts below it are settled all the same.
   */
  private bound(): Promise<string | null> {
    if (!this.watermark) return Promise.resolve(null)
    this.reading ??= this.pool
      .query<{ bound: string }>(BOUND)
      .then(({ rows }) => rows[0]?.bound ?? '0')
      .finally(() => {
        this.reading = undefined
      })
    return this.reading
  }
  private reading: Promise<string> | undefined

  private async read(after: LedgerCursor, limit: number, settledOnly: boolean) {
    const from = after.tx === undefined ? await this.cursorAt(after.position) : after
    const bound = await this.bound()
    const rows = await this.rows(
      `SELECT position, stream, version, type, data, meta, at, tx::text AS tx,
         ($4::xid8 IS NULL OR tx < $4::xid8) AS settled
       FROM ledger
       WHERE (tx, position) > ($1::xid8, $2::bigint) ${settledOnly ? 'AND ($4::xid8 IS NULL OR tx < $4::xid8)' : ''}
       ORDER BY ledger.tx, ledger.position
       LIMIT $3`,
      [from.tx, from.position, limit, bound],
    )
    return rows.map((row) => {
      const { tx, settled } = row as LedgerRow & { tx: string; settled: boolean }
      return { fact: this.decode(row), cursor: { position: row.position, tx }, settled }
    })
  }

  /**
   * Where a reader starting now begins: before the oldest transaction still running here, so a
   * fact it commits later is read. (A few facts committed just before may be read too.)
   */
  async tailHead(): Promise<LedgerCursor> {
    const { rows } = await this.pool.query<{ bound: string }>(BOUND)
    return { position: 0, tx: rows[0]?.bound ?? '0' }
  }

  /**
   * The cursor of a reader that has read up to the fact at a position, in (tx, position) order:
   * after that fact (everything before it in that order was committed before it could be read).
   * A position where no fact is (never taken, or before the first) stands after the fact before it.
   */
  async cursorAt(position: number): Promise<LedgerCursor> {
    const { rows } = await this.pool.query<{ tx: string | null }>(
      'SELECT (SELECT tx::text FROM ledger WHERE position <= $1 ORDER BY position DESC LIMIT 1) AS tx',
      [position],
    )
    return { position, tx: rows[0]?.tx ?? '0' }
  }

  /** Called after each commit in this process that appended facts, with the new head and the
   * streams that grew. (Other processes' facts are found by polling, as on SQLite.) */
  onAppend(listener: (head: number, streams: ReadonlySet<string>) => void): () => void {
    this.listeners.add(listener)
    return () => this.listeners.delete(listener)
  }
}

/** The PostgreSQL ledger behind the store's port (db/store.ts): each step of a decision awaited in
 * a transaction of its own, holding the locks the decision names, with the reads it needs made on
 * that transaction. */
export function pgLedgerPort<Reads>(ledger: PgLedger, readsOf: (tx: PgTx) => Reads): LedgerPort<Reads> {
  const decision = (tx: PgTx): DecisionTx<Reads> => ({
    readStream: (stream) => tx.readStream(stream),
    readStreamAfter: (stream, version) => tx.readStreamAfter(stream, version),
    positionOf: (stream, version) => tx.positionOf(stream, version),
    readSnapshot: (stream) => tx.readSnapshot(stream),
    writeSnapshot: (snapshot) => tx.writeSnapshot(snapshot),
    append: (stream, expectedVersion, facts, meta) => tx.append(stream, expectedVersion, facts, meta),
    reads: readsOf(tx),
  })
  return {
    kind: 'postgres',
    // each run of a decision is a new run of its work (a decision that lost a race runs again)
    transaction: (work, options) => ledger.transaction((tx) => runLater(work(decision(tx))), options),
    transactionInBatch: (work, options) =>
      ledger.transactionInBatch((tx) => runLater(work(decision(tx))), options),
    readStream: (stream) => ledger.readStream(stream),
    readFrom: (position, limit) => ledger.readFrom(position, limit),
    head: () => ledger.head(),
    version: () => ledger.ledgerVersion(),
    settledHead: () => ledger.settledHead(),
    tail: (after, limit) => ledger.tail(after, limit),
    peek: (after, limit) => ledger.peek(after, limit),
    tailHead: () => ledger.tailHead(),
    cursorAt: (position) => ledger.cursorAt(position),
    onAppend: (listener) => ledger.onAppend(listener),
    // A consumer's cursor is the last fact it handled, so its position is all that is kept: the
    // fact there gives its tx (cursorAt, when the consumer first tails from it).
    checkpoints: {
      read: async (name) => {
        const { rows } = await ledger.pool.query<{ position: number }>(
          'SELECT position FROM checkpoints WHERE name = $1',
          [name],
        )
        return rows[0] ? { position: rows[0].position } : undefined
      },
      write: async (name, cursor) => {
        await ledger.pool.query(
          `INSERT INTO checkpoints (name, position, at) VALUES ($1, $2, $3)
           ON CONFLICT (name) DO UPDATE SET position = excluded.position, at = excluded.at`,
          [name, cursor.position, new Date().toISOString()],
        )
      },
    },
  }
}
