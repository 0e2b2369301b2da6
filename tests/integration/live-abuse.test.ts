// The live socket under abuse (issue 11): which rooms a socket may watch and how many, how many
// connections one address may hold, a client that stops reading, and a flood of watch messages
// that must leave the server process's memory flat and the other sockets served.
import { randomBytes } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { io as connect, type Socket } from 'socket.io-client'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import WebSocket from 'ws'
import type { EventView } from '../../contracts/catalog.ts'
import type { LivePush, WatchAck } from '../../contracts/live.ts'
import { buildApp } from '../../server/app.ts'
import { adminSession, organizerSession, type Session, signUp } from '../support/accounts.ts'
import { testConfig } from '../support/app.ts'
import {
  dropQueuePrefix,
  removeDir,
  type ServerProcess,
  sharedRedisUrl,
  sleep,
  startServerProcess,
} from '../support/faults.ts'
import { approvedEvent, submitEvent, until } from '../support/sales.ts'
import { startServer, type TestServer } from '../support/server.ts'

const sockets: Socket[] = []
afterAll(() => {
  for (const s of sockets) s.disconnect()
})

function open(url: string, token?: string, headers: Record<string, string> = {}): Promise<Socket> {
  const socket = connect(url, {
    auth: token ? { token } : {},
    transports: ['websocket'],
    reconnection: false,
    extraHeaders: headers,
  })
  sockets.push(socket)
  return new Promise((resolve, reject) => {
    socket.once('connect', () => resolve(socket))
    socket.once('connect_error', reject)
  })
}

const watch = (socket: Socket, room: string) => socket.emitWithAck('watch', room) as Promise<WatchAck>

describe('watching rooms', () => {
  let server: TestServer
  let admin: Session
  let organizer: Session
  let approved: EventView
  let pending: EventView
  beforeAll(async () => {
    server = await startServer({ RATE_LIMITS: 'off' })
    admin = await adminSession(server.app)
    organizer = await organizerSession(server.app, 'Roomhost')
    approved = await approvedEvent(server.app, organizer, admin, { title: 'Open Night' })
    pending = await submitEvent(server.app, organizer, { title: 'Unannounced Night' })
  })
  afterAll(async () => {
    await server.close()
  })

  /** The rooms the server has the socket in, its own id room aside. */
  const roomsOf = async (socket: Socket) => {
    const all = await server.app.live.io.fetchSockets()
    return [...(all.find((s) => s.id === socket.id)?.rooms ?? [])].filter((r) => r !== socket.id).sort()
  }

  it('lets a visitor watch the listing, the schedule and an approved event, under either spelling', async () => {
    const visitor = await open(server.url)
    expect(await watch(visitor, 'events')).toEqual({ ok: true, room: 'events' })
    expect(await watch(visitor, 'schedule')).toEqual({ ok: true, room: 'schedule' })
    const room = `event-${approved._id}`
    expect(await watch(visitor, `event:${approved._id}`)).toEqual({ ok: true, room })
    expect(await watch(visitor, room)).toEqual({ ok: true, room })
    expect(await roomsOf(visitor)).toEqual([room, 'events', 'schedule'])
  })

  it('refuses private rooms, made-up names and events that do not exist, joining nothing', async () => {
    const visitor = await open(server.url)
    for (const room of ['admins', `user-${admin.id}`, `organizer-${organizer.id}`, 'event-', 42, 'events ']) {
      expect(await watch(visitor, room as string)).toEqual({ ok: false, message: 'Unknown room.' })
    }
    expect(await watch(visitor, 'event-no-such-event')).toEqual({ ok: false, message: 'No such event.' })
    expect(await roomsOf(visitor)).toEqual([])
  })

  it("refuses a pending event's room to visitors and other accounts, as if it did not exist; its organizer and the admins may watch it", async () => {
    const room = `event-${pending._id}`
    const refused = { ok: false, message: 'No such event.' }
    const visitor = await open(server.url)
    const user = await open(server.url, (await signUp(server.app, 'Curious')).token)
    const otherOrganizer = await open(server.url, (await organizerSession(server.app, 'Rival')).token)
    for (const socket of [visitor, user, otherOrganizer]) {
      expect(await watch(socket, room)).toEqual(refused)
      expect(await roomsOf(socket)).not.toContain(room)
    }
    for (const token of [organizer.token, admin.token]) {
      const socket = await open(server.url, token)
      expect(await watch(socket, room)).toEqual({ ok: true, room })
      expect(await roomsOf(socket)).toContain(room)
    }
  })

  it('keeps a socket to 20 watched rooms, its own rooms not counted; watching one twice takes one slot, unwatching frees it', async () => {
    expect(server.config.live.roomsPerSocket).toBe(20)
    // An admin may watch pending events: 19 of them, and the listing, fill the 20 slots.
    const events = await Promise.all(
      Array.from({ length: 20 }, (_, i) => submitEvent(server.app, organizer, { title: `Night ${i}` })),
    )
    const rooms = events.map((e) => `event-${e._id}`)
    const socket = await open(server.url, admin.token)
    expect(await watch(socket, 'events')).toEqual({ ok: true, room: 'events' })
    for (const room of rooms.slice(0, 19)) expect(await watch(socket, room)).toEqual({ ok: true, room })
    expect(await watch(socket, rooms[0] as string)).toEqual({ ok: true, room: rooms[0] })

    const full = {
      ok: false,
      message: 'A connection may watch 20 rooms at most; stop watching one first.',
    }
    expect(await watch(socket, rooms[19] as string)).toEqual(full)
    expect(await watch(socket, 'schedule')).toEqual(full)
    expect(await roomsOf(socket)).toEqual(
      ['admins', ...rooms.slice(0, 19), 'events', `user-${admin.id}`].sort(),
    )

    socket.emit('unwatch', 'events')
    expect(await watch(socket, rooms[19] as string)).toEqual({ ok: true, room: rooms[19] })
    expect(await roomsOf(socket)).toEqual(['admins', ...rooms, `user-${admin.id}`].sort())
    // Unwatching a room the server joined it to does nothing.
    socket.emit('unwatch', 'admins')
    expect(await watch(socket, 'schedule')).toEqual(full)
    expect(await roomsOf(socket)).toContain('admins')
  })

  it('drops a client that stops reading what it is sent, instead of queueing it', async () => {
    // A raw Engine.IO/Socket.IO client: connect, stop reading, and ask for 200,000 answers.
    const raw = new WebSocket(`${server.url.replace('http', 'ws')}/socket.io/?EIO=4&transport=websocket`)
    const connected = new Promise<string>((resolve) =>
      raw.on('message', (message) => {
        const text = String(message)
        if (text.startsWith('40')) resolve((JSON.parse(text.slice(2)) as { sid: string }).sid)
      }),
    )
    await new Promise((resolve) => raw.once('open', resolve))
    raw.send('40')
    const id = await connected
    const isConnected = async () => (await server.app.live.io.fetchSockets()).some((s) => s.id === id)
    expect(await isConnected()).toBe(true)
    ;(raw as unknown as { _socket: { pause(): void } })._socket.pause()
    for (let i = 0; i < 200_000; i++) raw.send(`42${i}["watch","event-${approved._id}"]`)
    await until(async () => !(await isConnected()))
    raw.terminate()
  })
})

describe('connections per address', () => {
  let server: TestServer
  beforeAll(async () => {
    server = await startServer({ RATE_LIMITS: 'off', LIVE_CONNECTIONS_PER_ADDRESS: '3' })
  })
  afterEach(async () => {
    for (const socket of sockets) socket.disconnect()
    await until(async () => (await server.app.live.io.fetchSockets()).length === 0)
  })
  afterAll(async () => {
    await server.close()
  })

  it('refuses a handshake past LIVE_CONNECTIONS_PER_ADDRESS, with a message, and counts again once one leaves', async () => {
    const three = await Promise.all([open(server.url), open(server.url), open(server.url)])
    await expect(open(server.url)).rejects.toThrow(
      'Too many live connections from your address; close some tabs and try again.',
    )
    three[0]?.disconnect()
    await until(async () => (await server.app.live.io.fetchSockets()).length === 2)
    const fourth = await open(server.url)
    expect(fourth.connected).toBe(true)
    await expect(open(server.url)).rejects.toThrow(/Too many live connections/)
  })

  it('counts a client behind a trusted proxy (TRUST_PROXY) under its forwarded address, as Fastify does', async () => {
    const proxied = await startServer({
      RATE_LIMITS: 'off',
      LIVE_CONNECTIONS_PER_ADDRESS: '1',
      TRUST_PROXY: 'loopback',
    })
    try {
      const from = (address: string) => open(proxied.url, undefined, { 'x-forwarded-for': address })
      await from('203.0.113.7')
      await from('203.0.113.8')
      await expect(from('203.0.113.7')).rejects.toThrow(/Too many live connections/)
    } finally {
      await proxied.close()
    }
  })

  it('ignores X-Forwarded-For from a peer that is not a trusted proxy (TRUST_PROXY off)', async () => {
    const forwarding = (address: string) => open(server.url, undefined, { 'x-forwarded-for': address })
    for (const address of ['198.51.100.1', '198.51.100.2', '198.51.100.3']) await forwarding(address)
    await expect(forwarding('198.51.100.4')).rejects.toThrow(/Too many live connections/)
  })
})

/** The server process's resident memory, in MB. */
const rssOf = (pid: number) =>
  Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]) / 1024

/**
 * Sends `count` watch messages for random events, each with an ack as a careful attacker would.
 * Every batch ends with one whose ack is awaited: the server has then handled the whole batch,
 * so the server, not the client's buffers, sets the pace.
 */
async function flood(socket: Socket, count: number, onBatch: (sent: number) => void = () => {}) {
  const batch = 2000
  const prefix = randomBytes(4).toString('hex')
  for (let sent = 0; sent < count; sent += batch) {
    for (let i = 1; i < batch; i++) socket.emit('watch', `event-${prefix}${sent + i}`, () => {})
    await socket.timeout(10_000).emitWithAck('watch', `event-${prefix}${sent}`)
    onBatch(sent + batch)
  }
}

describe('a flood of watch messages from one socket', () => {
  let server: ServerProcess
  let dataDir: string
  let queuePrefix: string
  let event: EventView
  let buyer: Session

  beforeAll(async () => {
    // The accounts and the event are made in this process, on the data folder the server process
    // then opens: that process is the server alone, so its memory is the server's.
    const config = testConfig({ RATE_LIMITS: 'off', REDIS_URL: sharedRedisUrl })
    dataDir = config.dataDir
    queuePrefix = config.queuePrefix
    const app = await buildApp(config)
    const admin = await adminSession(app)
    const organizer = await organizerSession(app, 'Floodhost')
    event = await approvedEvent(app, organizer, admin, { title: 'Flood Night' })
    buyer = await signUp(app, 'Steadybuyer')
    await app.close()
    server = await startServerProcess({
      NODE_ENV: 'test',
      DATA_DIR: dataDir,
      QUEUE_PREFIX: queuePrefix,
      REDIS_URL: sharedRedisUrl,
      HOST: '127.0.0.1',
      RATE_LIMITS: 'off',
      LOG_LEVEL: 'warn',
    })
  }, 60_000)
  afterAll(async () => {
    await server?.proc.stop()
    await dropQueuePrefix(sharedRedisUrl, queuePrefix)
    removeDir(dataDir)
  })

  it('leaves the server within 20 MB of where it was, answering requests and pushing availability all along', async () => {
    const watcher = await open(server.url)
    const heard: Array<LivePush & { heardAt: number }> = []
    watcher.on('fact', (push: LivePush) => heard.push({ ...push, heardAt: Date.now() }))
    expect(await watch(watcher, `event-${event._id}`)).toEqual({ ok: true, room: `event-${event._id}` })

    /** Holds a seat over HTTP: when it was asked, answered, and heard of by the watcher. */
    const holdAndHear = async () => {
      const asked = Date.now()
      const res = await fetch(`${server.url}/api/v1/ticket/create`, {
        method: 'POST',
        headers: { authorization: `Bearer ${buyer.token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ eventId: event._id, ticketType: 'General Admission', quantity: 1 }),
      })
      const answered = Date.now()
      expect(res.status).toBe(200)
      const { ticketId } = (await res.json()) as { ticketId: string }
      const push = () => heard.find((p) => p.type === 'TicketsHeld' && p.stream === `order-${ticketId}`)
      await until(() => push() !== undefined, 5000)
      return { asked, answered, heard: push()?.heardAt ?? 0 }
    }

    const attacker = await open(server.url)
    // Lazy start-up work (parsers, JIT, the first prepared reads) is not growth: warm up first.
    await flood(attacker, 5000)
    await sleep(1000)
    const before = rssOf(server.proc.pid)

    let during: ReturnType<typeof holdAndHear> | undefined
    const started = Date.now()
    await flood(attacker, 200_000, (sent) => {
      if (sent >= 50_000) during ??= holdAndHear()
    })
    const ended = Date.now()
    const duringFlood = await (during as ReturnType<typeof holdAndHear>)
    await sleep(1000)
    const after = rssOf(server.proc.pid)
    const afterFlood = await holdAndHear()

    const ms = (hold: Awaited<ReturnType<typeof holdAndHear>>) =>
      `answered in ${hold.answered - hold.asked} ms, heard in ${hold.heard - hold.asked} ms`
    console.info(
      `flood: 200,000 watch messages in ${ended - started} ms; server RSS ${before.toFixed(1)} → ` +
        `${after.toFixed(1)} MB (${after >= before ? '+' : ''}${(after - before).toFixed(1)} MB); a hold ` +
        `during it ${ms(duringFlood)} (${ended - duringFlood.heard} ms before the flood ended); after it ${ms(afterFlood)}`,
    )
    expect(after - before).toBeLessThan(20)
    expect(duringFlood.heard).toBeLessThan(ended)
    expect(duringFlood.heard - duringFlood.asked).toBeLessThan(2000)
    expect(attacker.connected).toBe(true)
  }, 60_000)
})
