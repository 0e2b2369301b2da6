// The support desk over HTTP (API.md /admin/support*; SPEC §2 support screens, §3 Support inquiry,
// §4 inquiry status, §5, §8): users ask, admins read and answer once; the asker hears back by
// mail and live, and admins see new inquiries live.
import { io as connect, type Socket } from 'socket.io-client'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import type { InquiryPush, LivePush } from '../../contracts/live.ts'
import type { InquiryView } from '../../contracts/support.ts'
import { newId } from '../../server/ids.ts'
import { adminSession, organizerSession, type Session, signUp } from '../support/accounts.ts'
import { readOutbox, waitForMail } from '../support/outbox.ts'
import { get, post, until } from '../support/sales.ts'
import { startServer, type TestServer } from '../support/server.ts'

let server: TestServer
let admin: Session
const sockets: Socket[] = []
beforeAll(async () => {
  server = await startServer({ RATE_LIMITS: 'off' })
  admin = await adminSession(server.app)
})
afterAll(async () => {
  for (const s of sockets) s.disconnect()
  await server.close()
})

const ask = (as: Session | null, body: Record<string, unknown>) =>
  post(server.app, '/api/v1/admin/support', as, body)
const list = (as: Session | null) => post(server.app, '/api/v1/admin/support/get', as)
const answer = (as: Session | null, body: Record<string, unknown>) =>
  post(server.app, '/api/v1/admin/support/reply', as, body)
const stored = (id: string) => server.app.platform.store.queries.support.byId(id)

async function opened(asker: Session, subject: string, inquiry = `About ${subject}`): Promise<InquiryView> {
  const res = await ask(asker, { subject, inquiry })
  expect(res.statusCode, res.body).toBe(201)
  return res.json().inquiry as InquiryView
}

async function socketOf(as: Session): Promise<LivePush[]> {
  const socket = connect(server.url, {
    auth: { token: as.token },
    transports: ['websocket'],
    reconnection: false,
  })
  sockets.push(socket)
  const pushes: LivePush[] = []
  socket.on('fact', (push: LivePush) => pushes.push(push))
  await new Promise((resolve, reject) => {
    socket.once('connect', () => resolve(undefined))
    socket.once('connect_error', reject)
  })
  return pushes
}

const inquiryPushes = (pushes: LivePush[], type: string) =>
  pushes.filter((p) => p.type === type).map((p) => p.data as InquiryPush)

describe('POST /api/v1/admin/support', () => {
  it('opens an inquiry for a user: 201 {message, inquiry}, one InquiryOpened fact, one Pending row', async () => {
    const asker = await signUp(server.app, 'Ritu')

    const res = await ask(asker, { subject: '  Refund timing  ', inquiry: ' When will my refund arrive? ' })

    expect(res.statusCode, res.body).toBe(201)
    const body = res.json() as { message: string; inquiry: InquiryView }
    expect(body).toEqual({
      message: 'Your inquiry has been submitted. We will reply soon.',
      inquiry: {
        _id: expect.stringMatching(/^[0-9a-f]{24}$/),
        userId: asker.id,
        username: 'Ritu',
        email: asker.email,
        subject: 'Refund timing',
        inquiry: 'When will my refund arrive?',
        status: 'Pending',
        reply: null,
        createdAt: expect.any(String),
        repliedAt: null,
      },
    })
    const facts = await server.app.platform.ledger.readStream(`inquiry-${body.inquiry._id}`)
    expect(facts.map((f) => [f.type, f.meta.actor])).toEqual([['InquiryOpened', asker.id]])
    expect(facts[0]?.data).toEqual({
      inquiryId: body.inquiry._id,
      userId: asker.id,
      subject: 'Refund timing',
      inquiry: 'When will my refund arrive?',
    })
    expect(await stored(body.inquiry._id)).toMatchObject({ userId: asker.id, status: 'Pending', reply: null })
  })

  it('is for users only: organizers and admins 403, visitors 401; nothing is stored', async () => {
    const head = await server.app.platform.ledger.head()
    const body = { subject: 'Hello', inquiry: 'Is anyone there?' }
    const organizer = await ask(await organizerSession(server.app), body)
    expect(organizer.statusCode).toBe(403)
    expect(organizer.json()).toEqual({ message: 'You are not allowed to do this.' })
    expect((await ask(admin, body)).statusCode).toBe(403)
    const visitor = await ask(null, body)
    expect(visitor.statusCode).toBe(401)
    expect(visitor.json()).toEqual({ message: 'Please log in to continue.' })
    const facts = await server.app.platform.ledger.readFrom(head, 1000)
    expect(facts.filter((f) => f.type === 'InquiryOpened')).toEqual([])
  })

  it.each([
    ['subject', { inquiry: 'No subject here' }, 'Subject is required.'],
    ['subject', { subject: '   ', inquiry: 'Blank subject' }, 'Subject is required.'],
    ['inquiry', { subject: 'No question' }, 'Inquiry is required.'],
    ['inquiry', { subject: 'Blank question', inquiry: '' }, 'Inquiry is required.'],
    ['subject', { subject: 'x'.repeat(201), inquiry: 'Too long' }, 'Subject must be at most 200 characters.'],
  ])('answers 400 naming %s for %j', async (field, body, message) => {
    const asker = await signUp(server.app)
    const res = await ask(asker, body)
    expect(res.statusCode, res.body).toBe(400)
    expect(res.json()).toEqual({ message, issues: [{ field, message }] })
    expect((await get(server.app, '/api/v1/support/mine', asker)).json()).toEqual([])
  })

  it('tells the admins at once (admins room), and nobody else', async () => {
    const adminPushes = await socketOf(admin)
    const asker = await signUp(server.app, 'Sameer')
    const askerPushes = await socketOf(asker)
    const bystanderPushes = await socketOf(await signUp(server.app, 'Bystander'))

    const inquiry = await opened(asker, 'Lost ticket')

    await until(() => inquiryPushes(adminPushes, 'InquiryOpened').some((p) => p.inquiryId === inquiry._id))
    expect(inquiryPushes(adminPushes, 'InquiryOpened').filter((p) => p.inquiryId === inquiry._id)).toEqual([
      { inquiryId: inquiry._id, userId: asker.id, subject: 'Lost ticket', status: 'Pending' },
    ])
    await new Promise((r) => setTimeout(r, 200))
    expect(inquiryPushes(askerPushes, 'InquiryOpened')).toEqual([])
    expect(inquiryPushes(bystanderPushes, 'InquiryOpened')).toEqual([])
  })
})

describe('POST /api/v1/admin/support/get', () => {
  it('gives the admin every inquiry as a bare array, newest first, with status and reply', async () => {
    const a = await signUp(server.app, 'Uday')
    const b = await signUp(server.app, 'Vani')
    const first = await opened(a, 'First')
    const second = await opened(b, 'Second')
    const third = await opened(a, 'Third')
    await answer(admin, { inquiryId: second._id, reply: 'Done.' })

    const res = await list(admin)

    expect(res.statusCode).toBe(200)
    const all = res.json() as InquiryView[]
    expect(Array.isArray(all)).toBe(true)
    const ours = all.filter((i) => [first._id, second._id, third._id].includes(i._id))
    expect(ours.map((i) => i.subject)).toEqual(['Third', 'Second', 'First'])
    expect(ours[1]).toMatchObject({
      _id: second._id,
      userId: b.id,
      subject: 'Second',
      inquiry: 'About Second',
      status: 'Replied',
      reply: 'Done.',
    })
    expect(ours[0]).toMatchObject({ _id: third._id, userId: a.id, status: 'Pending', reply: null })
    const times = all.map((i) => i.createdAt)
    expect([...times].sort().reverse()).toEqual(times)
  })

  it('lists inquiries opened in the same millisecond newest first too', async () => {
    const asker = await signUp(server.app, 'Sameer2')
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() })
    const subjects = Array.from({ length: 8 }, (_, i) => `Burst ${i + 1}`)
    try {
      for (const subject of subjects) await opened(asker, subject)
    } finally {
      vi.useRealTimers()
    }
    const all = (await list(admin)).json() as InquiryView[]
    const burst = all.filter((i) => i.subject.startsWith('Burst '))
    expect(new Set(burst.map((i) => i.createdAt)).size).toBe(1)
    expect(burst.map((i) => i.subject)).toEqual([...subjects].reverse())
  })

  it('gives a page when one is asked for (?page=&limit=): still a bare array, the whole count in X-Total-Count, the next page in Link', async () => {
    const asker = await signUp(server.app, 'Pager')
    for (let i = 1; i <= 5; i++) await opened(asker, `Paged ${i}`)
    const whole = (await list(admin)).json() as InquiryView[]
    const page = (query: string) => post(server.app, `/api/v1/admin/support/get?${query}`, admin)

    const first = await page('page=1&limit=2')
    const second = await page('page=2&limit=2')
    const last = await page(`page=${Math.ceil(whole.length / 2)}&limit=2`)
    const beyond = await page(`page=${Math.ceil(whole.length / 2) + 1}&limit=2`)
    const defaults = await page('page=1')

    expect(first.statusCode).toBe(200)
    expect(first.json()).toEqual(whole.slice(0, 2))
    expect(second.json()).toEqual(whole.slice(2, 4))
    expect(first.headers['x-total-count']).toBe(String(whole.length))
    expect(first.headers.link).toBe('</api/v1/admin/support/get?page=2&limit=2>; rel="next"')
    expect(last.json()).toEqual(whole.slice((Math.ceil(whole.length / 2) - 1) * 2))
    expect(last.headers.link).toBeUndefined()
    expect(beyond.json()).toEqual([])
    expect(defaults.json()).toEqual(whole.slice(0, 50))
    // no page asked for: the whole list, as ever
    expect((await list(admin)).headers['x-total-count']).toBeUndefined()
  })

  it('refuses a page or limit that is not a whole number in range, saying which', async () => {
    for (const [query, field] of [
      ['page=0', 'page'],
      ['page=abc', 'page'],
      ['page=1&limit=201', 'limit'],
      ['page=1&limit=-1', 'limit'],
    ]) {
      const res = await post(server.app, `/api/v1/admin/support/get?${query}`, admin)
      expect(res.statusCode, query).toBe(400)
      expect(res.json().message, query).toMatch(new RegExp(`^${field} must be a whole number`))
    }
  })

  it('is for admins only: users and organizers 403, visitors 401', async () => {
    expect((await list(await signUp(server.app))).statusCode).toBe(403)
    expect((await list(await organizerSession(server.app))).statusCode).toBe(403)
    const visitor = await list(null)
    expect(visitor.statusCode).toBe(401)
    expect(visitor.json()).toEqual({ message: 'Please log in to continue.' })
  })
})

describe('POST /api/v1/admin/support/reply', () => {
  it('answers once: {message}, status Replied, one InquiryAnswered fact, the reply mailed and pushed to the asker', async () => {
    const asker = await signUp(server.app, 'Wasim')
    const adminPushes = await socketOf(admin)
    const askerPushes = await socketOf(asker)
    const otherPushes = await socketOf(await signUp(server.app, 'Xena'))
    const inquiry = await opened(asker, 'Seat upgrade', 'Can I move from General Admission to VIP?')

    const res = await answer(admin, { inquiryId: inquiry._id, reply: '  Yes: cancel and book VIP.  ' })

    expect(res.statusCode, res.body).toBe(200)
    expect(res.json()).toEqual({ message: 'Reply sent successfully.' })
    expect(await stored(inquiry._id)).toMatchObject({
      status: 'Replied',
      reply: 'Yes: cancel and book VIP.',
      repliedAt: expect.any(String),
    })
    const facts = await server.app.platform.ledger.readStream(`inquiry-${inquiry._id}`)
    expect(facts.map((f) => f.type)).toEqual(['InquiryOpened', 'InquiryAnswered'])
    expect(facts[1]?.data).toEqual({
      inquiryId: inquiry._id,
      userId: asker.id,
      reply: 'Yes: cancel and book VIP.',
      by: admin.id,
    })
    expect(facts[1]?.meta.actor).toBe(admin.id)
    const listed = ((await list(admin)).json() as InquiryView[]).find((i) => i._id === inquiry._id)
    expect(listed).toMatchObject({ status: 'Replied', reply: 'Yes: cancel and book VIP.' })

    // By mail (a job), to the asker.
    const mail = await waitForMail(server.config.outboxDir, (m) => m.subject === 'Re: Seat upgrade')
    expect(mail.to).toContain(asker.email)
    expect(mail.text).toContain('Hello Wasim,')
    expect(mail.text).toContain('Yes: cancel and book VIP.')
    expect(mail.text).toContain('Your question was: Can I move from General Admission to VIP?')
    expect(mail.text).toContain(`${server.url}/dashboard`)

    // Live, to the asker's own room and the admins; nobody else.
    const expected = { inquiryId: inquiry._id, userId: asker.id, status: 'Replied' }
    await until(() => inquiryPushes(askerPushes, 'InquiryAnswered').length > 0)
    await until(() => inquiryPushes(adminPushes, 'InquiryAnswered').some((p) => p.inquiryId === inquiry._id))
    await new Promise((r) => setTimeout(r, 200))
    expect(inquiryPushes(askerPushes, 'InquiryAnswered')).toEqual([expected])
    expect(
      inquiryPushes(adminPushes, 'InquiryOpened').filter((p) => p.inquiryId === inquiry._id),
    ).toHaveLength(1)
    expect(inquiryPushes(adminPushes, 'InquiryAnswered').filter((p) => p.inquiryId === inquiry._id)).toEqual([
      expected,
    ])
    expect(inquiryPushes(otherPushes, 'InquiryAnswered')).toEqual([])

    // A second reply is refused, and changes nothing.
    const again = await answer(admin, { inquiryId: inquiry._id, reply: 'Changed my mind.' })
    expect(again.statusCode).toBe(409)
    expect(again.json()).toEqual({ message: 'This inquiry has been answered already.' })
    expect((await stored(inquiry._id))?.reply).toBe('Yes: cancel and book VIP.')
    expect(await server.app.platform.ledger.readStream(`inquiry-${inquiry._id}`)).toHaveLength(2)
    await new Promise((r) => setTimeout(r, 300))
    expect(readOutbox(server.config.outboxDir).filter((m) => m.subject === 'Re: Seat upgrade')).toHaveLength(
      1,
    )
  })

  it.each([
    ['reply', { reply: '' }, 'Reply is required.'],
    ['reply', { reply: '   ' }, 'Reply is required.'],
    ['reply', {}, 'Reply is required.'],
    ['inquiryId', { inquiryId: undefined, reply: 'Hello' }, 'An id is required.'],
  ])('answers 400 naming %s for %j', async (field, change, message) => {
    const inquiry = await opened(await signUp(server.app), 'Needs a reply')
    const res = await answer(admin, { inquiryId: inquiry._id, ...change })
    expect(res.statusCode, res.body).toBe(400)
    expect(res.json()).toEqual({ message, issues: [{ field, message }] })
    expect(await stored(inquiry._id)).toMatchObject({ status: 'Pending', reply: null })
  })

  it('answers 404 for an inquiry that does not exist', async () => {
    const res = await answer(admin, { inquiryId: newId(), reply: 'Hello?' })
    expect(res.statusCode).toBe(404)
    expect(res.json()).toEqual({ message: 'Inquiry not found.' })
  })

  it('is for admins only: users and organizers 403, visitors 401', async () => {
    const asker = await signUp(server.app)
    const inquiry = await opened(asker, 'Who may answer')
    const body = { inquiryId: inquiry._id, reply: 'Me!' }
    expect((await answer(asker, body)).statusCode).toBe(403)
    expect((await answer(await organizerSession(server.app), body)).statusCode).toBe(403)
    expect((await answer(null, body)).statusCode).toBe(401)
    expect(await stored(inquiry._id)).toMatchObject({ status: 'Pending', reply: null })
  })
})

describe('GET /api/v1/support/mine', () => {
  it("shows the caller's own inquiries only, newest first, with replies", async () => {
    const yash = await signUp(server.app, 'Yash')
    const zara = await signUp(server.app, 'Zara')
    const older = await opened(yash, 'Older')
    await opened(zara, 'Not Yash')
    const newer = await opened(yash, 'Newer')
    await answer(admin, { inquiryId: older._id, reply: 'Sorted.' })

    const res = await get(server.app, '/api/v1/support/mine', yash)

    expect(res.statusCode).toBe(200)
    const mine = res.json() as InquiryView[]
    expect(mine.map((i) => [i._id, i.userId, i.status, i.reply])).toEqual([
      [newer._id, yash.id, 'Pending', null],
      [older._id, yash.id, 'Replied', 'Sorted.'],
    ])
    expect(
      ((await get(server.app, '/api/v1/support/mine', zara)).json() as InquiryView[]).map((i) => i.subject),
    ).toEqual(['Not Yash'])
    expect(
      (await get(server.app, '/api/v1/support/mine', await organizerSession(server.app))).json(),
    ).toEqual([])
    expect((await get(server.app, '/api/v1/support/mine', null)).statusCode).toBe(401)
  })
})
