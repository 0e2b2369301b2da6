// Projections run in dependency order: one that reads another's read model runs after it, whatever
// the order of the list (server/ledger/projection-order.ts).
import { describe, expect, it } from 'vitest'
import type { Projection } from '../../server/ledger/ledger.ts'
import { inDependencyOrder } from '../../server/ledger/projection-order.ts'
import { projections } from '../../server/projections.ts'

const named = (name: string, after?: string[]): Projection => ({
  name,
  tables: [],
  handlers: () => ({}),
  after,
})
const names = (list: Projection[]) => list.map((p) => p.name)

describe('projection order', () => {
  it('keeps the given order when nothing depends on anything', () => {
    expect(names(inDependencyOrder([named('a'), named('b'), named('c')]))).toEqual(['a', 'b', 'c'])
  })

  it('moves a projection after the ones it reads, however it was listed', () => {
    const order = names(
      inDependencyOrder([named('analytics', ['booking']), named('accounts'), named('booking')]),
    )
    expect(order.indexOf('analytics')).toBeGreaterThan(order.indexOf('booking'))
    expect(order).toHaveLength(3)
  })

  it('refuses a dependency that is not there, and a cycle', () => {
    expect(() => inDependencyOrder([named('analytics', ['booking'])])).toThrow(/booking, which is not there/)
    expect(() => inDependencyOrder([named('a', ['b']), named('b', ['a'])])).toThrow(/cycle: a -> b -> a/)
  })

  it("runs the app's own projections with every declared dependency first", () => {
    const order = names(inDependencyOrder(projections))
    for (const p of projections)
      for (const d of p.after ?? []) expect(order.indexOf(d)).toBeLessThan(order.indexOf(p.name))
    expect(order).toHaveLength(projections.length)
  })
})
