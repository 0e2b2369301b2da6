// The decider contract and the one command handler: read stream → fold → decide → append.
import {
  type DecisionOptions,
  type DecisionTx,
  type LedgerPort,
  type Step,
  type StreamSnapshot,
  together,
  wait,
} from '../db/store.ts'
import { type Fact, type FactMeta, type StoredFact, StreamVersionConflict } from './ledger.ts'

export type Decider<State, Command, F extends Fact> = {
  initialState: () => State
  evolve: (state: State, fact: F) => State
  /** Pure: returns the facts the command causes, or throws a DomainError. */
  decide: (command: Command, state: State) => F[]
  /**
   * Keep the state of its streams (a snapshot, written with a decision's facts) when they grow
   * heavy: a decision then reads the snapshot and the facts after it. One is written when the facts
   * folded since the last (those read and those decided) hold one of a type in `after`, or are at
   * least `every`. `kind` names the decider and its state's shape: change it whenever evolve, the
   * state or the upcasters of its facts change, and the snapshots kept before are not used.
   */
  snapshot?: { kind: string; after: ReadonlySet<F['type']>; every: number }
}

export const fold = <State, F extends Fact>(
  decider: Pick<Decider<State, never, F>, 'initialState' | 'evolve'>,
  facts: F[],
): State => facts.reduce(decider.evolve, decider.initialState())

/** The facts of one stream, typed as the union F its decider appends: the one place a stored
 * fact is given its type (the ledger stores any fact; each stream holds one area's). */
export const streamFacts = async <F extends Fact>(
  ledger: Pick<LedgerPort<unknown>, 'readStream'>,
  stream: string,
): Promise<StoredFact<F>[]> => (await ledger.readStream(stream)) as StoredFact<F>[]

/** A fact read from the whole ledger, typed as the union of every area's facts it may be. */
export const typedFact = <F extends Fact>(fact: StoredFact): StoredFact<F> => fact as StoredFact<F>

export type CommandOptions<Command, State = unknown> = {
  stream: string
  /**
   * the command, or what makes it from the stream's state (reading what it needs first, under the
   * decision's lock: the next numbers of an invoice series the outcome may take)
   */
  command: Command | ((state: State) => Step<Command>)
  meta?: FactMeta
  /** the version the caller decided on (If-Match): a stream that moved since is a conflict */
  expectedVersion?: number
  /** the lock the decision is taken under, when others decide against what it changes (store.ts) */
  lock?: DecisionOptions['lock']
  /**
   * The stream is new: its id was made for this command, so it is not read (its append is still
   * refused should the stream have a fact by then).
   */
  fresh?: boolean
}

/** What a handled command left: the facts it appended, the stream's new state and version. */
export type Handled<State, F extends Fact> = { facts: StoredFact<F>[]; state: State; version: number }

/**
 * Decides a command against the current state of one stream and appends the outcome, inside the
 * caller's transaction (a step of a larger decision, e.g. a hold that first releases others).
 */
export function* decideIn<State, Command, F extends Fact>(
  tx: DecisionTx<unknown>,
  decider: Decider<State, Command, F>,
  { stream, command: asked, meta = {}, expectedVersion, fresh = false }: CommandOptions<Command, State>,
): Step<Handled<State, F>> {
  const { kept, history } = fresh
    ? { kept: undefined, history: [] }
    : yield* historyOf<F>(tx, stream, decider.snapshot?.kind)
  const read = (kept?.version ?? 0) + history.length
  if (expectedVersion !== undefined && expectedVersion !== read) {
    throw new StreamVersionConflict(stream, expectedVersion, read)
  }
  const state = history.reduce(decider.evolve, kept ? (kept.state as State) : decider.initialState())
  const command =
    typeof asked === 'function' ? yield* (asked as (state: State) => Step<Command>)(state) : asked
  const decided = decider.decide(command, state)
  const facts = yield* wait(tx.append(stream, read, decided, meta))
  const after = decided.reduce(decider.evolve, state)
  const version = read + facts.length
  const keep = decider.snapshot
  const last = facts.at(-1)
  if (
    keep &&
    last &&
    (history.length + facts.length >= keep.every ||
      history.some((f) => keep.after.has(f.type)) ||
      facts.some((f) => keep.after.has(f.type)))
  ) {
    // the state as the facts fold once stored (a field left undefined is not kept in a fact's JSON,
    // so it changes nothing when the stream is read again): what a later fold of the stream gives
    const stored = JSON.parse(JSON.stringify(decided)) as F[]
    const kept = stored.reduce(decider.evolve, state)
    yield* wait(tx.writeSnapshot({ stream, kind: keep.kind, version, position: last.position, state: kept }))
  }
  return { facts, state: after, version }
}

/**
 * The stream's facts, after the snapshot the decider kept of it when there is one of its kind
 * (`kind`) whose fact is still where it was (a ledger restored without that fact leaves it behind:
 * then the whole stream is read).
 */
function* historyOf<F extends Fact>(
  tx: DecisionTx<unknown>,
  stream: string,
  kind: string | undefined,
): Step<{ kept: StreamSnapshot | undefined; history: StoredFact<F>[] }> {
  const snapshot = kind === undefined ? undefined : yield* wait(tx.readSnapshot(stream))
  if (snapshot && snapshot.kind === kind) {
    const [position, after] = yield* wait(
      together([
        tx.positionOf(stream, snapshot.version),
        tx.readStreamAfter(stream, snapshot.version),
      ] as const),
    )
    if (position === snapshot.position) return { kept: snapshot, history: after as StoredFact<F>[] }
  }
  return { kept: undefined, history: (yield* wait(tx.readStream(stream))) as StoredFact<F>[] }
}

/**
 * Decides a command against the current state of one stream and appends the outcome, all in
 * one transaction, so the decision can never be made on stale state.
 */
export function handleCommand<State, Command, F extends Fact>(
  ledger: Pick<LedgerPort<unknown>, 'transaction'>,
  decider: Decider<State, Command, F>,
  options: CommandOptions<Command, State>,
): Promise<Handled<State, F>> {
  return ledger.transaction((tx) => decideIn(tx, decider, options), { lock: options.lock })
}
