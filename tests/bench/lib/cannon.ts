// Load generator process: autocannon against one route, each request with the next buyer's token
// when a tokens file is given. Prints one JSON line.
import { readFileSync } from 'node:fs'
import autocannon from 'autocannon'

type Options = {
  url: string
  method?: 'GET' | 'POST'
  path: string
  body?: unknown
  tokensFile?: string
  headers?: Record<string, string>
  connections: number
  amount?: number
  duration?: number
}

const options = JSON.parse(process.argv[2] ?? '{}') as Options
const tokens: string[] = options.tokensFile ? JSON.parse(readFileSync(options.tokensFile, 'utf8')) : []
let next = 0
const body = options.body === undefined ? undefined : JSON.stringify(options.body)

const started = performance.now()
const result = await autocannon({
  url: options.url,
  connections: options.connections,
  ...(options.amount ? { amount: options.amount } : { duration: options.duration ?? 10 }),
  requests: [
    {
      method: options.method ?? 'GET',
      path: options.path,
      headers: { ...(body ? { 'content-type': 'application/json' } : {}), ...options.headers },
      body,
      setupRequest: (request) => {
        if (tokens.length === 0) return request
        const token = tokens[next++ % tokens.length]
        return { ...request, headers: { ...request.headers, authorization: `Bearer ${token}` } }
      },
    },
  ],
})

// autocannon reports its duration in whole seconds (plus a little), which would quantise a short
// run's rate; the run is timed here instead.
const seconds = (performance.now() - started) / 1000
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
  }),
)
