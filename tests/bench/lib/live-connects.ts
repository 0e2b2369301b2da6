// Load generator process: `count` Socket.IO clients (the web app's default: long-polling first, then
// the upgrade to a WebSocket) opened at once against `url`; each one's time to connect. Prints one
// JSON line: how many connected, what the others failed with, and the times (ms).
import { io, type Socket } from 'socket.io-client'

type Options = { url: string; count: number }
const options = JSON.parse(process.argv[2] ?? '{}') as Options

const connectMs: number[] = []
const errors: Record<string, number> = {}
const sockets = await Promise.all(
  Array.from(
    { length: options.count },
    () =>
      new Promise<Socket>((resolve) => {
        const started = performance.now()
        const socket = io(options.url, { reconnection: false, timeout: 20_000 })
        socket.on('connect', () => {
          connectMs.push(performance.now() - started)
          resolve(socket)
        })
        socket.on('connect_error', (error) => {
          errors[error.message] = (errors[error.message] ?? 0) + 1
          resolve(socket)
        })
      }),
  ),
)
for (const socket of sockets) socket.close()
connectMs.sort((a, b) => a - b)
const at = (p: number) =>
  Math.round(connectMs[Math.min(connectMs.length - 1, Math.floor((p / 100) * connectMs.length))] ?? 0)
console.log(
  JSON.stringify({ connected: connectMs.length, errors, p50Ms: at(50), p90Ms: at(90), maxMs: at(100) }),
)
process.exit(0)
