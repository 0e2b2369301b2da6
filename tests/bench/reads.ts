// reads: req/s for the listing with 1,000 approved events (and its 304 when unchanged), one
// event, and the price filter, against Fastify's hello world warmed up and measured alike (each
// route warmed up for as long as hello world is, then measured as long).
import { rmSync } from 'node:fs'
import { helloBaseline } from './flash-sale.ts'
import { runLoad, startAppServer } from './lib/processes.ts'
import { seed } from './lib/seed.ts'
import { median, round } from './lib/stats.ts'

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
  }>
  baselineRequestsPerSecond: number
  baselineGeneratorCpuShare?: number
}

const WARMUP_SECONDS = 3
const SECONDS = 10
const CONNECTIONS = 100

export async function benchReads(): Promise<ReadsResult> {
  const data = seed({ buyers: 1, events: 1000, seats: 1000 })
  const server = await startAppServer(data.dataDir, { QUEUE_PREFIX: `bench-reads-${Date.now()}` })
  const eventId = data.events[0]?.eventId
  const routes: ReadsResult['routes'] = []
  const hello = await helloBaseline({ method: 'GET' }, 1)
  const baseline = median(hello.map((r) => r.requestsPerSecond))
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
      await runLoad<Cannon>('tests/bench/lib/cannon.ts', { ...load, duration: WARMUP_SECONDS })
      const result = await runLoad<Cannon>('tests/bench/lib/cannon.ts', { ...load, duration: SECONDS })
      const ok = (result.statusCodes['200']?.count ?? 0) + (result.statusCodes['304']?.count ?? 0)
      if (ok === 0) throw new Error(`${route}: no successful replies ${JSON.stringify(result.statusCodes)}`)
      routes.push({
        route,
        requestsPerSecond: round(result.requestsPerSecond, 0),
        p50Ms: result.p50,
        p99Ms: result.p99,
        ratio: round(result.requestsPerSecond / baseline, 3),
        generatorCpuShare: round(result.cpuSeconds / result.duration, 3),
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
  }
}

if (import.meta.url === `file://${process.argv[1]}`) console.log(JSON.stringify(await benchReads(), null, 2))
