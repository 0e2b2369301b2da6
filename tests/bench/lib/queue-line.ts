// Load generator process for the waiting room's line (queue.ts): the buyers tokens[from, to), each
// a signed-in Socket.IO connection recording every `queue` message it hears, with the time heard.
// Prints 'ready' once all are connected; waits for the event's sale time to be set, then the first
// `early` of them join the line (the pre-queue) and it prints 'early-joined'; once the sale opens
// (a connection hears itself waiting) the others join and it prints 'late-joined'. When `stopFile`
// exists it writes what each heard to `outFile` and prints one JSON line.
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { io, type Socket } from 'socket.io-client'
import type { QueuePush } from '../../../contracts/queue.ts'

type Options = {
  url: string
  tokensFile: string
  from: number
  to: number
  /** of these buyers, the first `early` join before the opening */
  early: number
  eventId: string
  stopFile: string
  outFile: string
}
const options = JSON.parse(process.argv[2] ?? '{}') as Options
const tokens = (JSON.parse(readFileSync(options.tokensFile, 'utf8')) as string[]).slice(
  options.from,
  options.to,
)
const cpuAtStart = process.cpuUsage()
const now = () => performance.timeOrigin + performance.now()
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

/** each client's messages, flat: time heard (ms), then the position when waiting, 0 when
 * admitted, -1 in the pre-queue, -2 otherwise */
const heard: number[][] = tokens.map(() => [])
/** the admissions' ends each client was told of (one admission each: at most one value) */
const admissions: Array<Set<string>> = tokens.map(() => new Set())
let opened = false
let disconnects = 0
const connectErrors: Record<string, number> = {}

/** runs `task` for each index, `lanes` at a time */
async function each(count: number, lanes: number, task: (i: number) => Promise<void>) {
  let next = 0
  await Promise.all(
    Array.from({ length: lanes }, async () => {
      for (let i = next++; i < count; i = next++) await task(i)
    }),
  )
}

const sockets: Socket[] = []
const connectStarted = now()
await each(tokens.length, 200, async (i) => {
  for (let attempt = 0; ; attempt++) {
    const socket = io(options.url, {
      auth: { token: tokens[i] },
      transports: ['websocket'],
      reconnection: false,
    })
    socket.on('queue', (push: QueuePush) => {
      if (push.eventId !== options.eventId) return
      const code =
        push.state === 'waiting'
          ? (push.position ?? -2)
          : push.state === 'admitted'
            ? 0
            : push.state === 'pre-queue'
              ? -1
              : -2
      heard[i]?.push(now(), code)
      if (push.state === 'admitted' && push.admissionExpiresAt) admissions[i]?.add(push.admissionExpiresAt)
      if (push.state === 'waiting') opened = true
    })
    const ok = await new Promise<boolean>((resolve) => {
      socket.once('connect', () => resolve(true))
      socket.once('connect_error', (error) => {
        connectErrors[error.message] = (connectErrors[error.message] ?? 0) + 1
        resolve(false)
      })
    })
    if (ok) {
      socket.on('disconnect', () => disconnects++)
      sockets[i] = socket
      return
    }
    socket.close()
    if (attempt >= 5) throw new Error(`client ${options.from + i} could not connect`)
    await sleep(500)
  }
})
const connectMs = now() - connectStarted
console.log('ready')

const joinErrors: Record<string, number> = {}
const join = async (i: number) => {
  try {
    const res = await fetch(`${options.url}/api/v1/event/${options.eventId}/queue`, {
      method: 'POST',
      headers: { authorization: `Bearer ${tokens[i]}` },
    })
    await res.arrayBuffer()
    if (res.status !== 200) joinErrors[res.status] = (joinErrors[res.status] ?? 0) + 1
  } catch (error) {
    const key = (error as { cause?: { code?: string } }).cause?.code ?? 'network'
    joinErrors[key] = (joinErrors[key] ?? 0) + 1
  }
}
/** joins in flight from this process (each an HTTP connection, which the server's open files'
 * limit counts beside the sockets) */
const LANES = 25

// the sale time set: the early ones join the pre-queue
for (;;) {
  const res = await fetch(`${options.url}/api/v1/event/${options.eventId}/onsale`)
  await res.arrayBuffer()
  if (res.status === 200) break
  await sleep(100)
}
const early = Math.min(options.early, tokens.length)
const earlyStarted = now()
await each(early, LANES, join)
const earlyMs = now() - earlyStarted
console.log('early-joined')
while (!opened) await sleep(20)
const lateStarted = now()
await each(tokens.length - early, LANES, (i) => join(early + i))
const lateMs = now() - lateStarted
console.log('late-joined')

while (!existsSync(options.stopFile)) await sleep(100)
writeFileSync(options.outFile, JSON.stringify({ heard, admissions: admissions.map((a) => a.size) }))
const used = process.cpuUsage(cpuAtStart)
console.log(
  JSON.stringify({
    clients: tokens.length,
    connected: sockets.filter(Boolean).length,
    connectMs: Math.round(connectMs),
    earlyMs: Math.round(earlyMs),
    lateMs: Math.round(lateMs),
    joinErrors,
    connectErrors,
    disconnects,
    cpuSeconds: (used.user + used.system) / 1e6,
  }),
)
for (const socket of sockets) socket?.disconnect()
process.exit(0)
