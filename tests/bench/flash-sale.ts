// flash sale: POST /ticket/create for 5,000 orders from distinct signed-in buyers at concurrency
// 100 on one event, against Fastify's hello world under the same load on the same core.
// benchFlashSaleOn: the same sale on either store with 1 or 2 app processes (sale-stores.ts).
import { rmSync } from 'node:fs'
import { join } from 'node:path'
import Database from 'better-sqlite3'
import { freePort } from '../support/server.ts'
import { deploy, type ServerSideUse, type Variant } from './lib/deploy.ts'
import { cores, runLoad, spawnPinned, startAppServer, waitUntilUp } from './lib/processes.ts'
import { seed } from './lib/seed.ts'
import { median, round } from './lib/stats.ts'

type Cannon = {
  requests: number
  requestsPerSecond: number
  p50: number
  p99: number
  statusCodes: Record<string, { count: number }>
  errors: number
  timeouts: number
  /** the run's duration, s */
  duration?: number
  /** the generator's own CPU time */
  cpuSeconds?: number
}

export type FlashSaleResult = {
  synchronous: 'FULL' | 'NORMAL'
  orders: number
  concurrency: number
  seats: number
  holdsPerSecond: number
  requestsPerSecond: number
  p50Ms: number
  p99Ms: number
  baselineRequestsPerSecond: number
  ratio: number
  held: number
  refused: number
  oversold: number
  rounds: number
}

const ORDERS = 5000
const CONCURRENCY = 100
const SEATS = 2000
const WARMUP = 1000

export async function helloBaseline(
  load: { method: 'GET' | 'POST'; amount?: number; duration?: number },
  rounds = 3,
) {
  const port = await freePort()
  const hello = spawnPinned(cores.server, ['tests/bench/lib/hello.ts'], { PORT: String(port) })
  try {
    await waitUntilUp(`http://127.0.0.1:${port}/hello`)
    const results: Cannon[] = []
    for (let i = 0; i < rounds; i++) {
      results.push(
        await runLoad<Cannon>('tests/bench/lib/cannon.ts', {
          url: `http://127.0.0.1:${port}`,
          method: load.method,
          path: '/hello',
          body:
            load.method === 'POST'
              ? { eventId: 'x', ticketType: 'General Admission', quantity: 1 }
              : undefined,
          connections: CONCURRENCY,
          amount: load.amount,
          duration: load.duration,
        }),
      )
    }
    return median(results.map((r) => r.requestsPerSecond))
  } finally {
    hello.child.kill('SIGTERM')
    await hello.exited
  }
}

export async function benchFlashSale(synchronous: 'FULL' | 'NORMAL', rounds = 3): Promise<FlashSaleResult> {
  const runs: Array<Cannon & { held: number; oversold: number }> = []
  for (let i = 0; i < rounds; i++) {
    // Two events: the second warms the server up (JIT, caches) with WARMUP orders first.
    const data = seed({ buyers: ORDERS, events: 2, seats: SEATS })
    const [event, warmup] = data.events
    const general = event?.ticketTypes[0]
    if (!event || !general || !warmup) throw new Error('no event seeded')
    const server = await startAppServer(data.dataDir, {
      SQLITE_SYNCHRONOUS: synchronous,
      QUEUE_PREFIX: `bench-${Date.now()}-${i}`,
    })
    try {
      await runLoad<Cannon>('tests/bench/lib/cannon.ts', {
        url: server.url,
        method: 'POST',
        path: '/api/v1/ticket/create',
        body: { eventId: warmup.eventId, ticketType: 'General Admission', quantity: 1 },
        tokensFile: data.tokensFile,
        connections: CONCURRENCY,
        amount: WARMUP,
      })
      const result = await runLoad<Cannon>('tests/bench/lib/cannon.ts', {
        url: server.url,
        method: 'POST',
        path: '/api/v1/ticket/create',
        body: { eventId: event.eventId, ticketType: 'General Admission', quantity: 1 },
        tokensFile: data.tokensFile,
        connections: CONCURRENCY,
        amount: ORDERS,
      })
      const db = new Database(join(data.dataDir, 'ticketing.sqlite'), { readonly: true })
      const row = db
        .prepare('SELECT held, sold FROM inventory WHERE ticket_type_id = ?')
        .get(general.ticketTypeId) as { held: number; sold: number } | undefined
      db.close()
      const held = (row?.held ?? 0) + (row?.sold ?? 0)
      runs.push({ ...result, held, oversold: Math.max(0, held - SEATS) })
    } finally {
      await server.stop()
      rmSync(data.dataDir, { recursive: true, force: true })
    }
  }
  const baseline = await helloBaseline({ method: 'POST', amount: ORDERS })
  const rps = median(runs.map((r) => r.requestsPerSecond))
  const ok = (r: Cannon) => r.statusCodes['200']?.count ?? 0
  return {
    synchronous,
    orders: ORDERS,
    concurrency: CONCURRENCY,
    seats: SEATS,
    holdsPerSecond: round(median(runs.map((r) => (ok(r) / r.requests) * r.requestsPerSecond)), 0),
    requestsPerSecond: round(rps, 0),
    p50Ms: median(runs.map((r) => r.p50)),
    p99Ms: median(runs.map((r) => r.p99)),
    baselineRequestsPerSecond: round(baseline, 0),
    ratio: round(rps / baseline, 3),
    held: median(runs.map((r) => r.held)),
    refused: median(runs.map((r) => r.statusCodes['409']?.count ?? 0)),
    oversold: Math.max(...runs.map((r) => r.oversold)),
    rounds,
  }
}

export type FlashSaleVariantResult = Variant & {
  orders: number
  concurrency: number
  seats: number
  requestsPerSecond: number
  holdsPerSecond: number
  p50Ms: number
  p99Ms: number
  held: number
  refused: number
  oversold: number
  /** answers other than 200 and 409 (the sum over the rounds) */
  otherAnswers: number
  /** the server side's CPU time per request (app processes + PostgreSQL backends; Redis apart), ms */
  serverCpuMsPerRequest: number
  /** of which the PostgreSQL backends, ms */
  databaseCpuMsPerRequest: number
  /** Redis's CPU time per request, ms (the machine's Redis: anything else using it counts too) */
  redisCpuMsPerRequest: number
  /** the load generator's CPU time ÷ the sale's duration: near 1, the generator set the pace */
  loadCpuShare: number
  /** the server side's CPU time (apps, PostgreSQL backends, Redis) ÷ the sale's duration: near 1,
   * its one core was the limit */
  serverSideCpuShare: number
  /** what the app processes logged at warn or above, by message, over every round */
  serverWarnings: Record<string, number>
  rounds: Array<ServerSideUse & { requestsPerSecond: number; generatorCpuSeconds: number }>
}

/**
 * The flash sale on one store with 1 or 2 app processes, measured as benchFlashSale measures it
 * (5,000 orders, 100 connections, 1,000 warm-up holds on a second event first) with the load
 * spread over the processes (one autocannon per process, the connections shared out). SQLite at
 * synchronous=FULL (its default), PostgreSQL as installed (fsync on).
 */
export async function benchFlashSaleOn(variant: Variant, rounds = 3): Promise<FlashSaleVariantResult> {
  const runs: Array<Cannon & { held: number; oversold: number; use: ServerSideUse }> = []
  const warnings: Record<string, number> = {}
  for (let i = 0; i < rounds; i++) {
    const deployment = await deploy(
      variant,
      { buyers: ORDERS, events: 2, seats: SEATS },
      { SQLITE_SYNCHRONOUS: 'FULL' },
    )
    try {
      const [event, warmup] = deployment.seeded.events
      const general = event?.ticketTypes[0]
      if (!event || !general || !warmup) throw new Error('no event seeded')
      const load = (eventId: string, amount: number) =>
        runLoad<Cannon>('tests/bench/lib/cannon.ts', {
          urls: deployment.urls,
          method: 'POST',
          path: '/api/v1/ticket/create',
          body: { eventId, ticketType: 'General Admission', quantity: 1 },
          tokensFile: deployment.seeded.tokensFile,
          connections: CONCURRENCY,
          amount,
        })
      await load(warmup.eventId, WARMUP)
      const measuring = deployment.measure()
      const result = await load(event.eventId, ORDERS)
      const use = await measuring.end()
      const inventory = await deployment.inventory(general.ticketTypeId)
      const held = inventory.held + inventory.sold
      runs.push({ ...result, held, oversold: Math.max(0, held - SEATS), use })
      for (const [k, n] of Object.entries(deployment.warnings())) warnings[k] = (warnings[k] ?? 0) + n
    } finally {
      await deployment.stop()
    }
  }
  const ok = (r: Cannon) => r.statusCodes['200']?.count ?? 0
  const refused = (r: Cannon) => r.statusCodes['409']?.count ?? 0
  const perRequest = (r: (typeof runs)[number], cpu: number) => (cpu * 1000) / r.requests
  return {
    ...variant,
    orders: ORDERS,
    concurrency: CONCURRENCY,
    seats: SEATS,
    requestsPerSecond: round(median(runs.map((r) => r.requestsPerSecond)), 0),
    holdsPerSecond: round(median(runs.map((r) => (ok(r) / r.requests) * r.requestsPerSecond)), 0),
    p50Ms: round(median(runs.map((r) => r.p50)), 0),
    p99Ms: round(median(runs.map((r) => r.p99)), 0),
    held: median(runs.map((r) => r.held)),
    refused: median(runs.map(refused)),
    oversold: Math.max(...runs.map((r) => r.oversold)),
    otherAnswers: runs.reduce((sum, r) => sum + r.requests - ok(r) - refused(r) + r.errors, 0),
    serverCpuMsPerRequest: round(
      median(runs.map((r) => perRequest(r, r.use.cpuSeconds.apps + r.use.cpuSeconds.database))),
      3,
    ),
    databaseCpuMsPerRequest: round(median(runs.map((r) => perRequest(r, r.use.cpuSeconds.database))), 3),
    redisCpuMsPerRequest: round(median(runs.map((r) => perRequest(r, r.use.cpuSeconds.redis))), 3),
    loadCpuShare: round(median(runs.map((r) => (r.cpuSeconds ?? 0) / (r.duration ?? r.use.seconds))), 3),
    serverSideCpuShare: round(
      median(
        runs.map(
          (r) =>
            (r.use.cpuSeconds.apps + r.use.cpuSeconds.database + r.use.cpuSeconds.redis) /
            (r.duration ?? r.use.seconds),
        ),
      ),
      3,
    ),
    serverWarnings: warnings,
    rounds: runs.map((r) => ({
      ...r.use,
      requestsPerSecond: round(r.requestsPerSecond, 0),
      generatorCpuSeconds: round(r.cpuSeconds ?? 0, 3),
    })),
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(
    await benchFlashSale((process.argv[2] as 'FULL' | 'NORMAL') ?? 'FULL', Number(process.argv[3] ?? 1)),
  )
}
