// full purchase: paid orders per second through create → local pay → handlePaymentSuccess →
// payments worker (BullMQ on Redis) → ticket, on one event.
import { rmSync } from 'node:fs'
import { runLoad, startAppServer } from './lib/processes.ts'
import { seed } from './lib/seed.ts'
import { median, round } from './lib/stats.ts'

export type PurchaseResult = {
  synchronous: 'FULL' | 'NORMAL'
  orders: number
  concurrency: number
  paidOrdersPerSecond: number
  p50Ms: number
  p99Ms: number
  failed: number
  rounds: number
}

type Buyers = { issued: number; failed: number; ordersPerSecond: number; p50: number; p99: number }

export async function benchPurchase(
  synchronous: 'FULL' | 'NORMAL',
  rounds = 3,
  orders = 3000,
  concurrency = 50,
) {
  const runs: Buyers[] = []
  for (let i = 0; i < rounds; i++) {
    const data = seed({ buyers: orders, events: 1, seats: orders * 10 })
    const server = await startAppServer(data.dataDir, {
      SQLITE_SYNCHRONOUS: synchronous,
      QUEUE_PREFIX: `bench-purchase-${Date.now()}-${i}`,
    })
    try {
      runs.push(
        await runLoad<Buyers>('tests/bench/lib/buyers.ts', {
          url: server.url,
          tokensFile: data.tokensFile,
          eventId: data.events[0]?.eventId,
          orders,
          concurrency,
        }),
      )
    } finally {
      await server.stop()
      rmSync(data.dataDir, { recursive: true, force: true })
    }
  }
  return {
    synchronous,
    orders,
    concurrency,
    paidOrdersPerSecond: round(median(runs.map((r) => r.ordersPerSecond)), 0),
    p50Ms: round(median(runs.map((r) => r.p50)), 0),
    p99Ms: round(median(runs.map((r) => r.p99)), 0),
    failed: Math.max(...runs.map((r) => r.failed)),
    rounds,
  } satisfies PurchaseResult
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(
    await benchPurchase((process.argv[2] as 'FULL' | 'NORMAL') ?? 'FULL', Number(process.argv[3] ?? 1)),
  )
}
