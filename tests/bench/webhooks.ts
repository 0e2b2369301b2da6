// webhooks (issue 43, "Measured": 10,000 paid orders with 3 endpoints each): one deployment
// (lib/deploy.ts: SQLite at synchronous=FULL in a fresh data folder, one app process with its
// workers inline, the server side on the server's core), WEBHOOKS_ALLOW_PRIVATE=on so the server
// may send to this machine, and every other webhook setting at its default (a tick of 1 s, retries
// 30 s after a failure and doubling). A receiver (lib/webhook-receiver.ts, its own process on the
// load core beside the generator) listens on 3 ports, one per endpoint, verifies every delivery with
// the Standard Webhooks library and answers 204; the bench can take it down (its listeners closed,
// open connections dropped: the server's attempts are refused) and bring it back on the same ports.
// One organizer has 3 endpoints wanting order.paid, another none.
//  - Throughput: rounds of the same sale (lib/invoice-buyers.ts: hold → pay at the local gateway →
//    confirm, `concurrency` in flight) on a fresh event of the organizer with endpoints alternate
//    with rounds on a fresh event of the one without, after a warm-up round of each; purchases/s
//    and the server's CPU per purchase (to the last confirm, and until every delivery arrived and
//    the server was quiet) are compared, with ÷ without (target: purchases/s ≥ 0.9).
//  - Receiver down: the rest of the orders are sold with the receiver down; it stays down for
//    DOWN seconds from when it went down (300 by default, BENCH_WEBHOOK_DOWN_SECONDS), comes back,
//    and the time from its return to the first and the last delivery is measured. With the default
//    backoff the first attempt after the return comes when the head delivery's next retry is due
//    (up to about as long again as the receiver was down), so both times are reported as they are.
//  - Checked over the whole run (every paid order of the organizer with endpoints, warm-up and the
//    down phase included): each endpoint received every order exactly once (by webhook-id; a
//    webhook-id arriving again after a 2xx answer is a duplicate), in ascending ledger position,
//    every signature valid, nothing else; and the server's own log of each endpoint's latest
//    deliveries shows them all delivered. Anything else, or a purchase refused, is a problem the
//    run reports (npm run bench exits non-zero); the ratio is judged against its target in
//    RESULTS.md (met or missed), as the invoices bench judges its own.
// Sizes: BENCH_WEBHOOK_ORDERS paid orders with webhooks in all (10,000; --quick 600),
// BENCH_WEBHOOK_ROUND purchases a throughput round (1,000; --quick 150), BENCH_WEBHOOK_CONCURRENCY
// purchases in flight (200), BENCH_WEBHOOK_DOWN_SECONDS (300; --quick 20).
import { client, quiet, runBuyers, saleFigures } from './invoices.ts'
import { type Deployment, deploy, type ServerSideUse } from './lib/deploy.ts'
import { cores, spawnPinned } from './lib/processes.ts'
import { median, percentile, round, type Spread, spread } from './lib/stats.ts'

const ENDPOINTS = 3
const PRICE = 500
const TICKET_TYPE = 'General Admission'

export type WebhookRound = {
  webhooks: boolean
  warmup: boolean
  purchases: number
  issued: number
  failed: number
  failures: Record<string, number>
  purchasesPerSecond: number
  p50Ms: number
  p99Ms: number
  generatorCpuSeconds: number
  /** the generator's CPU time ÷ the purchases' duration */
  generatorCpuShare: number
  toLastConfirm: ServerSideUse
  /** until every delivery of the round arrived and the server side was quiet */
  settled: ServerSideUse
  /** app CPU per issued purchase, ms (SQLite: the store is in the app's process) */
  cpuMsPerPurchase: number
  settledCpuMsPerPurchase: number
  /** from the last confirm to the round's last delivery, s (0 without webhooks) */
  drainSeconds: number
}

type Figures = {
  purchasesPerSecond: Spread
  p99Ms: Spread
  cpuMsPerPurchase: Spread
  settledCpuMsPerPurchase: Spread
  redisCpuMsPerPurchase: number
  generatorCpuShare: number
}

export type WebhooksResult = {
  store: 'sqlite'
  endpoints: number
  /** paid orders of the organizer with endpoints over the run (warm-up and the down phase included) */
  orders: number
  roundPurchases: number
  concurrency: number
  rounds: number
  retryBaseMs: number
  with: Figures
  without: Figures
  /** with ÷ without: purchases/s (the target, ≥ 0.9), and CPU per purchase (to the last confirm, until quiet) */
  ratio: number
  cpuRatio: number
  settledCpuRatio: number
  /** from the fact to its arrival at the receiver, while it was up (the throughput rounds), ms */
  deliveryLagMs: { p50: number; p99: number; max: number }
  down: {
    seconds: number
    purchases: number
    /** deliveries owed when the receiver came back (every endpoint's) */
    owed: number
    /** from its return to the first and to the last delivery, s */
    firstAfterReturnSeconds: number
    recoveredSeconds: number
    /** deliveries/s from the first after the return to the last */
    catchUpPerSecond: number
    /** the app's CPU from the return to the last delivery, per delivery owed, ms */
    cpuMsPerDelivery: number
    catchingUp: ServerSideUse
  }
  deliveries: {
    expected: number
    arrived: number
    duplicates: number
    outOfOrder: number
    missing: number
    unexpected: number
    badSignatures: number
    /** of the server's log (each endpoint's latest 200), those not delivered */
    notDeliveredInLog: number
  }
  receiverCpuSeconds: number
  serverWarnings: Record<string, number>
  roundsRun: WebhookRound[]
  problems: string[]
}

type EndpointSummary = {
  port: number
  arrived: number
  answered: number
  tickets: number | string[]
  duplicates: string[]
  outOfOrder: Array<{ id: string; position: number; after: number }>
  outOfOrderCount: number
  badSignatures: number
  otherKinds: Record<string, number>
  lags: number[]
  firstAt: number
  lastAt: number
  firstAfterUpAt: number
}
type Summary = { downAt: number; upAt: number; cpuSeconds: number; endpoints: EndpointSummary[] }

/** The receiver on the load core, and its control. */
async function startReceiver() {
  const running = spawnPinned(cores.load, [
    'tests/bench/lib/webhook-receiver.ts',
    JSON.stringify({ endpoints: ENDPOINTS }),
  ])
  const deadline = Date.now() + 30_000
  let ready: { ports: number[]; control: number } | null = null
  while (!ready) {
    const line = running
      .output()
      .split('\n')
      .find((l) => l.startsWith('{"ports"'))
    if (line) ready = JSON.parse(line)
    else if (Date.now() > deadline || running.child.exitCode !== null)
      throw new Error(`the webhook receiver did not start:\n${running.output().slice(-2000)}`)
    else await new Promise((r) => setTimeout(r, 50))
  }
  const { ports, control } = ready as { ports: number[]; control: number }
  const call = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`http://127.0.0.1:${control}${path}`, {
      method,
      body: body === undefined ? undefined : JSON.stringify(body),
    })
    if (!res.ok) throw new Error(`receiver ${path}: ${res.status}`)
    return res.json()
  }
  return {
    urls: ports.map((port, i) => `http://127.0.0.1:${port}/hooks/${i}`),
    secrets: (secrets: string[]) => call('POST', '/secrets', Object.fromEntries(secrets.entries())),
    down: async () => ((await call('POST', '/down')) as { at: number }).at,
    up: async () => ((await call('POST', '/up')) as { at: number }).at,
    summary: (tickets = false) => call('GET', `/summary${tickets ? '?tickets=1' : ''}`) as Promise<Summary>,
    /** waits until every endpoint has `expected` orders (or the limit); false if it had not */
    async until(expected: number, limitMs: number) {
      const deadline = Date.now() + limitMs
      for (;;) {
        const s = await this.summary()
        if (s.endpoints.every((e) => (e.tickets as number) >= expected)) return s
        if (Date.now() > deadline) return null
        await new Promise((r) => setTimeout(r, 250))
      }
    },
    async stop() {
      running.child.kill('SIGTERM')
      await running.exited
    },
  }
}

async function organizer(deployment: Deployment, name: string) {
  const { call, expect } = client(deployment.urls[0] as string)
  const email = `bench-webhooks-${name}-${Date.now()}@example.com`
  const password = 'organizer-1'
  await expect(
    201,
    call('POST', '/admin/create-organizer', deployment.seeded.adminToken, { name, email, password }),
    'create-organizer',
  )
  return (
    (await expect(200, call('POST', '/auth/login', null, { email, password }), 'login')) as { token: string }
  ).token
}

/** a fresh approved event of one ticket type, `capacity` seats */
async function event(deployment: Deployment, token: string, title: string, capacity: number) {
  const { call, expect } = client(deployment.urls[0] as string)
  const form = new FormData()
  const fields: Record<string, string> = {
    title,
    description: 'A benchmark event with webhooks.',
    date: `${new Date().getFullYear() + 1}-03-15`,
    time: '18:00',
    location: 'Pune',
    category: 'Music',
    ticketTypes: JSON.stringify([{ type: TICKET_TYPE, price: PRICE, quantity: capacity }]),
  }
  for (const [k, v] of Object.entries(fields)) form.append(k, v)
  const { event } = (await expect(201, call('POST', '/event/create', token, form), 'event/create')) as {
    event: { _id: string }
  }
  await expect(
    200,
    call('PUT', `/admin/events/${event._id}/status`, deployment.seeded.adminToken, { status: 'Approved' }),
    'approve',
  )
  return event._id
}

const envNumber = (name: string, fallback: number) => {
  const value = Number(process.env[name])
  return Number.isFinite(value) && value > 0 ? value : fallback
}

export async function benchWebhooks(
  quick = false,
  log: (line: string) => void = () => {},
): Promise<WebhooksResult> {
  const orders = Math.round(envNumber('BENCH_WEBHOOK_ORDERS', quick ? 600 : 10_000))
  const pairs = quick ? 1 : 3
  // the throughput rounds (a warm-up and `pairs` with webhooks) leave at least a round's worth for
  // the down phase
  const roundPurchases = Math.min(
    Math.round(envNumber('BENCH_WEBHOOK_ROUND', quick ? 150 : 1000)),
    Math.floor(orders / (pairs + 2)),
  )
  const downPurchases = orders - (pairs + 1) * roundPurchases
  const concurrency = Math.min(roundPurchases, Math.round(envNumber('BENCH_WEBHOOK_CONCURRENCY', 200)))
  const downSeconds = envNumber('BENCH_WEBHOOK_DOWN_SECONDS', quick ? 20 : 300)
  const retryBaseMs = 30_000
  // the longest a drain may take: the backoff's wait after the return (at most about as long as the
  // receiver was down) and the backlog at ≥ 50 deliveries/s
  const drainLimitMs = (seconds: number, owed: number) => (seconds * 2 + 120 + owed / 50) * 1000
  const problems: string[] = []
  const receiver = await startReceiver()
  let deployment: Deployment | null = null
  try {
    deployment = await deploy(
      { store: 'sqlite', apps: 1 },
      // a buyer per purchase of the largest sale (one ticket each, whatever the per-account cap)
      { buyers: Math.max(roundPurchases, downPurchases), events: 0, seats: 1 },
      {
        SQLITE_SYNCHRONOUS: 'FULL',
        PAYMENT_WAIT_SECONDS: '120',
        HOLD_MINUTES: '60',
        LOG_LEVEL: 'warn',
        WEBHOOKS_ALLOW_PRIVATE: 'on',
        WEBHOOK_RETRY_BASE_MS: String(retryBaseMs),
      },
    )
    const d = deployment
    const { call, expect } = client(d.urls[0] as string)
    const hooked = await organizer(d, 'Hooked')
    const plain = await organizer(d, 'Plain')
    const endpointIds: string[] = []
    const secrets: string[] = []
    for (const url of receiver.urls) {
      const added = (await expect(
        201,
        call('POST', '/organizer/webhooks', hooked, { url, events: ['order.paid'] }),
        'add endpoint',
      )) as { id: string; secret: string }
      endpointIds.push(added.id)
      secrets.push(added.secret)
    }
    await receiver.secrets(secrets)

    /** every order paid for the organizer with endpoints, in the order the generator saw them */
    const paid: string[] = []
    const runs: WebhookRound[] = []
    const sale = async (webhooks: boolean, purchases: number, label: string) => {
      const eventId = await event(d, webhooks ? hooked : plain, label, purchases * 2)
      let measuring: ReturnType<Deployment['measure']> | null = null
      const load = await runBuyers(
        {
          url: d.urls[0],
          tokensFile: d.seeded.tokensFile,
          eventIds: [eventId],
          ticketType: TICKET_TYPE,
          purchases,
          concurrency,
        },
        () => {
          measuring = d.measure()
        },
      )
      const lastConfirm = Date.now()
      const m = measuring as ReturnType<Deployment['measure']> | null
      if (!m) throw new Error('the generator never connected')
      if (load.failed > 0)
        problems.push(`${label}: ${load.failed} purchases failed: ${JSON.stringify(load.failures)}`)
      if (webhooks) paid.push(...(load.tickets[0] ?? []))
      return { load, m, lastConfirm }
    }

    // warm-up, one of each; then pairs, the order of each pair swapped every round
    const plan: Array<{ webhooks: boolean; warmup: boolean }> = [
      { webhooks: true, warmup: true },
      { webhooks: false, warmup: true },
    ]
    for (let r = 0; r < pairs; r++) {
      const pair = [{ webhooks: true }, { webhooks: false }]
      if (r % 2 === 1) pair.reverse()
      plan.push(...pair.map((p) => ({ ...p, warmup: false })))
    }
    for (const [n, step] of plan.entries()) {
      const label = `round ${n + 1} (${step.warmup ? 'warm-up, ' : ''}${step.webhooks ? 'with webhooks' : 'without'})`
      const { load, m, lastConfirm } = await sale(step.webhooks, roundPurchases, label)
      const toLastConfirm = await m.end()
      let drainSeconds = 0
      if (step.webhooks) {
        const drained = await receiver.until(paid.length, drainLimitMs(0, load.issued * ENDPOINTS))
        if (!drained) problems.push(`${label}: the deliveries did not all arrive in time`)
        else
          drainSeconds = Math.max(
            0,
            (Math.max(...drained.endpoints.map((e) => e.lastAt)) - lastConfirm) / 1000,
          )
      }
      const settled = await quiet(m)
      const figures: WebhookRound = {
        ...step,
        purchases: roundPurchases,
        ...saleFigures(load, toLastConfirm, settled),
        drainSeconds: round(drainSeconds, 2),
      }
      log(
        `webhooks ${label}: ${figures.issued} issued, ${figures.purchasesPerSecond} purchases/s, p99 ${figures.p99Ms} ms, ` +
          `${figures.cpuMsPerPurchase} ms CPU a purchase (${figures.settledCpuMsPerPurchase} until delivered and quiet), ` +
          `generator ${Math.round(figures.generatorCpuShare * 100)}%` +
          (step.webhooks ? `, last delivery ${figures.drainSeconds} s after the last confirm` : ''),
      )
      runs.push(figures)
    }
    const beforeDown = paid.length
    const lagsUp = (await receiver.summary(true)).endpoints.flatMap((e) => e.lags.slice(0, beforeDown))

    // the receiver down: the rest of the orders sold meanwhile; back DOWN seconds after it went down
    const downAt = await receiver.down()
    log(`webhooks: receiver down; selling ${downPurchases} more`)
    const downSale = await sale(true, downPurchases, 'the sale with the receiver down')
    await downSale.m.end()
    const downFor = downAt + downSeconds * 1000 - Date.now()
    if (downFor < 0)
      log(`webhooks: the sale outlasted the ${downSeconds} s down (${round(-downFor / 1000, 1)} s more)`)
    await new Promise((r) => setTimeout(r, Math.max(0, downFor)))
    const before = await receiver.summary()
    // the server side from the return until the last delivery: what catching up costs a delivery
    const catchingUp = d.measure()
    const upAt = await receiver.up()
    const owed = paid.length * ENDPOINTS - before.endpoints.reduce((s, e) => s + (e.tickets as number), 0)
    log(`webhooks: receiver back after ${round((upAt - downAt) / 1000, 1)} s, ${owed} deliveries owed`)
    const recovered = await receiver.until(paid.length, drainLimitMs(downSeconds, owed))
    if (!recovered) problems.push('after the receiver came back, the deliveries did not all arrive in time')
    const caughtUp = await catchingUp.end()
    const after = recovered ?? (await receiver.summary())
    const firstAfter = Math.min(...after.endpoints.map((e) => e.firstAfterUpAt || Number.POSITIVE_INFINITY))
    const lastAfter = Math.max(...after.endpoints.map((e) => e.lastAt))
    const down = {
      seconds: round((upAt - downAt) / 1000, 1),
      purchases: downSale.load.issued,
      owed,
      firstAfterReturnSeconds: Number.isFinite(firstAfter) ? round((firstAfter - upAt) / 1000, 1) : -1,
      recoveredSeconds: recovered ? round((lastAfter - upAt) / 1000, 1) : -1,
      catchUpPerSecond:
        recovered && lastAfter > firstAfter ? round((owed * 1000) / (lastAfter - firstAfter), 1) : 0,
      cpuMsPerDelivery: owed > 0 ? round((caughtUp.cpuSeconds.apps * 1000) / owed, 3) : 0,
      catchingUp: caughtUp,
    }
    log(
      `webhooks: first delivery ${down.firstAfterReturnSeconds} s after the return, the last ${down.recoveredSeconds} s after (${down.catchUpPerSecond} deliveries/s, ${down.cpuMsPerDelivery} ms of the app's CPU each)`,
    )
    // a moment for late duplicates (a retry of something already answered) to show
    await new Promise((r) => setTimeout(r, quick ? 3000 : 10_000))

    // the whole run's checks
    const final = await receiver.summary(true)
    const expected = new Set(paid)
    let missing = 0
    let unexpected = 0
    for (const [i, e] of final.endpoints.entries()) {
      const got = new Set(e.tickets as string[])
      const lacking = paid.filter((t) => !got.has(t))
      const extra = [...got].filter((t) => !expected.has(t))
      missing += lacking.length
      unexpected += extra.length
      const where = `endpoint ${i + 1}`
      if (lacking.length)
        problems.push(
          `${where}: ${lacking.length} paid orders never delivered (${lacking.slice(0, 3).join(', ')})`,
        )
      if (extra.length) problems.push(`${where}: ${extra.length} deliveries of orders not paid in this run`)
      if ((e.tickets as string[]).length !== got.size)
        problems.push(
          `${where}: ${(e.tickets as string[]).length - got.size} orders delivered under two webhook-ids`,
        )
      if (e.duplicates.length)
        problems.push(
          `${where}: ${e.duplicates.length} deliveries arrived again after a 2xx answer (${e.duplicates.slice(0, 3).join(', ')})`,
        )
      if (e.outOfOrderCount)
        problems.push(
          `${where}: ${e.outOfOrderCount} deliveries out of ledger order (${JSON.stringify(e.outOfOrder.slice(0, 3))})`,
        )
      if (e.badSignatures) problems.push(`${where}: ${e.badSignatures} deliveries failed verification`)
      if (Object.keys(e.otherKinds).length)
        problems.push(`${where}: deliveries of kinds not asked for: ${JSON.stringify(e.otherKinds)}`)
    }
    let notDeliveredInLog = 0
    for (const [i, id] of endpointIds.entries()) {
      const rows = (await expect(
        200,
        call('GET', `/organizer/webhooks/${id}/deliveries`, hooked),
        'deliveries',
      )) as Array<{ status: string }>
      const not = rows.filter((r) => r.status !== 'delivered').length
      notDeliveredInLog += not
      if (not)
        problems.push(
          `endpoint ${i + 1}: ${not} of its latest ${rows.length} deliveries not delivered in the server's log`,
        )
    }

    const measured = runs.filter((r) => !r.warmup)
    const figuresOf = (webhooks: boolean): Figures => {
      const rs = measured.filter((r) => r.webhooks === webhooks)
      return {
        purchasesPerSecond: spread(
          rs.map((r) => r.purchasesPerSecond),
          1,
        ),
        p99Ms: spread(rs.map((r) => r.p99Ms)),
        cpuMsPerPurchase: spread(
          rs.map((r) => r.cpuMsPerPurchase),
          3,
        ),
        settledCpuMsPerPurchase: spread(
          rs.map((r) => r.settledCpuMsPerPurchase),
          3,
        ),
        redisCpuMsPerPurchase: round(
          median(rs.map((r) => (r.issued ? (r.settled.cpuSeconds.redis * 1000) / r.issued : 0))),
          3,
        ),
        generatorCpuShare: round(median(rs.map((r) => r.generatorCpuShare)), 3),
      }
    }
    const withHooks = figuresOf(true)
    const without = figuresOf(false)
    const ratio = round(withHooks.purchasesPerSecond.median / without.purchasesPerSecond.median, 3)
    // judged against the 0.9 target in RESULTS.md (met or missed), as the invoices bench judges its
    // ratio: problems are what the deliveries or the sale got wrong, which fail the run
    const arrived = final.endpoints.reduce((s, e) => s + e.arrived, 0)
    const result: WebhooksResult = {
      store: 'sqlite',
      endpoints: ENDPOINTS,
      orders: paid.length,
      roundPurchases,
      concurrency,
      rounds: pairs,
      retryBaseMs,
      with: withHooks,
      without,
      ratio,
      cpuRatio: round(withHooks.cpuMsPerPurchase.median / without.cpuMsPerPurchase.median, 3),
      settledCpuRatio: round(
        withHooks.settledCpuMsPerPurchase.median / without.settledCpuMsPerPurchase.median,
        3,
      ),
      deliveryLagMs: {
        p50: round(percentile(lagsUp, 50), 0),
        p99: round(percentile(lagsUp, 99), 0),
        max: Math.max(0, ...lagsUp),
      },
      down,
      deliveries: {
        expected: paid.length * ENDPOINTS,
        arrived,
        duplicates: final.endpoints.reduce((s, e) => s + e.duplicates.length, 0),
        outOfOrder: final.endpoints.reduce((s, e) => s + e.outOfOrderCount, 0),
        missing,
        unexpected,
        badSignatures: final.endpoints.reduce((s, e) => s + e.badSignatures, 0),
        notDeliveredInLog,
      },
      receiverCpuSeconds: round(final.cpuSeconds, 2),
      serverWarnings: d.warnings(),
      roundsRun: runs,
      problems,
    }
    log(
      `webhooks: ${result.orders} orders × ${ENDPOINTS} endpoints, ${arrived} deliveries arrived, ` +
        `${result.deliveries.duplicates} duplicates, ${result.deliveries.outOfOrder} out of order, ${missing} missing; ` +
        `purchases/s with ÷ without ${ratio} (CPU a purchase ${result.cpuRatio}, until quiet ${result.settledCpuRatio})`,
    )
    for (const p of problems) log(`PROBLEM: ${p}`)
    return result
  } finally {
    await deployment?.stop()
    await receiver.stop()
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const result = await benchWebhooks(process.argv.includes('--quick'), console.error)
  console.log(JSON.stringify(result, null, 2))
  if (result.problems.length) process.exitCode = 1
}
