// Two app processes on one data folder (and under integration-pg one PostgreSQL database) and one Redis behind nginx running deploy/nginx.conf, every
// request and socket going through the balancer only: the API is spread over both processes; a
// Socket.IO client that starts on long-polling and upgrades, and one held to long-polling, hear
// the holds either process takes; the live channel's connection cap counts the client's address,
// which nginx forwards and the app believes from it alone (TRUST_PROXY=127.0.0.1). Clients speak
// from addresses of their own on the loopback (127.0.0.2, …), as visitors would from theirs. Then
// the same file with its stickiness, or its upgrade headers, taken out, fails where it should.
import { randomBytes } from 'node:crypto'
import { Agent, request } from 'node:http'
import { io as connect, type Socket } from 'socket.io-client'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import WebSocket from 'ws'
import type { ActivityMessage } from '../../contracts/activity.ts'
import { type LivePush, TOO_MANY_CONNECTIONS } from '../../contracts/live.ts'
import type { EventSeed } from '../bench/lib/fixtures.ts'
import { type Seeded, seed, seedPostgres } from '../bench/lib/seed.ts'
import { type Balancer, ensureNginx, startBalancer } from '../support/balancer.ts'
import { testStore } from '../support/db.ts'
import {
  dropQueuePrefix,
  faultEnv,
  removeDir,
  type ServerProcess,
  sharedRedisUrl,
  startServerProcess,
  waitFor,
} from '../support/faults.ts'
import { freshDatabase, type TestDatabase } from '../support/postgres.ts'

/** Live connections one address may hold: small, so the test reaches it. */
const CAP = 2
const STICKY = 'hash $remote_addr consistent;'
const UPGRADE = [
  'proxy_set_header Upgrade $http_upgrade;',
  'proxy_set_header Connection $connection_upgrade;',
]

let seeded: Seeded
let database: TestDatabase | undefined
let event: EventSeed
let prefix: string
const apps: ServerProcess[] = []
let lb: Balancer
const sockets: Socket[] = []
const run = randomBytes(4).toString('hex')

beforeAll(async () => {
  ensureNginx()
  // the suite's store: one SQLite file in the shared data folder, or one PostgreSQL database
  let store: Record<string, string> = {}
  if (testStore === 'postgres') {
    database = await freshDatabase()
    const jwtSecret = randomBytes(32).toString('base64url')
    seeded = await seedPostgres({ buyers: 12, events: 1, seats: 100, databaseUrl: database.url, jwtSecret })
    store = { DATABASE_URL: database.url, JWT_SECRET: jwtSecret, MEDIA_STORE: 'disk' }
  } else {
    seeded = seed({ buyers: 12, events: 1, seats: 100 })
  }
  event = seeded.events[0] as EventSeed
  const env = faultEnv(seeded.dataDir, {
    ...store,
    WORKERS: 'off',
    TRUST_PROXY: '127.0.0.1',
    LIVE_CONNECTIONS_PER_ADDRESS: String(CAP),
    // one JSON line per request, carrying the request id: how the test tells who answered
    LOG_LEVEL: 'info',
    LOG_FORMAT: 'json',
  })
  prefix = env.QUEUE_PREFIX as string
  const started = await Promise.allSettled([startServerProcess(env), startServerProcess(env)])
  for (const s of started) if (s.status === 'fulfilled') apps.push(s.value)
  for (const s of started) if (s.status === 'rejected') throw s.reason
  lb = await startBalancer(apps.map((a) => a.port))
}, 90_000)

afterAll(async () => {
  for (const s of sockets) s.disconnect()
  await lb?.stop()
  await Promise.all(apps.map((a) => a.proc.stop()))
  await dropQueuePrefix(sharedRedisUrl, prefix)
  if (seeded) removeDir(seeded.dataDir)
  await database?.drop()
})

type Answer = { status: number; headers: Record<string, string | string[] | undefined>; body: unknown }

/** One HTTP request to a balancer, sent from the given loopback address. */
function send(
  to: Balancer,
  from: string,
  method: string,
  path: string,
  options: { token?: string; body?: unknown; requestId?: string; headers?: Record<string, string> } = {},
): Promise<Answer> {
  const payload = options.body === undefined ? undefined : JSON.stringify(options.body)
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port: to.port,
        localAddress: from,
        method,
        path,
        headers: {
          ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
          ...(payload ? { 'content-type': 'application/json' } : {}),
          ...(options.requestId ? { 'x-request-id': options.requestId } : {}),
          ...options.headers,
        },
      },
      (res) => {
        let text = ''
        res.setEncoding('utf8')
        res.on('data', (chunk: string) => {
          text += chunk
        })
        res.on('end', () => {
          let body: unknown = text
          try {
            body = JSON.parse(text)
          } catch {}
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body })
        })
      },
    )
    req.on('error', reject)
    req.end(payload)
  })
}

/** The app process that logged the request with this id (each logs one line per request). */
async function servedBy(requestId: string): Promise<number> {
  let found = -1
  await waitFor(
    () => {
      found = apps.findIndex((a) => a.proc.output().includes(`"reqId":"${requestId}"`))
      return found >= 0
    },
    3000,
    `the log line of request ${requestId}`,
  )
  return found
}

/** A Socket.IO client of a balancer, from the given loopback address; resolves once connected. */
function live(
  to: Balancer,
  from: string,
  options: { transports?: Array<'polling' | 'websocket'>; headers?: Record<string, string> } = {},
): { socket: Socket; connected: Promise<Socket> } {
  const agent = new Agent({ localAddress: from })
  const socket = connect(to.url, {
    // long-polling first, then the upgrade, unless told otherwise: the browser client's default
    ...(options.transports ? { transports: options.transports } : {}),
    // engine.io hands `agent` to both its long-polling requests and its WebSocket
    agent: agent as unknown as string,
    localAddress: from,
    extraHeaders: options.headers ?? {},
    forceNew: true,
    reconnection: false,
  } as Parameters<typeof connect>[1])
  sockets.push(socket)
  const connected = new Promise<Socket>((resolve, reject) => {
    socket.once('connect', () => resolve(socket))
    socket.once('connect_error', reject)
  })
  return { socket, connected }
}

const watchEvent = async (socket: Socket) => {
  const ack = await socket.emitWithAck('watch', `event-${event.eventId}`)
  expect(ack).toMatchObject({ ok: true })
}

/**
 * When each hold's push reached a socket, in the order heard. A visitor's socket is told the seats
 * left, not whose order moved them (no order id, nor its stream), so holds taken one after the
 * other are told apart by their order.
 */
function holdsHeard(socket: Socket): number[] {
  const heard: number[] = []
  socket.on('fact', (push: LivePush) => {
    if (push.type === 'TicketsHeld') heard.push(performance.now())
  })
  return heard
}

/** A hold through the balancer, and how long after its answer the socket heard it. */
async function holdHeard(from: string, buyer: number, heard: number[], label: string) {
  const requestId = `lb-${run}-${label}`
  const before = heard.length
  const answer = await send(lb, from, 'POST', '/api/v1/ticket/create', {
    token: seeded.tokens[buyer],
    body: { eventId: event.eventId, ticketType: 'General Admission', quantity: 1 },
    requestId,
  })
  const answeredAt = performance.now()
  expect(answer.status, JSON.stringify(answer.body)).toBe(200)
  await waitFor(() => heard.length > before, 2000, `the push of hold ${label}`, 10)
  return {
    process: await servedBy(requestId),
    afterAnswerMs: Math.round((heard[before] ?? 0) - answeredAt),
  }
}

describe('nginx in front of two app processes (deploy/nginx.conf)', () => {
  it('answers the API through the balancer, from both processes in turn', async () => {
    const answered: number[] = []
    for (let i = 0; i < 8; i++) {
      const requestId = `lb-${run}-health-${i}`
      const answer = await send(lb, '127.0.0.2', 'GET', '/api/v1/health/live', { requestId })
      expect(answer.status).toBe(200)
      expect(answer.body).toEqual({ status: 'ok' })
      expect(answer.headers['x-request-id']).toBe(requestId)
      answered.push(await servedBy(requestId))
    }
    // one client address, and still both processes: the API is not sticky
    expect(answered.filter((p) => p === 0).length).toBeGreaterThanOrEqual(2)
    expect(answered.filter((p) => p === 1).length).toBeGreaterThanOrEqual(2)
  })

  it('connects a default Socket.IO client on long-polling, upgrades it to a WebSocket, and pushes it every hold within 1 s, whichever process took it', async () => {
    const { socket, connected } = live(lb, '127.0.0.2')
    let opened = ''
    socket.io.once('open', () => {
      opened = socket.io.engine.transport.name
    })
    await connected
    expect(opened).toBe('polling')
    await waitFor(() => socket.io.engine.transport.name === 'websocket', 5000, 'the upgrade to a WebSocket')
    await watchEvent(socket)
    const heard = holdsHeard(socket)
    const holds = []
    for (let buyer = 0; buyer < 6; buyer++)
      holds.push(await holdHeard('127.0.0.2', buyer, heard, `ws-${buyer}`))
    // holds taken by both processes, the socket on one of them: half its pushes crossed over
    expect(new Set(holds.map((h) => h.process))).toEqual(new Set([0, 1]))
    for (const hold of holds) expect(hold.afterAnswerMs, JSON.stringify(holds)).toBeLessThanOrEqual(1000)
    expect(socket.io.engine.transport.name).toBe('websocket')
  })

  it('keeps a client held to long-polling on the process that knows its session (sticky by address)', async () => {
    const { socket, connected } = live(lb, '127.0.0.3', { transports: ['polling'] })
    await connected
    await watchEvent(socket)
    const heard = holdsHeard(socket)
    const holds = []
    for (let buyer = 6; buyer < 10; buyer++)
      holds.push(await holdHeard('127.0.0.3', buyer, heard, `poll-${buyer}`))
    expect(new Set(holds.map((h) => h.process))).toEqual(new Set([0, 1]))
    for (const hold of holds) expect(hold.afterAnswerMs, JSON.stringify(holds)).toBeLessThanOrEqual(1000)
    // every push came on a long-poll of its own, each reaching the session's process
    expect(socket.io.engine.transport.name).toBe('polling')
    expect(socket.connected).toBe(true)
  })

  it("counts live connections under the client's forwarded address, not the balancer's, and believes no address the client sends", async () => {
    // Each address reaches one process (sticky), so its cap holds over the whole cluster.
    for (let i = 0; i < CAP; i++) await live(lb, '127.0.0.4', { transports: ['websocket'] }).connected
    await expect(live(lb, '127.0.0.4', { transports: ['websocket'] }).connected).rejects.toThrow(
      TOO_MANY_CONNECTIONS,
    )
    // nginx appends the address it saw to whatever X-Forwarded-For the client sent
    await expect(
      live(lb, '127.0.0.4', { transports: ['websocket'], headers: { 'x-forwarded-for': '10.9.8.7' } })
        .connected,
    ).rejects.toThrow(TOO_MANY_CONNECTIONS)
    // Other visitors still connect: 10 sockets in all, where a cap counted on nginx's address
    // would let at most CAP per process (4) in.
    const others = ['127.0.0.5', '127.0.0.6', '127.0.0.7', '127.0.0.8']
    for (const from of others) {
      for (let i = 0; i < CAP; i++) await live(lb, from, { transports: ['websocket'] }).connected
    }
    expect(
      sockets.filter((s) => s.connected && s.io.engine.transport.name === 'websocket').length,
    ).toBeGreaterThanOrEqual((others.length + 1) * CAP)
  })

  it("carries the admins' activity feed WebSocket", async () => {
    const feed = new WebSocket(`${lb.url.replace('http', 'ws')}/api/v1/activity`, {
      localAddress: '127.0.0.9',
    })
    try {
      const caughtUp = new Promise<ActivityMessage>((resolve, reject) => {
        feed.on('message', (raw) => {
          const message = JSON.parse(String(raw)) as ActivityMessage
          if (message.kind !== 'fact') resolve(message)
        })
        feed.once('error', reject)
      })
      await new Promise((resolve, reject) => {
        feed.once('open', resolve)
        feed.once('error', reject)
      })
      feed.send(JSON.stringify({ token: seeded.adminToken, from: 0 }))
      expect(await caughtUp).toMatchObject({ kind: 'caught-up' })
    } finally {
      feed.close()
    }
  })
})

describe('what the file needs, shown by taking it out', () => {
  it('without stickiness, a long-polling client loses its session to the other process', async () => {
    const loose = await startBalancer(
      apps.map((a) => a.port),
      [STICKY],
    )
    try {
      // the handshake reached one process, its next request the other: 400, session unknown
      await expect(live(loose, '127.0.0.10', { transports: ['polling'] }).connected).rejects.toThrow(
        /xhr (post|poll) error/,
      )
    } finally {
      await loose.stop()
    }
  })

  it('without the upgrade headers, no WebSocket gets through: a default client stays on long-polling', async () => {
    const closed = await startBalancer(
      apps.map((a) => a.port),
      UPGRADE,
    )
    try {
      // the app is sent a plain GET, and answers 400
      await expect(live(closed, '127.0.0.11', { transports: ['websocket'] }).connected).rejects.toThrow(
        'websocket error',
      )
      const { socket, connected } = live(closed, '127.0.0.12')
      const upgradeFailed = new Promise<void>((resolve) => {
        socket.io.once('open', () => socket.io.engine.once('upgradeError', () => resolve()))
      })
      await connected
      await upgradeFailed
      expect(socket.io.engine.transport.name).toBe('polling')
      expect(socket.connected).toBe(true)
    } finally {
      await closed.stop()
    }
  })
})
