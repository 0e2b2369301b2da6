// Small statistics for benchmark rounds: medians and nearest-rank percentiles.
export const median = (values: number[]) => percentile(values, 50)

export function percentile(values: number[], p: number): number {
  if (values.length === 0) return Number.NaN
  const sorted = [...values].sort((a, b) => a - b)
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))
  return sorted[rank] as number
}

export const round = (n: number, digits = 1) => Math.round(n * 10 ** digits) / 10 ** digits

/** a figure over the rounds */
export type Spread = { median: number; min: number; max: number }

export const spread = (values: number[], digits = 0): Spread => ({
  median: round(median(values), digits),
  min: round(Math.min(...values), digits),
  max: round(Math.max(...values), digits),
})

/** Runs fn for about `ms` milliseconds, calling it in batches; returns operations per second. */
export function opsPerSecond(fn: () => void, ms: number, batch = 100): number {
  const start = performance.now()
  let ops = 0
  while (performance.now() - start < ms) {
    for (let i = 0; i < batch; i++) fn()
    ops += batch
  }
  return (ops * 1000) / (performance.now() - start)
}

/** Student's t at 97.5% (two-sided 95%) by degrees of freedom, 1 to 30; beyond, 2 */
const T975 = [
  12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.16, 2.145, 2.131,
  2.12, 2.11, 2.101, 2.093, 2.086, 2.08, 2.074, 2.069, 2.064, 2.06, 2.056, 2.052, 2.048, 2.045, 2.042,
]

/** a mean and its 95% interval (Student's t): what pairs of rounds say of a ratio, not one run's medians */
export type Interval = { mean: number; low: number; high: number; n: number }

export function meanInterval(values: number[], digits = 3): Interval {
  const n = values.length
  const mean = values.reduce((s, v) => s + v, 0) / n
  if (n < 2) return { mean: round(mean, digits), low: Number.NaN, high: Number.NaN, n }
  const sd = Math.sqrt(values.reduce((s, v) => s + (v - mean) ** 2, 0) / (n - 1))
  const half = (T975[n - 2] ?? 2) * (sd / Math.sqrt(n))
  return { mean: round(mean, digits), low: round(mean - half, digits), high: round(mean + half, digits), n }
}
