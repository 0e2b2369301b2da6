// The benches' small statistics (tests/bench/lib/stats.ts): a paired ratio's mean and its 95%
// interval, which RESULTS.md's verdicts on the invoices' cost are read from.
import { describe, expect, it } from 'vitest'
import { meanInterval } from '../bench/lib/stats.ts'

describe('meanInterval', () => {
  it('is the mean ± t × the standard error (Student, n − 1 degrees of freedom)', () => {
    // mean 1.1, sample sd √(0.02 / 3), standard error sd / 2; t(0.975, 3) = 3.182
    const got = meanInterval([1.0, 1.1, 1.1, 1.2])
    const sd = Math.sqrt((0.01 + 0 + 0 + 0.01) / 3)
    expect(got.n).toBe(4)
    expect(got.mean).toBe(1.1)
    expect(got.low).toBeCloseTo(1.1 - 3.182 * (sd / 2), 3)
    expect(got.high).toBeCloseTo(1.1 + 3.182 * (sd / 2), 3)
  })

  it('narrows as pairs agree, and says nothing of one pair', () => {
    expect(meanInterval([1.05, 1.05, 1.05])).toEqual({ mean: 1.05, low: 1.05, high: 1.05, n: 3 })
    const one = meanInterval([1.2])
    expect(one.mean).toBe(1.2)
    expect(Number.isNaN(one.low) && Number.isNaN(one.high)).toBe(true)
  })

  it('takes t at 2 beyond thirty pairs', () => {
    const values = Array.from({ length: 40 }, (_, i) => (i % 2 === 0 ? 0.9 : 1.1))
    const got = meanInterval(values)
    const se = Math.sqrt((40 * 0.01) / 39) / Math.sqrt(40)
    expect(got.high - got.mean).toBeCloseTo(2 * se, 3)
  })
})
