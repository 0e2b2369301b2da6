// seating (issue 40): a stadium's seat map and reserved-seat holds, on SQLite (synchronous FULL),
// the app on the server's core and the load on the other (lib/deploy.ts).
// - The map: GET /event/{id}/seatmap of a 50,000-seat section (VIP), gzipped as a browser asks for
//   it, one request at a time after a warm-up: its size and its time (taken by the client on
//   loopback, so an upper bound of the server's).
// - The holds: the same load generator (autocannon, lib/cannon.ts), connections and amount against
//   the same app, once holding a count of general admission and once the best seat of the seated
//   section (quantity 1), in alternating rounds; the seat holds' rate as a share of the counts'.
import http from 'node:http'
import { gunzipSync } from 'node:zlib'
import { deploy } from './lib/deploy.ts'
import { runLoad } from './lib/processes.ts'
import { median, round } from './lib/stats.ts'

/** VIP is a tenth of the seats: 50,000 reserved seats */
const SEATS = 500_000
const CONNECTIONS = 32

type Cannon = {
  requests: number
  statusCodes: Record<string, { count: number }>
  duration: number
  p50: number
  p99: number
  cpuSeconds?: number
}

export type SeatingResult = {
  map: {
    seats: number
    gzipBytes: number
    jsonBytes: number
    medianMs: number
    p99Ms: number
    requests: number
  }
  holds: {
    connections: number
    perRound: number
    rounds: number
    countedPerSecond: number[]
    seatedPerSecond: number[]
    /** seat holds' median rate as a share of count holds' (issue 40: at least 0.8) */
    ratio: number
    countedP99Ms: number
    seatedP99Ms: number
    /** the generator's CPU as a share of its runs' time (it is not the limit below ~0.8) */
    generatorCpuShare: number
    /** answers other than 200, by status, over all rounds */
    refused: Record<string, number>
  }
}

function getGzipped(url: string): Promise<{ ms: number; bytes: Buffer }> {
  const started = performance.now()
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers: { 'accept-encoding': 'gzip' } }, (response) => {
        const chunks: Buffer[] = []
        response.on('data', (c: Buffer) => chunks.push(c))
        response.on('end', () => {
          if (response.statusCode !== 200) reject(new Error(`GET ${url}: ${response.statusCode}`))
          else resolve({ ms: performance.now() - started, bytes: Buffer.concat(chunks) })
        })
        response.on('error', reject)
      })
      .on('error', reject)
  })
}

export async function benchSeating(quick = false, log: (line: string) => void = () => {}): Promise<SeatingResult> {
  const rounds = quick ? 1 : 3
  const perRound = quick ? 1000 : 3000
  const deployment = await deploy(
    { store: 'sqlite', apps: 1 },
    { buyers: perRound, events: 2, seats: SEATS, seatedVip: true },
    { SQLITE_SYNCHRONOUS: 'FULL' },
  )
  try {
    const [counted, seated] = deployment.seeded.events
    const url = deployment.urls[0] as string
    if (!counted || !seated) throw new Error('no events seeded')

    // the map
    const mapUrl = `${url}/api/v1/event/${seated.eventId}/seatmap`
    for (let i = 0; i < 3; i++) await getGzipped(mapUrl)
    const times: number[] = []
    let bytes: Buffer = Buffer.alloc(0)
    for (let i = 0; i < (quick ? 5 : 20); i++) {
      const got = await getGzipped(mapUrl)
      times.push(got.ms)
      bytes = got.bytes
    }
    const json = gunzipSync(bytes)
    const seats = (
      JSON.parse(json.toString()) as { sections: Array<{ rows: Array<{ seats: unknown[] }> }> }
    ).sections.reduce((n, s) => n + s.rows.reduce((m, r) => m + r.seats.length, 0), 0)
    times.sort((a, b) => a - b)
    const map = {
      seats,
      gzipBytes: bytes.length,
      jsonBytes: json.length,
      medianMs: round(median(times), 1),
      p99Ms: round(times[Math.ceil(times.length * 0.99) - 1] ?? 0, 1),
      requests: times.length,
    }
    log(`seating map: ${JSON.stringify(map)}`)

    // the holds, alternating
    const load = (eventId: string, ticketType: string) =>
      runLoad<Cannon>('tests/bench/lib/cannon.ts', {
        urls: deployment.urls,
        method: 'POST',
        path: '/api/v1/ticket/create',
        body: { eventId, ticketType, quantity: 1 },
        tokensFile: deployment.seeded.tokensFile,
        connections: CONNECTIONS,
        amount: perRound,
      })
    const ok = (r: Cannon) => (r.statusCodes['200']?.count ?? 0) / r.duration
    const countedRuns: Cannon[] = []
    const seatedRuns: Cannon[] = []
    const refused: Record<string, number> = {}
    // a warm-up of each
    await load(counted.eventId, 'General Admission')
    await load(seated.eventId, 'VIP')
    for (let i = 0; i < rounds; i++) {
      for (const [runs, eventId, type] of [
        [countedRuns, counted.eventId, 'General Admission'],
        [seatedRuns, seated.eventId, 'VIP'],
      ] as const) {
        const run = await load(eventId, type)
        runs.push(run)
        for (const [code, { count }] of Object.entries(run.statusCodes))
          if (code !== '200') refused[code] = (refused[code] ?? 0) + count
        log(`seating ${type}: ${round(ok(run), 1)} holds/s, p99 ${run.p99} ms`)
      }
    }
    const all = [...countedRuns, ...seatedRuns]
    const countedPerSecond = countedRuns.map((r) => round(ok(r), 1))
    const seatedPerSecond = seatedRuns.map((r) => round(ok(r), 1))
    return {
      map,
      holds: {
        connections: CONNECTIONS,
        perRound,
        rounds,
        countedPerSecond,
        seatedPerSecond,
        ratio: round(median(seatedPerSecond) / median(countedPerSecond), 3),
        countedP99Ms: round(median(countedRuns.map((r) => r.p99)), 1),
        seatedP99Ms: round(median(seatedRuns.map((r) => r.p99)), 1),
        generatorCpuShare: round(
          all.reduce((s, r) => s + (r.cpuSeconds ?? 0), 0) / all.reduce((s, r) => s + r.duration, 0),
          3,
        ),
        refused,
      },
    }
  } finally {
    await deployment.stop()
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  // node --import tsx tests/bench/seating.ts [--quick]
  const result = await benchSeating(process.argv.includes('--quick'), console.error)
  console.log(JSON.stringify(result, null, 2))
}
