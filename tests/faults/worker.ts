// Worker killed mid-payment-confirmation: the server runs without workers (WORKERS=off), a
// separate worker process confirms payments; it is killed with SIGKILL while confirmation jobs
// are active, a new one is started, and every paid order must end with exactly one
// PaymentCaptured and one TicketsIssued (BullMQ gives a dead worker's job to another once its
// lock lapses: the job is keyed by order and payment, and the order decider is idempotent).
import { join } from 'node:path'
import Database from 'better-sqlite3'
import { Redis } from 'ioredis'
import { seed } from '../bench/lib/seed.ts'
import {
  type Call,
  checkInvariants,
  dropQueuePrefix,
  faultEnv,
  type History,
  type InvariantReport,
  nthEvent,
  type Op,
  type Proc,
  type Random,
  readLedger,
  recordingClient,
  removeDir,
  sharedRedisUrl,
  sleep,
  startServerProcess,
  startWorkerProcess,
  streamEnd,
  waitFor,
} from '../support/faults.ts'

export type WorkerOptions = {
  trials: number
  /** orders paid at once in each trial */
  orders: number
  random: Random
  history: History
  scratchDir: string
  /** how long to wait for the stalled jobs to be taken up again */
  recoveryTimeoutMs: number
  log?: (line: string) => void
  keepData?: boolean
}

export type WorkerTrial = {
  trial: number
  paid: number
  /** confirmation jobs active in the worker when it was killed */
  activeAtKill: number
  /** paid orders without a ticket at the moment of the kill */
  unissuedAtKill: number
  /** from the kill until every paid order had its ticket */
  recoveryMs: number | null
  /** the active jobs that another worker took up and completed */
  stalledRecovered: number
  /** per paid order: not exactly one capture and one ticket, or a refund */
  wrong: string[]
  callbacks: Record<string, number>
  report: InvariantReport
}

export type WorkerResult = { trials: WorkerTrial[]; faults: number; requests: number; ms: number }

const issuedOrders = (databaseFile: string): Set<string> => {
  const db = new Database(databaseFile, { readonly: true, fileMustExist: true })
  try {
    db.pragma('busy_timeout = 5000')
    return new Set(
      (
        db.prepare("SELECT stream FROM ledger WHERE type = 'TicketsIssued'").all() as Array<{
          stream: string
        }>
      ).map((r) => r.stream.slice('order-'.length)),
    )
  } finally {
    db.close()
  }
}

export async function workerScenario(o: WorkerOptions): Promise<WorkerResult> {
  const started = performance.now()
  const log = o.log ?? (() => {})
  const seeded = seed({ buyers: Math.max(o.orders, 20), events: 2, seats: 5000, invoiced: true })
  const env = faultEnv(seeded.dataDir, { WORKERS: 'off' })
  const prefix = env.QUEUE_PREFIX as string
  const databaseFile = join(seeded.dataDir, 'ticketing.sqlite')
  const server = await startServerProcess(env)
  let worker: Proc = await startWorkerProcess(env).catch(async (error) => {
    await server.proc.kill9()
    removeDir(seeded.dataDir)
    throw error
  })
  const redis = new Redis(sharedRedisUrl, { maxRetriesPerRequest: null })
  const watcher = redis.duplicate()
  let trial = 0
  const call: Call = recordingClient(o.history, () => server.url, seeded.tokens, {
    scenario: 'worker',
    trial: () => trial,
  })
  const trials: WorkerTrial[] = []
  let faults = 0
  try {
    // A kill that found no job running proves nothing: such a trial is run again (three times at most).
    let caught = 0
    for (trial = 1; caught < o.trials && trial <= o.trials + 3; trial++) {
      const event = o.random.pick(seeded.events)
      const buyers = Array.from({ length: o.orders }, (_, i) => i)
      const holds = await Promise.all(
        buyers.map((buyer) =>
          call({
            vu: buyer,
            op: 'hold',
            method: 'POST',
            path: '/ticket/create',
            buyer,
            body: { eventId: event.eventId, ticketType: 'General Admission', quantity: o.random.int(1, 3) },
          }),
        ),
      )
      // Each buyer pays (the gateway's webhook enqueues the confirmation at once) and sends
      // the callback; the worker dies while confirmations are running, partway through.
      const events = `${prefix}:payments:events`
      const from = await streamEnd(redis, events)
      const callbacks: Array<Promise<Op>> = []
      const paying = holds.map(async (held, buyer) => {
        if (held.status !== 200) return null
        const { orderId, ticketId } = held.answer as { orderId: string; ticketId: string }
        const paid = await call({
          vu: buyer,
          op: 'pay',
          method: 'POST',
          path: '/payments/local/pay',
          buyer,
          body: { orderId, outcome: 'success' },
        })
        if (paid.status !== 200) return null
        const checkout = paid.answer as Record<string, string>
        callbacks.push(
          call({
            vu: buyer,
            op: 'confirm',
            method: 'POST',
            path: '/ticket/handlePaymentSuccess',
            buyer,
            body: {
              paymentId: checkout.razorpay_payment_id,
              orderId: checkout.razorpay_order_id,
              signature: checkout.razorpay_signature,
            },
          }),
        )
        return { ticketId, paymentId: checkout.razorpay_payment_id as string }
      })
      // Jobs take milliseconds: the kill follows BullMQ's own 'active' event of the n-th job.
      await nthEvent(watcher, events, from, 'active', o.random.int(1, Math.ceil(o.orders * 0.6)), 10_000)
      await worker.kill9()
      faults++
      const killedAt = performance.now()
      const orphaned = await redis.lrange(`${prefix}:payments:active`, 0, -1)
      if (orphaned.length > 0) caught++
      const paid = (await Promise.all(paying)).filter((p) => p !== null)
      const unissuedAtKill = paid.filter((p) => !issuedOrders(databaseFile).has(p.ticketId)).length
      worker = await startWorkerProcess(env)
      let recoveryMs: number | null = null
      await waitFor(
        () => {
          const issued = issuedOrders(databaseFile)
          return paid.every((p) => issued.has(p.ticketId))
        },
        o.recoveryTimeoutMs,
        'every paid order to have its ticket',
        250,
      )
        .then(() => {
          recoveryMs = Math.round(performance.now() - killedAt)
        })
        .catch(() => {})
      const answers = await Promise.all(callbacks)
      // Let a job that was re-run settle, then look at every paid order's stream.
      await sleep(500)
      const facts = readLedger(databaseFile)
      const wrong: string[] = []
      for (const p of paid) {
        const stream = facts.filter((f) => f.stream === `order-${p.ticketId}`)
        const captures = stream.filter(
          (f) => f.type === 'PaymentCaptured' && (f.data as { paymentId: string }).paymentId === p.paymentId,
        ).length
        const tickets = stream.filter((f) => f.type === 'TicketsIssued').length
        const refunds = stream.filter((f) => f.type === 'RefundRequested').length
        if (captures !== 1 || tickets !== 1 || refunds !== 0)
          wrong.push(`ticket ${p.ticketId}: ${captures} captures, ${tickets} tickets, ${refunds} refunds`)
      }
      let stalledRecovered = 0
      for (const id of orphaned) {
        // BullMQ's job hash: stc counts the times it was found stalled, finishedOn its completion.
        const [stc, finishedOn] = await redis.hmget(`${prefix}:payments:${id}`, 'stc', 'finishedOn')
        if (finishedOn && Number(stc) > 0) stalledRecovered++
      }
      const callbackStatuses: Record<string, number> = {}
      for (const a of answers) {
        const key = String(a.status ?? a.error)
        callbackStatuses[key] = (callbackStatuses[key] ?? 0) + 1
      }
      const report = checkInvariants(
        databaseFile,
        o.history.ops.filter((op) => op.scenario === 'worker'),
        o.scratchDir,
      )
      trials.push({
        trial,
        paid: paid.length,
        activeAtKill: orphaned.length,
        unissuedAtKill,
        recoveryMs,
        stalledRecovered,
        wrong,
        callbacks: callbackStatuses,
        report,
      })
      log(
        `worker trial ${trial}: ${paid.length} paid, ${orphaned.length} jobs active at the kill, ` +
          `${unissuedAtKill} without a ticket then; all issued after ${recoveryMs ?? 'never'} ms; ` +
          `${stalledRecovered} stalled jobs completed elsewhere; ${wrong.length} orders wrong; callbacks ${JSON.stringify(callbackStatuses)}; ` +
          `${report.invoiceFigures.invoices} invoices ${report.invoices.length ? `with ${report.invoices.length} PROBLEMS` : 'in order'}`,
      )
    }
    return {
      trials,
      faults,
      requests: o.history.ops.filter((op) => op.scenario === 'worker').length,
      ms: Math.round(performance.now() - started),
    }
  } finally {
    await worker.kill9()
    await server.proc.kill9()
    redis.disconnect()
    watcher.disconnect()
    await dropQueuePrefix(sharedRedisUrl, prefix)
    if (!o.keepData) removeDir(seeded.dataDir)
  }
}
