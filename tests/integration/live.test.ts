// Socket.IO on the real listening server: handshake auth, rooms, pushes derived from facts.

import { io as connect, type Socket } from 'socket.io-client'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { LivePush } from '../../contracts/live.ts'
import { wait } from '../../server/db/store.ts'
import { newId, streams } from '../../server/ids.ts'
import { adminSession, signUp } from '../support/accounts.ts'
import { testStore } from '../support/db.ts'
import { startServer, type TestServer } from '../support/server.ts'

let server: TestServer
const sockets: Socket[] = []
beforeAll(async () => {
  server = await startServer({ RATE_LIMITS: 'off' })
})
afterAll(async () => {
  for (const s of sockets) s.disconnect()
  await server.close()
})

function open(token?: string): Promise<Socket> {
  const socket = connect(server.url, {
    auth: token ? { token } : {},
    transports: ['websocket'],
    reconnection: false,
  })
  sockets.push(socket)
  return new Promise((resolve, reject) => {
    socket.once('connect', () => resolve(socket))
    socket.once('connect_error', reject)
  })
}

const watch = (socket: Socket, room: string) =>
  socket.emitWithAck('watch', room) as Promise<{ ok: boolean; room?: string; message?: string }>

const roomsOf = async (socket: Socket) => {
  const all = await server.app.live.io.fetchSockets()
  return [...(all.find((s) => s.id === socket.id)?.rooms ?? [])].filter((r) => r !== socket.id).sort()
}

describe('socket handshake', () => {
  it('lets a visitor in without a token, into public rooms only', async () => {
    const visitor = await open()
    expect(await watch(visitor, 'events')).toEqual({ ok: true, room: 'events' })
    // an event room only for an event that exists and is approved (tests/integration/live-abuse.test.ts)
    expect(await watch(visitor, 'event:abc123')).toEqual({ ok: false, message: 'No such event.' })
    expect((await watch(visitor, 'admins')).ok).toBe(false)
    expect((await watch(visitor, 'user-someone')).ok).toBe(false)
    expect(await roomsOf(visitor)).toEqual(['events'])
  })

  it('puts a signed-in account in its own rooms from the token', async () => {
    const admin = await adminSession(server.app)
    const user = await signUp(server.app, 'Nila')
    expect(await roomsOf(await open(admin.token))).toEqual(['admins', `user-${admin.id}`])
    expect(await roomsOf(await open(user.token))).toEqual([`user-${user.id}`])
  })

  it('refuses a token that is not valid', async () => {
    const user = await signUp(server.app, 'Tara')
    const [head, body] = user.token.split('.')
    await expect(open(`${head}.${body}.forged-signature`)).rejects.toThrow(/session/)
    await expect(open('not-a-jwt')).rejects.toThrow(/session/)
  })
})

describe('pushes', () => {
  it('tells the admins of a new account at once, with its position and no secrets; visitors hear nothing', async () => {
    const admin = await adminSession(server.app)
    const adminSocket = await open(admin.token)
    const visitor = await open()
    await watch(visitor, 'events')
    const heardByVisitor: LivePush[] = []
    visitor.on('fact', (push: LivePush) => heardByVisitor.push(push))
    const pushed = new Promise<LivePush>((resolve) =>
      adminSocket.on('fact', (push: LivePush) => {
        if (push.type === 'AccountRegistered' && push.data.username === 'Zoya') resolve(push)
      }),
    )
    const zoya = await signUp(server.app, 'Zoya')
    const push = await pushed
    expect(push.data).toEqual({ accountId: zoya.id, username: 'Zoya', email: zoya.email, role: 'user' })
    expect(push.stream).toBe(`account-${zoya.id}`)
    const stored = await server.app.platform.ledger.readStream(push.stream)
    expect(push.position).toBe(stored[0]?.position)
    expect(JSON.stringify(push)).not.toMatch(/argon2|passwordHash/)
    await new Promise((r) => setTimeout(r, 200))
    expect(heardByVisitor).toEqual([])
  })
})

// On PostgreSQL the ledger is tailed in (transaction, position) order: a fact that commits after a
// higher one is pushed after it. Its push must not come at a lower position, or a client that
// keeps the highest position it applied drops it (web/src/live).
describe.skipIf(testStore !== 'postgres')(
  'pushes of facts tailed after a higher position (PostgreSQL)',
  () => {
    it('come at positions that never go down on a socket', async () => {
      const admin = await adminSession(server.app)
      const adminSocket = await open(admin.token)
      const heard: LivePush[] = []
      adminSocket.on('fact', (push: LivePush) => {
        if (push.type === 'AccountRegistered') heard.push(push)
      })
      const ledger = server.app.platform.ledger
      const registered = (accountId: string, username: string) => ({
        type: 'AccountRegistered' as const,
        data: {
          accountId,
          username,
          email: `${username.toLowerCase()}-${accountId}@example.com`,
          passwordHash: 'not a password',
          role: 'user' as const,
          phone: null,
          createdBy: null,
        },
      })
      const [firstId, lateId] = [newId(), newId()]
      let appended!: () => void
      const firstAppended = new Promise<void>((resolve) => {
        appended = resolve
      })
      let goOn!: () => void
      const earlyCommitted = new Promise<void>((resolve) => {
        goOn = resolve
      })
      // One transaction appends, lets another commit a fact after it, then appends again: the
      // other's fact is tailed after both of its own (its transaction began later), at a position
      // between them.
      const heldDone = ledger.transaction(function* (tx) {
        yield* wait(tx.append(streams.account(firstId), 0, [registered(firstId, 'Firstborn')]))
        appended()
        yield* wait(earlyCommitted)
        const [late] = yield* wait(tx.append(streams.account(lateId), 0, [registered(lateId, 'Latecomer')]))
        return late?.position ?? 0
      })
      await firstAppended
      let early: Awaited<ReturnType<typeof signUp>>
      try {
        early = await signUp(server.app, 'Earlybird')
      } finally {
        goOn()
      }
      const latePosition = await heldDone
      const deadline = Date.now() + 10_000
      while (!heard.some((p) => p.data.accountId === early.id) && Date.now() < deadline)
        await new Promise((r) => setTimeout(r, 20))
      const order = heard.map((p) => p.data.accountId)
      expect(order.filter((id) => [firstId, lateId, early.id].includes(id as string))).toEqual([
        firstId,
        lateId,
        early.id,
      ])
      const earlyPosition = (await ledger.readStream(streams.account(early.id)))[0]?.position ?? 0
      // the early sign-up took a lower position than the late fact, and was pushed after it
      expect(earlyPosition).toBeLessThan(latePosition)
      // yet no push comes at a lower position than one before it
      const positions = heard.map((p) => p.position)
      expect(positions).toEqual([...positions].sort((a, b) => a - b))
    })
  },
)
