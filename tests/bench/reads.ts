// reads: req/s for the listing with 1,000 approved events (and its 304 when unchanged), one
// event, and the price filter, against Fastify's hello world under the same load.
import { rmSync } from 'node:fs'
import { helloBaseline } from './flash-sale.ts'
import { runLoad, startAppServer } from './lib/processes.ts'
import { seed } from './lib/seed.ts'
import { round } from './lib/stats.ts'

type Cannon = {
  requestsPerSecond: number
  p50: number
  p99: number
  statusCodes: Record<string, { count: number }>
}

export type ReadsResult = {
  events: number
  routes: Array<{ route: string; requestsPerSecond: number; p50Ms: number; p99Ms: number; ratio: number }>
  baselineRequestsPerSecond: number
}

const SECONDS = 5
const CONNECTIONS = 100

export async function benchReads(): Promise<ReadsResult> {
  const data = seed({ buyers: 1, events: 1000, seats: 1000 })
  const server = await startAppServer(data.dataDir, { QUEUE_PREFIX: `bench-reads-${Date.now()}` })
  const eventId = data.events[0]?.eventId
  const routes: ReadsResult['routes'] = []
  const baseline = await helloBaseline({ method: 'GET', duration: SECONDS }, 1)
  try {
    const etag = (await fetch(`${server.url}/api/v1/event`)).headers.get('etag') ?? ''
    const cases: Array<[string, string, Record<string, string>?]> = [
      ['GET /event (1,000 events)', '/api/v1/event'],
      ['GET /event, If-None-Match (304)', '/api/v1/event', { 'if-none-match': etag }],
      ['GET /event/{id}', `/api/v1/event/${eventId}`],
      ['GET /event/filter (price)', '/api/v1/event/filter?filterType=price&search=100-300'],
    ]
    for (const [route, path, headers] of cases) {
      const result = await runLoad<Cannon>('tests/bench/lib/cannon.ts', {
        url: server.url,
        path,
        headers,
        connections: CONNECTIONS,
        duration: SECONDS,
      })
      const ok = (result.statusCodes['200']?.count ?? 0) + (result.statusCodes['304']?.count ?? 0)
      if (ok === 0) throw new Error(`${route}: no successful replies ${JSON.stringify(result.statusCodes)}`)
      routes.push({
        route,
        requestsPerSecond: round(result.requestsPerSecond, 0),
        p50Ms: result.p50,
        p99Ms: result.p99,
        ratio: round(result.requestsPerSecond / baseline, 3),
      })
    }
  } finally {
    await server.stop()
    rmSync(data.dataDir, { recursive: true, force: true })
  }
  return { events: 1000, routes, baselineRequestsPerSecond: round(baseline, 0) }
}

if (import.meta.url === `file://${process.argv[1]}`) console.log(JSON.stringify(await benchReads(), null, 2))
