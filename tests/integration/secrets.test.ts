// What must never leave the server, over a whole scripted tour of the API: every reply (JSON, CSV,
// the page, the activity feed) is scanned for password hashes, reset tokens and the payment and JWT
// secrets. Then the security headers and CSP on API replies, media and the served page, and the
// CORS allow-list.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import WebSocket from 'ws'
import type { EventView } from '../../contracts/catalog.ts'
import { webhookSignature } from '../../server/payments/signatures.ts'
import { adminSession, bearer, login, type Session, signUp } from '../support/accounts.ts'
import { dbRows } from '../support/db.ts'
import { multipartBody, pngImage } from '../support/media.ts'
import { waitForMail } from '../support/outbox.ts'
import { type Checkout, hold, nextYear, pay, until } from '../support/sales.ts'
import { type ReplyScanner, scanReplies } from '../support/secrets.ts'
import { startServer, type TestServer } from '../support/server.ts'
import { requireWebBuild } from '../support/web-build.ts'

let server: TestServer
let scanner: ReplyScanner

beforeAll(async () => {
  server = await startServer({ CORS_ORIGINS: 'https://partner.example' })
  scanner = scanReplies(server.app, async () => [
    server.config.jwt.secret,
    server.config.payments.keySecret,
    server.config.payments.webhookSecret,
    ...(await dbRows<{ hash: string }>(server.app, 'SELECT password_hash AS hash FROM accounts')).map(
      (row) => row.hash,
    ),
    ...(
      await dbRows<{ hash: string }>(server.app, 'SELECT token_hash AS hash FROM password_reset_links')
    ).map((row) => row.hash),
  ])
})
afterAll(async () => {
  scanner?.stop()
  await server?.close()
})

const app = () => server.app
const post = (url: string, session: Session | null, payload?: unknown) =>
  app().inject({
    method: 'POST',
    url: `/api/v1${url}`,
    headers: session ? bearer(session.token) : {},
    ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }),
  })
const get = (url: string, session: Session | null = null) =>
  app().inject({ method: 'GET', url: `/api/v1${url}`, headers: session ? bearer(session.token) : {} })

/** Reads the admins' activity feed from the first fact until it has caught up. */
function readActivityFeed(token: string): Promise<string[]> {
  const socket = new WebSocket(`${server.url.replace('http', 'ws')}/api/v1/activity`)
  const messages: string[] = []
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('the activity feed did not catch up')), 10_000)
    socket.on('open', () => socket.send(JSON.stringify({ token, from: 0 })))
    socket.on('message', (raw) => {
      messages.push(String(raw))
      if (JSON.parse(String(raw)).kind === 'caught-up') {
        clearTimeout(timer)
        socket.close()
        resolve(messages)
      }
    })
    socket.on('error', reject)
  })
}

describe('no reply carries a password hash, a reset token or a secret', () => {
  it('over a whole tour of the API: accounts, events, booking, payments, organizer tools, support, schedule', async () => {
    // accounts
    const user = await signUp(app(), 'Tourist')
    const friend = await signUp(app(), 'Friend')
    await get('/auth/profile', user)
    await post('/auth/login', null, { email: user.email, password: 'wrong-password' })
    expect((await post('/auth/forgotpassword', null, { email: user.email })).statusCode).toBe(200)
    const mail = await waitForMail(server.config.outboxDir, (m) => m.to.includes(user.email))
    const resetToken = /\/reset-password\/([A-Za-z0-9_-]+)/.exec(mail.text)?.[1] ?? ''
    expect(resetToken).not.toBe('')
    scanner.learn(resetToken)
    expect(
      (await post(`/auth/reset-password/${resetToken}`, null, { password: 'new-password-1' })).statusCode,
    ).toBe(200)
    expect(
      (await post(`/auth/reset-password/${resetToken}`, null, { password: 'again-password-1' })).statusCode,
    ).toBe(400)
    user.token = await login(app(), user.email, 'new-password-1')
    await post('/auth/forgotpassword', null, { email: 'nobody@example.com' })

    // the admin, an organizer, an event with an image, approved
    const admin = await adminSession(app())
    const organizerEmail = `tour-org-${Date.now()}@example.com`
    expect(
      (
        await post('/admin/create-organizer', admin, {
          name: 'Tour Org',
          email: organizerEmail,
          password: 'organizer-1',
        })
      ).statusCode,
    ).toBe(201)
    await post('/admin/create-organizer', admin, {
      name: 'Tour Org',
      email: organizerEmail,
      password: 'organizer-1',
    })
    const organizer = { token: await login(app(), organizerEmail, 'organizer-1') } as Session
    await get('/admin/getalluser', admin)
    const form = await multipartBody(
      {
        title: 'Secret Garden',
        description: 'Nothing to hide.',
        date: `${nextYear}-07-01`,
        time: '18:00',
        location: 'Jaipur',
        category: 'Music',
        ticketTypes: JSON.stringify([
          { type: 'General Admission', price: 250, quantity: 100 },
          { type: 'VIP', price: 900, quantity: 10 },
        ]),
      },
      [{ field: 'images', filename: 'garden.png', bytes: pngImage(), contentType: 'image/png' }],
    )
    const created = await app().inject({
      method: 'POST',
      url: '/api/v1/event/create',
      payload: form.payload,
      headers: { ...form.headers, ...bearer(organizer.token) },
    })
    expect(created.statusCode, created.body).toBe(201)
    const pendingEvent = created.json().event as EventView
    await get('/admin/events', admin)
    await get('/ticket/getorgid', organizer)
    const approved = await app().inject({
      method: 'PUT',
      url: `/api/v1/admin/events/${pendingEvent._id}/status`,
      headers: bearer(admin.token),
      payload: { status: 'Approved' },
    })
    expect(approved.statusCode).toBe(200)
    const event = approved.json().event as EventView
    await get('/event')
    await get(`/event/${event._id}`)
    await get('/event/filter?search=Music&filterType=category')
    await app().inject({ method: 'GET', url: event.images[0]?.url ?? '/uploads/none' })

    // booking and payment: checkout, the client's callback, the provider's webhook
    const placed = await hold(app(), user, event, 'VIP')
    const paid = await pay(app(), user, placed)
    const checkout = paid.json() as Checkout
    const confirmed = await post('/ticket/handlePaymentSuccess', user, {
      paymentId: checkout.razorpay_payment_id,
      orderId: checkout.razorpay_order_id,
      signature: checkout.razorpay_signature,
    })
    expect(confirmed.statusCode, confirmed.body).toBe(200)
    await post('/ticket/handlePaymentSuccess', user, { ...checkout, razorpay_signature: 'forged' })
    const second = await hold(app(), user, event, 'General Admission', 2)
    await pay(app(), user, second)
    const hook = JSON.stringify({
      event: 'payment.captured',
      payload: { payment: { entity: { id: 'pay_tour', order_id: second.orderId } } },
    })
    for (const signature of [webhookSignature(server.config.payments.webhookSecret, hook), 'forged']) {
      await app().inject({
        method: 'POST',
        url: '/api/v1/payments/webhook',
        payload: hook,
        headers: { 'content-type': 'application/json', 'x-razorpay-signature': signature },
      })
    }
    await until(
      async () =>
        (await get(`/ticket/getTicketbyId/${second.ticketId}`, user)).json().paymentStatus === 'Completed',
    )
    const third = await hold(app(), user, event, 'General Admission')
    await pay(app(), user, third, 'failure')
    await get('/ticket/registrations', user)
    await get(`/ticket/getTicketbyId/${placed.ticketId}`, organizer)
    await post('/auth/getbyid', organizer, { userid: user.id })

    // the local gateway's own API, which knows the key secret
    const key = {
      authorization: `Basic ${Buffer.from(`${server.config.payments.keyId}:${server.config.payments.keySecret}`).toString('base64')}`,
    }
    const gatewayOrder = await app().inject({
      method: 'POST',
      url: '/api/v1/payments/local/v1/orders',
      headers: key,
      payload: { amount: 25_000, currency: 'INR' },
    })
    await app().inject({
      method: 'GET',
      url: `/api/v1/payments/local/v1/orders/${checkout.razorpay_order_id}/payments`,
      headers: key,
    })
    await app().inject({
      method: 'GET',
      url: `/api/v1/payments/local/v1/payments/${checkout.razorpay_payment_id}`,
      headers: key,
    })
    await app().inject({
      method: 'GET',
      url: `/api/v1/payments/local/v1/orders/${gatewayOrder.json().id}/payments`,
      headers: {},
    })

    // cancel one ticket, transfer the other
    expect(
      (
        await app().inject({
          method: 'DELETE',
          url: `/api/v1/ticket/cancel/${placed.ticketId}`,
          headers: bearer(user.token),
        })
      ).statusCode,
    ).toBe(200)
    expect(
      (await post('/ticket/transfer', user, { ticketId: second.ticketId, newAttendeeEmail: friend.email }))
        .statusCode,
    ).toBe(200)
    await post('/ticket/transfer', user, { ticketId: second.ticketId, newAttendeeEmail: friend.email })

    // organizer tools
    await get(`/ticket/analytics/${event._id}`, organizer)
    await get('/organizers/attendees', organizer)
    const csv = await get('/organizers/attendees.csv', admin)
    expect(csv.headers['content-type']).toMatch(/^text\/csv/)
    expect(csv.body).toContain(friend.email)

    // support
    const asked = await post('/admin/support', user, {
      subject: 'Refund',
      inquiry: 'When does my refund arrive?',
    })
    await post('/admin/support/get', admin)
    await post('/admin/support/reply', admin, {
      inquiryId: asked.json().inquiry._id,
      reply: 'Within a week.',
    })
    await get('/support/mine', user)

    // schedule
    await post('/schedule', organizer, {
      eventId: event._id,
      sessionTitle: 'Welcome',
      startTime: `${nextYear}-07-01T18:00`,
      endTime: `${nextYear}-07-01T19:00`,
      speakers: [{ name: 'Meera', bio: 'Gardener.' }],
    })
    await get(`/schedule?eventId=${event._id}`)
    await post('/notify', organizer, {
      eventId: event._id,
      startTime: `${nextYear}-07-01T18:30`,
      endTime: `${nextYear}-07-01T19:30`,
    })

    // the API description, probes, and the admins' feed of every fact
    expect((await get('/openapi.json')).statusCode).toBe(200)
    await get('/health/ready')
    for (const message of await readActivityFeed(admin.token)) scanner.keep('the activity feed', message)
    const page = await fetch(`${server.url}/`, { headers: { accept: 'text/html' } })
    scanner.keep(`GET / → ${page.status}`, await page.text())

    expect(scanner.count).toBeGreaterThan(60)
    expect(await scanner.findings()).toEqual([])
    console.info(`secrets: ${scanner.count} replies scanned`)
  })
})

/** The headers every answer carries, whatever it is. */
function expectSecurityHeaders(headers: Record<string, unknown>) {
  const csp = String(headers['content-security-policy'] ?? '')
  const directive = (name: string) =>
    csp
      .split(';')
      .map((d) => d.trim())
      .find((d) => d.startsWith(`${name} `))
  expect(directive('default-src')).toBe("default-src 'self'")
  expect(directive('object-src')).toBe("object-src 'none'")
  expect(directive('frame-ancestors')).toBe("frame-ancestors 'none'")
  expect(directive('base-uri')).toBe("base-uri 'self'")
  expect(directive('script-src')).toBeDefined()
  expect(directive('script-src')).not.toMatch(/'unsafe-inline'|'unsafe-eval'|\*/)
  expect(headers['x-content-type-options']).toBe('nosniff')
  expect(headers['referrer-policy']).toBe('no-referrer')
  expect(headers['cross-origin-opener-policy']).toBe('same-origin')
  expect(headers['x-powered-by']).toBeUndefined()
}

describe('security headers and CSP', () => {
  it('on API replies, refusals included', async () => {
    for (const url of ['/api/v1/event', '/api/v1/auth/profile', '/api/v1/no-such-route']) {
      const res = await app().inject({ method: 'GET', url })
      expectSecurityHeaders(res.headers)
    }
  })

  it('on uploaded media, which is never sniffed into something else', async () => {
    const [event] = (await get('/event')).json() as EventView[]
    const image = event?.images[0]?.url
    expect(image).toBeDefined()

    const res = await app().inject({ method: 'GET', url: image ?? '' })

    expect(res.statusCode).toBe(200)
    expect(res.headers['content-type']).toBe('image/png')
    expectSecurityHeaders(res.headers)
  })

  it('on the served page, whose scripts all come from files the CSP allows', async () => {
    requireWebBuild(server.config.webDist)
    const res = await fetch(`${server.url}/events/some-event`, { headers: { accept: 'text/html' } })
    const html = await res.text()
    const headers = Object.fromEntries(res.headers)

    expect(res.status).toBe(200)
    expect(headers['content-type']).toMatch(/^text\/html/)
    expectSecurityHeaders(headers)
    const scripts = [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)]
    expect(scripts.length).toBeGreaterThan(0)
    for (const [, attributes, body] of scripts) {
      expect(attributes).toMatch(/\bsrc="\/[^"]+"/)
      expect(body?.trim()).toBe('')
    }
    expect(html).not.toMatch(/\son[a-z]+="/)
  })
})

describe('CORS allow-list', () => {
  const allowed = () => [server.config.publicUrl, 'https://partner.example']
  const foreign = [
    'https://evil.example',
    'null',
    'https://partner.example.evil.example',
    // the Vite dev server's origin is allowed in development only (NODE_ENV=development)
    'http://localhost:5173',
  ]
  const routes = ['/api/v1/ticket/create', '/api/v1/auth/login', '/api/v1/admin/events/x/status']

  const preflight = (url: string, origin: string) =>
    app().inject({
      method: 'OPTIONS',
      url,
      headers: {
        origin,
        'access-control-request-method': url.includes('status') ? 'PUT' : 'POST',
        'access-control-request-headers': 'authorization,content-type,if-match',
      },
    })

  it('lets the allowed origins send credentials, on preflights and on the requests themselves', async () => {
    for (const origin of allowed()) {
      for (const url of routes) {
        const pre = await preflight(url, origin)
        expect(pre.statusCode).toBe(204)
        expect(pre.headers['access-control-allow-origin']).toBe(origin)
        expect(pre.headers['access-control-allow-credentials']).toBe('true')
      }
      const res = await app().inject({ method: 'GET', url: '/api/v1/event', headers: { origin } })
      expect(res.headers['access-control-allow-origin']).toBe(origin)
      expect(String(res.headers.vary)).toMatch(/origin/i)
    }
  })

  it('gives any other origin no access-control-allow-origin, so a browser lets it read nothing', async () => {
    for (const origin of foreign) {
      for (const url of routes) {
        const pre = await preflight(url, origin)
        expect(pre.headers['access-control-allow-origin'], origin).toBeUndefined()
      }
      const res = await app().inject({ method: 'GET', url: '/api/v1/auth/profile', headers: { origin } })
      expect(res.headers['access-control-allow-origin'], origin).toBeUndefined()
    }
  })

  it('holds for the live socket (Socket.IO) too', async () => {
    const handshake = (origin: string) =>
      fetch(`${server.url}/socket.io/?EIO=4&transport=polling`, { headers: { origin } })

    const mine = await handshake('https://partner.example')
    const theirs = await handshake('https://evil.example')

    expect(mine.headers.get('access-control-allow-origin')).toBe('https://partner.example')
    expect(theirs.headers.get('access-control-allow-origin')).toBeNull()
  })
})
