// The append-only ledger: facts in streams, ordered by a global position, with the inline
// projections run in the same synchronous transaction as the append.

import type Database from 'better-sqlite3'
import type { SQLiteTable } from 'drizzle-orm/sqlite-core'
import type { Connection, Db, Sqlite } from '../db/connection.ts'
import type { FactMeta } from '../db/schema.ts'
import { perWholeNumber } from '../db/sql.ts'
import type { StreamSnapshot } from '../db/store.ts'
import { inDependencyOrder } from './projection-order.ts'
import { REPLAY_ROWS } from './replay-rows.ts'
import { type Upcasters, upcast } from './upcast.ts'

export type { FactMeta }

export type Fact<Type extends string = string, Data = unknown> = { type: Type; data: Data }

export type StoredFact<F extends Fact = Fact> = F & {
  position: number
  stream: string
  version: number
  meta: FactMeta
  at: string
}

/** Folds facts of some types into read-model tables; runs inside the append transaction. */
export type Projection = {
  name: string
  /** the read-model tables this projection owns: emptied and refilled by a rebuild */
  tables: SQLiteTable[]
  /**
   * Builds one handler per fact type it reads (facts of other types pass by), once per
   * connection, so the handlers' statements are prepared once and not on every fact. In a
   * rebuild's replay they are built again, given what the replays share.
   */
  handlers: (db: Db, replaying?: Replaying) => Handlers
  /**
   * Handlers for a rebuild's replay (ledger.replaying), when they differ: this projection's tables
   * start empty and nobody reads them until flush(), so they may fold in memory and write once.
   */
  replay?: (db: Db, rowsHeld: number, replaying: Replaying) => Replay
  /** the projections whose read models this one reads: it runs after them for each fact */
  after?: readonly string[]
}

/**
 * What the projections of one replay share: rows a projection holds in memory, lent to the
 * projections after it that read them (booking's orders: booking/project.ts, heldOrders), under a
 * key of its own.
 */
export type Replaying = Map<symbol, unknown>

/** a projection's handlers for a replay, and what writes what they kept back */
export type Replay = { handlers: Handlers; flush(): void }

/** one handler per fact type of a module's union */
export type HandlersOf<F extends Fact> = {
  [T in F['type']]: (fact: StoredFact<Extract<F, { type: T }>>) => void
}

/** Builds a projection whose handler map must cover every fact of the module's union. */
export function projection<F extends Fact>(spec: {
  name: string
  tables: SQLiteTable[]
  handlers: (db: Db, replaying?: Replaying) => HandlersOf<F>
  replay?: (db: Db, rowsHeld: number, replaying: Replaying) => { handlers: HandlersOf<F>; flush(): void }
  after?: readonly string[]
}): Projection {
  return spec as unknown as Projection
}

/**
 * A stored row as a fact in its current shape (older shapes are upcast here, on every read). Its
 * data and meta are parsed when first read: each consumer of a process reads every fact, and most
 * pass over most types (an invoice's document, the largest, is read by none of the app's).
 */
export const decodeRow = (upcasters: Upcasters, row: LedgerRow): StoredFact => {
  // each text is let go once parsed: a fact kept is not kept twice (its text and its object)
  // (the row itself is not in the getters' closure, which would keep its texts alive)
  const { type } = row
  let dataText: string | null = row.data
  let metaText: string | null = row.meta
  let data: unknown
  let meta: FactMeta = {}
  return {
    position: row.position,
    stream: row.stream,
    version: row.version,
    type,
    get data() {
      if (dataText !== null) {
        data = upcast(upcasters, type, JSON.parse(dataText))
        dataText = null
      }
      return data
    },
    get meta() {
      if (metaText !== null) {
        meta = JSON.parse(metaText) as FactMeta
        metaText = null
      }
      return meta
    },
    at: row.at,
  }
}

type Handlers = Partial<Record<string, (fact: StoredFact) => void>>

/** each fact type's handlers, in the order of the projections they come from */
function byType(sets: Handlers[]): Map<string, Array<(fact: StoredFact) => void>> {
  const map = new Map<string, Array<(fact: StoredFact) => void>>()
  for (const set of sets) {
    for (const [type, handler] of Object.entries(set)) {
      if (!handler) continue
      const list = map.get(type) ?? []
      list.push(handler)
      map.set(type, list)
    }
  }
  return map
}

/** a fact's row as a replay reads it: position, stream, version, type, data (JSON) and time */
type ReplayRow = [number, string, number, string, string, string]

export class StreamVersionConflict extends Error {
  constructor(
    readonly stream: string,
    readonly expected: number,
    readonly actual: number,
  ) {
    super(`Stream ${stream} is at version ${actual}, expected ${expected}`)
    this.name = 'StreamVersionConflict'
  }
}

/** a fact as the ledger table stores it, on either store (data and meta as JSON text) */
export type LedgerRow = {
  position: number
  stream: string
  version: number
  type: string
  data: string
  meta: string
  at: string
}

export class Ledger {
  readonly sqlite: Sqlite
  readonly db: Db
  private readonly listeners = new Set<(head: number, streams: ReadonlySet<string>) => void>()
  /** the streams appended to in the running transaction */
  private touched = new Set<string>()
  private depth = 0
  /** the position of the last fact appended in the running transaction (0: none yet) */
  private lastAppended = 0
  private readonly byType: Map<string, Array<(fact: StoredFact) => void>>

  /** every projection, in the order they run for each fact (dependencies first) */
  readonly projections: Projection[]
  private readonly statements
  private readonly run: Database.Transaction<(fn: () => unknown) => unknown>
  constructor(
    connection: Connection,
    projections: Projection[],
    private readonly now: () => Date = () => new Date(),
    /** old fact shapes to the current one, applied on every read (tests may pass their own) */
    private readonly upcasters: Upcasters = {},
  ) {
    this.sqlite = connection.sqlite
    this.db = connection.db
    this.projections = inDependencyOrder(projections)
    this.byType = byType(this.projections.map((p) => p.handlers(this.db)))
    // One transaction function, reused: fn is passed through (a nested call becomes a savepoint).
    this.run = this.sqlite.transaction((fn: () => unknown) => fn())
    this.statements = {
      version: this.sqlite.prepare<[string], { v: number }>(
        'SELECT coalesce(max(version), 0) AS v FROM ledger WHERE stream = ?',
      ),
      insert: this.sqlite.prepare(
        'INSERT INTO ledger (stream, version, type, data, meta, at) VALUES (?, ?, ?, ?, ?, ?)',
      ),
      stream: this.sqlite.prepare<[string], LedgerRow>(
        'SELECT * FROM ledger WHERE stream = ? ORDER BY version',
      ),
      streamAfter: this.sqlite.prepare<[string, number], LedgerRow>(
        'SELECT * FROM ledger WHERE stream = ? AND version > ? ORDER BY version',
      ),
      positionOf: this.sqlite
        .prepare<[string, number], number>('SELECT position FROM ledger WHERE stream = ? AND version = ?')
        .pluck(),
      snapshot: this.sqlite.prepare<
        [string],
        { kind: string; version: number; position: number; state: string }
      >('SELECT kind, version, position, state FROM stream_snapshots WHERE stream = ?'),
      keepSnapshot: this.sqlite.prepare<[string, string, number, number, string]>(
        `INSERT INTO stream_snapshots (stream, kind, version, position, state) VALUES (?, ?, ?, ?, ?)
         ON CONFLICT (stream) DO UPDATE SET kind = excluded.kind, version = excluded.version,
           position = excluded.position, state = excluded.state`,
      ),
      // a statement per limit, the limit in its text (db/sql.ts perLimit): bound, SQLite prepares
      // the statement again at every run (6 µs of 11 for a consumer's look past the ledger's head)
      from: perWholeNumber((limit) =>
        this.sqlite.prepare<[number], LedgerRow>(
          `SELECT * FROM ledger WHERE position > ? ORDER BY position LIMIT ${limit}`,
        ),
      ),
      // rows as arrays, not objects: a replay reads a million, and makes its own object of each
      replay: perWholeNumber((limit) =>
        this.sqlite
          .prepare<[number], ReplayRow>(
            `SELECT position, stream, version, type, data, at FROM ledger WHERE position > ? ORDER BY position LIMIT ${limit}`,
          )
          .raw(),
      ),
      head: this.sqlite.prepare<[], number>('SELECT coalesce(max(position), 0) FROM ledger').pluck(),
    }
  }

  /**
   * Runs fn in one immediate (write-locked) transaction; nested calls become savepoints.
   * fn must be synchronous. Listeners hear about new facts only after the outermost commit.
   */
  transaction<T>(fn: () => T): T {
    if (this.depth > 0) {
      this.depth++
      try {
        return this.run(fn) as T
      } finally {
        this.depth--
      }
    }
    this.depth = 1
    this.lastAppended = 0
    this.touched = new Set()
    let result: T
    try {
      result = this.run.immediate(fn) as T
    } finally {
      this.depth = 0
    }
    if (this.lastAppended > 0) {
      const head = this.lastAppended
      const streams = this.touched
      this.lastAppended = 0
      this.touched = new Set()
      for (const listener of this.listeners) listener(head, streams)
    }
    return result
  }

  /** Work waiting for the next group commit (see transactionInBatch). */
  private batch: Array<{ fn: () => unknown; settle: (error: unknown, result?: unknown) => void }> = []

  /**
   * Like transaction(), but shares one commit with the other work queued in the same turn of the
   * event loop (group commit): each fn runs in a savepoint of its own, in arrival order, seeing
   * what the ones before it wrote, and a fn that throws rolls back alone. The promise settles once
   * the shared commit is durable, so an answer is still only given for what is on disk; a commit
   * that fails fails every fn of the batch. With SQLITE_SYNCHRONOUS=FULL this turns one fsync per
   * request into one per batch.
   */
  transactionInBatch<T>(fn: () => T): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      if (this.batch.length === 0) setImmediate(() => this.commitBatch())
      this.batch.push({
        fn,
        settle: (error, result) => (error === undefined ? resolve(result as T) : reject(error)),
      })
    })
  }

  private commitBatch() {
    const batch = this.batch
    this.batch = []
    const outcomes: Array<{ error?: unknown; result?: unknown }> = []
    try {
      this.transaction(() => {
        for (const { fn } of batch) {
          const appendedBefore = this.lastAppended
          const touchedBefore = new Set(this.touched)
          try {
            outcomes.push({ result: this.transaction(fn) })
          } catch (error) {
            this.lastAppended = appendedBefore
            this.touched = touchedBefore
            outcomes.push({ error: error ?? new Error('failed') })
          }
        }
      })
    } catch (error) {
      for (const { settle } of batch) settle(error ?? new Error('commit failed'))
      return
    }
    for (const [i, { settle }] of batch.entries()) settle(outcomes[i]?.error, outcomes[i]?.result)
  }

  /**
   * Appends facts to a stream whose current version must equal expectedVersion (the number of
   * facts it already holds; 0 for a new stream), or 'any' to skip the check.
   */
  append<F extends Fact>(
    stream: string,
    expectedVersion: number | 'any',
    facts: F[],
    meta: FactMeta = {},
  ): StoredFact<F>[] {
    if (facts.length === 0) return []
    return this.transaction(() => {
      const actual = this.version(stream)
      if (expectedVersion !== 'any' && actual !== expectedVersion) {
        throw new StreamVersionConflict(stream, expectedVersion, actual)
      }
      const at = this.now().toISOString()
      const metaText = JSON.stringify(meta)
      const stored = facts.map((fact, i) => {
        const version = actual + i + 1
        const result = this.statements.insert.run(
          stream,
          version,
          fact.type,
          JSON.stringify(fact.data),
          metaText,
          at,
        )
        return {
          ...fact,
          position: Number(result.lastInsertRowid),
          stream,
          version,
          meta,
          at,
        } as StoredFact<F>
      })
      for (const fact of stored) this.project(fact)
      this.lastAppended = (stored[stored.length - 1] as StoredFact).position
      this.touched.add(stream)
      return stored
    })
  }

  /**
   * Copies facts in as they were stored elsewhere (positions, versions, times and meta kept), after
   * everything here, each projected as if just appended: a ledger copied from PostgreSQL
   * (ledger:copy). One transaction.
   */
  copyIn(facts: readonly StoredFact[]): void {
    if (facts.length === 0) return
    const insert = this.sqlite.prepare(
      'INSERT INTO ledger (position, stream, version, type, data, meta, at) VALUES (?, ?, ?, ?, ?, ?, ?)',
    )
    this.transaction(() => {
      for (const fact of facts) {
        insert.run(
          fact.position,
          fact.stream,
          fact.version,
          fact.type,
          JSON.stringify(fact.data),
          JSON.stringify(fact.meta),
          fact.at,
        )
        this.project(fact)
      }
      this.lastAppended = (facts[facts.length - 1] as StoredFact).position
    })
  }

  /**
   * A rebuild's replay, in a transaction the caller holds: fn projects facts through each
   * projection's replay handlers (its own handlers when it has none), and what they kept back is
   * written when fn returns, in the projections' order.
   */
  replaying(
    fn: (project: (fact: StoredFact) => void) => void,
    /** rows the projections hold in memory at most (replay-rows.ts) */
    rowsHeld = REPLAY_ROWS,
  ): void {
    const shared: Replaying = new Map()
    const replays = this.projections.map((p) => p.replay?.(this.db, rowsHeld, shared))
    const handlers = byType(
      this.projections.map((p, i) => replays[i]?.handlers ?? p.handlers(this.db, shared)),
    )
    fn((fact) => {
      for (const handler of handlers.get(fact.type) ?? []) handler(fact)
    })
    for (const replay of replays) replay?.flush()
  }

  /** Applies one fact to every inline projection that reads its type. */
  project(fact: StoredFact): void {
    const handlers = this.byType.get(fact.type)
    if (!handlers) return
    for (const handler of handlers) handler(fact)
  }

  version(stream: string): number {
    return (this.statements.version.get(stream) as { v: number }).v
  }

  private readonly decode = (row: LedgerRow): StoredFact => decodeRow(this.upcasters, row)

  readStream(stream: string): StoredFact[] {
    return this.statements.stream.all(stream).map(this.decode)
  }

  /** The stream's facts after a version, oldest first. */
  readStreamAfter(stream: string, version: number): StoredFact[] {
    return this.statements.streamAfter.all(stream, version).map(this.decode)
  }

  /** The ledger position of the stream's fact at a version, if it has one. */
  positionOf(stream: string, version: number): number | undefined {
    return this.statements.positionOf.get(stream, version)
  }

  /** The state a decider kept of the stream (decider.ts), if any. */
  readSnapshot(stream: string): StreamSnapshot | undefined {
    const row = this.statements.snapshot.get(stream)
    return row && { stream, ...row, state: JSON.parse(row.state) }
  }

  /** Keeps a decider's state of the stream, in the running transaction (replacing the one before). */
  writeSnapshot({ stream, kind, version, position, state }: StreamSnapshot): void {
    this.statements.keepSnapshot.run(stream, kind, version, position, JSON.stringify(state))
  }

  /** Facts after a position, oldest first. */
  readFrom(position: number, limit = 500): StoredFact[] {
    return this.statements.from(limit).all(position).map(this.decode)
  }

  /** Facts after a position as projections need them (no meta: a replay reads a million). */
  replayFrom(position: number, limit: number): StoredFact[] {
    return (this.statements.replay(limit).all(position) as unknown as ReplayRow[]).map(
      ([position, stream, version, type, data, at]) => ({
        position,
        stream,
        version,
        type,
        data: upcast(this.upcasters, type, JSON.parse(data)),
        meta: {},
        at,
      }),
    )
  }

  head(): number {
    return this.statements.head.get() as number
  }

  /** Called after each commit that appended facts (in this process), with the new head and the
   * streams that grew. */
  onAppend(listener: (head: number, streams: ReadonlySet<string>) => void): () => void {
    this.listeners.add(listener)
    return () => this.listeners.delete(listener)
  }
}
