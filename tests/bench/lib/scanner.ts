// Load generator process for the door (issue 16), in its own pinned process. Prints one JSON line.
//   mode 'sync': door devices back online at once, each sending what it scanned offline as the
//     check-in screen does: batches of up to 500 scans, one after another; every device at once.
//     Then polls the event's check-in summary until it counts every admission: settled.
//   mode 'rate': devices online, each scan sent as it is made (one scan per request), `rate` scans
//     a second for `seconds`, open loop: each request leaves at its planned time whether or not the
//     ones before it were answered, and its time is counted from then (no coordinated omission).
import { readFileSync } from 'node:fs'

type Options = {
  url: string
  eventId: string
  /** the organizer's token (scans and summary) */
  token: string
  /** a JSON file holding the codes, in order */
  codesFile: string
  mode: 'sync' | 'rate'
  devices: number
  /** sync: the most scans in one request */
  batch?: number
  /** rate: scans a second, and for how long */
  rate?: number
  seconds?: number
}

const options = JSON.parse(process.argv[2] ?? '{}') as Options
const codes = JSON.parse(readFileSync(options.codesFile, 'utf8')) as string[]
const headers = { authorization: `Bearer ${options.token}`, 'content-type': 'application/json' }
const scansUrl = `${options.url}/api/v1/checkin/${options.eventId}/scans`
const cpuAtStart = process.cpuUsage()
const cpuSeconds = () => {
  const used = process.cpuUsage(cpuAtStart)
  return (used.user + used.system) / 1e6
}

type Scan = { code: string; scannedAt: string; device: string }
type Reply = Array<{ result: string }>

const results: Record<string, number> = {}
const statuses: Record<string, number> = {}
let failures = 0

async function send(scans: Scan[]): Promise<void> {
  try {
    const res = await fetch(scansUrl, { method: 'POST', headers, body: JSON.stringify({ scans }) })
    statuses[res.status] = (statuses[res.status] ?? 0) + 1
    if (!res.ok) {
      await res.arrayBuffer()
      return
    }
    for (const { result } of (await res.json()) as Reply) results[result] = (results[result] ?? 0) + 1
  } catch {
    failures++
  }
}

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? 0
const ms = (value: number) => Math.round(value * 10) / 10

async function admittedNow(): Promise<number> {
  const res = await fetch(`${options.url}/api/v1/checkin/${options.eventId}/summary`, { headers })
  const summary = (await res.json()) as { ticketTypes: Array<{ admitted: number }> }
  return summary.ticketTypes.reduce((sum, row) => sum + row.admitted, 0)
}

async function sync() {
  const batch = options.batch ?? 500
  const admittedBefore = await admittedNow()
  // what each device scanned offline: its share of the codes, a second apart in scannedAt order
  const offlineSince = Date.now() - codes.length * 1000
  const queues = Array.from({ length: options.devices }, () => [] as Scan[])
  codes.forEach((code, i) => {
    queues[i % options.devices]?.push({
      code,
      scannedAt: new Date(offlineSince + i * 1000).toISOString(),
      device: `bench-door-${i % options.devices}`,
    })
  })
  const requestMs: number[] = []
  const started = performance.now()
  await Promise.all(
    queues.map(async (queue) => {
      for (let i = 0; i < queue.length; i += batch) {
        const sent = performance.now()
        await send(queue.slice(i, i + batch))
        requestMs.push(performance.now() - sent)
      }
    }),
  )
  const answeredMs = performance.now() - started
  let admitted = await admittedNow()
  while (admitted < admittedBefore + codes.length && performance.now() - started < 120_000) {
    await new Promise((r) => setTimeout(r, 20))
    admitted = await admittedNow()
  }
  const settledMs = performance.now() - started
  requestMs.sort((a, b) => a - b)
  return {
    scans: codes.length,
    devices: options.devices,
    batch,
    answeredMs: ms(answeredMs),
    settledMs: ms(settledMs),
    admittedAfter: admitted - admittedBefore,
    scansPerSecond: Math.round(codes.length / (settledMs / 1000)),
    requestP50Ms: ms(percentile(requestMs, 50)),
    requestMaxMs: ms(requestMs.at(-1) ?? 0),
  }
}

async function rate() {
  const perSecond = options.rate ?? 200
  const total = Math.min(codes.length, Math.round(perSecond * (options.seconds ?? 20)))
  const gap = 1000 / perSecond
  const latencies: number[] = []
  const inFlight: Promise<void>[] = []
  const started = performance.now()
  for (let i = 0; i < total; i++) {
    const planned = started + i * gap
    const wait = planned - performance.now()
    if (wait > 1) await new Promise((r) => setTimeout(r, wait))
    const code = codes[i] as string
    inFlight.push(
      send([{ code, scannedAt: new Date().toISOString(), device: `bench-door-${i % options.devices}` }]).then(
        () => {
          latencies.push(performance.now() - planned)
        },
      ),
    )
  }
  await Promise.all(inFlight)
  const seconds = (performance.now() - started) / 1000
  latencies.sort((a, b) => a - b)
  return {
    scans: total,
    plannedPerSecond: perSecond,
    achievedPerSecond: Math.round(total / seconds),
    p50Ms: ms(percentile(latencies, 50)),
    p99Ms: ms(percentile(latencies, 99)),
    maxMs: ms(latencies.at(-1) ?? 0),
  }
}

const figures = options.mode === 'sync' ? await sync() : await rate()
console.log(JSON.stringify({ ...figures, results, statuses, failures, cpuSeconds: ms(cpuSeconds()) }))
