// Load generator process: buyers going through the whole purchase (order → local checkout →
// payment callback → ticket), `concurrency` at a time, for `orders` orders. Prints one JSON line.
// `urls` (instead of `url`) spreads the buyers over several app processes, round-robin: buyer k
// makes all its requests to urls[k mod n].
import { readFileSync } from 'node:fs'

type Options = {
  url?: string
  urls?: string[]
  tokensFile: string
  eventId: string
  orders: number
  concurrency: number
}
const options = JSON.parse(process.argv[2] ?? '{}') as Options
const tokens: string[] = JSON.parse(readFileSync(options.tokensFile, 'utf8'))

const urls = options.urls ?? [options.url as string]

const post = async (url: string, path: string, token: string, body: unknown) => {
  const res = await fetch(`${url}/api/v1${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify(body),
  })
  return { status: res.status, body: (await res.json()) as Record<string, string> }
}

let next = 0
let issued = 0
let failed = 0
/** what each failure answered, as "step status" (e.g. "confirm 202") */
const failures: Record<string, number> = {}
const fail = (step: string, status: number) => {
  failed++
  failures[`${step} ${status}`] = (failures[`${step} ${status}`] ?? 0) + 1
}
const latencies: number[] = []
const started = performance.now()
const cpuAtStart = process.cpuUsage()
async function buyer(_: unknown, lane: number) {
  const url = urls[lane % urls.length] as string
  for (;;) {
    const i = next++
    if (i >= options.orders) return
    const token = tokens[i % tokens.length] as string
    const t0 = performance.now()
    const order = await post(url, '/ticket/create', token, {
      eventId: options.eventId,
      ticketType: 'General Admission',
      quantity: 1,
    })
    if (order.status !== 200) {
      fail('create', order.status)
      continue
    }
    const paid = await post(url, '/payments/local/pay', token, {
      orderId: order.body.orderId,
      outcome: 'success',
    })
    const done = await post(url, '/ticket/handlePaymentSuccess', token, {
      paymentId: paid.body.razorpay_payment_id,
      orderId: paid.body.razorpay_order_id,
      signature: paid.body.razorpay_signature,
      event: options.eventId,
    })
    if (done.status === 200) {
      issued++
      latencies.push(performance.now() - t0)
    } else fail(paid.status === 200 ? 'confirm' : 'pay', paid.status === 200 ? done.status : paid.status)
  }
}
await Promise.all(Array.from({ length: options.concurrency }, buyer))
const seconds = (performance.now() - started) / 1000
latencies.sort((a, b) => a - b)
const at = (p: number) =>
  latencies[Math.min(latencies.length - 1, Math.ceil((p / 100) * latencies.length) - 1)] ?? 0
console.log(
  JSON.stringify({
    issued,
    failed,
    failures,
    seconds,
    ordersPerSecond: issued / seconds,
    p50: at(50),
    p99: at(99),
    // the generator's own CPU time: near `seconds`, it and not the server set the pace
    cpuSeconds: (() => {
      const used = process.cpuUsage(cpuAtStart)
      return (used.user + used.system) / 1e6
    })(),
  }),
)
