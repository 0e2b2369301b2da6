// The waiting room (issue 41). The line: LINE_CLIENTS signed-in buyers connected to one app
// process (SQLite), most joining the pre-queue and the rest after the opening, the room admitting
// at a set rate; measured: the server's RSS with all of them connected, how long after each
// admission every buyer behind it hears their new place (the admission's time from the ledger
// against each client's clock; both on this machine), the admission rate over a minute against
// the one set, and that no place went backwards and nobody was admitted twice. The sale: the same
// arrival of SALE_BUYERS buyers at once (each with its socket), buying through the local gateway
// with no room and behind a room admitting to its number of checkouts: tickets sold a second and
// the latency of a purchase for each.
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import Database from 'better-sqlite3'
import { cores, cpuSeconds, rssMb, spawnPinned, startAppServer } from './lib/processes.ts'
import { seed } from './lib/seed.ts'
import { percentile, round } from './lib/stats.ts'

/** the most sockets one process of this machine may hold is its open files' limit (ulimit -n,
 * 20,000 here, not raisable), which the server's own files and the joins' connections share */
const LINE_CLIENTS = Number(process.env.BENCH_QUEUE_CLIENTS ?? 19_700)
/** the pre-queue's share of them */
const EARLY_SHARE = 0.75
/** sockets per load process (each under its open files' limit) */
const PER_LOADER = 10_000
const ADMIT_PER_MINUTE = 600
const MEASURE_SECONDS = Number(process.env.BENCH_QUEUE_SECONDS ?? 60)
/** the line's server: its heap let grow this far past its last full collection (HEAP_GROWING_PERCENT);
 * unset, the app's own (50, and 20 while it holds 5,000 connections or more: server/heap.ts) */
const LINE_HEAP_PERCENT = Number(process.env.BENCH_QUEUE_HEAP_PERCENT ?? 0)

export type QueueLineResult = {
  clients: number
  early: number
  admitPerMinute: number
  tickMs: number
  /** the HEAP_GROWING_PERCENT the server was given (0: none, the app's own) */
  heapGrowingPercent: number
  seedMs: number
  connectMs: number
  earlyJoinMs: number
  lateJoinMs: number
  rssIdleMb: number
  rssConnectedMb: number
  rssMaxMb: number
  /** from each admission to each buyer behind it hearing their new place */
  push: { deliveries: number; missing: number; p50Ms: number; p99Ms: number; maxMs: number }
  /** admissions over the window, as people a minute */
  measuredPerMinute: number
  windowSeconds: number
  admitted: number
  /** positions that went up for a client, places given twice, admissions told twice */
  backwards: number
  overlaps: number
  admittedTwice: number
  joinErrors: Record<string, number>
  connectErrors: Record<string, number>
  disconnects: number
  cpu: { serverShare: number; generatorSeconds: number; seconds: number }
}

type LoaderOut = {
  clients: number
  connected: number
  connectMs: number
  earlyMs: number
  lateMs: number
  joinErrors: Record<string, number>
  connectErrors: Record<string, number>
  disconnects: number
  cpuSeconds: number
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))
const add = (into: Record<string, number>, from: Record<string, number>) => {
  for (const [k, n] of Object.entries(from)) into[k] = (into[k] ?? 0) + n
}

async function until(what: string, ok: () => boolean, ms: number, output: () => string) {
  const deadline = Date.now() + ms
  while (!ok()) {
    if (Date.now() > deadline) throw new Error(`${what} not done in ${ms} ms:\n${output().slice(-3000)}`)
    await sleep(50)
  }
}

/** the token's account (its subject) */
const accountOf = (token: string) =>
  (JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString()) as { sub: string }).sub

async function organizerPut(url: string, token: string, eventId: string, body: unknown) {
  const res = await fetch(`${url}/api/v1/event/${eventId}/onsale`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify(body),
  })
  if (res.status !== 200) throw new Error(`onsale ${res.status}: ${await res.text()}`)
}

export async function benchQueueLine(clients = LINE_CLIENTS): Promise<QueueLineResult> {
  const tickMs = 1000
  const seedStarted = performance.now()
  const data = seed({ buyers: clients, events: 1, seats: 100_000 })
  const seedMs = Math.round(performance.now() - seedStarted)
  const event = data.events[0]
  if (!event) throw new Error('no event')
  const { eventId } = event
  const server = await startAppServer(data.dataDir, {
    QUEUE_PREFIX: `bench-queue-${Date.now()}`,
    LIVE_CONNECTIONS_PER_ADDRESS: String(clients + 100),
    QUEUE_TICK_MS: String(tickMs),
    ...(LINE_HEAP_PERCENT ? { HEAP_GROWING_PERCENT: String(LINE_HEAP_PERCENT) } : {}),
  })
  const work = join(data.dataDir, 'queue-bench')
  mkdirSync(work, { recursive: true })
  const stopFile = join(work, 'stop')
  const early = Math.round(clients * EARLY_SHARE)
  const loaders = Array.from({ length: Math.ceil(clients / PER_LOADER) }, (_, k) => {
    const from = k * PER_LOADER
    const to = Math.min(clients, from + PER_LOADER)
    const outFile = join(work, `heard-${k}.json`)
    const running = spawnPinned(cores.load, [
      'tests/bench/lib/queue-line.ts',
      JSON.stringify({
        url: server.url,
        tokensFile: data.tokensFile,
        from,
        to,
        early: Math.max(0, Math.min(to, early) - from),
        eventId,
        stopFile,
        outFile,
      }),
    ])
    return { from, to, outFile, running }
  })
  const said = (word: string) => () => loaders.every((l) => l.running.output().includes(word))
  const outputs = () => loaders.map((l) => l.running.output()).join('\n---\n')
  const rssIdleMb = rssMb(server.pid)
  let rssConnectedMb = 0
  let rssMaxMb = 0
  let measureFrom = 0
  let measureTo = 0
  let serverCpu = 0
  try {
    await until('connecting', said('ready'), 300_000, outputs)
    rssConnectedMb = rssMb(server.pid)
    // the sale far ahead: the early ones join its pre-queue
    await organizerPut(server.url, data.organizerToken, eventId, {
      opensAt: new Date(Date.now() + 3_600_000).toISOString(),
      waitingRoom: true,
      admitPerMinute: ADMIT_PER_MINUTE,
    })
    await until('the pre-queue', said('early-joined'), 300_000, outputs)
    // then it opens in 2 s: the others join at the back of the line
    await organizerPut(server.url, data.organizerToken, eventId, {
      opensAt: new Date(Date.now() + 2000).toISOString(),
      waitingRoom: true,
      admitPerMinute: ADMIT_PER_MINUTE,
    })
    await until('the late joins', said('late-joined'), 300_000, outputs)
    measureFrom = Date.now()
    const cpuFrom = cpuSeconds(server.pid)
    while (Date.now() < measureFrom + MEASURE_SECONDS * 1000) {
      rssMaxMb = Math.max(rssMaxMb, rssMb(server.pid))
      await sleep(1000)
    }
    measureTo = Date.now()
    serverCpu = cpuSeconds(server.pid) - cpuFrom
    // the last admissions' pushes have time to arrive
    await sleep(3000)
    writeFileSync(stopFile, '')
    await Promise.all(loaders.map((l) => l.running.exited))
  } finally {
    for (const l of loaders) if (l.running.child.exitCode === null) l.running.child.kill('SIGTERM')
    await server.stop()
  }
  try {
    const out = loaders.map((l) => {
      const line = l.running
        .output()
        .trim()
        .split('\n')
        .filter((s) => s.startsWith('{'))
        .pop()
      if (!line) throw new Error(`no result:\n${l.running.output().slice(-3000)}`)
      return JSON.parse(line) as LoaderOut
    })
    const db = new Database(join(data.dataDir, 'ticketing.sqlite'), { readonly: true })
    const lineOf = new Map(
      (
        db
          .prepare('SELECT account_id AS a, line FROM queue_places WHERE event_id = ?')
          .all(eventId) as Array<{
          a: string
          line: number | null
        }>
      ).map((r) => [r.a, r.line]),
    )
    const admittedFacts = (
      db
        .prepare("SELECT data FROM ledger WHERE type = 'QueueAdmitted' AND stream = ? ORDER BY position")
        .all(`room-${eventId}`) as Array<{ data: string }>
    ).map((r) => {
      const d = JSON.parse(r.data) as { from: number; through: number; at: string }
      return { from: d.from, through: d.through, at: Date.parse(d.at) }
    })
    db.close()
    // admissions: each line once, in order
    let overlaps = 0
    for (let k = 1; k < admittedFacts.length; k++) {
      const a = admittedFacts[k - 1]
      const b = admittedFacts[k]
      if (a && b && b.from !== a.through + 1) overlaps++
    }
    // the rate over the window: people admitted by its admissions after its first, over the time
    // from its first to its last
    const inWindow = admittedFacts.filter((f) => f.at >= measureFrom && f.at <= measureTo)
    const first = inWindow[0]
    const last = inWindow[inWindow.length - 1]
    const admittedInWindow = inWindow.slice(1).reduce((n, f) => n + f.through - f.from + 1, 0)
    const windowMs = first && last ? last.at - first.at : 0
    const measuredPerMinute = windowMs > 0 ? (admittedInWindow * 60_000) / windowMs : 0
    // each admission in the window, for each client waiting behind it (line ≥ its first): the time
    // until that client heard a place at or past it
    const tokens = JSON.parse(readFileSync(data.tokensFile, 'utf8')) as string[]
    const delays: number[] = []
    let missing = 0
    let backwards = 0
    let admittedTwice = 0
    for (const l of loaders) {
      const { heard, admissions } = JSON.parse(readFileSync(l.outFile, 'utf8')) as {
        heard: number[][]
        admissions: number[]
      }
      admittedTwice += admissions.filter((n) => n > 1).length
      heard.forEach((messages, i) => {
        const line = lineOf.get(accountOf(tokens[l.from + i] ?? '')) ?? null
        if (line === null) return
        // the line's admitted-through each message shows (Infinity once admitted)
        const shown: Array<{ t: number; through: number }> = []
        let lastPosition = Number.POSITIVE_INFINITY
        let admitted = false
        for (let m = 0; m < messages.length; m += 2) {
          const t = messages[m] as number
          const code = messages[m + 1] as number
          if (code > 0) {
            if (code > lastPosition || admitted) backwards++
            lastPosition = code
            shown.push({ t, through: line - code })
          } else if (code === 0) {
            admitted = true
            shown.push({ t, through: Number.POSITIVE_INFINITY })
          }
        }
        let k = 0
        for (const f of inWindow) {
          if (f.from > line) break
          const needed = f.through >= line ? Number.POSITIVE_INFINITY : f.through
          while (k < shown.length && (shown[k]?.through ?? 0) < needed) k++
          const seen = shown[k]
          if (seen) delays.push(seen.t - f.at)
          else missing++
        }
      })
    }
    const loadCpu = out.reduce((n, o) => n + o.cpuSeconds, 0)
    const joinErrors: Record<string, number> = {}
    const connectErrors: Record<string, number> = {}
    for (const o of out) {
      add(joinErrors, o.joinErrors)
      add(connectErrors, o.connectErrors)
    }
    return {
      clients,
      early,
      admitPerMinute: ADMIT_PER_MINUTE,
      tickMs,
      heapGrowingPercent: LINE_HEAP_PERCENT,
      seedMs,
      connectMs: Math.max(...out.map((o) => o.connectMs)),
      earlyJoinMs: Math.max(...out.map((o) => o.earlyMs)),
      lateJoinMs: Math.max(...out.map((o) => o.lateMs)),
      rssIdleMb,
      rssConnectedMb,
      rssMaxMb,
      push: {
        deliveries: delays.length,
        missing,
        p50Ms: round(percentile(delays, 50), 0),
        p99Ms: round(percentile(delays, 99), 0),
        maxMs: round(
          delays.reduce((a, b) => Math.max(a, b), 0),
          0,
        ),
      },
      measuredPerMinute: round(measuredPerMinute, 1),
      windowSeconds: round(windowMs / 1000, 1),
      admitted: admittedInWindow,
      backwards,
      overlaps,
      admittedTwice,
      joinErrors,
      connectErrors,
      disconnects: out.reduce((n, o) => n + o.disconnects, 0),
      cpu: {
        serverShare: round(serverCpu / ((measureTo - measureFrom) / 1000), 3),
        generatorSeconds: round(loadCpu, 1),
        seconds: round((measureTo - measureFrom) / 1000, 1),
      },
    }
  } finally {
    rmSync(data.dataDir, { recursive: true, force: true })
  }
}

/** the sale's buyers, arriving at once */
const SALE_BUYERS = Number(process.env.BENCH_QUEUE_BUYERS ?? 3000)

type SaleOut = {
  buyers: number
  sold: number
  failures: Record<string, number>
  seconds: number
  soldPerSecond: number
  total: { p50: number; p99: number; max: number }
  purchase: { p50: number; p99: number; max: number }
  cpuSeconds: number
}

export type QueueSaleRun = SaleOut & { room: boolean; serverCpuShare: number; rssMaxMb: number }

/** SALE_BUYERS buyers arriving at once at a fresh server, each buying one ticket (with or without
 * a room in front of the sale) */
async function saleRun(room: boolean, env: Record<string, string>): Promise<QueueSaleRun> {
  const data = seed({ buyers: SALE_BUYERS, events: 1, seats: 100_000 })
  const event = data.events[0]
  if (!event) throw new Error('no event')
  const server = await startAppServer(data.dataDir, {
    QUEUE_PREFIX: `bench-queue-sale-${Date.now()}`,
    LIVE_CONNECTIONS_PER_ADDRESS: String(SALE_BUYERS + 100),
    ...env,
  })
  const goFile = join(data.dataDir, 'go')
  try {
    // the sale open since a second ago, with or without a room
    await organizerPut(server.url, data.organizerToken, event.eventId, {
      opensAt: new Date(Date.now() - 1000).toISOString(),
      waitingRoom: room,
    })
    const load = spawnPinned(cores.load, [
      'tests/bench/lib/queue-buyers.ts',
      JSON.stringify({
        url: server.url,
        tokensFile: data.tokensFile,
        count: SALE_BUYERS,
        eventId: event.eventId,
        room,
        goFile,
      }),
    ])
    await until('connecting', () => load.output().includes('ready'), 120_000, load.output)
    // the room opened (the admitter's first tick) before anyone arrives
    await sleep(2000)
    const cpuFrom = cpuSeconds(server.pid)
    const from = Date.now()
    let rssMaxMb = 0
    writeFileSync(goFile, '')
    while (load.child.exitCode === null) {
      rssMaxMb = Math.max(rssMaxMb, rssMb(server.pid))
      await sleep(500)
    }
    const serverCpuShare = round((cpuSeconds(server.pid) - cpuFrom) / ((Date.now() - from) / 1000), 3)
    const line = load
      .output()
      .trim()
      .split('\n')
      .filter((s) => s.startsWith('{'))
      .pop()
    if (!line) throw new Error(`no result:\n${load.output().slice(-3000)}`)
    return { ...(JSON.parse(line) as SaleOut), room, serverCpuShare, rssMaxMb }
  } finally {
    await server.stop()
    rmSync(data.dataDir, { recursive: true, force: true })
  }
}

export type QueueSaleResult = {
  buyers: number
  tickMs: number
  checkouts: number
  noRoom: QueueSaleRun
  behindRoom: QueueSaleRun
  /** tickets sold a second behind the room ÷ without */
  ratio: number
}

/** the same arrival with no room, then behind a room admitting to its number of checkouts */
export async function benchQueueSale(tickMs = 1000, checkouts = 100): Promise<QueueSaleResult> {
  const env = { QUEUE_TICK_MS: String(tickMs), QUEUE_CHECKOUTS: String(checkouts) }
  const noRoom = await saleRun(false, env)
  const behindRoom = await saleRun(true, env)
  return {
    buyers: SALE_BUYERS,
    tickMs,
    checkouts,
    noRoom,
    behindRoom,
    ratio: round(behindRoom.soldPerSecond / noRoom.soldPerSecond, 3),
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const what = process.argv[2] ?? 'line'
  if (what === 'line') console.log(await benchQueueLine())
  else console.log(JSON.stringify(await benchQueueSale(Number(process.argv[3] ?? 1000)), null, 1))
}
