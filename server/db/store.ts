// The one port every area reads and decides through, whichever store holds the ledger (issue 15):
// SQLite (synchronous, one file) or PostgreSQL (async, any number of processes).
//
// Reads outside a decision are async on both (AsyncQueries). A decision (read a stream and the
// read models it needs, decide, append) is written once, as a generator of steps (Step): each
// `yield* wait(x)` hands the store what a read or an append answered. SQLite runs the steps at
// once inside its synchronous write transaction, so nothing else in the process can interleave
// with a decision there; PostgreSQL awaits each one inside a transaction of its own, which holds
// the decision's lock (DecisionOptions) when it reads more than its own stream (ledger/pg-ledger.ts).
import type { Fact, FactMeta, StoredFact } from '../ledger/ledger.ts'

export type Awaitable<T> = T | Promise<T>

/** Every method of Q, answering a promise of what it answers. */
export type AsyncQueries<Q> = {
  [K in keyof Q]: Q[K] extends (...args: infer A) => infer R ? (...args: A) => Promise<Awaited<R>> : Q[K]
}

/** Every method of Q, answering now (SQLite) or later (PostgreSQL): what a decision reads. */
export type StepQueries<Q> = {
  [K in keyof Q]: Q[K] extends (...args: infer A) => infer R ? (...args: A) => Awaitable<Awaited<R>> : Q[K]
}

/** A decision's work: yields what it waits for (values or promises), returns its outcome. */
export type Step<T> = Generator<unknown, T, unknown>

/** Waits for one read or append inside a decision: `const rows = yield* wait(tx.booking.heldBy(…))`. */
export function* wait<T>(value: Awaitable<T>): Step<T> {
  return (yield value) as T
}

/**
 * Several reads of a decision at once: their answers now when all have come (SQLite), else one
 * promise of them all (PostgreSQL, where the reads of one turn go to the database together).
 */
export function together<T extends readonly unknown[]>(
  values: {
    readonly [K in keyof T]: Awaitable<T[K]>
  },
): Awaitable<T> {
  return values.some((value) => value instanceof Promise)
    ? (Promise.all(values) as Promise<T>)
    : (values as unknown as T)
}

/** Runs a decision's steps at once (SQLite): every step must already have its answer. */
export function runNow<T>(work: Step<T>): T {
  let next = work.next()
  while (!next.done) {
    if (next.value instanceof Promise) {
      // a programming error: a decision on SQLite must not wait for anything outside the transaction
      void next.value.catch(() => {})
      throw new Error('A synchronous transaction was given a promise to wait for')
    }
    next = work.next(next.value)
  }
  return next.value
}

/** Runs a decision's steps, awaiting each (PostgreSQL); a failed step is thrown into the work. */
export async function runLater<T>(work: Step<T>): Promise<T> {
  let next = work.next()
  while (!next.done) {
    let answer: unknown
    try {
      answer = await next.value
    } catch (error) {
      next = work.throw(error)
      continue
    }
    next = work.next(answer)
  }
  return next.value
}

/**
 * A decider's state of a stream as of its fact `version` (at ledger `position`), kept so that a
 * decision reads it and the facts after it instead of the whole stream. `kind` names the decider and
 * the shape of its state: a snapshot of another kind is not used, nor one whose fact is no longer at
 * that position (a ledger restored without it). It stays true of its fact for ever.
 */
export type StreamSnapshot = {
  stream: string
  kind: string
  version: number
  position: number
  state: unknown
}

/** What a decision may do inside its transaction. */
export type DecisionTx<Reads> = {
  readStream(stream: string): Awaitable<StoredFact[]>
  /** the stream's facts after a version, oldest first */
  readStreamAfter(stream: string, version: number): Awaitable<StoredFact[]>
  /** the ledger position of the stream's fact at a version (undefined: it has none) */
  positionOf(stream: string, version: number): Awaitable<number | undefined>
  /** the state a decider kept of the stream at a version (ledger/decider.ts), if any */
  readSnapshot(stream: string): Awaitable<StreamSnapshot | undefined>
  /** keeps a decider's state of the stream, with the decision's facts (one snapshot a stream) */
  writeSnapshot(snapshot: StreamSnapshot): Awaitable<void>
  append<F extends Fact>(
    stream: string,
    expectedVersion: number | 'any',
    facts: F[],
    meta?: FactMeta,
  ): Awaitable<StoredFact<F>[]>
  /** the read models a decision reads, inside its own transaction (exact under its lock) */
  reads: Reads
}

/**
 * How a decision runs. A decision that reads only its own stream needs nothing: the stream's
 * version is checked when it appends, and on PostgreSQL a decision that lost that race runs
 * again. One that decides against read models (the seats left, a promo code's uses, the e-mails
 * taken) names a lock: decisions naming the same one never run at once, in any process, so each
 * reads what the one before it wrote. SQLite has one writer: it takes no lock of its own.
 */
export type DecisionOptions = { lock?: string | readonly string[] }

/** The locks decisions take (DecisionOptions.lock). */
export const decisionLocks = {
  /** everything decided against an event's seats, promo codes, waiting lists and door */
  event: (eventId: string) => `event:${eventId}`,
  /** an event's waiting room: its line's joins, opening and admissions (issue 41) */
  queue: (eventId: string) => `queue:${eventId}`,
  /** an invoice series: a supplier's next numbers (the organizer's, or 'platform' for fees) */
  invoices: (supplierId: string) => `invoices:${supplierId}`,
  /** a webhook endpoint: its deliveries queued once each, their outcomes recorded once each */
  webhook: (endpointId: string) => `webhook:${endpointId}`,
  /** an account's API tokens, an organizer's webhook endpoints: how many it has (issue 43) */
  integrations: (accountId: string) => `integrations:${accountId}`,
  /** a sign-up: one account per e-mail */
  email: (email: string) => `email:${email.toLowerCase()}`,
}

/**
 * Where a reader tailing the ledger stands (a consumer's checkpoint): after the fact at
 * `position`. On SQLite the ledger is tailed in position order and that is all; on PostgreSQL it
 * is tailed in (tx, position) order (the appending transaction first), and `tx` is the
 * transaction of that fact (absent: the fact at `position` gives it, as cursorAt does).
 */
export type LedgerCursor = { readonly position: number; readonly tx?: string }

/** A fact read by a reader tailing the ledger, with where that reader stands once it is read. */
export type TailedFact = { fact: StoredFact; cursor: LedgerCursor }

/** The ledger as every process sees it, on either store. */
export type LedgerPort<Reads> = {
  readonly kind: 'sqlite' | 'postgres'
  /** Runs a decision in one write transaction; listeners hear of its facts after the commit. */
  transaction<T>(work: (tx: DecisionTx<Reads>) => Step<T>, options?: DecisionOptions): Promise<T>
  /** Like transaction(), sharing one commit with the work queued in the same turn (group commit). */
  transactionInBatch<T>(work: (tx: DecisionTx<Reads>) => Step<T>, options?: DecisionOptions): Promise<T>
  readStream(stream: string): Promise<StoredFact[]>
  /**
   * Facts after a position, in position order, as committed now: a look at the ledger, not a way
   * to tail it (on PostgreSQL a fact may still commit behind a position already read: tail()).
   */
  readFrom(position: number, limit?: number): Promise<StoredFact[]>
  /**
   * The greatest position committed. On PostgreSQL a fact may still commit below it (appends run
   * at once), so it names the committed state only as far as positions go: a reader that must not
   * miss a fact tails (tail(), peek()).
   */
  head(): Promise<number>
  /**
   * A version of everything committed, changed by every commit and never repeated: what an ETag or
   * a cache of read models is keyed on. On SQLite the head; on PostgreSQL not (see head()).
   */
  version(): Promise<string>
  /**
   * A position at or below which every fact has committed (or never will): what an answer read
   * after it is as of, so a fact it does not show is above it. On SQLite the head; on PostgreSQL the
   * head once every transaction that may still commit below it has ended (it may wait for them).
   */
  settledHead(): Promise<number>
  /**
   * Facts after a cursor in the order the ledger is tailed, each with the cursor after it: a
   * reader that moves its cursor over what it read never misses a fact nor reads one twice.
   */
  tail(after: LedgerCursor, limit?: number): Promise<TailedFact[]>
  /**
   * Every fact committed after a cursor, in the same order: first the ones tail() gives (settled),
   * then any a transaction still running may yet commit before (settled: false; PostgreSQL only),
   * which a reader may act on now but must not move its cursor over.
   */
  peek(after: LedgerCursor, limit?: number): Promise<Array<TailedFact & { settled: boolean }>>
  /** the cursor a reader starting now begins at: every fact committed from now on comes after it */
  tailHead(): Promise<LedgerCursor>
  /** the cursor of a reader that has read up to the fact at a position (a client's last one) */
  cursorAt(position: number): Promise<LedgerCursor>
  /** called after each commit in this process that appended facts (other processes' are polled) */
  onAppend(listener: (head: number, streams: ReadonlySet<string>) => void): () => void
  /** where each consumer has read up to */
  checkpoints: {
    read(name: string): Promise<LedgerCursor | undefined>
    write(name: string, cursor: LedgerCursor): Promise<void>
  }
}

/** Wraps synchronous queries so they answer as the async ones do (a throw becomes a rejection). */
export function promised<Q extends object>(queries: Q): AsyncQueries<Q> {
  const wrapped: Record<string, unknown> = {}
  for (const [name, value] of Object.entries(queries)) {
    wrapped[name] =
      typeof value === 'function'
        ? (...args: unknown[]) => {
            try {
              return Promise.resolve(value(...args))
            } catch (error) {
              return Promise.reject(error)
            }
          }
        : value
  }
  return wrapped as AsyncQueries<Q>
}
