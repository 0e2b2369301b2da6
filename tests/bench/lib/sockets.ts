// Load generator process: `clients` sockets in one room; records, for every push delivered, the
// time from its commit (or send) to its arrival. Prints 'ready' once all are in, then one JSON line.

import { io, type Socket } from 'socket.io-client'
import WebSocket from 'ws'

type Options = { url: string; clients: number; room?: string; pushes: number; kind: 'socket.io' | 'ws' }
const options = JSON.parse(process.argv[2] ?? '{}') as Options

const latencies: number[] = []
const firstSeen = new Map<number, number>()
const lastSeen = new Map<number, number>()
let received = 0
const expected = options.clients * options.pushes

const record = (id: number, sentAt: number) => {
  const now = Date.now()
  latencies.push(now - sentAt)
  if (!firstSeen.has(id)) firstSeen.set(id, now)
  lastSeen.set(id, now)
  received++
}

const sockets: Array<Socket | WebSocket> = []
await Promise.all(
  Array.from({ length: options.clients }, async () => {
    if (options.kind === 'ws') {
      const ws = new WebSocket(options.url)
      sockets.push(ws)
      ws.on('message', (raw) => {
        const push = JSON.parse(String(raw)) as { id: number; sentAt: number }
        record(push.id, push.sentAt)
      })
      await new Promise((resolve, reject) => {
        ws.once('open', resolve)
        ws.once('error', reject)
      })
      return
    }
    const socket = io(options.url, { transports: ['websocket'], reconnection: false })
    sockets.push(socket)
    socket.on('fact', (push: { position: number; at: string; type: string }) => {
      if (push.type === 'TicketsHeld') record(push.position, Date.parse(push.at))
    })
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', () => resolve())
      socket.once('connect_error', reject)
    })
    await socket.emitWithAck('watch', options.room)
  }),
)
console.log('ready')
const deadline = Date.now() + 60_000
while (received < expected && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20))
latencies.sort((a, b) => a - b)
const at = (p: number) =>
  latencies[Math.min(latencies.length - 1, Math.ceil((p / 100) * latencies.length) - 1)] ?? 0
// Deliveries per second: each push's clients divided by the time from its first to its last arrival.
const spans = [...firstSeen.keys()].map((id) => (lastSeen.get(id) ?? 0) - (firstSeen.get(id) ?? 0) || 1)
spans.sort((a, b) => a - b)
const medianSpan = spans[Math.floor(spans.length / 2)] ?? 1
console.log(
  JSON.stringify({
    received,
    expected,
    p50: at(50),
    p99: at(99),
    deliveriesPerSecond: (options.clients * 1000) / medianSpan,
  }),
)
for (const s of sockets)
  (s as { close?: () => void; disconnect?: () => void }).disconnect?.() ?? (s as WebSocket).close()
process.exit(0)
