// An event called off with 50 paid orders, its worker killed (SIGKILL) while it cancels them: the
// server and the worker are processes of their own (WORKERS=off on the server), the worker dies
// once the first ticket is cancelled, a new one takes the job over when its lock lapses, and every
// order ends cancelled with exactly one refund asked for, one recorded, and one paid out by the
// payment provider (issue 17). SQLite: the processes share its file (the cluster test runs both
// stores with several processes).
import { join } from 'node:path'
import Database from 'better-sqlite3'
import { afterAll, describe, expect, it } from 'vitest'
import { seed } from '../bench/lib/seed.ts'
import { testStore } from '../support/db.ts'
import {
  faultEnv,
  type Proc,
  readLedger,
  removeDir,
  type ServerProcess,
  startServerProcess,
  startWorkerProcess,
  waitFor,
} from '../support/faults.ts'

const ORDERS = 50
const running: Proc[] = []
let dataDir = ''

afterAll(async () => {
  for (const proc of running) await proc.kill9()
  if (dataDir) removeDir(dataDir)
})

async function call(server: ServerProcess, token: string, path: string, body: unknown) {
  const res = await fetch(`${server.url}/api/v1${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  })
  const answer = (await res.json()) as Record<string, string>
  if (!res.ok) throw new Error(`${path}: ${res.status} ${JSON.stringify(answer)}`)
  return answer
}

describe.skipIf(testStore === 'postgres')('an event cancelled while its worker is killed', () => {
  it('refunds each of 50 paid orders exactly once', async () => {
    const seeded = seed({ buyers: ORDERS, events: 1, seats: 1000 })
    dataDir = seeded.dataDir
    const env = faultEnv(seeded.dataDir, { WORKERS: 'off' })
    const databaseFile = join(seeded.dataDir, 'ticketing.sqlite')
    const server = await startServerProcess(env)
    running.push(server.proc)
    running.push(await startWorkerProcess(env))
    const event = seeded.events[0]
    if (!event) throw new Error('no event seeded')

    const tickets: string[] = []
    for (const token of seeded.tokens) {
      const order = await call(server, token, '/ticket/create', {
        eventId: event.eventId,
        ticketType: 'General Admission',
        quantity: 1,
        amount: 1,
      })
      const paid = await call(server, token, '/payments/local/pay', {
        orderId: order.orderId,
        outcome: 'success',
      })
      await call(server, token, '/ticket/handlePaymentSuccess', {
        paymentId: paid.razorpay_payment_id,
        orderId: paid.razorpay_order_id,
        signature: paid.razorpay_signature,
      })
      tickets.push(order.ticketId as string)
    }

    const db = new Database(databaseFile, { readonly: true })
    db.pragma('busy_timeout = 5000')
    const cancelled = db.prepare("SELECT count(*) AS n FROM ledger WHERE type = 'TicketCancelled'")
    try {
      await call(server, seeded.organizerToken, `/event/${event.eventId}/cancel`, {
        reason: 'The venue flooded.',
      })
      // the worker dies as soon as the first ticket is cancelled: the job is left half done
      await waitFor(() => (cancelled.get() as { n: number }).n > 0, 20_000, 'a first ticket cancelled', 1)
      const worker = running.pop() as Proc
      await worker.kill9()
      const atKill = (cancelled.get() as { n: number }).n
      console.log(`worker killed with ${atKill} of ${ORDERS} tickets cancelled`)
      running.push(await startWorkerProcess(env))

      await waitFor(
        () => readLedger(databaseFile).filter((f) => f.type === 'PaymentRefunded').length >= ORDERS,
        60_000,
        'every paid order refunded',
        250,
      )
      // let a job run again settle, then count everything once more
      await new Promise((r) => setTimeout(r, 1000))
      const facts = readLedger(databaseFile)
      for (const ticket of tickets) {
        const stream = facts.filter((f) => f.stream === `order-${ticket}`).map((f) => f.type)
        expect(
          stream.filter((t) => t === 'TicketCancelled'),
          ticket,
        ).toHaveLength(1)
        expect(
          stream.filter((t) => t === 'RefundRequested'),
          ticket,
        ).toHaveLength(1)
        expect(
          stream.filter((t) => t === 'PaymentRefunded'),
          ticket,
        ).toHaveLength(1)
      }
      // the provider (the local gateway, a database of its own) paid out one refund per payment
      const gateway = new Database(join(seeded.dataDir, 'local-gateway.sqlite'), { readonly: true })
      try {
        expect(
          gateway
            .prepare('SELECT count(*) AS n, count(DISTINCT payment_id) AS payments FROM gateway_refunds')
            .get(),
        ).toEqual({ n: ORDERS, payments: ORDERS })
      } finally {
        gateway.close()
      }
    } finally {
      db.close()
    }
  }, 180_000)
})
