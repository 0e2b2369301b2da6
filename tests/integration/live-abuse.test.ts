// The live socket under abuse (issue 11): which rooms a socket may watch and how many, how many
// connections one address may hold (refused at the handshake with the reason, however many arrive
// at once), and a client that stops reading. The flood of watch messages is
// tests/quiet/live-flood.test.ts (a memory figure, measured on a quiet machine, limits off); with
// the limits on, a socket past its messages per window is dropped, and an address past its
// messages per window (all its sockets and reconnections together) is dropped and refused until
// the window ends (tests/quiet/live-reconnect-flood.test.ts measures it).
import type { Socket } from 'socket.io-client'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import WebSocket from 'ws'
import type { EventView } from '../../contracts/catalog.ts'
import { MESSAGES_PER_WINDOW } from '../../server/live/socket.ts'
import { adminSession, organizerSession, type Session, signUp } from '../support/accounts.ts'
import { droppedSince, handshakeOf, open, rawConnections, sockets, watch } from '../support/live-sockets.ts'
import { approvedEvent, submitEvent, until } from '../support/sales.ts'
import { startServer, type TestServer } from '../support/server.ts'

afterAll(() => {
  for (const s of sockets) s.disconnect()
})

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
    expect(await watch(visitor, 'events')).toMatchObject({ ok: true, room: 'events' })
    expect(await watch(visitor, 'schedule')).toMatchObject({ ok: true, room: 'schedule' })
    const room = `event-${approved._id}`
    expect(await watch(visitor, `event:${approved._id}`)).toMatchObject({ ok: true, room })
    expect(await watch(visitor, room)).toMatchObject({ ok: true, room })
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
      expect(await watch(socket, room)).toMatchObject({ ok: true, room })
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
    expect(await watch(socket, 'events')).toMatchObject({ ok: true, room: 'events' })
    for (const room of rooms.slice(0, 19)) expect(await watch(socket, room)).toMatchObject({ ok: true, room })
    expect(await watch(socket, rooms[0] as string)).toMatchObject({ ok: true, room: rooms[0] })

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
    expect(await watch(socket, rooms[19] as string)).toMatchObject({ ok: true, room: rooms[19] })
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
    // each watch's answer reads the event's sale time (a round trip on PostgreSQL: about 10 s for
    // these on a 2-core machine), and the client is dropped once the answers it leaves unread pile up
    await until(async () => !(await isConnected()), 30_000)
    raw.terminate()
  }, 60_000)
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

  it('refuses with the same message every handshake past the cap when many arrive at once, and drops none of those it let in', async () => {
    const raws = await rawConnections(Array(8).fill(server.url))
    for (const socket of raws) socket.connect()
    await until(() => raws.every((socket) => handshakeOf(socket).connected || handshakeOf(socket).refused))
    // then a while for anything let in to be dropped after all
    await new Promise((r) => setTimeout(r, 500))
    const connected = raws.filter((socket) => handshakeOf(socket).connected)
    expect(raws.flatMap((socket) => handshakeOf(socket).refused ?? [])).toEqual(
      Array(5).fill('Too many live connections from your address; close some tabs and try again.'),
    )
    expect(connected).toHaveLength(3)
    expect(connected.filter(droppedSince)).toEqual([])
    expect((await server.app.live.io.fetchSockets()).length).toBe(3)
    // and the count is right afterwards: all places back once they leave, and no more
    for (const { raw } of raws) raw.terminate()
    await until(async () => (await server.app.live.io.fetchSockets()).length === 0)
    await Promise.all([open(server.url), open(server.url), open(server.url)])
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

describe('messages per socket', () => {
  let server: TestServer
  beforeAll(async () => {
    server = await startServer() // the limits on, as in production
  })
  afterAll(async () => {
    await server.close()
  })

  it('drops a socket past MESSAGES_PER_WINDOW messages in its window, unread; other sockets carry on', async () => {
    const flooder = await open(server.url)
    const bystander = await open(server.url)
    const gone = new Promise<string>((resolve) => flooder.once('disconnect', resolve))
    let answered = 0

    for (let i = 0; i < 1000; i++) flooder.emit('watch', `event-nothing-${i}`, () => answered++)

    expect(await gone).toBe('io server disconnect')
    expect(answered).toBeLessThanOrEqual(MESSAGES_PER_WINDOW)
    expect(await watch(bystander, 'events')).toMatchObject({ ok: true, room: 'events' })
  })
})

describe('messages per address', () => {
  let server: TestServer
  beforeAll(async () => {
    // the limits on, as in production, with a small budget; clients tell their address through
    // the proxy the server trusts
    server = await startServer({ LIVE_MESSAGES_PER_ADDRESS: '20', TRUST_PROXY: 'loopback' })
  })
  afterAll(async () => {
    await server.close()
  })
  const from = (address: string) => open(server.url, undefined, { 'x-forwarded-for': address })

  it("counts an address's handshakes and messages over all its sockets and reconnections: past its budget none is taken, and the address is refused with a reason until its window ends; other addresses carry on", async () => {
    const flooding = '203.0.113.50'
    const first = await from(flooding) // 1: a handshake is a message
    for (let i = 0; i < 14; i++)
      expect(await watch(first, 'events')).toMatchObject({ ok: true, room: 'events' }) // 15
    first.disconnect()
    // a reconnection starts nothing afresh, and the address's sockets share one budget
    const second = await from(flooding) // 16
    const third = await from(flooding) // 17
    for (let i = 0; i < 3; i++)
      expect(await watch(second, 'schedule')).toMatchObject({ ok: true, room: 'schedule' }) // 20

    const notTaken = async (socket: Socket) => {
      let answered = false
      const gone = new Promise<string>((resolve) => socket.once('disconnect', resolve))
      socket.emit('watch', 'events', () => {
        answered = true
      })
      const stayed = new Promise((resolve) => setTimeout(() => resolve('still connected'), 3000))
      expect(await Promise.race([gone, stayed])).toBe('io server disconnect')
      expect(answered).toBe(false)
    }
    await notTaken(second) // the 21st
    await notTaken(third) // over another socket of the address
    const refused = (await from(flooding).catch((error: unknown) => error)) as Error & {
      data?: { retryAfterMs?: number }
    }
    expect(refused.message).toBe('Too many live messages from your address; try again in a few seconds.')
    expect(refused.data?.retryAfterMs).toBeGreaterThan(0)
    expect(refused.data?.retryAfterMs).toBeLessThanOrEqual(10_000)

    const other = await from('203.0.113.51')
    expect(await watch(other, 'events')).toMatchObject({ ok: true, room: 'events' })
  })
})
