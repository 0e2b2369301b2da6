// Load generator process for the pg-cluster bench: a closed loop of clients, each a buyer of its
// own (its sign-in token) holding one seat of one event again and again (POST /api/v1/ticket/create;
// a buyer's new hold replaces their last one, an unpaid hold of the same event), the next request
// sent when the last is answered. Each target is one app process and the event its clients buy.
//
// It runs `warmupSeconds`, prints {"measuring":true}, runs `seconds` more, prints
// {"measured":true}, then one JSON line with what was answered in the measured window (answers that
// arrived within it, by status; their latencies; the generator's own CPU time within it).
import http from 'node:http'

type Options = {
  targets: Array<{ url: string; eventId: string; tokens: string[] }>
  warmupSeconds: number
  seconds: number
}

const options = JSON.parse(process.argv[2] ?? '{}') as Options

const latencies: number[] = []
const statusCodes: Record<string, number> = {}
let replaced = 0
let errors = 0
let measuring = false
let stopping = false

function post(agent: http.Agent, url: URL, token: string, body: string) {
  return new Promise<{ status: number; text: string }>((resolve, reject) => {
    const request = http.request(
      {
        agent,
        host: url.hostname,
        port: url.port,
        method: 'POST',
        path: '/api/v1/ticket/create',
        headers: {
          authorization: `Bearer ${token}`,
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(body),
        },
      },
      (response) => {
        let text = ''
        response.setEncoding('utf8')
        response.on('data', (c: string) => {
          text += c
        })
        response.on('end', () => resolve({ status: response.statusCode ?? 0, text }))
        response.on('error', reject)
      },
    )
    request.on('error', reject)
    request.end(body)
  })
}

async function client(agent: http.Agent, url: URL, token: string, body: string) {
  while (!stopping) {
    const started = performance.now()
    try {
      const { status, text } = await post(agent, url, token, body)
      if (!measuring || stopping) continue
      latencies.push(performance.now() - started)
      statusCodes[status] = (statusCodes[status] ?? 0) + 1
      if (status === 200 && text.includes('replacedTicketIds')) replaced++
    } catch {
      if (measuring && !stopping) errors++
      await new Promise((r) => setTimeout(r, 10))
    }
  }
}

const agents: http.Agent[] = []
const loops: Array<Promise<void>> = []
for (const target of options.targets) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: target.tokens.length })
  agents.push(agent)
  const url = new URL(target.url)
  const body = JSON.stringify({ eventId: target.eventId, ticketType: 'General Admission', quantity: 1 })
  for (const token of target.tokens) loops.push(client(agent, url, token, body))
}

await new Promise((r) => setTimeout(r, options.warmupSeconds * 1000))
measuring = true
const started = performance.now()
const cpuAtStart = process.cpuUsage()
console.log(JSON.stringify({ measuring: true }))
await new Promise((r) => setTimeout(r, options.seconds * 1000))
stopping = true
const seconds = (performance.now() - started) / 1000
const cpu = process.cpuUsage(cpuAtStart)
console.log(JSON.stringify({ measured: true }))
await Promise.all(loops)
for (const agent of agents) agent.destroy()

latencies.sort((a, b) => a - b)
const at = (p: number) =>
  latencies[Math.min(latencies.length - 1, Math.max(0, Math.ceil((p / 100) * latencies.length) - 1))] ?? 0
const answered = latencies.length
console.log(
  JSON.stringify({
    answered,
    holds: statusCodes['200'] ?? 0,
    replaced,
    statusCodes,
    errors,
    seconds,
    p50: Math.round(at(50) * 100) / 100,
    p99: Math.round(at(99) * 100) / 100,
    cpuSeconds: (cpu.user + cpu.system) / 1e6,
  }),
)
