// The admins' activity feed over a plain WebSocket: every fact once, in order, resumable.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import WebSocket from 'ws'
import type { ActivityItem, ActivityMessage } from '../../contracts/activity.ts'
import { adminSession, bearer, organizerSession, signUp } from '../support/accounts.ts'
import {
  approvedEvent,
  buy,
  cancel,
  failToPay,
  post,
  transfer,
  until as untilTrue,
} from '../support/sales.ts'
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

const until = async (check: () => boolean | Promise<boolean>, timeoutMs = 5000) => {
  const deadline = Date.now() + timeoutMs
  while (!(await check())) {
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
    const head = await server.app.platform.ledger.head()
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
    await until(async () => facts(first.messages).length > (await server.app.platform.ledger.head()) - 10)
    first.socket.terminate()
    const seen = facts(first.messages)
    const last = seen[seen.length - 1]?.position ?? 0
    await Promise.all(signups)
    const second = await openFeed({ token: admin.token, from: last })
    await until(() => second.messages.some((m) => m.kind === 'caught-up'))
    const all = [...seen, ...facts(second.messages)].map((f) => f.position)
    expect(all).toEqual(Array.from({ length: await server.app.platform.ledger.head() }, (_, i) => i + 1))
    second.socket.close()
  })
  it('shows bookings, failed payments, cancels, transfers, inquiries and reset requests with readable summaries and no secrets', async () => {
    const admin = await adminSession(server.app)
    const from = await server.app.platform.ledger.head()
    const feed = await openFeed({ token: admin.token, from })
    const app = server.app
    const organizer = await organizerSession(app, 'Feedorg')
    const event = await approvedEvent(app, organizer, admin, { title: 'Feed Fest' })
    const [asha, bilal, chen] = [
      await signUp(app, 'Asha'),
      await signUp(app, 'Bilal'),
      await signUp(app, 'Chen'),
    ]
    const ticket = await buy(app, asha, event, 'VIP', 2)
    await failToPay(app, bilal, event, 'VIP', 1)
    await transfer(app, asha, ticket, chen)
    await cancel(app, chen, ticket)
    await untilTrue(async () =>
      (await app.platform.ledger.readStream(`order-${ticket}`)).some((f) => f.type === 'PaymentRefunded'),
    )
    const asked = await post(app, '/api/v1/admin/support', bilal, {
      subject: 'Why did it fail?',
      inquiry: 'Card ok.',
    })
    await post(app, '/api/v1/admin/support/reply', admin, {
      inquiryId: asked.json().inquiry._id,
      reply: 'Retry.',
    })
    await app.inject({
      method: 'POST',
      url: '/api/v1/auth/forgotpassword',
      headers: bearer(asha.token),
      payload: { email: asha.email },
    })
    const head = await app.platform.ledger.head()
    await until(() => facts(feed.messages).some((f) => f.position === head))

    const seen = facts(feed.messages)
    expect(seen.map((f) => f.position)).toEqual(Array.from({ length: head - from }, (_, i) => from + i + 1))
    const summaries = seen.map((f) => [f.type, f.summary])
    expect(summaries).toEqual(
      expect.arrayContaining([
        ['EventSubmitted', 'Feedorg submitted “Feed Fest” for approval'],
        ['EventApproved', `${admin.username} approved “Feed Fest”`],
        ['TicketsHeld', 'Asha is paying for 2 × VIP for “Feed Fest”'],
        ['PaymentCaptured', 'Payment of ₹3,000 received for “Feed Fest”'],
        ['TicketsIssued', 'Asha booked 2 tickets for “Feed Fest”'],
        ['PaymentFailed', 'A payment for “Feed Fest” failed; the seats are back on sale'],
        ['TicketTransferred', 'Asha transferred a ticket for “Feed Fest” to Chen'],
        ['TicketCancelled', 'Chen cancelled 2 tickets for “Feed Fest”'],
        ['RefundRequested', 'A refund of ₹3,000 was requested (cancelled)'],
        ['PaymentRefunded', 'A refund of ₹3,000 was paid out'],
        ['InquiryOpened', 'Bilal asked: “Why did it fail?”'],
        ['InquiryAnswered', `${admin.username} answered Bilal's inquiry`],
        ['PasswordResetRequested', 'Asha asked for a password reset link'],
      ]),
    )
    const bought = seen.find((f) => f.type === 'TicketsIssued')
    expect(bought).toMatchObject({
      stream: `order-${ticket}`,
      actor: expect.any(String),
      data: { orderId: ticket },
    })
    // No secret anywhere: no hash, token or signature keys at any depth, and no hash values.
    const keys = new Set<string>()
    const walk = (value: unknown) => {
      if (Array.isArray(value)) value.forEach(walk)
      else if (value && typeof value === 'object') {
        for (const [key, inner] of Object.entries(value)) {
          keys.add(key)
          walk(inner)
        }
      }
    }
    walk(seen)
    for (const secret of ['passwordHash', 'tokenHash', 'token', 'signature', 'secret'])
      expect(keys).not.toContain(secret)
    expect(JSON.stringify(seen)).not.toMatch(/argon2/)
    const resetFact = (await app.platform.ledger.readFrom(from, 10_000)).find(
      (f) => f.type === 'PasswordResetRequested',
    )
    const tokenHash = (resetFact?.data as { tokenHash?: string } | undefined)?.tokenHash
    expect(tokenHash).toBeTruthy()
    expect(JSON.stringify(feed.messages)).not.toContain(tokenHash)
    feed.socket.close()
  })
})
