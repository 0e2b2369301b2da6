// flash sale: POST /ticket/create for 5,000 orders from distinct signed-in buyers at concurrency
// 100 on one event, against Fastify's hello world under the same load on the same core.
import { rmSync } from 'node:fs'
import { join } from 'node:path'
import Database from 'better-sqlite3'
import { freePort } from '../support/server.ts'
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

if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(
    await benchFlashSale((process.argv[2] as 'FULL' | 'NORMAL') ?? 'FULL', Number(process.argv[3] ?? 1)),
  )
}
