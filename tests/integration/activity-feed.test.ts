// The admins' activity feed over a plain WebSocket: every fact once, in order, resumable.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import WebSocket from 'ws'
import type { ActivityItem, ActivityMessage } from '../../contracts/activity.ts'
import { adminSession, signUp } from '../support/accounts.ts'
import { startServer, type TestServer } from '../support/server.ts'

let server: TestServer
beforeAll(async () => {
  server = await startServer({ RATE_LIMITS: 'off' })
})
afterAll(async () => {
  await server.close()
})

type Feed = {
  messages: ActivityMessage[]
  closed: Promise<{ code: number; reason: string }>
  socket: WebSocket
}

function openFeed(hello: unknown): Promise<Feed> {
  const socket = new WebSocket(`${server.url.replace('http', 'ws')}/api/v1/activity`)
  const messages: ActivityMessage[] = []
  socket.on('message', (raw) => messages.push(JSON.parse(String(raw))))
  const closed = new Promise<{ code: number; reason: string }>((resolve) =>
    socket.on('close', (code, reason) => resolve({ code, reason: String(reason) })),
  )
  return new Promise((resolve, reject) => {
    socket.once('open', () => {
      socket.send(JSON.stringify(hello))
      resolve({ messages, closed, socket })
    })
    socket.once('error', reject)
  })
}

const until = async (check: () => boolean, timeoutMs = 5000) => {
  const deadline = Date.now() + timeoutMs
  while (!check()) {
    if (Date.now() > deadline) throw new Error('timed out')
    await new Promise((r) => setTimeout(r, 10))
  }
}

const facts = (messages: ActivityMessage[]) => messages.filter((m): m is ActivityItem => m.kind === 'fact')

describe('GET /api/v1/activity (WebSocket)', () => {
  it('refuses a visitor and a user, with a reason', async () => {
    const visitor = await openFeed({ from: 0 })
    expect((await visitor.closed).code).toBe(4401)
    const user = await signUp(server.app, 'Plain')
    const asUser = await openFeed({ token: user.token })
    expect(await asUser.closed).toEqual({ code: 4403, reason: 'You are not allowed to do this.' })
  })

  it('streams the backlog in order, says when caught up, then live facts; no secrets', async () => {
    const admin = await adminSession(server.app)
    await signUp(server.app, 'Before')
    const feed = await openFeed({ token: admin.token, from: 0 })
    await until(() => feed.messages.some((m) => m.kind === 'caught-up'))
    const head = server.app.platform.ledger.head()
    const backlog = facts(feed.messages)
    expect(backlog.map((f) => f.position)).toEqual(Array.from({ length: head }, (_, i) => i + 1))
    expect(feed.messages.find((m) => m.kind === 'caught-up')).toEqual({ kind: 'caught-up', position: head })
    await signUp(server.app, 'During')
    await until(() => facts(feed.messages).some((f) => f.summary === 'During signed up as user'))
    expect(JSON.stringify(feed.messages)).not.toMatch(/argon2|passwordHash|tokenHash/)
    feed.socket.close()
  })

  it('lets a client that dropped mid-stream resume from its last position: every fact exactly once, in order', async () => {
    const admin = await adminSession(server.app)
    const first = await openFeed({ token: admin.token, from: 0 })
    await until(() => first.messages.some((m) => m.kind === 'caught-up'))
    const signups = Array.from({ length: 15 }, (_, i) => signUp(server.app, `Wave${i}`))
    await until(() => facts(first.messages).length > server.app.platform.ledger.head() - 10)
    first.socket.terminate()
    const seen = facts(first.messages)
    const last = seen[seen.length - 1]?.position ?? 0
    await Promise.all(signups)
    const second = await openFeed({ token: admin.token, from: last })
    await until(() => second.messages.some((m) => m.kind === 'caught-up'))
    const all = [...seen, ...facts(second.messages)].map((f) => f.position)
    expect(all).toEqual(Array.from({ length: server.app.platform.ledger.head() }, (_, i) => i + 1))
    second.socket.close()
  })
})
