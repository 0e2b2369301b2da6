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
