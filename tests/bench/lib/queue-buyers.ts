// Load generator process for a sale arriving all at once (queue.ts): the buyers tokens[0, count),
// each with its signed-in Socket.IO connection (prints 'ready' once all are connected). When
// `goFile` exists every buyer arrives at once and buys one ticket through the local gateway
// (order → local pay → payment callback → ticket); with `room`, first joins the event's line and
// buys once it hears itself admitted. Prints one JSON line: tickets sold, the time from the arrival
// to the last ticket, and per buyer the time from arrival (and from admission) to its ticket.
import { existsSync, readFileSync } from 'node:fs'
import { io, type Socket } from 'socket.io-client'
import type { QueuePush } from '../../../contracts/queue.ts'

type Options = {
  url: string
  tokensFile: string
  count: number
  eventId: string
  room: boolean
  goFile: string
}
const options = JSON.parse(process.argv[2] ?? '{}') as Options
const tokens = (JSON.parse(readFileSync(options.tokensFile, 'utf8')) as string[]).slice(0, options.count)
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

const sockets: Socket[] = []
/** each buyer's admission, heard on its socket */
const admitted: Array<() => void> = []
const admittedAt: Array<Promise<void>> = tokens.map(
  (_, i) =>
    new Promise<void>((resolve) => {
      admitted[i] = resolve
    }),
)
let next = 0
await Promise.all(
  Array.from({ length: 200 }, async () => {
    for (let i = next++; i < tokens.length; i = next++) {
      const socket = io(options.url, {
        auth: { token: tokens[i] },
        transports: ['websocket'],
        reconnection: false,
      })
      socket.on('queue', (push: QueuePush) => {
        if (push.eventId === options.eventId && push.state === 'admitted') admitted[i]?.()
      })
      await new Promise<void>((resolve, reject) => {
        socket.once('connect', () => resolve())
        socket.once('connect_error', reject)
      })
      sockets[i] = socket
    }
  }),
)
console.log('ready')
while (!existsSync(options.goFile)) await sleep(20)

const post = async (path: string, token: string, body?: unknown) => {
  const res = await fetch(`${options.url}/api/v1${path}`, {
    method: 'POST',
    headers: {
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      authorization: `Bearer ${token}`,
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  })
  return { status: res.status, body: (await res.json()) as Record<string, string> }
}

const failures: Record<string, number> = {}
const fail = (step: string, status: number | string) => {
  failures[`${step} ${status}`] = (failures[`${step} ${status}`] ?? 0) + 1
}
/** from each buyer's arrival to its ticket; from its admission to its ticket */
const total: number[] = []
const purchase: number[] = []
let sold = 0
let lastSold = 0
const cpuAtStart = process.cpuUsage()
const started = performance.now()

async function buyer(i: number) {
  const token = tokens[i] as string
  try {
    if (options.room) {
      const place = await post(`/event/${options.eventId}/queue`, token)
      if (place.status !== 200) return fail('join', place.status)
      if (place.body.state !== 'admitted') await admittedAt[i]
    }
    const from = performance.now()
    const order = await post('/ticket/create', token, {
      eventId: options.eventId,
      ticketType: 'General Admission',
      quantity: 1,
    })
    if (order.status !== 200) return fail('create', order.status)
    const paid = await post('/payments/local/pay', token, { orderId: order.body.orderId, outcome: 'success' })
    if (paid.status !== 200) return fail('pay', paid.status)
    const done = await post('/ticket/handlePaymentSuccess', token, {
      paymentId: paid.body.razorpay_payment_id,
      orderId: paid.body.razorpay_order_id,
      signature: paid.body.razorpay_signature,
      event: options.eventId,
    })
    if (done.status !== 200) return fail('confirm', done.status)
    const now = performance.now()
    sold++
    lastSold = now
    total.push(now - started)
    purchase.push(now - from)
  } catch (error) {
    fail('network', (error as { cause?: { code?: string } }).cause?.code ?? 'error')
  }
}
await Promise.all(tokens.map((_, i) => buyer(i)))
const at = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? 0
}
const used = process.cpuUsage(cpuAtStart)
console.log(
  JSON.stringify({
    buyers: tokens.length,
    sold,
    failures,
    seconds: (lastSold - started) / 1000,
    soldPerSecond: sold / ((lastSold - started) / 1000),
    total: { p50: at(total, 50), p99: at(total, 99), max: at(total, 100) },
    purchase: { p50: at(purchase, 50), p99: at(purchase, 99), max: at(purchase, 100) },
    cpuSeconds: (used.user + used.system) / 1e6,
  }),
)
for (const socket of sockets) socket?.disconnect()
process.exit(0)
