// Load generator process for the soak (soak.ts): mixed traffic at a fixed rate (open loop: an
// operation starts on schedule whether or not the ones before it have answered, as real visitors
// do), or, with `rate` 0, as fast as `concurrency` operations at a time allow (to find the peak).
// Operations: browse the listing, open an event, hold a seat and leave it, buy a ticket (order,
// local payment, confirmation), cancel a ticket bought earlier. Prints one JSON line per window
// (every request's latency and status in it), then a final line with `done`.
import { readFileSync } from 'node:fs'

type Options = {
  url: string
  tokensFile: string
  eventIds: string[]
  /** operations started per second; 0: closed loop at `concurrency` */
  rate: number
  concurrency: number
  seconds: number
  windowSeconds: number
}
const options = JSON.parse(process.argv[2] ?? '{}') as Options
const tokens: string[] = JSON.parse(readFileSync(options.tokensFile, 'utf8'))

type Kind = 'listing' | 'event' | 'hold' | 'purchase' | 'cancel'
/** the mix, out of 100 */
const mix: Array<[Kind, number]> = [
  ['listing', 25],
  ['event', 30],
  ['hold', 15],
  ['purchase', 20],
  ['cancel', 10],
]

type Window = {
  latencies: number[]
  errors: Record<string, number>
  ops: Record<string, number>
  requests: number
}
const freshWindow = (): Window => ({ latencies: [], errors: {}, ops: {}, requests: 0 })
let window = freshWindow()
let inFlight = 0
let maxInFlight = 0

const request = async (kind: Kind, method: string, path: string, token: string | null, body?: unknown) => {
  const t0 = performance.now()
  let status = 0
  let json: Record<string, unknown> = {}
  try {
    const res = await fetch(`${options.url}/api/v1${path}`, {
      method,
      headers: {
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...(token ? { authorization: `Bearer ${token}` } : {}),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    })
    status = res.status
    const text = await res.text()
    json = text.startsWith('{') ? JSON.parse(text) : {}
  } catch (error) {
    status = 0
    // fetch says "fetch failed"; what failed is its cause (ECONNRESET, a timeout)
    const cause = (error as Error & { cause?: { code?: string; message?: string } }).cause
    json = { message: cause?.code ?? cause?.message ?? (error as Error).message }
  }
  window.latencies.push(performance.now() - t0)
  window.requests++
  if (status < 200 || status >= 300) {
    // one key per route (an event's id left out), and what failed for a request that got no answer
    const route = kind === 'event' ? '/event/:id' : kind === 'cancel' ? '/ticket/cancel/:id' : path
    const key = `${kind} ${method} ${route} ${status || json.message}`
    window.errors[key] = (window.errors[key] ?? 0) + 1
  }
  return { status, json }
}

let next = 0
const tokenOf = () => tokens[next++ % tokens.length] as string
const eventOf = () => options.eventIds[Math.floor(Math.random() * options.eventIds.length)] as string
/** tickets bought and not yet cancelled, with their owner's token */
const bought: Array<{ ticketId: string; token: string }> = []

const order = (kind: Kind, token: string) =>
  request(kind, 'POST', '/ticket/create', token, {
    eventId: eventOf(),
    ticketType: 'General Admission',
    quantity: 1,
  })

async function operation(kind: Kind) {
  window.ops[kind] = (window.ops[kind] ?? 0) + 1
  switch (kind) {
    case 'listing':
      await request(kind, 'GET', '/event', null)
      return
    case 'event':
      await request(kind, 'GET', `/event/${eventOf()}`, null)
      return
    case 'hold':
      await order(kind, tokenOf())
      return
    case 'purchase': {
      const token = tokenOf()
      const created = await order(kind, token)
      if (created.status !== 200) return
      const paid = await request(kind, 'POST', '/payments/local/pay', token, {
        orderId: created.json.orderId,
        outcome: 'success',
      })
      if (paid.status !== 200) return
      const done = await request(kind, 'POST', '/ticket/handlePaymentSuccess', token, {
        paymentId: paid.json.razorpay_payment_id,
        orderId: paid.json.razorpay_order_id,
        signature: paid.json.razorpay_signature,
        event: 'soak',
      })
      const ticket = done.json.ticket as { _id?: string } | undefined
      if (done.status === 200) bought.push({ ticketId: ticket?._id ?? String(created.json.orderId), token })
      return
    }
    case 'cancel': {
      const ticket = bought.shift()
      if (!ticket) return operation('event')
      await request(kind, 'DELETE', `/ticket/cancel/${ticket.ticketId}`, ticket.token)
      return
    }
  }
}

const pick = (): Kind => {
  let n = Math.random() * 100
  for (const [kind, share] of mix) {
    n -= share
    if (n < 0) return kind
  }
  return 'event'
}

const run = (kind: Kind) => {
  inFlight++
  maxInFlight = Math.max(maxInFlight, inFlight)
  return operation(kind).finally(() => {
    inFlight--
  })
}

const started = performance.now()
const cpuAtStart = process.cpuUsage()
let windowCpu = process.cpuUsage()
const percentile = (values: number[], p: number) => {
  if (values.length === 0) return 0
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0
}
const report = (final = false) => {
  const w = window
  window = freshWindow()
  const cpu = process.cpuUsage(windowCpu)
  windowCpu = process.cpuUsage()
  console.log(
    JSON.stringify({
      t: Math.round((performance.now() - started) / 1000),
      /** the stragglers after the last whole window */
      final,
      requests: w.requests,
      ops: w.ops,
      errors: w.errors,
      p50: percentile(w.latencies, 50),
      p99: percentile(w.latencies, 99),
      max: percentile(w.latencies, 100),
      inFlight,
      maxInFlight,
      generatorCpu: (cpu.user + cpu.system) / 1e6 / options.windowSeconds,
    }),
  )
  maxInFlight = inFlight
}
const windows = setInterval(() => report(), options.windowSeconds * 1000)
const deadline = started + options.seconds * 1000
let total = 0

if (options.rate > 0) {
  // open loop: every 10 ms, start the operations due by now
  const due = (now: number) => Math.floor(((now - started) / 1000) * options.rate)
  await new Promise<void>((resolve) => {
    const tick = setInterval(() => {
      const now = performance.now()
      if (now >= deadline) {
        clearInterval(tick)
        resolve()
        return
      }
      for (const target = due(now); total < target; total++) void run(pick())
    }, 10)
  })
  while (inFlight > 0 && performance.now() < deadline + 30_000) await new Promise((r) => setTimeout(r, 50))
} else {
  await Promise.all(
    Array.from({ length: options.concurrency }, async () => {
      while (performance.now() < deadline) {
        total++
        await run(pick())
      }
    }),
  )
}
clearInterval(windows)
report(true)
const cpu = process.cpuUsage(cpuAtStart)
const seconds = (performance.now() - started) / 1000
console.log(
  JSON.stringify({
    done: true,
    operations: total,
    seconds,
    operationsPerSecond: total / seconds,
    leftInFlight: inFlight,
    cpuSeconds: (cpu.user + cpu.system) / 1e6,
  }),
)
process.exit(0)
