// Receiver of the webhooks bench: `endpoints` HTTP listeners on 127.0.0.1, one port each (so each
// endpoint is known by where it was sent), and a control listener the bench drives:
//   POST /secrets  {index: secret, …}   the endpoints' signing secrets, once they are added
//   POST /down                          every endpoint's listener closed and its open connections
//                                       dropped: the server's next attempts are refused
//   POST /up                            listening again on the same ports
//   GET  /summary                       what arrived, per endpoint (below)
// Each delivery is verified with the Standard Webhooks library (standardwebhooks) against its
// endpoint's secret and answered 204; what is kept of it: its webhook-id, its ledger position,
// its ticket, when the fact happened and when it arrived. A webhook-id arriving again after it
// was answered 2xx is a duplicate; a position lower than the endpoint's last one is out of order.
// Prints `{"ports":[…],"control":…}` once listening.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { Webhook } from 'standardwebhooks'

type Options = { endpoints: number }
const options = JSON.parse(process.argv[2] ?? '{}') as Options

type Endpoint = {
  port: number
  server: Server
  verifier: Webhook | null
  /** webhook-id → how many times it arrived (answered 2xx each time) */
  seen: Map<string, number>
  /** tickets of order.paid deliveries, in arrival order (first arrival of each id) */
  tickets: string[]
  lastPosition: number
  outOfOrder: Array<{ id: string; position: number; after: number }>
  duplicates: string[]
  badSignatures: number
  otherKinds: Record<string, number>
  /** ms from the fact (`at`) to its first arrival */
  lags: number[]
  firstAt: number
  lastAt: number
  /** the first arrival after the last /up */
  firstAfterUpAt: number
}

const read = (req: IncomingMessage) =>
  new Promise<string>((resolve, reject) => {
    let body = ''
    req.setEncoding('utf8')
    req.on('data', (chunk: string) => {
      body += chunk
    })
    req.on('end', () => resolve(body))
    req.on('error', reject)
  })

const listen = (server: Server, port = 0) =>
  new Promise<number>((resolve, reject) => {
    server.once('error', reject)
    server.listen(port, '127.0.0.1', () => {
      server.off('error', reject)
      resolve((server.address() as AddressInfo).port)
    })
  })

function handler(endpoint: () => Endpoint) {
  return async (req: IncomingMessage, res: ServerResponse) => {
    const body = await read(req)
    const e = endpoint()
    const headers = req.headers as Record<string, string>
    let payload: { id: string; type: string; position: number; at: string; data: { ticketId?: string } }
    try {
      if (!e.verifier) throw new Error('no secret yet')
      payload = e.verifier.verify(body, headers) as typeof payload
    } catch {
      e.badSignatures++
      // refused like a receiver refuses a forged delivery; the server tries it again
      res.writeHead(400).end()
      return
    }
    const id = headers['webhook-id'] as string
    const times = e.seen.get(id) ?? 0
    e.seen.set(id, times + 1)
    const now = Date.now()
    if (times > 0) e.duplicates.push(id)
    else {
      if (payload.position < e.lastPosition)
        e.outOfOrder.push({ id, position: payload.position, after: e.lastPosition })
      e.lastPosition = Math.max(e.lastPosition, payload.position)
      if (payload.type === 'order.paid') e.tickets.push(String(payload.data.ticketId))
      else e.otherKinds[payload.type] = (e.otherKinds[payload.type] ?? 0) + 1
      e.lags.push(now - Date.parse(payload.at))
      if (!e.firstAt) e.firstAt = now
      if (upAt && !e.firstAfterUpAt) e.firstAfterUpAt = now
      e.lastAt = now
    }
    res.writeHead(204).end()
  }
}

const endpoints: Endpoint[] = []
let downAt = 0
let upAt = 0
for (let i = 0; i < options.endpoints; i++) {
  const server = createServer(handler(() => endpoints[i] as Endpoint))
  const port = await listen(server)
  endpoints.push({
    port,
    server,
    verifier: null,
    seen: new Map(),
    tickets: [],
    lastPosition: 0,
    outOfOrder: [],
    duplicates: [],
    badSignatures: 0,
    otherKinds: {},
    lags: [],
    firstAt: 0,
    lastAt: 0,
    firstAfterUpAt: 0,
  })
}

const control = createServer(async (req, res) => {
  const body = await read(req)
  const answer = (value: unknown) => {
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(value))
  }
  if (req.method === 'POST' && req.url === '/secrets') {
    for (const [index, secret] of Object.entries(JSON.parse(body) as Record<string, string>)) {
      const e = endpoints[Number(index)]
      if (e) e.verifier = new Webhook(secret)
    }
    return answer({ ok: true })
  }
  if (req.method === 'POST' && req.url === '/down') {
    await Promise.all(
      endpoints.map(
        (e) =>
          new Promise<void>((resolve) => {
            e.server.close(() => resolve())
            // keep-alive connections too: nothing of this receiver answers while it is down
            e.server.closeAllConnections()
          }),
      ),
    )
    downAt = Date.now()
    return answer({ at: downAt })
  }
  if (req.method === 'POST' && req.url === '/up') {
    for (const [i, e] of endpoints.entries()) {
      e.server = createServer(handler(() => endpoints[i] as Endpoint))
      await listen(e.server, e.port)
    }
    upAt = Date.now()
    for (const e of endpoints) e.firstAfterUpAt = 0
    return answer({ at: upAt })
  }
  if (req.method === 'GET' && req.url?.startsWith('/summary')) {
    const withTickets = req.url.includes('tickets=1')
    return answer({
      downAt,
      upAt,
      cpuSeconds: (process.cpuUsage().user + process.cpuUsage().system) / 1e6,
      endpoints: endpoints.map((e) => ({
        port: e.port,
        arrived: e.seen.size,
        answered: [...e.seen.values()].reduce((a, b) => a + b, 0),
        tickets: withTickets ? e.tickets : e.tickets.length,
        duplicates: e.duplicates,
        outOfOrder: e.outOfOrder.slice(0, 20),
        outOfOrderCount: e.outOfOrder.length,
        badSignatures: e.badSignatures,
        otherKinds: e.otherKinds,
        lags: withTickets ? e.lags : [],
        firstAt: e.firstAt,
        lastAt: e.lastAt,
        firstAfterUpAt: e.firstAfterUpAt,
      })),
    })
  }
  res.writeHead(404).end()
})
const controlPort = await listen(control)
console.log(JSON.stringify({ ports: endpoints.map((e) => e.port), control: controlPort }))
