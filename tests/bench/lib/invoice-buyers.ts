// Load generator process of the invoices bench: `purchases` purchases (hold → pay at the local
// gateway → confirm), purchase i by buyer i on event i mod n, `concurrency` in flight at once. It
// first opens its connections (one GET /health/live per lane, all at once), prints `connected`,
// waits a moment, then starts the purchases all together; prints one JSON line with the tickets
// issued per event (in the order of `eventIds`), the failures, the latencies and its own CPU time.
import { readFileSync } from 'node:fs'
import http from 'node:http'

type Options = {
  url: string
  tokensFile: string
  eventIds: string[]
  ticketType: string
  purchases: number
  concurrency: number
}
const options = JSON.parse(process.argv[2] ?? '{}') as Options
const tokens: string[] = JSON.parse(readFileSync(options.tokensFile, 'utf8'))
const api = `${options.url}/api/v1`

// node's http with a keep-alive agent, a connection a lane (fetch cost the generator about twice the
// CPU a request, and put it near the limit of its core at 1,000 in flight)
const agent = new http.Agent({
  keepAlive: true,
  maxSockets: options.concurrency,
  maxFreeSockets: options.concurrency,
})

/** one request's status and its body as text */
const request = (method: string, path: string, headers: Record<string, string> = {}, body?: string) =>
  new Promise<{ status: number; text: string }>((resolve, reject) => {
    const req = http.request(`${api}${path}`, { method, headers, agent }, (res) => {
      const chunks: Buffer[] = []
      res.on('data', (chunk: Buffer) => chunks.push(chunk))
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString() }))
      res.on('error', reject)
    })
    req.on('error', reject)
    req.end(body)
  })

const post = async (path: string, token: string, body: unknown) => {
  const text = JSON.stringify(body)
  const res = await request(
    'POST',
    path,
    {
      'content-type': 'application/json',
      'content-length': String(Buffer.byteLength(text)),
      authorization: `Bearer ${token}`,
    },
    text,
  )
  return { status: res.status, body: JSON.parse(res.text) as Record<string, string> }
}

// every lane's connection opened before the measured burst (the server's listen backlog and the
// handshakes are not what this bench measures)
await Promise.all(Array.from({ length: options.concurrency }, () => request('GET', '/health/live')))
console.log('connected')
await new Promise((r) => setTimeout(r, 300))

let next = 0
const tickets: string[][] = options.eventIds.map(() => [])
const failures: Record<string, number> = {}
let failed = 0
const fail = (step: string, status: number) => {
  failed++
  failures[`${step} ${status}`] = (failures[`${step} ${status}`] ?? 0) + 1
}
const latencies: number[] = []
const cpuAtStart = process.cpuUsage()
const started = performance.now()

async function lane() {
  for (;;) {
    const i = next++
    if (i >= options.purchases) return
    const token = tokens[i % tokens.length] as string
    const e = i % options.eventIds.length
    const eventId = options.eventIds[e] as string
    const t0 = performance.now()
    let step = 'hold'
    try {
      const held = await post('/ticket/create', token, {
        eventId,
        ticketType: options.ticketType,
        quantity: 1,
      })
      if (held.status !== 200) {
        fail('hold', held.status)
        continue
      }
      step = 'pay'
      const paid = await post('/payments/local/pay', token, {
        orderId: held.body.orderId,
        outcome: 'success',
      })
      if (paid.status !== 200) {
        fail('pay', paid.status)
        continue
      }
      step = 'confirm'
      const done = await post('/ticket/handlePaymentSuccess', token, {
        paymentId: paid.body.razorpay_payment_id,
        orderId: paid.body.razorpay_order_id,
        signature: paid.body.razorpay_signature,
        event: eventId,
      })
      if (done.status !== 200) {
        fail('confirm', done.status)
        continue
      }
      latencies.push(performance.now() - t0)
      tickets[e]?.push(held.body.ticketId as string)
    } catch (error) {
      failed++
      // the step, and what the request said (a reset, a socket closed, a timeout)
      const code = (error as NodeJS.ErrnoException).code
      const key = `${step} ${(error as Error).message}${code ? `: ${code}` : ''}`.slice(0, 160)
      failures[key] = (failures[key] ?? 0) + 1
    }
  }
}
await Promise.all(Array.from({ length: options.concurrency }, lane))
const seconds = (performance.now() - started) / 1000
const used = process.cpuUsage(cpuAtStart)
latencies.sort((a, b) => a - b)
const at = (p: number) =>
  latencies[Math.min(latencies.length - 1, Math.ceil((p / 100) * latencies.length) - 1)] ?? 0
console.log(
  JSON.stringify({
    issued: latencies.length,
    failed,
    failures,
    tickets,
    seconds,
    p50: at(50),
    p99: at(99),
    max: latencies[latencies.length - 1] ?? 0,
    // the generator's own CPU time over the purchases: near `seconds`, it set the pace
    cpuSeconds: (used.user + used.system) / 1e6,
  }),
)
// the kept connections closed, so that the process ends
agent.destroy()
