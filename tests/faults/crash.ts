// Crash: the real server under a booking load, `kill -9` at a random moment, restarted on the
// same data folder; after each restart the invariants are checked against the recorded history.
// Callbacks the crash left unanswered are sent again once the server is back, as a checkout
// page would; at the end every payment the gateway accepted must have become exactly one capture.
import { join } from 'node:path'
import { seed } from '../bench/lib/seed.ts'
import {
  type Call,
  checkInvariants,
  describeOwed,
  dropQueuePrefix,
  faultEnv,
  type History,
  type InvariantReport,
  mailedTickets,
  type Op,
  owedJobs,
  paidOrders,
  type Random,
  recordingClient,
  refused,
  removeDir,
  type ServerProcess,
  settleJobs,
  sharedRedisUrl,
  startBookingLoad,
  startServerProcess,
} from '../support/faults.ts'

export type CrashOptions = {
  trials: number
  vus: number
  /** the kill comes this long after the load starts, uniformly at random */
  killAfterMs: [number, number]
  random: Random
  history: History
  scratchDir: string
  /** at the end, wait this long for every accepted payment to be captured (0: do not wait) */
  settleMs: number
  /** send again, after each restart, the callbacks the crash left unanswered (default on) */
  retryCallbacks?: boolean
  /** buyers, events and seats per event's General Admission (VIP has a tenth) */
  seed?: { buyers: number; events: number; seats: number }
  /** more settings for the server */
  env?: Record<string, string>
  /** called once the last trial's load and check are done (before the settle wait) */
  onLoadDone?: () => void
  log?: (line: string) => void
  keepData?: boolean
}

export type CrashTrial = {
  trial: number
  killedAfterMs: number
  requests: number
  /** requests the kill cut off (sent, never answered) */
  cutByKill: number
  restartMs: number
  report: InvariantReport
}

export type CrashResult = {
  trials: CrashTrial[]
  faults: number
  requests: number
  final: InvariantReport
  /** after the settle wait: acknowledged jobs not done, by kind (payments the gateway accepted
   * that never became a capture, tickets without mail, lapsed holds not released) */
  owed: Record<string, string[]>
  /** tickets mailed, and how many of them twice (a mail job re-run after a kill) */
  mails: { tickets: number; sentTwice: number }
  settleMs: number
  callbacksRetried: number
  ms: number
}

export async function crashScenario(o: CrashOptions): Promise<CrashResult> {
  const started = performance.now()
  const log = o.log ?? (() => {})
  // VIP is reserved seating: its holds take the best seats left, decided seat by seat
  const seeded = seed({
    ...(o.seed ?? { buyers: 60, events: 4, seats: 2000 }),
    seatedVip: true,
    invoiced: true,
  })
  const env = faultEnv(seeded.dataDir, { HOLD_MINUTES: '1', ...o.env })
  const databaseFile = join(seeded.dataDir, 'ticketing.sqlite')
  const outboxDir = join(seeded.dataDir, 'outbox')
  let server: ServerProcess = await startServerProcess(env)
  let trial = 0
  const call: Call = recordingClient(o.history, () => server.url, seeded.tokens, {
    scenario: 'crash',
    trial: () => trial,
  })
  const ops = () => o.history.ops.filter((op) => op.scenario === 'crash')
  const trials: CrashTrial[] = []
  const retries = new Set<Promise<Op>>()
  const retrying = new Set<string>()
  let callbacksRetried = 0
  let faults = 0
  try {
    for (trial = 1; trial <= o.trials; trial++) {
      const before = ops().length
      const load = startBookingLoad({
        call,
        buyers: seeded.tokens.length,
        events: seeded.events,
        vus: o.vus,
        random: o.random,
        stopWhenRefused: true,
      })
      const killAfter = o.random.int(o.killAfterMs[0], o.killAfterMs[1])
      await new Promise((r) => setTimeout(r, killAfter))
      const killedAt = Date.now()
      await server.proc.kill9()
      faults++
      await load.finished
      await Promise.allSettled([...retries])
      const restartStarted = performance.now()
      server = await startServerProcess(env, server.port)
      const restartMs = Math.round(performance.now() - restartStarted)
      const these = ops().slice(before)
      const cutByKill = these.filter((op) => refused(op) && op.startedAt <= killedAt).length
      const report = checkInvariants(databaseFile, ops(), o.scratchDir)
      trials.push({ trial, killedAfterMs: killAfter, requests: these.length, cutByKill, restartMs, report })
      log(
        `crash trial ${trial}/${o.trials}: killed after ${killAfter} ms, ${these.length} requests (${cutByKill} cut), restart ${restartMs} ms, ` +
          `integrity ${report.integrity}, lost ${report.lost.length}, oversold ${report.oversoldSeats}, rebuild ${report.rebuild.length ? 'DIFFERS' : 'equal'}, ` +
          `${report.invoiceFigures.invoices} invoices ${report.invoices.length ? `with ${report.invoices.length} PROBLEMS` : 'in order'}`,
      )
      // The checkout page sends its callback again for payments whose answer the crash swallowed.
      for (const paid of o.retryCallbacks === false ? [] : paidOrders(ops())) {
        if (paid.confirmStatus !== null || retrying.has(paid.paymentId)) continue
        retrying.add(paid.paymentId)
        callbacksRetried++
        const retry = call({
          vu: -1,
          op: 'confirm-retry',
          method: 'POST',
          path: '/ticket/handlePaymentSuccess',
          buyer: paid.buyer,
          body: {
            paymentId: paid.checkout.razorpay_payment_id,
            orderId: paid.checkout.razorpay_order_id,
            signature: paid.checkout.razorpay_signature,
          },
        })
        retries.add(retry)
        void retry.finally(() => {
          retries.delete(retry)
          retrying.delete(paid.paymentId)
        })
      }
    }
    trial = o.trials
    o.onLoadDone?.()
    // Let the retried callbacks answer (a callback waits for its ticket) before the last look.
    await Promise.allSettled([...retries])

    // Every payment the gateway accepted ends as one capture, every ticket has its mail, every
    // lapsed hold is released, however the crashes fell. A confirmation job that was running in
    // a killed process comes back through BullMQ's stalled-job check (lock 30 s, check every
    // 30 s); facts handled after the dispatcher's last checkpoint are dispatched again.
    const accepted = paidOrders(ops())
    const waitStart = performance.now()
    const owed = await describeOwed(
      sharedRedisUrl,
      env.QUEUE_PREFIX as string,
      o.settleMs > 0
        ? await settleJobs(
            () => owedJobs(databaseFile, outboxDir, accepted),
            o.settleMs,
            (left) =>
              log(
                `crash: still owed ${Math.round((performance.now() - waitStart) / 1000)} s after the last restart: ` +
                  Object.entries(left)
                    .map(([kind, items]) => `${items.length} × ${kind} (e.g. ${items[0]})`)
                    .join('; '),
              ),
          )
        : owedJobs(databaseFile, outboxDir, accepted),
    )
    const settleMs = Math.round(performance.now() - waitStart)
    const mails = [...mailedTickets(outboxDir).values()]
    const final = checkInvariants(databaseFile, ops(), o.scratchDir)
    const owedCount = Object.values(owed).flat().length
    log(
      `crash final: ${accepted.length} payments accepted, ${owedCount} jobs still owed after ${settleMs} ms ` +
        `(${JSON.stringify(Object.fromEntries(Object.entries(owed).map(([k, v]) => [k, v.length])))}), ` +
        `integrity ${final.integrity}, lost ${final.lost.length}, duplicates ${final.duplicates.length}, oversold ${final.oversoldSeats}, ` +
        `${final.invoiceFigures.invoices} invoices and ${final.invoiceFigures.creditNotes} credit notes ${final.invoices.length ? `with ${final.invoices.length} PROBLEMS` : 'in order'}`,
    )
    return {
      trials,
      faults,
      requests: ops().length,
      final,
      owed: o.settleMs > 0 ? owed : {},
      mails: { tickets: mails.length, sentTwice: mails.filter((n) => n > 1).length },
      settleMs,
      callbacksRetried,
      ms: Math.round(performance.now() - started),
    }
  } finally {
    await server.proc.kill9()
    await dropQueuePrefix(sharedRedisUrl, env.QUEUE_PREFIX as string)
    if (!o.keepData) removeDir(seeded.dataDir)
  }
}
