// An address's live messages per window (server/live/message-budget.ts): its sockets share one
// budget, a new socket does not reset it, and the address may send again once its window ends.
import { afterEach, describe, expect, it } from 'vitest'
import { type MessageBudget, messageBudget } from '../../server/live/message-budget.ts'

let budget: MessageBudget | undefined
afterEach(() => budget?.stop())

describe('an address’s message budget', () => {
  it('takes the window’s budget, refuses past it until the window ends, then takes again', () => {
    let now = 1_000_000
    budget = messageBudget(3, 10_000, () => now)
    expect([1, 2, 3].map(() => budget?.take('203.0.113.9'))).toEqual([true, true, true])
    now += 4000
    expect(budget.take('203.0.113.9')).toBe(false)
    expect(budget.retryAfterMs('203.0.113.9')).toBe(6000)
    // another address has its own
    expect(budget.take('203.0.113.10')).toBe(true)
    now += 5999
    expect(budget.take('203.0.113.9')).toBe(false)
    now += 1
    expect(budget.take('203.0.113.9')).toBe(true)
    expect(budget.retryAfterMs('203.0.113.9')).toBe(10_000)
  })

  it('says an address it has not counted may send at once', () => {
    budget = messageBudget(3, 10_000)
    expect(budget.retryAfterMs('198.51.100.1')).toBe(0)
  })
})
