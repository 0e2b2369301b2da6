// Redis stopped and restarted during load. A private redis-server (never the shared one) on a
// free port; the server (WORKERS=off) and a worker process use it, as in docker-compose.yml.
// Under a booking load Redis is stopped (while confirmations are queued and the worker is down),
// the load goes on for some seconds, Redis comes back on the same port (and a worker with it). Every request must be
// answered in time (2xx/4xx, or a clear 503 with a message; never a hang or a 500), no
// acknowledged job may be lost (every ticket's mail reaches the outbox, every accepted payment
// is captured, every requested refund is made, every lapsed hold is released), and jobs resume.
//
// Two Redis setups: 'volatile' as briefed (--save '' --appendonly no: a restarted Redis has
// forgotten every queued and delayed job) and 'persistent' (AOF, fsync always, as
// docker-compose.yml runs it with AOF: a restarted Redis still has its jobs).
import { type ChildProcess, spawn } from 'node:child_process'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Redis } from 'ioredis'
import { seed } from '../bench/lib/seed.ts'
import {
  bullJobState,
  type Call,
  checkInvariants,
  faultEnv,
  type History,
  type InvariantReport,
  jobFor,
  jobKinds,
  mailedTickets,
  nthEvent,
  type Op,
  openHolds,
  owedJobs,
  paidOrders,
  type Random,
  readLedger,
  recordingClient,
  removeDir,
  sleep,
  startBookingLoad,
  startServerProcess,
  startWorkerProcess,
  streamEnd,
  track,
  waitFor,
} from '../support/faults.ts'
import { freePort } from '../support/server.ts'

export type RedisVariant = 'volatile' | 'persistent'

export type PrivateRedis = { url: string; port: number; pid: number; stop(): Promise<void> }

/** redis-server on its own port and folder; `stop` is SIGTERM (a clean shutdown). */
export async function startPrivateRedis(
  port: number,
  dir: string,
  variant: RedisVariant,
): Promise<PrivateRedis> {
  const persistence =
    variant === 'volatile'
      ? ['--save', '', '--appendonly', 'no']
      : ['--save', '', '--appendonly', 'yes', '--appendfsync', 'always']
  const child: ChildProcess = spawn(
    'redis-server',
    [
      '--port',
      String(port),
      '--bind',
      '127.0.0.1',
      '--dir',
      dir,
      '--maxmemory-policy',
      'noeviction',
      ...persistence,
    ],
    { stdio: 'ignore' },
  )
  track(child)
  const exited = new Promise<void>((r) => child.once('exit', () => r()))
  const url = `redis://127.0.0.1:${port}`
  const probe = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null })
  probe.on('error', () => {})
  await waitFor(
    async () => {
      try {
        if (probe.status !== 'ready') await probe.connect()
        return (await probe.ping()) === 'PONG'
      } catch {
        probe.disconnect()
        return false
      }
    },
    10_000,
    `redis-server on ${port}`,
    50,
  )
  probe.disconnect()
  return {
    url,
    port,
    pid: child.pid ?? 0,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM')
      await exited
    },
  }
}

export type RedisOptions = {
  variant: RedisVariant
  vus: number
  beforeMs: number
  outageMs: number
  afterMs: number
  /** an answer slower than this is a hang (the server waits PAYMENT_WAIT_SECONDS=2 for a ticket) */
  deadlineMs: number
  /** wait for the holds to lapse (HOLD_MINUTES=1) and check each was released; else check that
   * each open hold has its expiry job queued */
  waitForHolds: boolean
  /** the settle wait: at least min ms for owed jobs to happen, then on while one is still on
   * its way in Redis (waiting, delayed, running), at most max ms */
  settleMs: { min: number; max: number }
  random: Random
  history: History
  scratchDir: string
  log?: (line: string) => void
  keepData?: boolean
}

export type RedisResult = {
  variant: RedisVariant
  requests: number
  byPhase: Record<string, Record<string, number>>
  /** requests not answered within the deadline, or not at all */
  hangs: string[]
  /** 5xx other than a 503 with a message */
  serverErrors: string[]
  /** answers outside what each request may answer */
  unexpected: string[]
  /** acknowledged jobs that never happened, by kind */
  lostJobs: Record<string, string[]>
  /** after Redis came back: callbacks answered with a ticket, mails delivered */
  resumed: { ticketsAfterRestart: number; mails: number }
  holdsChecked: number
  report: InvariantReport
  faults: number
  ms: number
}

const expected: Record<string, number[]> = {
  hold: [200, 409],
  pay: [200],
  'pay-fail': [402],
  confirm: [200, 202, 409],
  'confirm-retry': [200, 202, 409],
  'cancel-hold': [200, 409],
  'cancel-ticket': [200],
  list: [200, 304],
  event: [200, 304],
  registrations: [200],
}

const describe = (op: Op, t0: number) =>
  `#${op.seq} ${op.method} /api/v1${op.path} (${op.op}) sent at +${((op.startedAt - t0) / 1000).toFixed(1)} s: ` +
  (op.status === null
    ? `no answer (${op.error})`
    : `${op.status} ${JSON.stringify(op.answer).slice(0, 160)}`) +
  ` after ${op.ms} ms`

/**
 * Waits while owed jobs are still on their way (in Redis, waiting, delayed or running: a job
 * whose worker lost its connection runs again after BullMQ's stalled check, 30 to 60 s); stops
 * when nothing is owed, when every owed job is provably gone (absent from Redis, or failed), or
 * at the maximum. Returns what is still owed, each item with where its job is.
 */
async function settleOwed(
  owed: () => Record<string, string[]>,
  where: (kind: string, item: string) => Promise<{ state: string; pending: boolean }>,
  wait: { min: number; max: number },
): Promise<Record<string, string[]>> {
  const started = Date.now()
  for (;;) {
    const left = owed()
    if (Object.keys(left).length === 0) return {}
    const elapsed = Date.now() - started
    if (elapsed >= wait.min) {
      const described: Record<string, string[]> = {}
      let pending = false
      for (const [kind, items] of Object.entries(left)) {
        described[kind] = []
        for (const item of items) {
          const job = await where(kind, item)
          pending ||= job.pending
          described[kind].push(`${item}: ${job.state}`)
        }
      }
      if (!pending || elapsed >= wait.max) return described
    }
    await sleep(1000)
  }
}

export async function redisScenario(o: RedisOptions): Promise<RedisResult> {
  const started = performance.now()
  const log = o.log ?? (() => {})
  const scenario = `redis-${o.variant}`
  const redisDir = mkdtempSync(join(tmpdir(), 'faults-redis-'))
  const redisPort = await freePort()
  let redis = await startPrivateRedis(redisPort, redisDir, o.variant)
  const seeded = seed({ buyers: 60, events: 3, seats: 3000, seatedVip: true, invoiced: true })
  const env = faultEnv(seeded.dataDir, {
    REDIS_URL: redis.url,
    HOLD_MINUTES: '1',
    PAYMENT_WAIT_SECONDS: '2',
    // The server and a worker process, as docker-compose.yml runs them.
    WORKERS: 'off',
  })
  const prefix = env.QUEUE_PREFIX as string
  const databaseFile = join(seeded.dataDir, 'ticketing.sqlite')
  const outboxDir = join(seeded.dataDir, 'outbox')
  // What started is stopped again if the next start fails.
  const server = await startServerProcess(env).catch(async (error) => {
    await redis.stop()
    throw error
  })
  let worker = await startWorkerProcess(env).catch(async (error) => {
    await server.proc.kill9()
    await redis.stop()
    throw error
  })
  const call: Call = recordingClient(o.history, () => server.url, seeded.tokens, { scenario, trial: () => 1 })
  const ops = () => o.history.ops.filter((op) => op.scenario === scenario)
  let faults = 0
  try {
    const ready = (await (await fetch(`${server.url}/api/v1/health/ready`)).json()) as {
      checks: { jobs: string }
    }
    if (ready.checks.jobs !== 'ok')
      throw new Error(`the server does not use the private Redis: ${JSON.stringify(ready)}`)
    const t0 = Date.now()
    const load = startBookingLoad({
      call,
      buyers: seeded.tokens.length,
      events: seeded.events,
      vus: o.vus,
      random: o.random,
      stopWhenRefused: false,
      timeoutMs: o.deadlineMs,
    })
    await sleep(o.beforeMs)
    // Redis goes while confirmations are queued and not yet run, the case a Redis without its
    // data must not lose: the worker process is down (killed as a mail is queued; a SIGSTOP would freeze it inside
    // its SQLite write transaction and block the server, another fault), a burst of buyers pay
    // (the gateway's webhook is answered, its job queued) and half of them send the callback
    // (answered 202: "your ticket is being issued"); the other half close the page, so the
    // webhook's job is all there is. Then Redis stops; a new worker starts once it is back.
    // The worker dies right as a ticket's mail is queued, so a mail job is waiting too.
    const watcher = new Redis(redis.url, { maxRetriesPerRequest: 0, retryStrategy: () => null })
    watcher.on('error', () => {})
    const mailEvents = `${prefix}:mail:events`
    await nthEvent(watcher, mailEvents, await streamEnd(watcher, mailEvents), 'waiting', 1, 3000)
    watcher.disconnect()
    await worker.kill9()
    faults++
    const burst = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        call({
          vu: -1,
          op: 'hold',
          method: 'POST',
          path: '/ticket/create',
          buyer: i,
          body: {
            eventId: o.random.pick(seeded.events).eventId,
            ticketType: 'General Admission',
            quantity: 1,
          },
          timeoutMs: o.deadlineMs,
        }),
      ),
    )
    await Promise.all(
      burst.map(async (held, buyer) => {
        if (held.status !== 200) return
        const paid = await call({
          vu: -1,
          op: 'pay',
          method: 'POST',
          path: '/payments/local/pay',
          buyer,
          body: { orderId: (held.answer as { orderId: string }).orderId, outcome: 'success' },
          timeoutMs: o.deadlineMs,
        })
        if (paid.status !== 200 || buyer % 2 === 1) return
        const checkout = paid.answer as Record<string, string>
        await call({
          vu: -1,
          op: 'confirm',
          method: 'POST',
          path: '/ticket/handlePaymentSuccess',
          buyer,
          body: {
            paymentId: checkout.razorpay_payment_id,
            orderId: checkout.razorpay_order_id,
            signature: checkout.razorpay_signature,
          },
          timeoutMs: o.deadlineMs,
        })
      }),
    )
    const stoppedAt = Date.now()
    await redis.stop()
    faults++
    log(`${scenario}: Redis stopped at +${((stoppedAt - t0) / 1000).toFixed(1)} s`)
    await sleep(o.outageMs)
    const restartedAt = Date.now()
    redis = await startPrivateRedis(redisPort, redisDir, o.variant)
    log(`${scenario}: Redis back at +${((Date.now() - t0) / 1000).toFixed(1)} s`)
    worker = await startWorkerProcess(env)
    await sleep(o.afterMs)
    await load.stop()
    const loadEndedAt = Date.now()

    const phase = (op: Op) =>
      op.startedAt < stoppedAt ? 'before' : op.startedAt < restartedAt ? 'outage' : 'after'
    const byPhase: Record<string, Record<string, number>> = {}
    for (const op of ops()) {
      const name = `${phase(op)} ${op.op}`
      byPhase[name] ??= {}
      const p = byPhase[name]
      const key = String(op.status ?? 'no answer')
      p[key] = (p[key] ?? 0) + 1
    }
    const hangs = ops()
      .filter((op) => op.status === null)
      .map((op) => `${phase(op)}: ${describe(op, t0)}`)
    const serverErrors = ops()
      .filter(
        (op) =>
          op.status !== null &&
          op.status >= 500 &&
          !(op.status === 503 && typeof (op.answer as { message?: unknown })?.message === 'string'),
      )
      .map((op) => `${phase(op)}: ${describe(op, t0)}`)
    const unexpected = ops()
      .filter((op) => op.status !== null && op.status !== 503 && !expected[op.op]?.includes(op.status))
      .filter((op) => !(op.status !== null && op.status >= 500))
      .map((op) => `${phase(op)}: ${describe(op, t0)}`)

    // Jobs resume, and none that was acknowledged is lost.
    const ticketsAfterRestart = ops().filter(
      (op) => op.op === 'confirm' && op.startedAt >= restartedAt && op.status === 200,
    ).length
    const client = new Redis(redis.url, { maxRetriesPerRequest: 1 })
    client.on('error', () => {})
    const lostJobs: Record<string, string[]> = {}
    let holdsChecked = 0
    try {
      const where = async (kind: string, item: string) => {
        const job = jobFor(kind, item)
        return job
          ? bullJobState(client, prefix, job[0], job[1])
          : { state: 'no job to look for', pending: false }
      }
      const accepted = paidOrders(ops())
      // While settling, only holds that lapsed before the load ended are due (the rest below).
      const graceMs = Math.max(5000, Date.now() - loadEndedAt + 5000)
      Object.assign(
        lostJobs,
        await settleOwed(() => owedJobs(databaseFile, outboxDir, accepted, graceMs), where, o.settleMs),
      )
      const lose = (kind: string, item: string) => {
        lostJobs[kind] ??= []
        lostJobs[kind].push(item)
      }
      const holds = openHolds(readLedger(databaseFile))
      holdsChecked = holds.length
      if (o.waitForHolds) {
        // Every hold lapses within a minute (HOLD_MINUTES=1) and its expiry job should release it.
        const last = Math.max(0, ...holds.map((h) => h.heldUntil))
        log(
          `${scenario}: waiting ${Math.max(0, Math.round((last - Date.now()) / 1000))} s for ${holds.length} holds to lapse`,
        )
        await sleep(Math.max(0, last - Date.now()))
        const left = await settleOwed(
          (): Record<string, string[]> => {
            const unreleased = owedJobs(databaseFile, outboxDir, [], 5000)[jobKinds.release]
            return unreleased ? { [jobKinds.release]: unreleased } : {}
          },
          where,
          o.settleMs,
        )
        for (const item of left[jobKinds.release] ?? []) lose(jobKinds.release, item)
      } else {
        // Without waiting a minute: each open hold must have its expiry job in the queue (a hold
        // that lapsed and was released meanwhile is fine: it is read again after its job).
        const missing: Array<{ id: string; state: string }> = []
        for (const hold of holds) {
          const job = await bullJobState(client, prefix, 'holds', `expire-${hold.id}`)
          if (!job.pending) missing.push({ id: hold.id, state: job.state })
        }
        const stillOpen = new Map(openHolds(readLedger(databaseFile)).map((h) => [h.id, h.heldUntil]))
        for (const { id, state } of missing) {
          const heldUntil = stillOpen.get(id)
          if (heldUntil === undefined) continue
          lose(
            'open hold without its expiry job',
            `ticket ${id} held until ${new Date(heldUntil).toISOString()}: ${state}`,
          )
        }
      }
      if (ticketsAfterRestart === 0 && ops().some((op) => op.op === 'confirm' && op.startedAt >= restartedAt))
        lose('jobs did not resume', 'no callback sent after Redis came back was answered with a ticket')
    } finally {
      client.disconnect()
    }
    const report = checkInvariants(databaseFile, ops(), o.scratchDir)
    log(
      `${scenario}: ${ops().length} requests, ${hangs.length} unanswered, ${serverErrors.length} server errors, ` +
        `${unexpected.length} unexpected, ${Object.values(lostJobs).flat().length} jobs lost, ${ticketsAfterRestart} tickets after the restart; ` +
        `integrity ${report.integrity}, lost writes ${report.lost.length}, oversold ${report.oversoldSeats}, ` +
        `${report.invoiceFigures.invoices} invoices ${report.invoices.length ? `with ${report.invoices.length} PROBLEMS` : 'in order'}`,
    )
    return {
      variant: o.variant,
      requests: ops().length,
      byPhase,
      hangs,
      serverErrors,
      unexpected,
      lostJobs,
      resumed: { ticketsAfterRestart, mails: mailedTickets(outboxDir).size },
      holdsChecked,
      report,
      faults,
      ms: Math.round(performance.now() - started),
    }
  } finally {
    await worker.kill9()
    await server.proc.kill9()
    await redis.stop()
    removeDir(redisDir)
    if (!o.keepData) removeDir(seeded.dataDir)
  }
}
