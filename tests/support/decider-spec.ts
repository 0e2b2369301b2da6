// given / when / then for a decider (after emmett's DeciderSpecification): the facts of a stream so
// far, one command, and what the decider must make of it: exactly these facts, none, or a refusal
// (the DomainError of the kind and with the words the person will read). Facts, command and every
// state are frozen on the way in, so a decide or evolve that mutates what it is given fails.
import { expect } from 'vitest'
import { DomainError, type ErrorKind } from '../../server/errors.ts'
import { type Decider, fold } from '../../server/ledger/decider.ts'
import type { Fact } from '../../server/ledger/ledger.ts'

export type Specification<Command, F extends Fact> = {
  given: (facts: F | F[]) => {
    when: (command: Command) => {
      /** the command decides exactly these facts, in this order */
      then: (expected: F[]) => void
      /** the command is accepted and changes nothing (an idempotent repeat, a no-op) */
      thenNothingHappens: () => void
      /** the command is refused with this kind of DomainError and this message (and these details) */
      thenRefuses: (kind: ErrorKind, message: string, details?: DomainError['details']) => void
    }
  }
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value)
    for (const inner of Object.values(value)) deepFreeze(inner)
  }
  return value
}

const typesOf = (facts: Fact[]) => `[${facts.map((f) => f.type).join(', ')}]`
const named = (command: unknown) =>
  String((command as { type?: unknown } | null)?.type ?? JSON.stringify(command))

export function deciderSpec<State, Command, F extends Fact>(
  decider: Decider<State, Command, F>,
): Specification<Command, F> {
  const frozen = {
    initialState: () => deepFreeze(decider.initialState()),
    evolve: (state: State, fact: F) => deepFreeze(decider.evolve(state, deepFreeze(fact))),
  }
  return {
    given(givenFacts) {
      const history = Array.isArray(givenFacts) ? givenFacts : [givenFacts]
      return {
        when(command) {
          const scene = `given ${typesOf(history)} when ${named(command)}`
          /** the decision: the facts, or what was thrown */
          const decide = (): { facts: F[] } | { thrown: unknown } => {
            // (folding is not deciding: an evolve that throws fails the test as it is)
            const state = fold(frozen, history)
            try {
              return { facts: decider.decide(deepFreeze(command), state) }
            } catch (thrown) {
              return { thrown }
            }
          }
          const thenFacts = (expected: F[]) => {
            if (!Array.isArray(expected)) {
              // an object with a then() is a thenable: a test that returns when(…) itself is awaited
              // with then(resolve, reject), which must fail instead of passing silently
              throw new Error(`${scene}: then() takes the expected facts (an array), got ${typeof expected}`)
            }
            const outcome = decide()
            if ('thrown' in outcome) {
              const error = outcome.thrown
              const said = error instanceof DomainError ? `${error.kind}: ${error.message}` : String(error)
              expect.fail(`${scene}: expected ${typesOf(expected)}, but it threw (${said})`)
            }
            expect(outcome.facts, scene).toEqual(expected)
          }
          return {
            // biome-ignore lint/suspicious/noThenProperty: given/when/then reads as the spec; an await of when(…) calls then(resolve, reject) and fails loudly there (not an array)
            then: thenFacts,
            thenNothingHappens: () => thenFacts([]),
            thenRefuses(kind, message, details) {
              const outcome = decide()
              if ('facts' in outcome) {
                expect.fail(
                  `${scene}: expected a refusal (${kind}), but it decided ${typesOf(outcome.facts)}`,
                )
              }
              const error = outcome.thrown
              if (!(error instanceof DomainError)) {
                throw new Error(
                  `${scene}: expected a refusal (${kind}), but it failed with: ${String(error)}`,
                  {
                    cause: error,
                  },
                )
              }
              expect({ kind: error.kind, message: error.message }, scene).toEqual({ kind, message })
              if (details) expect(error.details, scene).toEqual(details)
            },
          }
        },
      }
    },
  }
}
