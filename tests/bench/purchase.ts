// full purchase: paid orders per second through create → local pay → handlePaymentSuccess →
// payments worker (BullMQ on Redis) → ticket, on one event. benchPurchaseOn: the same on either
// store with 1 or 2 app processes (sale-stores.ts).
import { rmSync } from 'node:fs'
import { deploy, type ServerSideUse, type Variant } from './lib/deploy.ts'
import { cores, runLoad, startAppServer } from './lib/processes.ts'
import { seed } from './lib/seed.ts'
import { median, round, type Spread, spread } from './lib/stats.ts'

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

/** the figures every purchase run reports, over its rounds: medians, and the worst failure count */
const orderFigures = (
  runs: Array<{ ordersPerSecond: number; p50: number; p99: number; failed: number }>,
) => ({
  paidOrdersPerSecond: round(median(runs.map((r) => r.ordersPerSecond)), 0),
  p50Ms: round(median(runs.map((r) => r.p50)), 0),
  p99Ms: round(median(runs.map((r) => r.p99)), 0),
  failed: Math.max(...runs.map((r) => r.failed)),
})

type Buyers = {
  issued: number
  failed: number
  failures?: Record<string, number>
  seconds: number
  cpuSeconds: number
  ordersPerSecond: number
  p50: number
  p99: number
}

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
    ...orderFigures(runs),
    rounds,
  } satisfies PurchaseResult
}

export type PurchaseJobsFloorResult = {
  rounds: number
  purchases: number
  concurrency: number
  /** the jobs of a purchase alone (lib/purchase-jobs.ts) on the server's core: purchases per second */
  jobsPerSecond: Spread
  /** their CPU time per purchase, µs */
  jobsCpuMicros: Spread
  /** the full purchase in the same rounds (benchPurchase, FULL, one round each), paid orders/s */
  app: Spread
  /** the app's paid orders per second ÷ what its jobs alone allow */
  appOfFloor: number
}

/**
 * The purchase's floor in BullMQ (issue 18): the jobs of each purchase through the app's own
 * adapter, nothing else, on the server's core, alternating round by round with the full purchase.
 */
export async function benchPurchaseJobsFloor(rounds = 3, purchases = 5000): Promise<PurchaseJobsFloorResult> {
  const floors: Array<{ purchasesPerSecond: number; cpuSeconds: number }> = []
  const apps: number[] = []
  for (let i = 0; i < rounds; i++) {
    floors.push(
      await runLoad<{ purchasesPerSecond: number; cpuSeconds: number }>(
        'tests/bench/lib/purchase-jobs.ts',
        { purchases, concurrency: 50 },
        cores.server,
      ),
    )
    apps.push((await benchPurchase('FULL', 1)).paidOrdersPerSecond)
  }
  const jobsPerSecond = spread(floors.map((f) => f.purchasesPerSecond))
  const app = spread(apps)
  return {
    rounds,
    purchases,
    concurrency: 50,
    jobsPerSecond,
    jobsCpuMicros: spread(floors.map((f) => (f.cpuSeconds * 1e6) / purchases)),
    app,
    appOfFloor: round(app.median / jobsPerSecond.median, 3),
  }
}

export type PurchaseVariantResult = Variant & {
  orders: number
  concurrency: number
  paidOrdersPerSecond: number
  p50Ms: number
  p99Ms: number
  failed: number
  /** what the failures answered, over every round ("confirm 202": the ticket was still being issued) */
  failures: Record<string, number>
  /** tickets issued and seats sold in the store once the run is over (median of the rounds) */
  sold: number
  /** the server side's CPU time per paid order (app processes + PostgreSQL backends; Redis apart), ms */
  serverCpuMsPerOrder: number
  /** of which the PostgreSQL backends, ms */
  databaseCpuMsPerOrder: number
  /** Redis's CPU time per paid order, ms (the machine's Redis: anything else using it counts too) */
  redisCpuMsPerOrder: number
  /** the load generator's CPU time ÷ the run's duration: near 1, the generator set the pace */
  loadCpuShare: number
  /** the server side's CPU time (apps, PostgreSQL backends, Redis) ÷ the run's duration */
  serverSideCpuShare: number
  /** what the app processes logged at warn or above, by message, over every round */
  serverWarnings: Record<string, number>
  rounds: Array<ServerSideUse & { paidOrdersPerSecond: number; generatorCpuSeconds: number }>
}

/**
 * The full purchase on one store with 1 or 2 app processes, measured as benchPurchase measures it
 * (3,000 orders, 50 buyers at a time), the buyers spread over the processes round-robin (each
 * buyer's order, payment and callback at one process; the payments worker of either process may
 * issue the ticket).
 */
export async function benchPurchaseOn(
  variant: Variant,
  rounds = 3,
  orders = 3000,
  concurrency = 50,
): Promise<PurchaseVariantResult> {
  const runs: Array<Buyers & { use: ServerSideUse; sold: number }> = []
  const warnings: Record<string, number> = {}
  for (let i = 0; i < rounds; i++) {
    const deployment = await deploy(
      variant,
      { buyers: orders, events: 1, seats: orders * 10 },
      { SQLITE_SYNCHRONOUS: 'FULL' },
    )
    try {
      const event = deployment.seeded.events[0]
      const general = event?.ticketTypes[0]
      if (!event || !general) throw new Error('no event seeded')
      const measuring = deployment.measure()
      const result = await runLoad<Buyers>('tests/bench/lib/buyers.ts', {
        urls: deployment.urls,
        tokensFile: deployment.seeded.tokensFile,
        eventId: event.eventId,
        orders,
        concurrency,
      })
      const use = await measuring.end()
      const { sold } = await deployment.inventory(general.ticketTypeId)
      runs.push({ ...result, use, sold })
      for (const [k, n] of Object.entries(deployment.warnings())) warnings[k] = (warnings[k] ?? 0) + n
    } finally {
      await deployment.stop()
    }
  }
  const perOrder = (r: (typeof runs)[number], cpu: number) => (r.issued > 0 ? (cpu * 1000) / r.issued : 0)
  const failures: Record<string, number> = {}
  for (const r of runs)
    for (const [k, n] of Object.entries(r.failures ?? {})) failures[k] = (failures[k] ?? 0) + n
  return {
    ...variant,
    orders,
    concurrency,
    ...orderFigures(runs),
    failures,
    sold: median(runs.map((r) => r.sold)),
    serverCpuMsPerOrder: round(
      median(runs.map((r) => perOrder(r, r.use.cpuSeconds.apps + r.use.cpuSeconds.database))),
      3,
    ),
    databaseCpuMsPerOrder: round(median(runs.map((r) => perOrder(r, r.use.cpuSeconds.database))), 3),
    redisCpuMsPerOrder: round(median(runs.map((r) => perOrder(r, r.use.cpuSeconds.redis))), 3),
    loadCpuShare: round(median(runs.map((r) => r.cpuSeconds / r.seconds)), 3),
    serverSideCpuShare: round(
      median(
        runs.map(
          (r) => (r.use.cpuSeconds.apps + r.use.cpuSeconds.database + r.use.cpuSeconds.redis) / r.seconds,
        ),
      ),
      3,
    ),
    serverWarnings: warnings,
    rounds: runs.map((r) => ({
      ...r.use,
      paidOrdersPerSecond: round(r.ordersPerSecond, 0),
      generatorCpuSeconds: round(r.cpuSeconds, 3),
    })),
  }
}

if (process.argv[2] === 'floor' && import.meta.url === `file://${process.argv[1]}`) {
  console.log(await benchPurchaseJobsFloor(Number(process.argv[3] ?? 1)))
} else if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(
    await benchPurchase((process.argv[2] as 'FULL' | 'NORMAL') ?? 'FULL', Number(process.argv[3] ?? 1)),
  )
}
