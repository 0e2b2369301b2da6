// Many sockets of one address flooding the live channel with watch messages, each reconnecting as
// soon as it is dropped, with the limits on as in production: the address's messages are counted
// across its sockets and reconnections, so the server answers at most its budget per window, and
// its memory stays flat. A memory figure needs a quiet machine, so this file runs in the 'quiet'
// project, on its own.
import { randomBytes } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { io as connect, type Socket } from 'socket.io-client'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { testConfig } from '../support/app.ts'
import {
  dropQueuePrefix,
  removeDir,
  type ServerProcess,
  sharedRedisUrl,
  startServerProcess,
} from '../support/faults.ts'
import { INSPECT_OPTIONS, type Inspected, inspect } from '../support/inspector.ts'

const CLIENTS = 20
const FLOOD_MS = 15_000
/** the server's window of messages per address (server/live/socket.ts MESSAGE_WINDOW_MS) */
const WINDOW_MS = 10_000

const rssOf = (pid: number) =>
  Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]) / 1024

/**
 * One client of the address: connects, sends watches of made-up events as fast as it can, and
 * connects again the moment it is dropped or refused, until `until`. Counts the answers it got.
 */
async function reconnectingFlooder(
  url: string,
  until: number,
  answered: { count: number; handshakes?: number },
) {
  const prefix = randomBytes(4).toString('hex')
  let n = 0
  while (Date.now() < until) {
    answered.handshakes = (answered.handshakes ?? 0) + 1
    const socket: Socket = connect(url, { transports: ['websocket'], reconnection: false, forceNew: true })
    await new Promise<void>((resolve) => {
      const done = () => {
        clearInterval(sending)
        socket.removeAllListeners()
        socket.disconnect()
        resolve()
      }
      socket.once('connect_error', done)
      socket.once('disconnect', done)
      const sending = setInterval(() => {
        if (Date.now() >= until) return done()
        if (!socket.connected) return
        for (let i = 0; i < 50; i++)
          socket.emit('watch', `event-${prefix}${n++}`, () => {
            answered.count++
          })
      }, 5)
    })
  }
}

describe('many sockets of one address, reconnecting as they are dropped', () => {
  let server: ServerProcess
  let dataDir: string
  let queuePrefix: string
  let inspector: Inspected
  const budget = 1000

  beforeAll(async () => {
    const config = testConfig({ REDIS_URL: sharedRedisUrl })
    dataDir = config.dataDir
    queuePrefix = config.queuePrefix
    server = await startServerProcess({
      NODE_ENV: 'test',
      DATA_DIR: dataDir,
      QUEUE_PREFIX: queuePrefix,
      REDIS_URL: sharedRedisUrl,
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      WORKERS: 'off',
      LIVE_MESSAGES_PER_ADDRESS: String(budget),
      NODE_OPTIONS: INSPECT_OPTIONS,
    })
    inspector = await inspect(server.proc)
  }, 60_000)
  afterAll(async () => {
    inspector?.close()
    await server?.proc.stop()
    await dropQueuePrefix(sharedRedisUrl, queuePrefix)
    removeDir(dataDir)
  })

  it('answers at most the address budget per window, and holds no more memory for it', async () => {
    // Lazy start-up work (parsers, JIT, the first reads) is not growth: one socket's worth first,
    // then a full window's rest, so the measured flood starts with a fresh budget.
    const warm = { count: 0 }
    await reconnectingFlooder(server.url, Date.now() + 300, warm)
    await new Promise((r) => setTimeout(r, WINDOW_MS + 500))
    const before = await inspector.heapAfterCollection()
    const rssBefore = rssOf(server.proc.pid)

    let rssPeak = rssBefore
    const sampling = setInterval(() => {
      rssPeak = Math.max(rssPeak, rssOf(server.proc.pid))
    }, 100)
    const answered = { count: 0, handshakes: 0 }
    const started = Date.now()
    await Promise.all(
      Array.from({ length: CLIENTS }, () => reconnectingFlooder(server.url, started + FLOOD_MS, answered)),
    )
    // what the server still had queued is answered or dropped by now
    await new Promise((r) => setTimeout(r, 1000))
    clearInterval(sampling)
    const after = await inspector.heapAfterCollection()
    const rssAfter = rssOf(server.proc.pid)

    const mb = (from: number, to: number) =>
      `${from.toFixed(1)} → ${to.toFixed(1)} MB (${to >= from ? '+' : ''}${(to - from).toFixed(1)})`
    console.info(
      `reconnect flood: ${CLIENTS} sockets of one address for ${FLOOD_MS} ms, ${answered.handshakes} handshakes, ` +
        `${answered.count} watches answered; server RSS ${mb(rssBefore, rssPeak)} at its peak, ${mb(rssBefore, rssAfter)} after; ` +
        `heap after collection ${mb(before.heapMB, after.heapMB)}, external ${mb(before.externalMB, after.externalMB)}`,
    )
    // the flood spans two windows at most: two budgets, the handshakes among them
    expect(answered.count).toBeLessThanOrEqual(budget * Math.ceil(FLOOD_MS / WINDOW_MS))
    expect(after.heapMB + after.externalMB - (before.heapMB + before.externalMB)).toBeLessThan(10)
  }, 90_000)
})
