// The admins' activity feed over a plain WebSocket: every fact once, in order, resumable.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import WebSocket from 'ws'
import type { ActivityBatch, ActivityItem, ActivityMessage } from '../../contracts/activity.ts'
import { wait } from '../../server/db/store.ts'
import { newId, streams } from '../../server/ids.ts'
import type { PgLedger } from '../../server/ledger/pg-ledger.ts'
import {
  type FeedOptions,
  type FeedState,
  openActivityFeed,
} from '../../web/src/screens/admin/activity-feed.ts'
import { adminSession, bearer, login, organizerSession, signUp } from '../support/accounts.ts'
import { ADMIN } from '../support/app.ts'
import { testStore } from '../support/db.ts'
import { open } from '../support/live-sockets.ts'
import { waitForMail } from '../support/outbox.ts'
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
  // a client that keeps the latest gets a batch at most every second: a burst of sign-ups (argon2,
  // a few hundred ms each on a slow machine) lands in a few
  server = await startServer({ RATE_LIMITS: 'off', LIVE_FIGURES_EVERY_MS: '1000' })
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

/**
 * Every committed position in the order the ledger is tailed: on SQLite 1…head; on PostgreSQL
 * commit order, where a fact may come after one with a greater position (appends run at once).
 */
async function ledgerOrder(): Promise<number[]> {
  const { ledger } = server.app.platform
  const order = (await ledger.tail(await ledger.cursorAt(0), 1_000_000)).map((t) => t.fact.position)
  expect([...order].sort((a, b) => a - b)).toEqual(
    Array.from({ length: await ledger.head() }, (_, i) => i + 1),
  )
  return order
}
const facts = (messages: ActivityMessage[]) => messages.filter((m): m is ActivityItem => m.kind === 'fact')
const batches = (messages: ActivityMessage[]) =>
  messages.filter((m): m is ActivityBatch => m.kind === 'facts')
/** the facts a client that keeps the latest was sent, in the order sent */
const batched = (messages: ActivityMessage[]) => batches(messages).flatMap((b) => b.items)

/** a new password for the account through the mailed link, as its owner would set it */
const usedLinks: string[] = []
async function newPassword(email: string, password: string) {
  const asked = await server.app.inject({
    method: 'POST',
    url: '/api/v1/auth/forgotpassword',
    payload: { email },
  })
  expect(asked.statusCode, asked.body).toBe(200)
  const mail = await waitForMail(
    server.config.outboxDir,
    (m) =>
      m.to.includes(email) && /reset-password\//.test(m.text) && !usedLinks.some((t) => m.text.includes(t)),
  )
  const token = /reset-password\/([A-Za-z0-9_-]+)/.exec(mail.text)?.[1] ?? ''
  usedLinks.push(token)
  const reset = await server.app.inject({
    method: 'POST',
    url: `/api/v1/auth/reset-password/${token}`,
    payload: { password },
  })
  expect(reset.statusCode, reset.body).toBe(200)
}

describe('GET /api/v1/activity (WebSocket)', () => {
  it("closes an admin's feed and live sockets when the password changes; the new password's token keeps them", async () => {
    const admin = await adminSession(server.app)
    const feed = await openFeed({ token: admin.token, from: await server.app.platform.ledger.head() })
    await until(() => feed.messages.some((m) => m.kind === 'caught-up'))
    const socket = await open(server.url, admin.token)
    const gone = new Promise<string>((resolve) => socket.once('disconnect', resolve))

    await newPassword(admin.email, 'a-new-admin-password')

    expect(await feed.closed).toEqual({
      code: 4401,
      reason: 'Your session has expired or is no longer valid. Please log in again.',
    })
    expect(await gone).toBe('io server disconnect')
    // with the new password's token both open again, and stay open though the reset is in the backlog
    const fresh = await login(server.app, admin.email, 'a-new-admin-password')
    const again = await open(server.url, fresh)
    const reopened = await openFeed({ token: fresh, from: 0 })
    await until(() => reopened.messages.some((m) => m.kind === 'caught-up'), 10_000)
    await new Promise((r) => setTimeout(r, 300))
    expect(again.connected).toBe(true)
    expect(reopened.socket.readyState).toBe(WebSocket.OPEN)
    reopened.socket.close()
    again.close()
    // the admin's password as the other tests sign in with it
    await newPassword(admin.email, ADMIN.password)
  }, 30_000)

  // On PostgreSQL appends commit at once: a reset can commit below a position that had already
  // committed when the feed and the socket were opened with the old password's token.
  it.skipIf(testStore !== 'postgres')(
    'closes them too when the password change commits below the head they were opened at',
    async () => {
      const admin = await adminSession(server.app)
      const ledger = server.app.platform.ledger
      const stream = streams.account(admin.id)
      let appended!: () => void
      const resetAppended = new Promise<void>((resolve) => {
        appended = resolve
      })
      let release!: () => void
      const held = new Promise<void>((resolve) => {
        release = resolve
      })
      // a change of password that keeps the password itself (the other tests sign in with it)
      const resetDone = ledger.transaction(function* (tx) {
        const before = yield* wait(tx.readStream(stream))
        const passwordHash = before
          .map((f) => (f.data as { passwordHash?: string }).passwordHash)
          .filter((hash) => hash !== undefined)
          .at(-1) as string
        const [stored] = yield* wait(
          tx.append(stream, before.length, [
            { type: 'PasswordReset', data: { accountId: admin.id, tokenHash: null, passwordHash } },
          ]),
        )
        appended()
        yield* wait(held)
        return stored?.position ?? 0
      })
      await resetAppended
      // a sign-up commits above the reset's position while the reset is still open
      await signUp(server.app, 'Above')
      const head = await ledger.head()
      // the old token still holds: both open
      const feed = await openFeed({ token: admin.token, from: 0 })
      await until(() => feed.messages.some((m) => m.kind === 'fact'), 10_000)
      const socket = await open(server.url, admin.token)
      const gone = new Promise<string>((resolve) => socket.once('disconnect', resolve))
      release()
      expect(await resetDone).toBeLessThan(head)
      expect(await feed.closed).toEqual({
        code: 4401,
        reason: 'Your session has expired or is no longer valid. Please log in again.',
      })
      expect(await gone).toBe('io server disconnect')
    },
    30_000,
  )

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
    expect(backlog.map((f) => f.position)).toEqual(await ledgerOrder())
    expect(feed.messages.find((m) => m.kind === 'caught-up')).toEqual({ kind: 'caught-up', position: head })
    await signUp(server.app, 'During')
    await until(() => facts(feed.messages).some((f) => f.summary === 'During signed up as a user'))
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
    expect(all).toEqual(await ledgerOrder())
    second.socket.close()
  })
  it('shows accounts made, bookings, failed payments, cancels, transfers, inquiries and reset requests with readable summaries and no secrets', async () => {
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
        // an organizer's account is made by an admin; a user signs up
        ['AccountRegistered', `${admin.username} created an organizer account for Feedorg`],
        ['AccountRegistered', 'Asha signed up as a user'],
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

  describe('a client that keeps only the latest facts (keep)', () => {
    it('gets the latest `keep` of the backlog in one message, then says it has caught up', async () => {
      const admin = await adminSession(server.app)
      for (let i = 0; i < 6; i++) await signUp(server.app, `Backlog${i}`)
      const head = await server.app.platform.ledger.head()
      const feed = await openFeed({ token: admin.token, from: 0, keep: 4 })
      await until(() => feed.messages.some((m) => m.kind === 'caught-up'))
      expect(facts(feed.messages)).toEqual([])
      expect(batches(feed.messages)).toHaveLength(1)
      expect(batched(feed.messages).map((f) => f.position)).toEqual([head - 3, head - 2, head - 1, head])
      expect(batched(feed.messages).at(-1)?.summary).toBe('Backlog5 signed up as a user')
      expect(feed.messages.at(-1)).toEqual({ kind: 'caught-up', position: head })
      feed.socket.close()
    })

    it('during a burst sends a few batches of at most `keep`, newest last, and counts every fact it passed over', async () => {
      const admin = await adminSession(server.app)
      const feed = await openFeed({ token: admin.token, from: 0, keep: 3 })
      await until(() => feed.messages.some((m) => m.kind === 'caught-up'))
      const from = (feed.messages.find((m) => m.kind === 'caught-up') as { position: number }).position
      const before = batches(feed.messages).length
      await Promise.all(Array.from({ length: 40 }, (_, i) => signUp(server.app, `Burst${i}`)))
      const head = await server.app.platform.ledger.head()
      await until(() => batched(feed.messages).some((f) => f.position === head))
      const live = batches(feed.messages).slice(before)
      // 40 facts, at most 3 of them in each message, a few messages
      expect(live.length).toBeLessThan(20)
      for (const batch of live) {
        expect(batch.items.length).toBeGreaterThan(0)
        expect(batch.items.length).toBeLessThanOrEqual(3)
        expect(batch.position).toBe(batch.items.at(-1)?.position)
      }
      // every fact is either sent or counted, once, in ledger order
      expect(live.reduce((n, b) => n + b.passedOver + b.items.length, 0)).toBe(head - from)
      const positions = live.flatMap((b) => b.items.map((f) => f.position))
      expect(positions).toEqual([...positions].sort((a, b) => a - b))
      expect(new Set(positions).size).toBe(positions.length)
      feed.socket.close()
    })

    it('resumes from its last position with only what came after it', async () => {
      const admin = await adminSession(server.app)
      const from = await server.app.platform.ledger.head()
      await signUp(server.app, 'AfterDrop')
      const feed = await openFeed({ token: admin.token, from, keep: 50 })
      await until(() => feed.messages.some((m) => m.kind === 'caught-up'))
      const head = await server.app.platform.ledger.head()
      expect(batched(feed.messages).map((f) => f.position)).toEqual(
        Array.from({ length: head - from }, (_, i) => from + i + 1),
      )
      expect(batched(feed.messages).some((f) => f.summary === 'AfterDrop signed up as a user')).toBe(true)
      feed.socket.close()
    })

    it('takes a keep that is not a whole number from 1 as no keep (every fact, one message each)', async () => {
      const admin = await adminSession(server.app)
      const from = await server.app.platform.ledger.head()
      await signUp(server.app, 'NoKeep')
      for (const keep of [0, -3, 2.5, '7']) {
        const feed = await openFeed({ token: admin.token, from, keep })
        await until(() => feed.messages.some((m) => m.kind === 'caught-up'))
        expect(batches(feed.messages)).toEqual([])
        expect(facts(feed.messages).at(-1)?.summary).toBe('NoKeep signed up as a user')
        feed.socket.close()
      }
    })
  })
})

// Last: it leaves a fact tailed after one at a higher position, which the tests above, reading the
// backlog from the start, would see out of position order.
describe('facts tailed out of position order (PostgreSQL)', () => {
  // On PostgreSQL the feed sends facts in the order the ledger is tailed, (transaction, position):
  // a fact can come after one at a higher position. The admin's client (web) must show it, and
  // resume from the last position it was sent.
  it.skipIf(testStore !== 'postgres')(
    "the admins' client shows a fact that comes after one at a higher position",
    async () => {
      const admin = await adminSession(server.app)
      const pgLedger = server.app.platform.store.postgres?.ledger as PgLedger
      let state: FeedState | null = null
      const client = openActivityFeed({
        url: `${server.url.replace('http', 'ws')}/api/v1/activity`,
        token: admin.token,
        keep: 50,
        onChange: (next) => {
          state = next
        },
        openSocket: (url) =>
          new WebSocket(url) as unknown as NonNullable<FeedOptions['openSocket']> extends (
            url: string,
          ) => infer S
            ? S
            : never,
      })
      try {
        await until(() => (state as FeedState | null)?.status === 'live', 10_000)
        // a quiet interval: the next fact is sent at once, the one after it in a batch of its own
        await new Promise((r) => setTimeout(r, 1_200))
        const lateId = newId()
        let xidTaken!: () => void
        const began = new Promise<void>((resolve) => {
          xidTaken = resolve
        })
        let goOn!: () => void
        const earlyCommitted = new Promise<void>((resolve) => {
          goOn = resolve
        })
        // a transaction that begins before a sign-up and appends after it commits: tailed first,
        // at the higher position
        const heldDone = pgLedger.transaction(async (tx) => {
          await tx.query('SELECT pg_current_xact_id()')
          xidTaken()
          await earlyCommitted
          const [late] = await tx.append(streams.account(lateId), 0, [
            {
              type: 'AccountRegistered',
              data: {
                accountId: lateId,
                username: 'Latecomer',
                email: `latecomer-${lateId}@example.com`,
                passwordHash: 'not a password',
                role: 'user',
                phone: null,
                createdBy: null,
              },
            },
          ])
          return late?.position ?? 0
        })
        await began
        let early: Awaited<ReturnType<typeof signUp>>
        try {
          early = await signUp(server.app, 'Earlybird')
        } finally {
          goOn()
        }
        const latePosition = await heldDone
        const earlyPosition =
          (await server.app.platform.ledger.readStream(streams.account(early.id)))[0]?.position ?? 0
        expect(earlyPosition).toBeLessThan(latePosition)
        const shownPositions = () => ((state as FeedState | null)?.items ?? []).map((item) => item.position)
        await until(() => shownPositions().includes(latePosition), 10_000)
        await until(() => shownPositions().includes(earlyPosition), 10_000)
        // the last position sent is where it resumes: the early one, sent last
        await until(() => (state as FeedState | null)?.position === earlyPosition, 5_000)
      } finally {
        client.close()
      }
    },
    30_000,
  )
})
