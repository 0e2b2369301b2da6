// reads: req/s for the listing with 1,000 approved events (and its 304 when unchanged), one
// event, and the price filter, against Fastify's hello world warmed up and measured alike (each
// route warmed up for as long as hello world is, then measured as long). Hello world runs before
// the app starts, alone on the server's core; each figure is taken by autocannon and again by wrk
// (C), since receiving the listing's hundreds of kilobytes is work for the generator too. Every
// figure is the median of `rounds` rounds (hello world a fresh process each), with its min and max.
import { rmSync } from 'node:fs'
import { freePort } from '../support/server.ts'
import { helloBaseline } from './flash-sale.ts'
import { cores, runLoad, spawnPinned, startAppServer, waitUntilUp } from './lib/processes.ts'
import { seed } from './lib/seed.ts'
import { median, round } from './lib/stats.ts'
import { hasWrk, runWrk } from './lib/wrk.ts'

/** a median over rounds, with the lowest and highest */
export type Spread = { median: number; min: number; max: number }
const spread = (values: number[], digits = 0): Spread => ({
  median: round(median(values), digits),
  min: round(Math.min(...values), digits),
  max: round(Math.max(...values), digits),
})

type Cannon = {
  requestsPerSecond: number
  duration: number
  cpuSeconds: number
  p50: number
  p99: number
  statusCodes: Record<string, { count: number }>
}

export type ReadsResult = {
  events: number
  routes: Array<{
    route: string
    requestsPerSecond: number
    p50Ms: number
    p99Ms: number
    ratio: number
    /** the load generator's CPU time ÷ the run's duration */
    generatorCpuShare?: number
    /** requests per second over the rounds */
    spread?: Spread
    /** the same route under wrk: its rate, its ratio to wrk's hello world, its CPU share */
    wrk?: { requestsPerSecond: number; p99Ms: number; ratio: number; cpuShare: number; spread?: Spread }
  }>
  baselineRequestsPerSecond: number
  baselineGeneratorCpuShare?: number
  baselineSpread?: Spread
  /** hello world under wrk */
  wrkBaseline?: { requestsPerSecond: number; cpuShare: number; spread?: Spread }
  rounds?: number
}

/** hello world under wrk, a fresh process warmed up then measured, alone on the server's core */
async function wrkHello() {
  const port = await freePort()
  const hello = spawnPinned(cores.server, ['tests/bench/lib/hello.ts'], { PORT: String(port) })
  try {
    await waitUntilUp(`http://127.0.0.1:${port}/hello`)
    const load = {
      url: `http://127.0.0.1:${port}`,
      method: 'GET' as const,
      path: '/hello',
      connections: CONNECTIONS,
    }
    runWrk({ ...load, seconds: WARMUP_SECONDS })
    const r = runWrk({ ...load, seconds: SECONDS })
    return { requestsPerSecond: r.requestsPerSecond, cpuShare: r.cpuSeconds / r.seconds }
  } finally {
    hello.child.kill('SIGTERM')
    await hello.exited
  }
}

const WARMUP_SECONDS = 3
const SECONDS = 10
const CONNECTIONS = 100

export async function benchReads(rounds = 3): Promise<ReadsResult> {
  const data = seed({ buyers: 1, events: 1000, seats: 1000 })
  // hello world first, while no app shares its core
  const hello = await helloBaseline({ method: 'GET' }, rounds)
  const baseline = median(hello.map((r) => r.requestsPerSecond))
  const wrkHellos: Array<Awaited<ReturnType<typeof wrkHello>>> = []
  if (hasWrk()) for (let i = 0; i < rounds; i++) wrkHellos.push(await wrkHello())
  const wrkBaseline =
    wrkHellos.length > 0
      ? {
          requestsPerSecond: round(median(wrkHellos.map((r) => r.requestsPerSecond)), 0),
          cpuShare: round(median(wrkHellos.map((r) => r.cpuShare)), 3),
          spread: spread(wrkHellos.map((r) => r.requestsPerSecond)),
        }
      : undefined
  const server = await startAppServer(data.dataDir, { QUEUE_PREFIX: `bench-reads-${Date.now()}` })
  const eventId = data.events[0]?.eventId
  const routes: ReadsResult['routes'] = []
  try {
    const etag = (await fetch(`${server.url}/api/v1/event`)).headers.get('etag') ?? ''
    const cases: Array<[string, string, Record<string, string>?]> = [
      ['GET /event (1,000 events)', '/api/v1/event'],
      // as a browser asks for it: the listing's gzipped body, made once per ledger head
      [
        'GET /event (1,000 events), Accept-Encoding: gzip',
        '/api/v1/event',
        { 'accept-encoding': 'gzip, deflate, br' },
      ],
      ['GET /event?page=1 (50 of 1,000 events)', '/api/v1/event?page=1'],
      ['GET /event, If-None-Match (304)', '/api/v1/event', { 'if-none-match': etag }],
      ['GET /event/{id}', `/api/v1/event/${eventId}`],
      ['GET /event/filter (price)', '/api/v1/event/filter?filterType=price&search=100-300'],
    ]
    for (const [route, path, headers] of cases) {
      const load = { url: server.url, path, headers, connections: CONNECTIONS }
      const cannons: Cannon[] = []
      const wrks: Array<ReturnType<typeof runWrk>> = []
      for (let i = 0; i < rounds; i++) {
        await runLoad<Cannon>('tests/bench/lib/cannon.ts', { ...load, duration: WARMUP_SECONDS })
        const result = await runLoad<Cannon>('tests/bench/lib/cannon.ts', { ...load, duration: SECONDS })
        const ok = (result.statusCodes['200']?.count ?? 0) + (result.statusCodes['304']?.count ?? 0)
        if (ok === 0) throw new Error(`${route}: no successful replies ${JSON.stringify(result.statusCodes)}`)
        cannons.push(result)
        if (wrkBaseline) {
          const wrkLoad = { url: server.url, method: 'GET' as const, path, connections: CONNECTIONS }
          runWrk({ ...wrkLoad, ...(headers ? { headers } : {}), seconds: WARMUP_SECONDS })
          const w = runWrk({ ...wrkLoad, ...(headers ? { headers } : {}), seconds: SECONDS })
          if (w.ok === 0) throw new Error(`${route}: wrk had no successful replies`)
          wrks.push(w)
        }
      }
      const rates = cannons.map((r) => r.requestsPerSecond)
      const rate = median(rates)
      // the round whose rate is the median gives the latencies
      const middle = cannons.find((r) => r.requestsPerSecond === rate) as Cannon
      let wrk: ReadsResult['routes'][number]['wrk']
      if (wrkBaseline && wrks.length > 0) {
        const wrkRates = wrks.map((w) => w.okPerSecond)
        const wrkRate = median(wrkRates)
        const w = wrks.find((r) => r.okPerSecond === wrkRate) as (typeof wrks)[number]
        wrk = {
          requestsPerSecond: round(wrkRate, 0),
          p99Ms: round(w.p99Ms, 1),
          ratio: round(wrkRate / wrkBaseline.requestsPerSecond, 3),
          cpuShare: round(median(wrks.map((r) => r.cpuSeconds / r.seconds)), 3),
          spread: spread(wrkRates),
        }
      }
      routes.push({
        route,
        requestsPerSecond: round(rate, 0),
        p50Ms: middle.p50,
        p99Ms: middle.p99,
        ratio: round(rate / baseline, 3),
        generatorCpuShare: round(median(cannons.map((r) => r.cpuSeconds / r.duration)), 3),
        spread: spread(rates),
        ...(wrk ? { wrk } : {}),
      })
    }
  } finally {
    await server.stop()
    rmSync(data.dataDir, { recursive: true, force: true })
  }
  return {
    events: 1000,
    routes,
    baselineRequestsPerSecond: round(baseline, 0),
    baselineGeneratorCpuShare: round(median(hello.map((r) => r.generatorCpuShare)), 3),
    baselineSpread: spread(hello.map((r) => r.requestsPerSecond)),
    ...(wrkBaseline ? { wrkBaseline } : {}),
    rounds,
  }
}

if (import.meta.url === `file://${process.argv[1]}`)
  console.log(JSON.stringify(await benchReads(Number(process.argv[2] ?? 3)), null, 2))
