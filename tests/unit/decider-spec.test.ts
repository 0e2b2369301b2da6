// The decider specification itself (tests/support/decider-spec.ts): it passes on the decision it
// names and fails on any other, so a green decider test means what it says.
import { describe, expect, it } from 'vitest'
import { conflict } from '../../server/errors.ts'
import type { Decider } from '../../server/ledger/decider.ts'
import { deciderSpec } from '../support/decider-spec.ts'

// A door: opened once by someone, closed once.
type DoorFact = { type: 'DoorOpened'; data: { by: string } } | { type: 'DoorClosed'; data: { by: string } }
type DoorCommand = { type: 'Open'; by: string } | { type: 'Close'; by: string } | { type: 'Knock' }
type DoorState = { open: boolean; visitors: string[] }

const door: Decider<DoorState, DoorCommand, DoorFact> = {
  initialState: () => ({ open: false, visitors: [] }),
  evolve: (state, fact) => ({
    open: fact.type === 'DoorOpened',
    visitors: [...state.visitors, fact.data.by],
  }),
  decide(command, state) {
    switch (command.type) {
      case 'Open':
        if (state.open) throw conflict('The door is open already.')
        return [{ type: 'DoorOpened', data: { by: command.by } }]
      case 'Close':
        return state.open ? [{ type: 'DoorClosed', data: { by: command.by } }] : []
      case 'Knock':
        return []
      default:
        return command satisfies never
    }
  },
}
const { given } = deciderSpec(door)
const opened: DoorFact = { type: 'DoorOpened', data: { by: 'asha' } }
const closed: DoorFact = { type: 'DoorClosed', data: { by: 'asha' } }

describe('then', () => {
  it('passes on exactly the facts decided', () => given([]).when({ type: 'Open', by: 'asha' }).then([opened]))
  it('takes one given fact as well as a list', () =>
    given(opened).when({ type: 'Close', by: 'asha' }).then([closed]))
  it('fails when a fact carries other data', () =>
    expect(() =>
      given([])
        .when({ type: 'Open', by: 'asha' })
        .then([{ type: 'DoorOpened', data: { by: 'bala' } }]),
    ).toThrow(/given \[\] when Open/))
  it('fails on a missing or an extra fact', () => {
    expect(() => given([]).when({ type: 'Open', by: 'asha' }).then([])).toThrow()
    expect(() => given([]).when({ type: 'Open', by: 'asha' }).then([opened, opened])).toThrow()
  })
  it('fails when the command is refused instead', () =>
    expect(() => given([opened]).when({ type: 'Open', by: 'asha' }).then([opened])).toThrow(
      'given [DoorOpened] when Open: expected [DoorOpened], but it threw (conflict: The door is open already.)',
    ))
  it('fails, instead of passing, when a test awaits when(…) and forgets then', async () => {
    const forgotten = given([]).when({ type: 'Open', by: 'asha' }) as unknown as PromiseLike<unknown>
    await expect(Promise.resolve(forgotten)).rejects.toThrow('then() takes the expected facts')
  })
})

describe('thenNothingHappens', () => {
  it('passes when nothing is decided', () => given([]).when({ type: 'Knock' }).thenNothingHappens())
  it('fails when something is decided', () =>
    expect(() => given([opened]).when({ type: 'Close', by: 'asha' }).thenNothingHappens()).toThrow())
})

describe('thenRefuses', () => {
  it('passes on the kind and the message', () =>
    given([opened]).when({ type: 'Open', by: 'bala' }).thenRefuses('conflict', 'The door is open already.'))
  it('passes on the details too, when they are named', () =>
    given([opened])
      .when({ type: 'Open', by: 'bala' })
      .thenRefuses('conflict', 'The door is open already.', {}))
  it('fails on other details', () =>
    expect(() =>
      given([opened])
        .when({ type: 'Open', by: 'bala' })
        .thenRefuses('conflict', 'The door is open already.', { retryAfterSeconds: 60 }),
    ).toThrow())
  it('fails on another kind', () =>
    expect(() =>
      given([opened]).when({ type: 'Open', by: 'bala' }).thenRefuses('invalid', 'The door is open already.'),
    ).toThrow())
  it('fails on other words, even a part of them', () =>
    expect(() =>
      given([opened]).when({ type: 'Open', by: 'bala' }).thenRefuses('conflict', 'The door is open'),
    ).toThrow())
  it('fails when the command is accepted', () =>
    expect(() =>
      given([]).when({ type: 'Open', by: 'bala' }).thenRefuses('conflict', 'The door is open already.'),
    ).toThrow('given [] when Open: expected a refusal (conflict), but it decided [DoorOpened]'))
  it('fails when the decider breaks instead of refusing', () => {
    const broken = deciderSpec({
      ...door,
      decide: (): DoorFact[] => {
        throw new TypeError('Cannot read properties of undefined')
      },
    })
    expect(() => broken.given([]).when({ type: 'Knock' }).thenRefuses('conflict', 'Nope.')).toThrow(
      'but it failed with: TypeError: Cannot read properties of undefined',
    )
  })
})

describe('purity', () => {
  it('fails a decide that changes the state it was given', () => {
    const sloppy = deciderSpec({
      ...door,
      decide(command: DoorCommand, state: DoorState) {
        state.visitors.push('sneaky')
        return door.decide(command, state)
      },
    })
    expect(() => sloppy.given([opened]).when({ type: 'Knock' }).thenNothingHappens()).toThrow(
      /read only|not extensible/,
    )
  })
  it('fails an evolve that changes the fact it was given', () => {
    const sloppy = deciderSpec({
      ...door,
      evolve(state: DoorState, fact: DoorFact) {
        fact.data.by = fact.data.by.toUpperCase()
        return door.evolve(state, fact)
      },
    })
    expect(() =>
      sloppy
        .given([{ type: 'DoorOpened', data: { by: 'asha' } }])
        .when({ type: 'Knock' })
        .thenNothingHappens(),
    ).toThrow(/read only|not extensible/)
  })
})
