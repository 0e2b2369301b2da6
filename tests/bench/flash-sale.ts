// flash sale: POST /ticket/create from distinct signed-in buyers at concurrency 100 on one event,
// against Fastify's hello world warmed up and measured exactly alike on the same core (issue 18).
// benchFlashSaleOn: the same sale on either store with 1 or 2 app processes (sale-stores.ts).
import { rmSync } from 'node:fs'
import { join } from 'node:path'
import Database from 'better-sqlite3'
import { freePort } from '../support/server.ts'
import { deploy, type ServerSideUse, type Variant } from './lib/deploy.ts'
import { cores, cpuSeconds, runLoad, spawnPinned, startAppServer, waitUntilUp } from './lib/processes.ts'
import { seed } from './lib/seed.ts'
import { median, round, type Spread, spread } from './lib/stats.ts'
import { hasWrk, runWrk, tokenLines } from './lib/wrk.ts'

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

/** one measured run of either server: the rates, and whose CPU was the limit */
type Measured = {
  requestsPerSecond: number
  /** answers 200: holds for the app, every answer for hello world */
  okPerSecond: number
  p50: number
  p99: number
  /** the load generator's CPU time ÷ the run's duration: near 1, the generator set the pace */
  generatorCpuShare: number
  /** the server process's CPU time ÷ the run's duration: near 1, its one core was the limit */
  serverCpuShare: number
}

export type FlashSaleResult = {
  synchronous: 'FULL' | 'NORMAL'
  concurrency: number
  warmupSeconds: number
  seconds: number
  rounds: number
  /** the app's holds (answers 200) per second in the measured window, over the rounds */
  holds: Spread
  /** every answer of the app (holds; a refusal would count here too) */
  requests: Spread
  p50Ms: number
  p99Ms: number
  generatorCpuShare: Spread
  serverCpuShare: Spread
  /** Fastify's hello world, warmed up and measured exactly like the app */
  baseline: {
    requests: Spread
    generatorCpuShare: Spread
    serverCpuShare: Spread
    p50Ms: number
    p99Ms: number
  }
  /** holds per second ÷ hello world's requests per second (medians) */
  ratio: number
  /** the window never ran out of seats or buyers (else it would measure refusals) */
  windowSeats: number
  windowBuyers: number
  /** the sell-out check: more buyers than seats, every seat held once, none oversold */
  sellOut: { orders: number; seats: number; held: number; refused: number; oversold: number }
  /** the same app and baseline under wrk (C), one round: the Node generator is not the limit when
   * the two agree */
  wrk?: {
    hello: { requestsPerSecond: number; cpuShare: number; p99Ms: number }
    app: { requestsPerSecond: number; holdsPerSecond: number; cpuShare: number; p99Ms: number }
    ratio: number
  }
}

const ORDERS = 5000
const CONCURRENCY = 100
const SEATS = 2000
const WARMUP = 1000
/** the measured window and the warm-up before it, for the app and the baseline alike */
const WARMUP_SECONDS = 3
const SECONDS = 10
/** buyers (and seats) for the window: more than this machine holds in WARMUP + SECONDS */
const WINDOW_BUYERS = 60_000

const hold = (eventId: string) => ({ eventId, ticketType: 'General Admission', quantity: 1 })

type CannonOptions = {
  url: string
  method: 'GET' | 'POST'
  path: string
  body?: unknown
  headers?: Record<string, string>
  tokensFile?: string
}

/** warm-up, then the measured window, with the same generator and connections for any server */
async function measure(
  pid: number,
  load: CannonOptions,
  warmup: CannonOptions = load,
  connections = CONCURRENCY,
): Promise<Measured & { statusCodes: Cannon['statusCodes'] }> {
  await runLoad<Cannon>('tests/bench/lib/cannon.ts', {
    ...warmup,
    connections,
    duration: WARMUP_SECONDS,
  })
  const cpuBefore = cpuSeconds(pid)
  const result = await runLoad<Cannon>('tests/bench/lib/cannon.ts', {
    ...load,
    connections,
    duration: SECONDS,
  })
  const duration = result.duration ?? SECONDS
  const ok = load.path === '/hello' ? result.requests : (result.statusCodes['200']?.count ?? 0)
  return {
    requestsPerSecond: result.requestsPerSecond,
    okPerSecond: ok / duration,
    p50: result.p50,
    p99: result.p99,
    generatorCpuShare: (result.cpuSeconds ?? 0) / duration,
    serverCpuShare: (cpuSeconds(pid) - cpuBefore) / duration,
    statusCodes: result.statusCodes,
  }
}

/** Fastify's hello world on the server's core: a fresh process per call, warmed up, then measured
 * like the app (same generator, connections, tokens and body when given). */
export async function helloRun(load: Omit<CannonOptions, 'url' | 'path'>): Promise<Measured> {
  const port = await freePort()
  const hello = spawnPinned(cores.server, ['tests/bench/lib/hello.ts'], { PORT: String(port) })
  try {
    await waitUntilUp(`http://127.0.0.1:${port}/hello`)
    return await measure(hello.child.pid ?? 0, { ...load, url: `http://127.0.0.1:${port}`, path: '/hello' })
  } finally {
    hello.child.kill('SIGTERM')
    await hello.exited
  }
}

/** hello world's requests per second (the median of `rounds` fresh, warmed-up runs) */
export async function helloBaseline(load: Omit<CannonOptions, 'url' | 'path'>, rounds = 3) {
  const runs: Measured[] = []
  for (let i = 0; i < rounds; i++) runs.push(await helloRun(load))
  return runs
}

/** a fresh seed: buyers with tokens, an event to measure and another to warm up on */
function seedHolds(buyers = WINDOW_BUYERS, seats = WINDOW_BUYERS) {
  const data = seed({ buyers, events: 2, seats })
  const [event, warmup] = data.events
  const general = event?.ticketTypes[0]
  if (!event || !general || !warmup) throw new Error('no event seeded')
  return { data, event, warmup, general }
}

/** the app on a seed, started only when it is its turn: no idle app shares the core with a
 * baseline being measured */
async function startHolds(
  seeded: ReturnType<typeof seedHolds>,
  synchronous: 'FULL' | 'NORMAL',
  tag: string,
  env: Record<string, string> = {},
) {
  const server = await startAppServer(seeded.data.dataDir, {
    SQLITE_SYNCHRONOUS: synchronous,
    QUEUE_PREFIX: `bench-${tag}-${Date.now()}`,
    ...env,
  })
  const base = {
    url: server.url,
    method: 'POST' as const,
    path: '/api/v1/ticket/create',
    tokensFile: seeded.data.tokensFile,
  }
  return { ...seeded, server, base }
}

async function heldOf(dataDir: string, ticketTypeId: string) {
  const db = new Database(join(dataDir, 'ticketing.sqlite'), { readonly: true })
  const row = db.prepare('SELECT held, sold FROM inventory WHERE ticket_type_id = ?').get(ticketTypeId) as
    | { held: number; sold: number }
    | undefined
  db.close()
  return (row?.held ?? 0) + (row?.sold ?? 0)
}

/** hello world under the sale's load: the hold's body, the seed's tokens */
const helloFor = (seeded: ReturnType<typeof seedHolds>) =>
  helloRun({ method: 'POST', body: hold(seeded.event.eventId), tokensFile: seeded.data.tokensFile })

/** runs what comes before the app on a seed; the seed is removed if it fails (the app removes it after) */
async function removedOnFailure(seeded: ReturnType<typeof seedHolds>, before: () => Promise<unknown>) {
  try {
    await before()
  } catch (error) {
    rmSync(seeded.data.dataDir, { recursive: true, force: true })
    throw error
  }
}

/**
 * The app's measured window on a seed: warmed up on the second event, measured on the first, each
 * answered hold checked against the seats held; the app stopped and the seed removed after.
 */
async function appWindow(seeded: ReturnType<typeof seedHolds>, synchronous: 'FULL' | 'NORMAL', tag: string) {
  const app = await startHolds(seeded, synchronous, tag)
  try {
    const run = await measure(
      app.server.pid,
      { ...app.base, body: hold(app.event.eventId) },
      { ...app.base, body: hold(app.warmup.eventId) },
    )
    const held = await heldOf(app.data.dataDir, app.general.ticketTypeId)
    const answered = run.statusCodes['200']?.count ?? 0
    // the requests in flight when the window closed were held too, unanswered by then
    if (held < answered || held > answered + CONCURRENCY || held >= WINDOW_BUYERS)
      throw new Error(
        `flash sale window: ${answered} holds answered, ${held} held of ${WINDOW_BUYERS} (${JSON.stringify(run.statusCodes)})`,
      )
    return run
  } finally {
    await app.server.stop()
    rmSync(app.data.dataDir, { recursive: true, force: true })
  }
}

/** More buyers than seats, each buyer once: every seat held exactly once, none oversold. */
async function sellOut(synchronous: 'FULL' | 'NORMAL') {
  const app = await startHolds(seedHolds(ORDERS, SEATS), synchronous, 'sellout')
  try {
    const base = { ...app.base, connections: CONCURRENCY }
    await runLoad<Cannon>('tests/bench/lib/cannon.ts', {
      ...base,
      body: hold(app.warmup.eventId),
      amount: WARMUP,
    })
    const result = await runLoad<Cannon>('tests/bench/lib/cannon.ts', {
      ...base,
      body: hold(app.event.eventId),
      amount: ORDERS,
    })
    const held = await heldOf(app.data.dataDir, app.general.ticketTypeId)
    return {
      orders: ORDERS,
      seats: SEATS,
      held,
      refused: result.statusCodes['409']?.count ?? 0,
      oversold: Math.max(0, held - SEATS),
    }
  } finally {
    await app.server.stop()
    rmSync(app.data.dataDir, { recursive: true, force: true })
  }
}

/** the same comparison under wrk: hello world, then the app, each warmed up then measured */
async function wrkCrossCheck(synchronous: 'FULL' | 'NORMAL'): Promise<FlashSaleResult['wrk']> {
  if (!hasWrk()) return undefined
  const seeded = seedHolds()
  try {
    const lines = tokenLines(seeded.data.tokensFile)
    const load = { method: 'POST' as const, tokenLinesFile: lines, connections: CONCURRENCY }
    // hello world first, alone on its core; then the app, alone on it
    const port = await freePort()
    const hello = spawnPinned(cores.server, ['tests/bench/lib/hello.ts'], { PORT: String(port) })
    let h: ReturnType<typeof runWrk>
    try {
      await waitUntilUp(`http://127.0.0.1:${port}/hello`)
      const helloLoad = {
        ...load,
        url: `http://127.0.0.1:${port}`,
        path: '/hello',
        body: hold(seeded.event.eventId),
      }
      runWrk({ ...helloLoad, seconds: WARMUP_SECONDS })
      h = runWrk({ ...helloLoad, seconds: SECONDS })
    } finally {
      hello.child.kill('SIGTERM')
      await hello.exited
    }
    const app = await startHolds(seeded, synchronous, 'wrk')
    let a: ReturnType<typeof runWrk>
    try {
      const appLoad = { ...load, url: app.server.url, path: app.base.path }
      runWrk({ ...appLoad, body: hold(app.warmup.eventId), seconds: WARMUP_SECONDS })
      a = runWrk({ ...appLoad, body: hold(app.event.eventId), seconds: SECONDS })
    } finally {
      await app.server.stop()
    }
    return {
      hello: {
        requestsPerSecond: round(h.requestsPerSecond, 0),
        cpuShare: round(h.cpuSeconds / h.seconds, 3),
        p99Ms: round(h.p99Ms, 1),
      },
      app: {
        requestsPerSecond: round(a.requestsPerSecond, 0),
        holdsPerSecond: round(a.okPerSecond, 0),
        cpuShare: round(a.cpuSeconds / a.seconds, 3),
        p99Ms: round(a.p99Ms, 1),
      },
      ratio: round(a.okPerSecond / h.requestsPerSecond, 3),
    }
  } finally {
    rmSync(seeded.data.dataDir, { recursive: true, force: true })
  }
}

export type LatencyPoint = {
  connections: number
  /** the median of the rounds, and their spread */
  holdsPerSecond: number
  holds?: Spread
  /** medians of the rounds */
  p50Ms: number
  p99Ms: number
  p99?: Spread
  generatorCpuShare: number
  serverCpuShare: number
}

/**
 * The throughput-latency curve of the holds (issue 18): the window above at 10, 25, 50 and 100
 * connections, each on a fresh seed and server, in `rounds` rounds that go through every level in
 * turn (a drift of the machine falls on all of them); each level's figures are the medians of its
 * rounds. The target is read at the fewest connections whose median reaches 90% of the peak
 * median: there, p99 ≤ 50 ms. One round per level let a 1% drift decide which level that was.
 */
export async function latencyCurve(synchronous: 'FULL' | 'NORMAL', levels = [10, 25, 50, 100], rounds = 3) {
  const runs = new Map<number, Array<Omit<LatencyPoint, 'connections'>>>(levels.map((l) => [l, []]))
  for (let round = 0; round < rounds; round++) {
    for (const connections of levels) {
      const app = await startHolds(seedHolds(), synchronous, `curve-${connections}`)
      try {
        const run = await measure(
          app.server.pid,
          { ...app.base, body: hold(app.event.eventId) },
          { ...app.base, body: hold(app.warmup.eventId) },
          connections,
        )
        runs.get(connections)?.push({
          holdsPerSecond: run.okPerSecond,
          p50Ms: run.p50,
          p99Ms: run.p99,
          generatorCpuShare: run.generatorCpuShare,
          serverCpuShare: run.serverCpuShare,
        })
      } finally {
        await app.server.stop()
        rmSync(app.data.dataDir, { recursive: true, force: true })
      }
    }
  }
  const points: LatencyPoint[] = levels.map((connections) => {
    const of = runs.get(connections) ?? []
    const mid = (pick: (r: (typeof of)[number]) => number, digits: number) =>
      round(median(of.map(pick)), digits)
    return {
      connections,
      holdsPerSecond: mid((r) => r.holdsPerSecond, 0),
      holds: spread(of.map((r) => r.holdsPerSecond)),
      p50Ms: mid((r) => r.p50Ms, 1),
      p99Ms: mid((r) => r.p99Ms, 1),
      p99: spread(
        of.map((r) => r.p99Ms),
        1,
      ),
      generatorCpuShare: mid((r) => r.generatorCpuShare, 3),
      serverCpuShare: mid((r) => r.serverCpuShare, 3),
    }
  })
  const peak = Math.max(...points.map((p) => p.holdsPerSecond))
  const at90 = points.find((p) => p.holdsPerSecond >= 0.9 * peak) as LatencyPoint
  return { synchronous, rounds, points, peakHoldsPerSecond: peak, at90 }
}

/**
 * The flash sale's holds against Fastify's hello world, measured alike (issue 18): a fresh process
 * of each per round, the same Node generator (autocannon, 100 connections, a buyer's token and the
 * hold's body on every request), WARMUP_SECONDS of warm-up then SECONDS measured; hello world and
 * the app alternate round by round so that a drift of the machine falls on both. The app's window
 * has a seat for every buyer, so it measures holds, not refusals; a separate sell-out (5,000 buyers
 * for 2,000 seats) shows none oversold; wrk cross-checks one round.
 */
export async function benchFlashSale(synchronous: 'FULL' | 'NORMAL', rounds = 3): Promise<FlashSaleResult> {
  const apps: Measured[] = []
  const hellos: Measured[] = []
  for (let i = 0; i < rounds; i++) {
    // hello world measured before the app starts: the two never share the core
    const seeded = seedHolds()
    await removedOnFailure(seeded, async () => hellos.push(await helloFor(seeded)))
    apps.push(await appWindow(seeded, synchronous, `flash-${i}`))
  }
  const holds = spread(apps.map((r) => r.okPerSecond))
  const baseline = spread(hellos.map((r) => r.requestsPerSecond))
  return {
    synchronous,
    concurrency: CONCURRENCY,
    warmupSeconds: WARMUP_SECONDS,
    seconds: SECONDS,
    rounds,
    holds,
    requests: spread(apps.map((r) => r.requestsPerSecond)),
    p50Ms: round(median(apps.map((r) => r.p50)), 1),
    p99Ms: round(median(apps.map((r) => r.p99)), 1),
    generatorCpuShare: spread(
      apps.map((r) => r.generatorCpuShare),
      3,
    ),
    serverCpuShare: spread(
      apps.map((r) => r.serverCpuShare),
      3,
    ),
    baseline: {
      requests: baseline,
      generatorCpuShare: spread(
        hellos.map((r) => r.generatorCpuShare),
        3,
      ),
      serverCpuShare: spread(
        hellos.map((r) => r.serverCpuShare),
        3,
      ),
      p50Ms: round(median(hellos.map((r) => r.p50)), 1),
      p99Ms: round(median(hellos.map((r) => r.p99)), 1),
    },
    ratio: round(holds.median / baseline.median, 3),
    windowSeats: WINDOW_BUYERS,
    windowBuyers: WINDOW_BUYERS,
    sellOut: await sellOut(synchronous),
    wrk: synchronous === 'FULL' ? await wrkCrossCheck(synchronous) : undefined,
  }
}

/** one rung of the floor's ladder: the floor with some of the app's reads (lib/hold-floor.ts) */
type Rung = { name: string; steps: string[] }
const LADDER: Rung[] = [
  { name: 'the floor', steps: [] },
  { name: '+ the account', steps: ['account'] },
  { name: '+ the event and ticket type', steps: ['account', 'event'] },
  { name: '+ the seats left, under the write lock', steps: ['account', 'event', 'seats'] },
  {
    name: "+ the app's ledger, every read model projected inline",
    steps: ['account', 'event', 'seats', 'ledger'],
  },
]

/** a server's holds per second and its CPU per hold over the rounds */
type Rate = { holds: Spread; cpuMicros: Spread; p99Ms: number }
const rateOf = (runs: Measured[]): Rate => ({
  holds: spread(runs.map((r) => r.okPerSecond)),
  cpuMicros: spread(runs.map((r) => (r.serverCpuShare * 1e6) / r.okPerSecond)),
  p99Ms: round(median(runs.map((r) => r.p99)), 1),
})

export type HoldFloorResult = {
  rounds: number
  concurrency: number
  /** hello world, each rung and the app, each round in that order, measured alike */
  hello: Spread
  ladder: Array<Rung & Rate & { generatorCpuShare: Spread }>
  app: Rate
  /** the floor's holds per second ÷ hello world's: the most any design of the hold can reach */
  floorRatio: number
  /** the app's holds per second ÷ hello world's (the flash sale's ratio, measured again here) */
  appRatio: number
  /** the app's holds per second ÷ the floor's */
  appOfFloor: number
}

/** the floor's server (lib/hold-floor.ts) with a rung's steps on a seed, on the server's core; the
 * rows it appended are counted, then removed, so the app finds the seed as it was */
async function floorRun(seeded: ReturnType<typeof seedHolds>, rung: Rung): Promise<Measured> {
  const port = await freePort()
  const floor = spawnPinned(cores.server, ['tests/bench/lib/hold-floor.ts'], {
    PORT: String(port),
    DATA_DIR: seeded.data.dataDir,
    FLOOR_STEPS: rung.steps.join(','),
  })
  const file = join(seeded.data.dataDir, 'ticketing.sqlite')
  let run: Awaited<ReturnType<typeof measure>>
  try {
    const url = `http://127.0.0.1:${port}`
    await waitUntilUp(`${url}/health`).catch((error) => {
      throw new Error(`${error.message}\n${floor.output()}`)
    })
    const base = {
      url,
      method: 'POST' as const,
      path: '/api/v1/ticket/create',
      tokensFile: seeded.data.tokensFile,
    }
    run = await measure(
      floor.child.pid ?? 0,
      { ...base, body: hold(seeded.event.eventId) },
      { ...base, body: hold(seeded.warmup.eventId) },
    )
  } finally {
    floor.child.kill('SIGTERM')
    await floor.exited
  }
  // every answered hold is a committed row (those in flight at the end were appended too); the
  // floor's own rows are removed, the app's ledger's orders stay with their seed
  const db = new Database(file)
  const rows = rung.steps.includes('ledger')
    ? (db.prepare('SELECT count(*) AS n FROM orders').get() as { n: number }).n
    : (db.prepare("SELECT count(*) AS n FROM ledger WHERE stream LIKE 'floor-%'").get() as { n: number }).n
  db.prepare("DELETE FROM ledger WHERE stream LIKE 'floor-%'").run()
  db.close()
  const answered = run.statusCodes['200']?.count ?? 0
  if (answered === 0 || rows < answered)
    throw new Error(
      `hold floor (${rung.name}): ${answered} answered, ${rows} rows (${JSON.stringify(run.statusCodes)})`,
    )
  return run
}

/**
 * The flash sale's floor (issue 18): hello world, the floor's server (lib/hold-floor.ts: the token
 * check, the body schema and a group-committed FULL append, nothing else), the floor with the app's
 * reads added one by one (LADDER), and the app, in turn on the server's core, each warmed up then
 * measured alike (autocannon, 100 connections, the same tokens and body).
 */
export async function benchHoldFloor(rounds = 3): Promise<HoldFloorResult> {
  const hellos: Measured[] = []
  const rungs: Measured[][] = LADDER.map(() => [])
  const apps: Measured[] = []
  for (let i = 0; i < rounds; i++) {
    const seeded = seedHolds()
    await removedOnFailure(seeded, async () => {
      hellos.push(await helloFor(seeded))
      for (const [k, rung] of LADDER.entries()) {
        // a rung that projects sells seats and writes read models: a seed of its own
        if (!rung.steps.includes('ledger')) {
          rungs[k]?.push(await floorRun(seeded, rung))
          continue
        }
        const own = seedHolds()
        try {
          rungs[k]?.push(await floorRun(own, rung))
        } finally {
          rmSync(own.data.dataDir, { recursive: true, force: true })
        }
      }
    })
    apps.push(await appWindow(seeded, 'FULL', `floor-${i}`))
  }
  const hello = spread(hellos.map((r) => r.requestsPerSecond))
  const ladder = LADDER.map((rung, k) => ({
    ...rung,
    ...rateOf(rungs[k] ?? []),
    generatorCpuShare: spread(
      (rungs[k] ?? []).map((r) => r.generatorCpuShare),
      3,
    ),
  }))
  const app = rateOf(apps)
  const floor = ladder[0]?.holds.median ?? Number.NaN
  return {
    rounds,
    concurrency: CONCURRENCY,
    hello,
    ladder,
    app,
    floorRatio: round(floor / hello.median, 3),
    appRatio: round(app.holds.median / hello.median, 3),
    appOfFloor: round(app.holds.median / floor, 3),
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

export type WatchedSaleResult = {
  watchers: number
  rounds: number
  /** holds per second with nobody watching, and with `watchers` pages open on the sale's event */
  unwatched: Spread
  watched: Spread
  /** watched ÷ unwatched (medians) */
  ratio: number
  p99Ms: { unwatched: number; watched: number }
  /** the server's CPU time per hold, µs (medians) */
  cpuPerHoldUs: { unwatched: number; watched: number }
  /** pushes the watchers received in the measured window, and the fewest still connected at its end */
  pushes: number
  connectedAtEnd: number
  /** the load core's CPU share (autocannon and the pages' clients, which share it) and the server's,
   * medians: the side near 1 set the pace */
  loadCoreShare: { unwatched: number; watched: number }
  serverCpuShare: { unwatched: number; watched: number }
}

/**
 * The flash sale's holds (FULL) with nobody watching, then with `watchers` Socket.IO clients on the
 * sale's event page (soak-sockets.ts, on the generator's core), each on a fresh seed and server,
 * alternating round by round: a page that shows the seats left live must not slow the sale.
 */
export async function watchedSale(watchers = 200, rounds = 3): Promise<WatchedSaleResult> {
  const runs: Array<{
    watched: boolean
    holds: number
    p99: number
    cpuUs: number
    pushes: number
    connected: number
    loadShare: number
    serverShare: number
  }> = []
  for (let i = 0; i < rounds; i++) {
    for (const watched of [false, true]) {
      const app = await startHolds(seedHolds(), 'FULL', `watched-${i}`, {
        LIVE_CONNECTIONS_PER_ADDRESS: String(watchers + 100),
      })
      let pages: ReturnType<typeof spawnPinned> | null = null
      try {
        await runLoad<Cannon>('tests/bench/lib/cannon.ts', {
          ...app.base,
          body: hold(app.warmup.eventId),
          connections: CONCURRENCY,
          duration: WARMUP_SECONDS,
        })
        if (watched) {
          pages = spawnPinned(cores.load, [
            'tests/bench/lib/soak-sockets.ts',
            JSON.stringify({
              url: app.server.url,
              clients: watchers,
              eventIds: [app.event.eventId],
              seconds: SECONDS + 4,
              windowSeconds: 1,
            }),
          ])
          const open = pages
          const deadline = Date.now() + 60_000
          while (!open.output().includes('ready')) {
            if (Date.now() > deadline || open.child.exitCode !== null)
              throw new Error(`the watchers did not connect: ${open.output()}`)
            await new Promise((r) => setTimeout(r, 100))
          }
        }
        const before = cpuSeconds(app.server.pid)
        const pagesBefore = pages ? cpuSeconds(pages.child.pid ?? 0) : 0
        const result = await runLoad<Cannon>('tests/bench/lib/cannon.ts', {
          ...app.base,
          body: hold(app.event.eventId),
          connections: CONCURRENCY,
          duration: SECONDS,
        })
        const cpu = cpuSeconds(app.server.pid) - before
        const pagesCpu = pages ? cpuSeconds(pages.child.pid ?? 0) - pagesBefore : 0
        const seconds = result.duration ?? SECONDS
        const held = result.statusCodes['200']?.count ?? 0
        let pushes = 0
        let connected = 0
        if (pages) {
          await pages.exited
          const lines = pages
            .output()
            .split('\n')
            .filter((line) => line.startsWith('{'))
            .map((line) => JSON.parse(line) as { pushes?: number; done?: boolean; connected?: number })
          pushes = lines.reduce((sum, line) => sum + (line.pushes ?? 0), 0)
          connected = lines.find((line) => line.done)?.connected ?? 0
        }
        runs.push({
          watched,
          holds: held / seconds,
          p99: result.p99,
          cpuUs: held > 0 ? (cpu / held) * 1e6 : 0,
          pushes,
          connected,
          loadShare: ((result.cpuSeconds ?? 0) + pagesCpu) / seconds,
          serverShare: cpu / seconds,
        })
      } finally {
        pages?.child.kill('SIGTERM')
        await app.server.stop()
        rmSync(app.data.dataDir, { recursive: true, force: true })
      }
    }
  }
  const of = (watched: boolean) => runs.filter((r) => r.watched === watched)
  const unwatched = spread(of(false).map((r) => r.holds))
  const watched = spread(of(true).map((r) => r.holds))
  return {
    watchers,
    rounds,
    unwatched,
    watched,
    ratio: round(watched.median / unwatched.median, 3),
    p99Ms: { unwatched: median(of(false).map((r) => r.p99)), watched: median(of(true).map((r) => r.p99)) },
    cpuPerHoldUs: {
      unwatched: round(median(of(false).map((r) => r.cpuUs)), 0),
      watched: round(median(of(true).map((r) => r.cpuUs)), 0),
    },
    pushes: median(of(true).map((r) => r.pushes)),
    connectedAtEnd: Math.min(...of(true).map((r) => r.connected)),
    loadCoreShare: {
      unwatched: round(median(of(false).map((r) => r.loadShare)), 2),
      watched: round(median(of(true).map((r) => r.loadShare)), 2),
    },
    serverCpuShare: {
      unwatched: round(median(of(false).map((r) => r.serverShare)), 2),
      watched: round(median(of(true).map((r) => r.serverShare)), 2),
    },
  }
}

if (process.argv[2] === 'floor' && import.meta.url === `file://${process.argv[1]}`) {
  console.log(await benchHoldFloor(Number(process.argv[3] ?? 1)))
} else if (process.argv[2] === 'watched' && import.meta.url === `file://${process.argv[1]}`) {
  console.log(await watchedSale(Number(process.argv[3] ?? 200), Number(process.argv[4] ?? 1)))
} else if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(
    await benchFlashSale((process.argv[2] as 'FULL' | 'NORMAL') ?? 'FULL', Number(process.argv[3] ?? 1)),
  )
}
