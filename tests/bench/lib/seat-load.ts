// Load generator process of the seating-web bench (issue 40), on the load core. Prints 'ready' once
// set up, then one JSON line.
// - churn: buyers in turn hold 5 named seats of a seated section (POST /ticket/create with seats),
//   open loop at `holdsPerSecond` for `seconds` after one unmeasured hold each; each buyer's new hold
//   replaces their last, so a hold changes 10 seats (5 held, 5 freed). One socket watches the map's room and counts the seat changes heard:
//   the rate the maps were asked to show.
// - pushes: `clients` sockets watch the room `seats-<eventId>`, as the event page does; then
//   `holds` holds, one every `gapMs`, each of 5 named seats; for every hold and every socket, the
//   time from the hold's reply (its body read) to that socket hearing a `seats` message naming
//   the hold's first seat as held (negative when it came before the reply).
import http from 'node:http'
import { io, type Socket } from 'socket.io-client'

type Options = {
  mode: 'churn' | 'pushes'
  url: string
  eventId: string
  tokens: string[]
  /** churn */
  holdsPerSecond?: number
  seconds?: number
  /** pushes */
  clients?: number
  holds?: number
  gapMs?: number
}
const options = JSON.parse(process.argv[2] ?? '{}') as Options
const agent = new http.Agent({ keepAlive: true, maxSockets: 256 })
const SEATS_A_HOLD = 5

type Map = {
  sections: Array<{ rows: Array<{ seats: Array<{ id: string; status: string }> }> }>
}

/** the free seats in blocks of 5 aligned on each row (no hold leaves a single seat between two) */
async function freeBlocks(): Promise<string[][]> {
  const res = await fetch(`${options.url}/api/v1/event/${options.eventId}/seatmap`)
  if (!res.ok) throw new Error(`seatmap: ${res.status}`)
  const map = (await res.json()) as Map
  const blocks: string[][] = []
  for (const section of map.sections)
    for (const row of section.rows)
      for (let i = 0; i + SEATS_A_HOLD <= row.seats.length; i += SEATS_A_HOLD) {
        const block = row.seats.slice(i, i + SEATS_A_HOLD)
        if (block.every((seat) => seat.status === 'free')) blocks.push(block.map((seat) => seat.id))
      }
  return blocks
}

function hold(token: string, seats: string[]): Promise<{ status: number; at: number }> {
  const body = JSON.stringify({ eventId: options.eventId, seats })
  return new Promise((resolve, reject) => {
    const request = http.request(
      `${options.url}/api/v1/ticket/create`,
      {
        method: 'POST',
        agent,
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      },
      (response) => {
        response.resume()
        response.on('end', () => resolve({ status: response.statusCode ?? 0, at: performance.now() }))
        response.on('error', reject)
      },
    )
    request.on('error', reject)
    request.end(body)
  })
}

type Change = { id: string; status: string }

async function watcher(onSeats: (changes: Change[]) => void): Promise<Socket> {
  const socket = io(options.url, { transports: ['websocket'], reconnection: false })
  socket.on('seats', (message: { changes?: Change[] }) => onSeats(message.changes ?? []))
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', () => resolve())
    socket.once('connect_error', reject)
  })
  const ack = (await socket.emitWithAck('watch', `seats-${options.eventId}`)) as { ok: boolean }
  if (!ack.ok) throw new Error(`watch refused: ${JSON.stringify(ack)}`)
  return socket
}

const pick = <T>(list: T[]): T => {
  const i = Math.floor(Math.random() * list.length)
  const chosen = list[i] as T
  list[i] = list[list.length - 1] as T
  list.pop()
  return chosen
}

async function churn() {
  const rate = options.holdsPerSecond ?? 50
  const seconds = options.seconds ?? 15
  const free = await freeBlocks()
  const heldBy = new Map<string, string[]>()
  let changes = 0
  const socket = await watcher((c) => {
    changes += c.length
  })
  let statuses: Record<string, number> = {}
  let errors = 0
  console.log('ready')
  let cpu0 = process.cpuUsage()
  let startedAt = Date.now()
  let t0 = performance.now()
  const inFlight: Promise<void>[] = []
  let sent = 0
  /** holds sent before t0 */
  let before = 0
  let buyer = 0
  // every buyer holds once first, unmeasured: in the window, each hold replaces its buyer's last
  const warmup = options.tokens.length
  let warm = false
  for (;;) {
    if (!warm && sent === warmup) {
      await Promise.all(inFlight.splice(0))
      warm = true
      // the window's holds planned from its start
      t0 = performance.now()
      before = sent
      statuses = {}
      changes = 0
      cpu0 = process.cpuUsage()
      startedAt = Date.now()
    }
    if (warm && performance.now() - t0 >= seconds * 1000) break
    // open loop: the next hold at its planned time, answered or not
    const due = t0 + ((sent - before) * 1000) / rate
    const wait = due - performance.now()
    if (wait > 0) await new Promise((r) => setTimeout(r, wait))
    const token = options.tokens[buyer % options.tokens.length] as string
    buyer += 1
    sent += 1
    const block = free.length > 0 ? pick(free) : null
    if (!block) break
    inFlight.push(
      hold(token, block).then(
        ({ status }) => {
          statuses[status] = (statuses[status] ?? 0) + 1
          if (status === 200) {
            const last = heldBy.get(token)
            heldBy.set(token, block)
            if (last) free.push(last)
          } else free.push(block)
        },
        () => {
          errors += 1
          free.push(block)
        },
      ),
    )
  }
  const endedAt = Date.now()
  await Promise.all(inFlight)
  // the last pushes of the window
  await new Promise((r) => setTimeout(r, 300))
  const cpu = process.cpuUsage(cpu0)
  socket.disconnect()
  console.log(
    JSON.stringify({
      startedAt,
      endedAt,
      seconds: (endedAt - startedAt) / 1000,
      sent: sent - warmup,
      statuses,
      errors,
      changesHeard: changes,
      cpuSeconds: (cpu.user + cpu.system) / 1e6,
    }),
  )
}

async function pushes() {
  const clients = options.clients ?? 200
  const holds = options.holds ?? 100
  const gapMs = options.gapMs ?? 100
  const free = await freeBlocks()
  /** each hold's first seat: when each socket heard it held */
  const heard = new Map<string, number[]>()
  const sockets = await Promise.all(
    Array.from({ length: clients }, () =>
      watcher((changes) => {
        const now = performance.now()
        for (const change of changes) {
          if (change.status !== 'held') continue
          heard.get(change.id)?.push(now)
        }
      }),
    ),
  )
  console.log('ready')
  const cpu0 = process.cpuUsage()
  const replies: Array<{ seat: string; at: number }> = []
  const statuses: Record<string, number> = {}
  for (let i = 0; i < holds; i++) {
    const started = performance.now()
    const block = pick(free)
    const seat = block[0] as string
    heard.set(seat, [])
    const reply = await hold(options.tokens[i % options.tokens.length] as string, block)
    statuses[reply.status] = (statuses[reply.status] ?? 0) + 1
    if (reply.status === 200) replies.push({ seat, at: reply.at })
    const rest = gapMs - (performance.now() - started)
    if (rest > 0) await new Promise((r) => setTimeout(r, rest))
  }
  // the last ones' pushes
  const deadline = performance.now() + 5000
  const complete = () => replies.every((r) => (heard.get(r.seat)?.length ?? 0) >= clients)
  while (!complete() && performance.now() < deadline) await new Promise((r) => setTimeout(r, 20))
  const cpu = process.cpuUsage(cpu0)
  const latencies: number[] = []
  let missing = 0
  for (const reply of replies) {
    const times = heard.get(reply.seat) ?? []
    missing += Math.max(0, clients - times.length)
    for (const t of times) latencies.push(t - reply.at)
  }
  for (const socket of sockets) socket.disconnect()
  console.log(
    JSON.stringify({
      clients,
      holds,
      gapMs,
      statuses,
      latencies,
      missing,
      cpuSeconds: (cpu.user + cpu.system) / 1e6,
    }),
  )
}

if (options.mode === 'churn') await churn()
else await pushes()
// exit once stdout has taken the result: a pipe may not have all of it (400 kB) at process.exit
await new Promise((resolve) => process.stdout.write('', resolve))
process.exit(0)
