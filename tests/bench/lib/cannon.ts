// Load generator process: autocannon against one route, each request with the next buyer's token
// when a tokens file is given. Prints one JSON line.
//
// `urls` (instead of `url`) spreads the load over several app processes: one autocannon instance
// per address, the connections and the amount shared out between them round-robin (a client stays
// on its process), every response timed into one set of latencies. The variants that compare
// stores and process counts (sale-stores.ts) always pass `urls`, one address or more, so they are
// measured alike.
import { readFileSync } from 'node:fs'
import autocannon from 'autocannon'

type Options = {
  url?: string
  urls?: string[]
  method?: 'GET' | 'POST'
  path: string
  body?: unknown
  tokensFile?: string
  headers?: Record<string, string>
  connections: number
  amount?: number
  duration?: number
  /** POST /ticket/create naming seats: the n-th request names the n-th of these (as it takes the
   * n-th token), added to `body` as its `seats` */
  namedSeats?: string[]
}

const options = JSON.parse(process.argv[2] ?? '{}') as Options
const tokens: string[] = options.tokensFile ? JSON.parse(readFileSync(options.tokensFile, 'utf8')) : []
let next = 0
const body = options.body === undefined ? undefined : JSON.stringify(options.body)

const requests: autocannon.Request[] = [
  {
    method: options.method ?? 'GET',
    path: options.path,
    headers: { ...(body ? { 'content-type': 'application/json' } : {}), ...options.headers },
    body,
    setupRequest: (request) => {
      const n = next++
      const seats = options.namedSeats
      const named = seats?.length
        ? { body: JSON.stringify({ ...(options.body as object), seats: [seats[n % seats.length]] }) }
        : {}
      if (tokens.length === 0) return { ...request, ...named }
      const token = tokens[n % tokens.length]
      return { ...request, ...named, headers: { ...request.headers, authorization: `Bearer ${token}` } }
    },
  },
]

const started = performance.now()
/** when the last answer came: autocannon ends a run of `amount` requests only at its next tick of
 * a second, which would make every rate the amount over a whole number of seconds (plus a little) */
let lastAnswerAt = started
const answered = () => {
  lastAnswerAt = performance.now()
}
const runSeconds = () => ((options.amount ? lastAnswerAt : performance.now()) - started) / 1000
const cpuAtStart = process.cpuUsage()
/** the generator's own CPU time: near the run's duration, it and not the server set the pace */
const cpuSeconds = () => {
  const used = process.cpuUsage(cpuAtStart)
  return (used.user + used.system) / 1e6
}

if (options.urls) {
  const urls = options.urls
  /** n shared out over the addresses, the first ones taking the remainder */
  const share = (n: number, i: number) => Math.floor(n / urls.length) + (i < n % urls.length ? 1 : 0)
  const latencies: number[] = []
  const results = await Promise.all(
    urls.map(
      (url, i) =>
        new Promise<autocannon.Result>((resolve, reject) => {
          const instance = autocannon(
            {
              url,
              connections: share(options.connections, i),
              ...(options.amount
                ? { amount: share(options.amount, i) }
                : { duration: options.duration ?? 10 }),
              requests,
            },
            (error, result) => (error ? reject(error) : resolve(result)),
          )
          instance.on('response', (_client, _status, _bytes, responseTime) => {
            latencies.push(responseTime)
            answered()
          })
        }),
    ),
  )
  const seconds = runSeconds()
  latencies.sort((a, b) => a - b)
  const at = (p: number) =>
    latencies[Math.min(latencies.length - 1, Math.max(0, Math.ceil((p / 100) * latencies.length) - 1))] ?? 0
  const statusCodes: Record<string, { count: number }> = {}
  for (const result of results) {
    for (const [code, { count }] of Object.entries(
      result.statusCodeStats as Record<string, { count: number }>,
    ))
      statusCodes[code] = { count: (statusCodes[code]?.count ?? 0) + count }
  }
  const total = results.reduce((sum, r) => sum + r.requests.total, 0)
  console.log(
    JSON.stringify({
      requests: total,
      requestsPerSecond: total / seconds,
      p50: Math.round(at(50) * 100) / 100,
      p99: Math.round(at(99) * 100) / 100,
      statusCodes,
      errors: results.reduce((sum, r) => sum + r.errors, 0),
      timeouts: results.reduce((sum, r) => sum + r.timeouts, 0),
      duration: seconds,
      perUrl: results.map((r) => r.requests.total),
      cpuSeconds: cpuSeconds(),
    }),
  )
} else {
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon(
      {
        url: options.url as string,
        connections: options.connections,
        ...(options.amount ? { amount: options.amount } : { duration: options.duration ?? 10 }),
        requests,
      },
      (error, done) => (error ? reject(error) : resolve(done)),
    )
    instance.on('response', answered)
  })

  // autocannon reports its duration in whole seconds (plus a little), which would quantise a short
  // run's rate; the run is timed here instead, to its last answer when it is a number of requests.
  const seconds = runSeconds()
  console.log(
    JSON.stringify({
      requests: result.requests.total,
      requestsPerSecond: result.requests.total / seconds,
      p50: result.latency.p50,
      p99: result.latency.p99,
      statusCodes: result.statusCodeStats,
      errors: result.errors,
      timeouts: result.timeouts,
      duration: seconds,
      cpuSeconds: cpuSeconds(),
    }),
  )
}
