// A TCP proxy that stands for a network between the app and its database: every chunk read from
// either side is written to the other `delayMs` later, in the order it was read on its
// connection (so a round trip through it costs at least 2 × delayMs). Used by the pg-cluster
// bench with PostgreSQL behind it (the app's DATABASE_URL points here).
//
// As a process of its own: `node --import tsx tests/bench/lib/delay-proxy.ts '{"delayMs":5,
// "target":{"host":"127.0.0.1","port":5432}}'` prints one JSON line, {"port":…}, once it listens,
// and runs until it is stopped.
import net from 'node:net'

export type DelayProxyOptions = {
  delayMs: number
  target: { host: string; port: number }
  /** where to listen; a free port of 127.0.0.1 unless told */
  port?: number
}

export type DelayProxy = { port: number; connections(): number; close(): Promise<void> }

/** Writes what `from` reads to `to`, each chunk `delayMs` after it was read, in order. */
function delayedPipe(from: net.Socket, to: net.Socket, delayMs: number) {
  const queue: Array<{ at: number; chunk: Buffer }> = []
  let timer: NodeJS.Timeout | undefined
  let ended = false
  const flush = () => {
    timer = undefined
    const now = performance.now()
    while (queue.length > 0 && (queue[0] as { at: number }).at <= now) {
      const { chunk } = queue.shift() as { chunk: Buffer }
      if (!to.destroyed) to.write(chunk)
    }
    if (queue.length > 0) {
      timer = setTimeout(flush, Math.max(0, (queue[0] as { at: number }).at - now))
    } else if (ended && !to.destroyed) {
      to.end()
    }
  }
  from.on('data', (chunk: Buffer) => {
    queue.push({ at: performance.now() + delayMs, chunk })
    if (!timer) timer = setTimeout(flush, delayMs)
  })
  // the end travels behind the last chunk
  from.on('end', () => {
    ended = true
    if (!timer) timer = setTimeout(flush, delayMs)
  })
}

export function startDelayProxy(options: DelayProxyOptions): Promise<DelayProxy> {
  const sockets = new Set<net.Socket>()
  const server = net.createServer((client) => {
    const upstream = net.connect(options.target.port, options.target.host)
    for (const socket of [client, upstream]) {
      socket.setNoDelay(true)
      sockets.add(socket)
      socket.on('close', () => {
        sockets.delete(socket)
        // what was read before the close is still on its way: the other side closes after it
        setTimeout(() => {
          client.destroy()
          upstream.destroy()
        }, options.delayMs + 1)
      })
      socket.on('error', () => {
        client.destroy()
        upstream.destroy()
      })
    }
    delayedPipe(client, upstream, options.delayMs)
    delayedPipe(upstream, client, options.delayMs)
  })
  return new Promise((resolve, reject) => {
    server.once('error', reject)
    server.listen(options.port ?? 0, '127.0.0.1', () => {
      const address = server.address() as net.AddressInfo
      resolve({
        port: address.port,
        connections: () => sockets.size / 2,
        close: () =>
          new Promise<void>((done) => {
            for (const socket of sockets) socket.destroy()
            server.close(() => done())
          }),
      })
    })
  })
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const options = JSON.parse(process.argv[2] ?? '{}') as DelayProxyOptions
  const proxy = await startDelayProxy(options)
  console.log(JSON.stringify({ port: proxy.port }))
  const stop = () => {
    void proxy.close().then(() => process.exit(0))
  }
  process.on('SIGTERM', stop)
  process.on('SIGINT', stop)
}
