// live fan-out: commit-to-screen latency of an availability push to 2,000 sockets in one event
// room, against a plain `ws` broadcast of the same size to 2,000 clients; and the server's memory
// idle and with the sockets connected.
import { rmSync } from 'node:fs'
import { freePort } from '../support/server.ts'
import { cores, rssMb, spawnPinned, startAppServer, waitUntilUp } from './lib/processes.ts'
import { seed } from './lib/seed.ts'
import { round } from './lib/stats.ts'

type Sockets = { received: number; expected: number; p50: number; p99: number; deliveriesPerSecond: number }

export type FanoutResult = {
  clients: number
  pushes: number
  p50Ms: number
  p99Ms: number
  deliveriesPerSecond: number
  baselineP50Ms: number
  baselineP99Ms: number
  baselineDeliveriesPerSecond: number
  ratio: number
  delivered: number
  expected: number
  rssIdleMb: number
  rssWithSocketsMb: number
}

const CLIENTS = 2000
const PUSHES = 30

async function clients(options: object, trigger: () => Promise<void>) {
  const load = spawnPinned(cores.load, ['tests/bench/lib/sockets.ts', JSON.stringify(options)])
  const deadline = Date.now() + 120_000
  while (!load.output().includes('ready')) {
    if (Date.now() > deadline) throw new Error(`sockets never ready:\n${load.output()}`)
    if (load.child.exitCode !== null) throw new Error(`sockets failed:\n${load.output()}`)
    await new Promise((r) => setTimeout(r, 50))
  }
  await trigger()
  await load.exited
  const line = load
    .output()
    .trim()
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .pop()
  if (!line) throw new Error(`no result:\n${load.output()}`)
  return JSON.parse(line) as Sockets
}

export async function benchFanout(): Promise<FanoutResult> {
  const data = seed({ buyers: PUSHES, events: 1, seats: 100_000 })
  const event = data.events[0]
  if (!event) throw new Error('no event')
  const server = await startAppServer(data.dataDir, { QUEUE_PREFIX: `bench-fanout-${Date.now()}` })
  let rssWithSockets = 0
  const rssIdleMb = rssMb(server.pid)
  let ours: Sockets
  try {
    ours = await clients(
      {
        url: server.url,
        clients: CLIENTS,
        room: `event-${event.eventId}`,
        pushes: PUSHES,
        kind: 'socket.io',
      },
      async () => {
        rssWithSockets = rssMb(server.pid)
        for (let i = 0; i < PUSHES; i++) {
          const res = await fetch(`${server.url}/api/v1/ticket/create`, {
            method: 'POST',
            headers: { 'content-type': 'application/json', authorization: `Bearer ${data.tokens[i]}` },
            body: JSON.stringify({ eventId: event.eventId, ticketType: 'General Admission', quantity: 1 }),
          })
          if (res.status !== 200) throw new Error(`hold failed: ${res.status} ${await res.text()}`)
          await new Promise((r) => setTimeout(r, 200))
        }
      },
    )
  } finally {
    await server.stop()
    rmSync(data.dataDir, { recursive: true, force: true })
  }

  const port = await freePort()
  const broadcaster = spawnPinned(cores.server, ['tests/bench/lib/ws-broadcast.ts'], { PORT: String(port) })
  let base: Sockets
  try {
    await waitUntilUp(`http://127.0.0.1:${port}/`)
    base = await clients(
      { url: `ws://127.0.0.1:${port}`, clients: CLIENTS, pushes: PUSHES, kind: 'ws' },
      async () => {
        for (let i = 0; i < PUSHES; i++) {
          await fetch(`http://127.0.0.1:${port}/send`)
          await new Promise((r) => setTimeout(r, 200))
        }
      },
    )
  } finally {
    broadcaster.child.kill('SIGTERM')
    await broadcaster.exited
  }
  return {
    clients: CLIENTS,
    pushes: PUSHES,
    p50Ms: ours.p50,
    p99Ms: ours.p99,
    deliveriesPerSecond: round(ours.deliveriesPerSecond, 0),
    baselineP50Ms: base.p50,
    baselineP99Ms: base.p99,
    baselineDeliveriesPerSecond: round(base.deliveriesPerSecond, 0),
    ratio: round(ours.deliveriesPerSecond / base.deliveriesPerSecond, 3),
    delivered: ours.received,
    expected: ours.expected,
    rssIdleMb,
    rssWithSocketsMb: rssWithSockets,
  }
}

if (import.meta.url === `file://${process.argv[1]}`) console.log(await benchFanout())
