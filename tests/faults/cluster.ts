// The cluster (issue 15, "many processes"): app processes (WORKERS=off) and separate worker
// processes on one database and one Redis. A flash sale spread over the app processes sells
// exactly the seats there are; a booking on one process is pushed to sockets on the others; then
// a waiting room admits buyers in line while one app process is killed with kill -9 and started
// again (cluster-room.ts); then one app process and one worker are killed with kill -9 under load
// and the fault harness's invariants are checked on the recorded history. The store is the shared
// SQLite file or a PostgreSQL database (tests/faults/cluster-stores.ts). Run by
// tests/faults/cluster-run.ts.
import { join } from 'node:path'
import { Redis } from 'ioredis'
import type { Socket } from 'socket.io-client'
import type { LivePush } from '../../contracts/live.ts'
import { NOT_ENOUGH_TICKETS } from '../../server/booking/decide.ts'
import { openDatabase } from '../../server/db/connection.ts'
import { queueNames } from '../../server/jobs/port.ts'
import type { StoredFact } from '../../server/ledger/ledger.ts'
import { appLedger } from '../../server/projections.ts'
import { type EventSeed, eventFacts } from '../bench/lib/fixtures.ts'
import { seed, seededEventTax } from '../bench/lib/seed.ts'
import {
  type Call,
  describeOwed,
  dropQueuePrefix,
  faultEnv,
  type History,
  nthEvent,
  type Op,
  owedJobs,
  type Proc,
  paidOrders,
  pool,
  type Random,
  recordingClient,
  refused,
  removeDir,
  type ServerProcess,
  settleJobs,
  sharedRedisUrl,
  sleep,
  startBookingLoad,
  startServerProcess,
  startWorkerProcess,
  streamEnd,
} from '../support/faults.ts'
import { open, watch } from '../support/live-sockets.ts'
import { type RoomPlan, type RoomResult, waitingRoomPhase } from './cluster-room.ts'
import { roomCheckNames } from './cluster-room-checks.ts'
import { type ClusterReport, type ClusterStore, openClusterStore, type StoreName } from './cluster-stores.ts'

export type ClusterOptions = {
  /** where the ledger and the read models live (tests/faults/cluster-stores.ts) */
  store: StoreName
  apps: number
  workers: number
  buyers: number
  seats: number
  /** requests in flight at once during the sale (spread over the app processes) */
  concurrency: number
  /** quiet holds, one at a time, whose pushes are timed on the other processes' sockets */
  liveSamples: number
  /** the waiting room's phase (cluster-room.ts) */
  room: RoomPlan
  /** the fault phase: virtual users, and when the kills come after its load starts */
  vus: number
  /** orders paid at once when the worker is killed */
  burst: number
  killAppAfterMs: [number, number]
  killWorkerAfterMs: [number, number]
  /** how long the load runs after the later kill */
  loadAfterKillsMs: number
  settleMs: number
  random: Random
  history: History
  scratchDir: string
  log: (line: string) => void
  keepData?: boolean
}

/** Latencies in ms, summarised. */
export type Latency = { samples: number; p50: number; p99: number; max: number }

export type ClusterResult = {
  store: StoreName
  processes: { apps: number; workers: number }
  sale: {
    buyers: number
    seats: number
    seconds: number
    holdsPerSecond: number
    answers: Record<string, number>
    heldPerProcess: number[]
    held: number
    soldOut: number
    paid: number
    ticketsIssued: number
    inventory: { held: number; sold: number }
    oversoldSeats: number
    confirmAnswers: Record<string, number>
    /** under the sale: from a hold's request to its push on each other process's socket */
    pushLatency: Latency
    /** the same from the hold's answer */
    pushAfterAnswer: Latency
    pushesMissing: number
    report: ClusterReport
  }
  live: { samples: number; latency: Latency; missing: number; limitMs: number }
  /** (runs recorded before the waiting room was checked have none) */
  room?: RoomResult
  faults: {
    requests: number
    killedApp: { index: number; afterMs: number; requestsCut: number }
    /** the queues of the jobs it was running when it died, and how many of them the other
     * worker took over once BullMQ found them stalled; kills: more than 1 when a kill caught no
     * job running and the worker was started again for another */
    killedWorker: { index: number; afterMs: number; jobsRunning: string[]; takenOver: number; kills: number }
    callbacksRetried: number
    paymentsAccepted: number
    settleSeconds: number
    owed: Record<string, string[]>
    report: ClusterReport
  }
  failures: string[]
  seconds: number
}

const latency = (xs: number[]): Latency => {
  const s = [...xs].sort((a, b) => a - b)
  const at = (q: number) => s[Math.min(s.length - 1, Math.floor(q * s.length))] ?? 0
  return { samples: s.length, p50: at(0.5), p99: at(0.99), max: s[s.length - 1] ?? 0 }
}

const tally = (ops: Op[]) => {
  const counts: Record<string, number> = {}
  for (const op of ops) {
    const key = String(op.status ?? op.error)
    counts[key] = (counts[key] ?? 0) + 1
  }
  return counts
}

export async function clusterScenario(o: ClusterOptions): Promise<ClusterResult> {
  const started = performance.now()
  const { log } = o
  const failures: string[] = []
  // The flash sale's event has exactly `seats` in its General Admission; a second one, large
  // enough never to sell out, takes the quiet live samples and the fault phase's load.
  const seeded = seed({ buyers: o.buyers, events: 1, seats: o.seats, invoiced: true })
  const saleEvent = seeded.events[0] as EventSeed
  const loadEvent = addEvent(seeded.dataDir, saleEvent, 50_000)
  const roomEvent = addEvent(seeded.dataDir, saleEvent, o.room.seats)
  const saleType = saleEvent.ticketTypes.find((t) => t.type === 'General Admission')
  if (!saleType) throw new Error('the seeded event has no General Admission')
  // Every socket of the run comes from this one address: the waiting room's buyers each hold one.
  let env = faultEnv(seeded.dataDir, { WORKERS: 'off', LIVE_CONNECTIONS_PER_ADDRESS: '10000' })
  const prefix = env.QUEUE_PREFIX as string
  const outboxDir = join(seeded.dataDir, 'outbox')
  const apps: ServerProcess[] = []
  const workers: Proc[] = []
  const sockets: Socket[] = []
  const cleanup: Array<() => void> = []
  let store: ClusterStore | null = null
  try {
    store = await openClusterStore(o.store, seeded.dataDir, o.keepData)
    const { check, facts, processEnv } = store
    env = { ...env, ...store.env }
    if (o.store !== 'sqlite')
      log(`store: ${o.store}, seeded in ${Math.round(performance.now() - started)} ms`)
    // On SQLite every process reads the same data folder: the database, the JWT secret the seed
    // wrote there (the buyers' tokens are signed with it) and the local gateway's own file. On
    // PostgreSQL each has a data folder of its own, which shares only the mail outbox.
    const startedApps = await Promise.allSettled(
      Array.from({ length: o.apps }, () => startServerProcess({ ...env, ...processEnv() })),
    )
    const startedWorkers = await Promise.allSettled(
      Array.from({ length: o.workers }, () => startWorkerProcess({ ...env, ...processEnv() })),
    )
    for (const s of startedApps) if (s.status === 'fulfilled') apps.push(s.value)
    for (const s of startedWorkers) if (s.status === 'fulfilled') workers.push(s.value)
    const notStarted = [...startedApps, ...startedWorkers].find((s) => s.status === 'rejected')
    if (notStarted) throw (notStarted as PromiseRejectedResult).reason
    log(
      `cluster: ${o.apps} app processes (${apps.map((a) => a.port).join(', ')}) and ${o.workers} workers up after ` +
        `${Math.round(performance.now() - started)} ms`,
    )
    const alive = apps.map(() => true)
    /** which app process answered each recorded request */
    const servedBy = new Map<number, number>()
    const clients: Call[] = apps.map((app, index) => {
      const call = recordingClient(o.history, () => app.url, seeded.tokens, {
        scenario: 'cluster',
        trial: () => 1,
      })
      return async (spec) => {
        const op = await call(spec)
        servedBy.set(op.seq, index)
        return op
      }
    })
    const ops = () => o.history.ops.filter((op) => op.scenario === 'cluster')

    // One socket on each app process watches both events; each count of seats on sale is timed on
    // arrival with its position. A count is the ticket type's as of its position: a process may
    // send one count for many holds (at most one per LIVE_FIGURES_EVERY_MS), so a hold is heard by
    // the first count of its ticket type at or after the hold's own position.
    type Count = { ticketTypeId: string; position: number; at: number }
    const heard = apps.map((): Count[] => [])
    for (const [index, app] of apps.entries()) {
      const socket = await open(app.url)
      sockets.push(socket)
      socket.on('fact', (push: LivePush) => {
        const data = push.data as { ticketTypeId?: string; available?: number }
        if (typeof data.ticketTypeId === 'string' && typeof data.available === 'number')
          heard[index]?.push({ ticketTypeId: data.ticketTypeId, position: push.position, at: Date.now() })
      })
      for (const event of [saleEvent, loadEvent]) {
        const ack = await watch(socket, `event-${event.eventId}`)
        if (!ack.ok) throw new Error(`process ${index} refused to watch the event: ${ack.message}`)
      }
    }
    /** each acknowledged hold's fact: its ticket type and position in the ledger */
    const holdFacts = async () => {
      const found = new Map<string, { ticketTypeId: string; position: number }>()
      for (const f of await facts())
        if (f.type === 'TicketsHeld')
          found.set(f.stream, {
            ticketTypeId: (f.data as { ticketTypeId: string }).ticketTypeId,
            position: f.position,
          })
      return found
    }
    const streamOf = (hold: Op) => `order-${(hold.answer as { ticketId: string }).ticketId}`
    /** when a process first heard a count of the hold's ticket type as of its fact or later */
    const heardAt = (arrivals: Count[], fact: { ticketTypeId: string; position: number } | undefined) =>
      fact && arrivals.find((c) => c.ticketTypeId === fact.ticketTypeId && c.position >= fact.position)?.at
    /** from each acknowledged hold's request to its push on every other process's socket */
    const pushDelays = (holds: Op[], known: Map<string, { ticketTypeId: string; position: number }>) => {
      const delays: number[] = []
      /** from the hold's answer instead (negative: the push came first) */
      const afterAnswer: number[] = []
      let missing = 0
      for (const hold of holds) {
        const fact = known.get(streamOf(hold))
        for (const [index, arrivals] of heard.entries()) {
          if (index === servedBy.get(hold.seq)) continue
          const at = heardAt(arrivals, fact)
          if (at === undefined) missing++
          else {
            delays.push(at - hold.startedAt)
            afterAnswer.push(at - (hold.startedAt + hold.ms))
          }
        }
      }
      return { delays, afterAnswer, missing }
    }

    // ---- Phase 1: the flash sale, every buyer once, round-robin over the app processes.
    const saleStarted = performance.now()
    const holds = await pool(
      Array.from({ length: o.buyers }, (_, i) => i),
      o.concurrency,
      (buyer) =>
        (clients[buyer % apps.length] as Call)({
          vu: buyer,
          op: 'hold',
          method: 'POST',
          path: '/ticket/create',
          buyer,
          body: { eventId: saleEvent.eventId, ticketType: 'General Admission', quantity: 1 },
        }),
    )
    const saleSeconds = (performance.now() - saleStarted) / 1000
    const held = holds.filter((h) => h.status === 200)
    const soldOut = holds.filter(
      (h) => h.status === 409 && (h.answer as { message?: string })?.message === NOT_ENOUGH_TICKETS,
    )
    const other = holds.filter((h) => h.status !== 200 && !soldOut.includes(h))
    const heldPerProcess = apps.map((_, i) => held.filter((h) => servedBy.get(h.seq) === i).length)
    log(
      `sale: ${o.buyers} buyers, ${o.seats} seats: ${held.length} held, ${soldOut.length} sold out, ` +
        `${other.length} other (${JSON.stringify(tally(holds))}) in ${saleSeconds.toFixed(1)} s; held per process ${heldPerProcess.join('/')}`,
    )
    if (held.length !== o.seats) failures.push(`sale: ${held.length} holds acknowledged for ${o.seats} seats`)
    if (soldOut.length !== o.buyers - o.seats)
      failures.push(`sale: ${soldOut.length} buyers refused as sold out, expected ${o.buyers - o.seats}`)
    for (const h of other.slice(0, 5))
      failures.push(`sale: hold #${h.seq} answered ${h.status ?? h.error}: ${JSON.stringify(h.answer)}`)
    if (other.length > 5) failures.push(`sale: … ${other.length - 5} more holds neither held nor sold out`)

    /** Pays a hold at the gateway through the process after the hold's and reports it through
     * the one after that (the checkout's callback). */
    const payAndReport = async (hold: Op, call: (index: number) => Call = (i) => clients[i] as Call) => {
      const first = servedBy.get(hold.seq) ?? 0
      const { orderId } = hold.answer as { orderId: string }
      const payAt = (first + 1) % apps.length
      const confirmAt = (first + 2) % apps.length
      const paid = await call(payAt)({
        vu: hold.vu,
        op: 'pay',
        method: 'POST',
        path: '/payments/local/pay',
        buyer: hold.buyer,
        body: { orderId, outcome: 'success' },
      })
      if (paid.status !== 200) return paid
      const checkout = paid.answer as Record<string, string>
      return call(confirmAt)({
        vu: hold.vu,
        op: 'confirm',
        method: 'POST',
        path: '/ticket/handlePaymentSuccess',
        buyer: hold.buyer,
        body: {
          paymentId: checkout.razorpay_payment_id,
          orderId: checkout.razorpay_order_id,
          signature: checkout.razorpay_signature,
        },
      })
    }
    // Pay every hold at the gateway through the next process and report it through the one after.
    const confirms = await pool(held, o.concurrency, (hold) => payAndReport(hold))
    const issued = confirms.filter((c) => c.op === 'confirm' && (c.answer as { ticket?: unknown })?.ticket)
    // A 202 ("being issued") is honest too: its ticket must still come.
    let sale = saleState(await facts(), saleType.ticketTypeId)
    for (let waited = 0; sale.issued < held.length && waited < 30_000; waited += 250) {
      await sleep(250)
      sale = saleState(await facts(), saleType.ticketTypeId)
    }
    const ticketsIssued = sale.issued
    const inventory = { held: sale.held, sold: sale.sold }
    const saleReport = await check(ops(), o.scratchDir)
    log(
      `sale paid: ${issued.length} tickets answered at once, ${ticketsIssued} issued in the ledger; ledger holds ${inventory.held} held, ` +
        `${inventory.sold} sold; oversold ${saleReport.oversoldSeats}; rebuild ${saleReport.rebuild.length ? 'DIFFERS' : 'equal'}; ` +
        invoicesNote(saleReport) +
        storesNote(o.store, saleReport),
    )
    if (ticketsIssued !== o.seats)
      failures.push(`sale: ${ticketsIssued} tickets issued for ${o.seats} paid seats`)
    if (inventory.sold !== o.seats || inventory.held !== 0)
      failures.push(
        `sale: the ledger says ${inventory.sold} sold and ${inventory.held} held, not ${o.seats} sold`,
      )
    failures.push(...reportFailures('sale', saleReport))
    // Pushes still on their way get a moment before they count as missing.
    const saleHolds = await holdFacts()
    for (let waited = 0; pushDelays(held, saleHolds).missing > 0 && waited < 5000; waited += 100)
      await sleep(100)
    const salePushesFinal = pushDelays(held, saleHolds)
    // Once a hold is acknowledged its fact is committed: from then on every process has 1 s to
    // push it, even in the middle of the sale.
    const saleAfterAnswer = latency(salePushesFinal.afterAnswer)
    if (saleAfterAnswer.max > 1000)
      failures.push(
        `sale: a hold's push reached another process ${saleAfterAnswer.max} ms after the hold was answered (limit 1000 ms)`,
      )
    if (salePushesFinal.missing > 0)
      failures.push(
        `sale: ${salePushesFinal.missing} pushes of acknowledged holds never reached another process`,
      )

    // ---- Phase 2: quiet holds one at a time, each timed to the other processes' sockets.
    const liveHolds: Op[] = []
    for (let k = 0; k < o.liveSamples; k++) {
      const hold = await (clients[k % apps.length] as Call)({
        vu: -1,
        op: 'hold',
        method: 'POST',
        path: '/ticket/create',
        buyer: k,
        body: { eventId: loadEvent.eventId, ticketType: 'VIP', quantity: 1 },
      })
      if (hold.status !== 200) {
        failures.push(`live: hold #${hold.seq} answered ${hold.status ?? hold.error}`)
        continue
      }
      liveHolds.push(hold)
      // Wait for it to be heard everywhere (or the limit to pass) before the next one.
      const fact = (await holdFacts()).get(streamOf(hold))
      for (let waited = 0; heard.some((h) => heardAt(h, fact) === undefined) && waited < 2000; waited += 10)
        await sleep(10)
      await sleep(o.random.int(20, 120))
    }
    const live = pushDelays(liveHolds, await holdFacts())
    const liveLatency = latency(live.delays)
    const limitMs = 1000
    log(
      `live: ${liveHolds.length} holds, pushes on the other processes p50 ${liveLatency.p50} ms, max ${liveLatency.max} ms, ${live.missing} missing`,
    )
    if (live.missing > 0) failures.push(`live: ${live.missing} pushes never reached the other processes`)
    if (liveLatency.max > limitMs)
      failures.push(
        `live: a push reached another process ${liveLatency.max} ms after its hold (limit ${limitMs} ms)`,
      )

    /** a request through any living app process */
    const routed: Call = (spec) => {
      const up = apps.map((_, i) => i).filter((i) => alive[i])
      return (clients[o.random.pick(up)] as Call)(spec)
    }

    // ---- Phase 3: a waiting room, one app process killed and started again under it.
    const room = await waitingRoomPhase({
      plan: o.room,
      event: roomEvent,
      apps,
      alive,
      clients,
      routed,
      pay: (hold) => payAndReport(hold, () => routed),
      tokens: seeded.tokens,
      buyerIds: seeded.buyerIds,
      organizerToken: seeded.organizerToken,
      restart: (port) => startServerProcess({ ...env, ...processEnv() }, port),
      facts,
      random: o.random,
      log,
    })
    const roomProblems = Object.entries(room.checks).flatMap(([check, problems]) =>
      problems.map((p) => `room: ${roomCheckNames[check as keyof typeof roomCheckNames]}: ${p}`),
    )
    log(
      `room: ${room.early} in the pre-queue and ${room.late} after the opening (${room.afterRestart} through the restarted process; ${room.joinedTwice} joined twice) for ${room.capacity} seats; ` +
        `${room.admitted} admitted in ${room.admissions} admissions (${room.measuredPerMinute} a minute, set ${room.admitPerMinute}), ` +
        `${room.bought} bought, ${room.soldOut} too late, ${room.cut} cut, ${room.toldClosed} told it closed; ` +
        `${room.killedApp.admittedWhileDown} admitted while app ${room.killedApp.index} was down, ${room.killedApp.admittedAfter} after; ` +
        `${room.heard} places heard, ${room.asked} asked, ${room.reconnects} sockets moved; ` +
        `${room.unadmitted.refused} of ${room.unadmitted.sent} checkouts without admission refused; ` +
        `${roomProblems.length ? `${roomProblems.length} PROBLEMS` : 'every room check held'} (${room.seconds} s)`,
    )
    failures.push(...roomProblems)

    // ---- Phase 4: kill -9 of one app process and one worker under a booking load.
    // The bursts paid at the worker's kill: holds of buyers the load never uses, so no checkout of
    // the load replaces them; one burst per attempt (a kill that caught no job is done again).
    const attempts = 3
    const loadBuyers = o.buyers - o.burst * attempts
    const before = ops().length
    const burstHolds = await pool(
      Array.from({ length: o.burst * attempts }, (_, i) => loadBuyers + i),
      o.burst,
      (buyer) =>
        (clients[buyer % apps.length] as Call)({
          vu: buyer,
          op: 'hold',
          method: 'POST',
          path: '/ticket/create',
          buyer,
          body: { eventId: loadEvent.eventId, ticketType: 'General Admission', quantity: 1 },
        }),
    )
    const load = startBookingLoad({
      call: routed,
      buyers: loadBuyers,
      events: [loadEvent],
      vus: o.vus,
      random: o.random,
      stopWhenRefused: false,
    })
    const loadStarted = performance.now()
    const watcher = new Redis(sharedRedisUrl, { maxRetriesPerRequest: null })
    cleanup.push(() => watcher.disconnect())
    const appVictim = o.random.int(0, apps.length - 1)
    const appAfter = o.random.int(...o.killAppAfterMs)
    const workerAfter = o.random.int(...o.killWorkerAfterMs)
    let appKilledAt = 0
    const killApp = sleep(appAfter).then(async () => {
      appKilledAt = Date.now()
      // Out of the rotation first: requests after the kill go to the living.
      alive[appVictim] = false
      await apps[appVictim]?.proc.kill9()
    })
    // Confirmations take milliseconds: after its delay a burst of payments is made (beside the
    // load), and from the n-th of them BullMQ marks active, the worker process named in a running
    // job (its processedBy: host:pid) dies, so it dies with jobs of its own running.
    /** every queue's running jobs, with the worker process running each (its processedBy) */
    const runningJobs = async () => {
      const running: Array<{ key: string; pid: number }> = []
      for (const queue of queueNames) {
        for (const id of await watcher.lrange(`${prefix}:${queue}:active`, 0, -1)) {
          const by = await watcher.hget(`${prefix}:${queue}:${id}`, 'pb')
          running.push({ key: `${prefix}:${queue}:${id}`, pid: Number(by?.split(':').pop()) })
        }
      }
      return running
    }
    /** the Redis keys of the jobs the killed worker was running */
    let orphaned: string[] = []
    let workerVictim = -1
    let workerKills = 0
    const bursts: Array<Promise<Op[]>> = []
    const killWorker = sleep(workerAfter).then(async () => {
      const events = `${prefix}:payments:events`
      for (let attempt = 0; attempt < attempts; attempt++) {
        let from = await streamEnd(watcher, events)
        const holds = burstHolds
          .slice(attempt * o.burst, (attempt + 1) * o.burst)
          .filter((h) => h.status === 200)
        bursts.push(Promise.all(holds.map((hold) => payAndReport(hold, () => routed))))
        const nth = o.random.int(1, Math.max(1, Math.ceil(holds.length / 3)))
        const deadline = Date.now() + 10_000
        workerVictim = -1
        for (let seen = 0; workerVictim < 0 && Date.now() < deadline; ) {
          if (!(await nthEvent(watcher, events, from, 'active', 1, 1000))) continue
          from = await streamEnd(watcher, events)
          if (++seen < nth) continue
          for (const job of await runningJobs()) {
            const index = workers.findIndex((w) => w.pid === job.pid)
            if (index >= 0) {
              workerVictim = index
              break
            }
          }
        }
        // No job seen running (the burst was over): the first worker dies all the same.
        if (workerVictim < 0) workerVictim = 0
        const victim = workers[workerVictim] as Proc
        await victim.kill9()
        workerKills++
        orphaned = (await runningJobs()).filter((job) => job.pid === victim.pid).map((job) => job.key)
        if (orphaned.length > 0 || attempt === attempts - 1) break
        // Its jobs had finished before it died: that proves nothing, so it starts again and the
        // next burst gets another kill.
        log(`faults: worker ${workerVictim} died with no job running; restarted for another try`)
        workers[workerVictim] = await startWorkerProcess({ ...env, ...processEnv() })
      }
    })
    await Promise.all([killApp, killWorker])
    await sleep(o.loadAfterKillsMs)
    await load.stop()
    await Promise.all(bursts)
    const faultOps = ops().slice(before)
    const requestsCut = faultOps.filter(
      (op) => servedBy.get(op.seq) === appVictim && refused(op) && op.startedAt <= appKilledAt + 50,
    ).length
    log(
      `faults: ${faultOps.length} requests over ${Math.round(performance.now() - loadStarted)} ms; app ${appVictim} killed after ${appAfter} ms ` +
        `(${requestsCut} requests cut), worker ${workerVictim} after ${workerAfter} ms (running ${orphaned.length} jobs: ${orphaned.map((k) => k.split(':').at(-2)).join(', ')}); ${JSON.stringify(tally(faultOps))}`,
    )
    // The checkout page sends again the callbacks the dead process never answered.
    let callbacksRetried = 0
    await Promise.all(
      paidOrders(ops())
        .filter((p) => p.confirmStatus === null)
        .map((p) => {
          callbacksRetried++
          return routed({
            vu: -1,
            op: 'confirm-retry',
            method: 'POST',
            path: '/ticket/handlePaymentSuccess',
            buyer: p.buyer,
            body: {
              paymentId: p.checkout.razorpay_payment_id,
              orderId: p.checkout.razorpay_order_id,
              signature: p.checkout.razorpay_signature,
            },
          })
        }),
    )
    const accepted = paidOrders(ops())
    const settleStarted = performance.now()
    const owed = await describeOwed(
      sharedRedisUrl,
      prefix,
      await settleJobs(
        async () => owedJobs(await facts(), outboxDir, accepted),
        o.settleMs,
        (left) =>
          log(
            `faults: still owed: ${Object.entries(left)
              .map(([kind, items]) => `${items.length} × ${kind}`)
              .join('; ')}`,
          ),
      ),
    )
    const settleSeconds = Math.round((performance.now() - settleStarted) / 100) / 10
    // BullMQ's job hash: stc counts the times it was found stalled, finishedOn its completion. A job
    // the dead worker held is found stalled once its lock lapses (10 s, checked every 5 s), which
    // can be after everything owed is done (its work was done and recorded before the kill): wait
    // for that too, within the settle time.
    // A job removed once done (a mail carrying ticket passes: its data leaves Redis when sent, as a
    // reset link's does) is gone instead: only a living worker finishes and removes a job, so a job of
    // the dead worker whose hash is gone was taken over too.
    const countTakenOver = async () => {
      let n = 0
      for (const key of orphaned) {
        const [stc, finishedOn] = await watcher.hmget(key, 'stc', 'finishedOn')
        const gone = (await watcher.exists(key)) === 0
        if (gone || (finishedOn && Number(stc) > 0)) n++
      }
      return n
    }
    let takenOver = await countTakenOver()
    while (takenOver < orphaned.length && performance.now() - settleStarted < o.settleMs) {
      await sleep(500)
      takenOver = await countTakenOver()
    }
    const faultReport = await check(ops(), o.scratchDir)
    log(
      `faults: ${accepted.length} payments accepted, everything owed done after ${settleSeconds} s ` +
        `(${Object.values(owed).flat().length} left); ${takenOver} of the ${orphaned.length} jobs the dead worker ran were taken over; integrity ${faultReport.integrity}, lost ${faultReport.lost.length}, ` +
        `duplicates ${faultReport.duplicates.length}, oversold ${faultReport.oversoldSeats}, rebuild ${faultReport.rebuild.length ? 'DIFFERS' : 'equal'}, ` +
        invoicesNote(faultReport) +
        storesNote(o.store, faultReport),
    )
    failures.push(...reportFailures('faults', faultReport))
    if (orphaned.length === 0)
      failures.push(
        `faults: ${workerKills} worker kills, none of them caught a job running in the dead worker`,
      )
    if (takenOver < orphaned.length)
      failures.push(`faults: ${orphaned.length - takenOver} jobs of the dead worker were never taken over`)
    for (const [kind, items] of Object.entries(owed))
      failures.push(`faults: ${items.length} × ${kind} (${items.slice(0, 3).join('; ')})`)
    const serverErrors = faultOps.filter((op) => op.status !== null && op.status >= 500)
    for (const e of serverErrors.slice(0, 5))
      failures.push(`faults: ${e.method} ${e.path} answered ${e.status}: ${JSON.stringify(e.answer)}`)

    return {
      store: o.store,
      processes: { apps: o.apps, workers: o.workers },
      sale: {
        buyers: o.buyers,
        seats: o.seats,
        seconds: Math.round(saleSeconds * 10) / 10,
        holdsPerSecond: Math.round(o.buyers / saleSeconds),
        answers: tally(holds),
        heldPerProcess,
        held: held.length,
        soldOut: soldOut.length,
        paid: confirms.filter((c) => c.op === 'confirm').length,
        ticketsIssued,
        inventory,
        oversoldSeats: saleReport.oversoldSeats,
        confirmAnswers: tally(confirms),
        pushLatency: latency(salePushesFinal.delays),
        pushAfterAnswer: saleAfterAnswer,
        pushesMissing: salePushesFinal.missing,
        report: saleReport,
      },
      live: { samples: liveHolds.length, latency: liveLatency, missing: live.missing, limitMs },
      room,
      faults: {
        requests: faultOps.length,
        killedApp: { index: appVictim, afterMs: appAfter, requestsCut },
        killedWorker: {
          index: workerVictim,
          afterMs: workerAfter,
          jobsRunning: orphaned.map((k) => k.split(':').at(-2) as string),
          kills: workerKills,
          takenOver,
        },
        callbacksRetried,
        paymentsAccepted: accepted.length,
        settleSeconds,
        owed,
        report: faultReport,
      },
      failures,
      seconds: Math.round((performance.now() - started) / 100) / 10,
    }
  } finally {
    for (const socket of sockets) socket.disconnect()
    for (const done of cleanup) done()
    await Promise.all([...apps.map((a) => a.proc.kill9()), ...workers.map((w) => w.kill9())])
    // (the result returned above holds this very array: what the store saw counts too)
    failures.push(...(store?.afterwards() ?? []))
    await store?.close()
    await dropQueuePrefix(sharedRedisUrl, prefix)
    if (!o.keepData) removeDir(seeded.dataDir)
    else
      log(
        `data kept in ${seeded.dataDir}` +
          (store?.env.DATABASE_URL
            ? ` and database ${new URL(store.env.DATABASE_URL).pathname.slice(1)}`
            : ''),
      )
  }
}

/** An approved event of its own, by the sale's organizer and approved by the same admin. */
function addEvent(dataDir: string, like: EventSeed, seats: number): EventSeed {
  const connection = openDatabase(join(dataDir, 'ticketing.sqlite'), 'NORMAL')
  try {
    const ledger = appLedger(connection)
    const approved = ledger.readStream(`event-${like.eventId}`).find((f) => f.type === 'EventApproved')
    if (!approved) throw new Error("the sale's event is not approved")
    const adminId = (approved.data as { by: string }).by
    // taxed as the seed's own events are: its orders are invoiced in the same organizer's series
    const { seed, stream } = eventFacts(
      like.organizerId,
      adminId,
      1,
      seats,
      undefined,
      false,
      seededEventTax(1),
    )
    ledger.append(stream.stream, 0, stream.facts)
    return seed
  } finally {
    connection.close()
  }
}

/** A ticket type's orders as the ledger has them: seats held and sold, TicketsIssued facts. */
function saleState(facts: StoredFact[], ticketTypeId: string) {
  const state = new Map<string, { quantity: number; status: string }>()
  let issued = 0
  for (const f of facts) {
    const data = f.data as { ticketTypeId?: string; quantity?: number }
    if (f.type === 'TicketsHeld' && data.ticketTypeId === ticketTypeId)
      state.set(f.stream, { quantity: data.quantity ?? 0, status: 'held' })
    const order = state.get(f.stream)
    if (!order) continue
    if (f.type === 'TicketsIssued') {
      order.status = 'sold'
      issued++
    }
    if (f.type === 'PaymentFailed' || f.type === 'HoldExpired' || f.type === 'TicketCancelled')
      order.status = 'gone'
  }
  const seats = (status: string) =>
    [...state.values()].filter((o) => o.status === status).reduce((n, o) => n + o.quantity, 0)
  return { held: seats('held'), sold: seats('sold'), issued }
}

/** The invoices and credit notes checked, and whether their invariants held. */
const invoicesNote = (report: ClusterReport) =>
  `${report.invoiceFigures.invoices} invoices and ${report.invoiceFigures.creditNotes} credit notes in ` +
  `${report.invoiceFigures.series} series, ${report.invoices.length ? `${report.invoices.length} INVOICE PROBLEMS` : 'every invoice invariant held'}`

/** On PostgreSQL: whether its read models equal its ledger's SQLite copy's. */
const storesNote = (store: StoreName, report: ClusterReport) =>
  store === 'sqlite'
    ? ''
    : `; ${store} read models ${report.stores.length ? 'DIFFER from' : 'equal'} its ledger's SQLite copy's`

/** The invariant report's failures, as the fault runner words them. */
export function reportFailures(where: string, report: ClusterReport): string[] {
  return [
    ...(report.integrity === 'ok' ? [] : [`${where}: integrity_check says ${report.integrity}`]),
    ...report.lost.map((l) => `${where}: acknowledged write lost: ${l}`),
    ...report.duplicates.map((d) => `${where}: ${d}`),
    ...(report.oversoldSeats > 0 ? [`${where}: ${report.oversoldSeats} seats oversold`] : []),
    ...report.inventory.map((i) => `${where}: ${i}`),
    ...report.rebuild.map((r) => `${where}: rebuilt read model differs: ${r}`),
    ...report.invoices.map((i) => `${where}: invoices: ${i}`),
    ...report.stores.map(
      (r) => `${where}: a PostgreSQL read model differs from its ledger's SQLite copy: ${r}`,
    ),
  ]
}
