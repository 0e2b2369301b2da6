// Load generator process for the soak (soak.ts): `clients` Socket.IO clients, each watching one of
// the events' pages, held open for `seconds`. Prints 'ready' once all are in, one JSON line per
// window (still connected, pushes received, drops), then a final line with `done`.
import { io, type Socket } from 'socket.io-client'

type Options = { url: string; clients: number; eventIds: string[]; seconds: number; windowSeconds: number }
const options = JSON.parse(process.argv[2] ?? '{}') as Options

let pushes = 0
let drops = 0
const sockets: Socket[] = []
// connected in waves of 100: a thousand handshakes at once would only measure the handshake burst
for (let i = 0; i < options.clients; i += 100) {
  await Promise.all(
    Array.from({ length: Math.min(100, options.clients - i) }, async (_, j) => {
      const socket = io(options.url, { transports: ['websocket'], reconnection: false })
      sockets.push(socket)
      socket.on('fact', () => {
        pushes++
      })
      socket.on('disconnect', () => {
        drops++
      })
      await new Promise<void>((resolve, reject) => {
        socket.once('connect', () => resolve())
        socket.once('connect_error', reject)
      })
      const eventId = options.eventIds[(i + j) % options.eventIds.length] as string
      await socket.emitWithAck('watch', `event-${eventId}`)
    }),
  )
}
console.log('ready')
const started = performance.now()
const windows = setInterval(() => {
  console.log(
    JSON.stringify({
      t: Math.round((performance.now() - started) / 1000),
      connected: sockets.filter((s) => s.connected).length,
      pushes,
      drops,
    }),
  )
  pushes = 0
}, options.windowSeconds * 1000)
await new Promise((r) => setTimeout(r, options.seconds * 1000))
clearInterval(windows)
const connected = sockets.filter((s) => s.connected).length
for (const s of sockets) s.disconnect()
console.log(JSON.stringify({ done: true, connected, drops }))
process.exit(0)
