// The decider contract and the one command handler: read stream → fold → decide → append.
import { type Fact, type FactMeta, type Ledger, type StoredFact, StreamVersionConflict } from './ledger.ts'

export type Decider<State, Command, F extends Fact> = {
  initialState: () => State
  evolve: (state: State, fact: F) => State
  /** Pure: returns the facts the command causes, or throws a DomainError. */
  decide: (command: Command, state: State) => F[]
}

export const fold = <State, F extends Fact>(
  decider: Pick<Decider<State, never, F>, 'initialState' | 'evolve'>,
  facts: F[],
): State => facts.reduce(decider.evolve, decider.initialState())

/**
 * Decides a command against the current state of one stream and appends the outcome, all in
 * one transaction, so the decision can never be made on stale state.
 */
export function handleCommand<State, Command, F extends Fact>(
  ledger: Ledger,
  stream: string,
  decider: Decider<State, Command, F>,
  command: Command,
  meta: FactMeta = {},
  /** the version the caller decided on (If-Match): a stream that moved since is a conflict */
  expectedVersion?: number,
): StoredFact<F>[] {
  return ledger.transaction(() => {
    const history = ledger.readStream(stream) as unknown as F[]
    if (expectedVersion !== undefined && expectedVersion !== history.length) {
      throw new StreamVersionConflict(stream, expectedVersion, history.length)
    }
    const facts = decider.decide(command, fold(decider, history))
    return ledger.append(stream, history.length, facts, meta)
  })
}
