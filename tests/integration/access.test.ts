// Who may call what: every route the app serves × every role, with the status each one gets (API.md's
// auth column and rules). The table is checked against the app's own route table, so a route
// cannot be added without an access rule here. Then forged and stale JWTs, and two people changing
// the same thing at once (one wins, the other gets 409).
import { createHmac, randomBytes } from 'node:crypto'
import type { InjectOptions, LightMyRequestResponse } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import WebSocket from 'ws'
import type { EventView, TicketTypeInput } from '../../contracts/catalog.ts'
import { ensureAdmin } from '../../server/accounts/seed-admin.ts'
import { webhookSignature } from '../../server/payments/signatures.ts'
import { adminSession, bearer, login, organizerSession, type Session, signUp } from '../support/accounts.ts'
import { servedRoutes } from '../support/app.ts'
import { recordFigures } from '../support/figures.ts'
import { multipartBody, pngImage } from '../support/media.ts'
import { waitForMail } from '../support/outbox.ts'
import {
  approvedEvent,
  buy,
  type Checkout,
  factsOfType,
  hold,
  nextYear,
  orderRow,
  pay,
  submitEvent,
} from '../support/sales.ts'
import { startServer, type TestServer } from '../support/server.ts'
import { requireWebBuild } from '../support/web-build.ts'

let server: TestServer
const app = () => server.app

/** promo codes made by the rules, each a name of its own */
let promoCodes = 0

const roles = ['visitor', 'user', 'another user', 'organizer', 'another organizer', 'admin'] as const
type RoleName = (typeof roles)[number]
type Statuses = Record<RoleName, number>

/** One row of the table, in the roles' order: visitor, user, another user, organizer, another organizer, admin. */
const row = (...statuses: [number, number, number, number, number, number]): Statuses =>
  Object.fromEntries(roles.map((role, i) => [role, statuses[i]])) as Statuses
const everyone = (status: number) => row(status, status, status, status, status, status)

/**
 * What the tests share: a user who bought a ticket to an approved event of "organizer", a pending
 * event of the same organizer, an inquiry of the user, and an event image on disk. "another user" is
 * the approved event's door staff (issue 16), which lets it scan that event and nothing else.
 */
type World = {
  sessions: Record<Exclude<RoleName, 'visitor'>, Session>
  user: Session
  anotherUser: Session
  organizer: Session
  anotherOrganizer: Session
  admin: Session
  event: EventView
  pending: EventView
  ticket: string
  inquiry: string
  image: string
}
let world: World

const plenty: TicketTypeInput[] = [
  { type: 'General Admission', price: 500, quantity: 1000 },
  { type: 'VIP', price: 1500, quantity: 200 },
]

/** VIP as a section of 10 rows of 20 seats: its capacity (200) as it was */
const vipPlan = {
  sections: [
    {
      name: 'Front',
      ticketType: 'VIP',
      rows: Array.from({ length: 10 }, (_, r) => ({
        label: String.fromCharCode(65 + r),
        seats: Array.from({ length: 20 }, (_, s) => ({ number: s + 1 })),
      })),
    },
  ],
}

/** an endpoint of the organizer's (issue 43) */
async function organizerEndpoint(w: World): Promise<string> {
  const res = await app().inject({
    method: 'POST',
    url: '/api/v1/organizer/webhooks',
    headers: auth(w.organizer),
    payload: { url: 'https://hooks.example.com/rule', events: ['order.paid'] },
  })
  expect(res.statusCode, res.body).toBe(201)
  return res.json().id as string
}

/** a ticket the user bought from the organizer once they had a billing profile: it has an invoice */
async function invoicedTicket(w: World): Promise<string> {
  const profile = await app().inject({
    method: 'PUT',
    url: '/api/v1/organizer/billing',
    headers: auth(w.organizer),
    payload: {
      legalName: 'Their LLP',
      gstin: '27AAPFU0939F1ZV',
      address: '1 Road, Pune',
      state: '27',
      invoicePrefix: 'TL',
    },
  })
  expect(profile.statusCode, profile.body).toBe(200)
  const event = await approvedEvent(app(), w.organizer, w.admin, { title: 'Invoiced', state: '27' }, plenty)
  return buy(app(), w.user, event, 'General Admission', 1)
}

const uniqueEmail = (label: string) => `${label}-${randomBytes(5).toString('hex')}@example.com`

const basicAuth = (keyId: string, secret: string) => ({
  authorization: `Basic ${Buffer.from(`${keyId}:${secret}`).toString('base64')}`,
})
const gatewayKey = () => basicAuth(server.config.payments.keyId, server.config.payments.keySecret)

/** An order and a captured payment made at the local gateway alone (the shop knows neither). */
async function gatewayPayment(): Promise<{ orderId: string; paymentId: string }> {
  const res = await app().inject({
    method: 'POST',
    url: '/api/v1/payments/local/v1/orders',
    headers: gatewayKey(),
    payload: { amount: 50_000, currency: 'INR', receipt: 'access-test' },
  })
  expect(res.statusCode, res.body).toBe(200)
  const orderId = res.json().id as string
  const gateway = app().platform.localGateway
  if (!gateway) throw new Error('the local gateway is not running')
  const paid = (await gateway.pay(orderId, 'success')) as Checkout
  return { orderId, paymentId: paid.razorpay_payment_id }
}

/** The reset token a forgot-password mail carries. */
async function resetTokenOf(email: string): Promise<string> {
  const res = await app().inject({ method: 'POST', url: '/api/v1/auth/forgotpassword', payload: { email } })
  expect(res.statusCode, res.body).toBe(200)
  const mail = await waitForMail(server.config.outboxDir, (m) => m.to.includes(email))
  const token = /\/reset-password\/([A-Za-z0-9_-]+)/.exec(mail.text)?.[1]
  if (!token) throw new Error(`no reset link in ${mail.text}`)
  return token
}

/** How the admins' activity feed (a WebSocket) answers a first message with this token. */
async function feedAnswer(token: string | undefined): Promise<number> {
  const from = await app().platform.ledger.head()
  const socket = new WebSocket(`${server.url.replace('http', 'ws')}/api/v1/activity`)
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      socket.terminate()
      reject(new Error('the activity feed did not answer within 5 s'))
    }, 5000)
    const done = (status: number) => {
      clearTimeout(timer)
      resolve(status)
    }
    socket.on('open', () => socket.send(JSON.stringify({ token, from })))
    socket.on('message', (raw) => {
      // Caught up: the feed is open to this caller (written 200 in the table).
      if (JSON.parse(String(raw)).kind === 'caught-up') {
        done(200)
        socket.close()
      }
    })
    socket.on('close', (code) => done(code))
    socket.on('error', reject)
  })
}

type Rule = {
  route: string
  when: string
  expect: Statuses
  /** made once for the row, or once per role when `fresh` (a request that succeeds uses it up) */
  prepare?: (w: World) => Promise<unknown>
  fresh?: boolean
  request?: (w: World, as: Session | null, prepared: unknown) => InjectOptions | Promise<InjectOptions>
  /** for what is not a plain HTTP request (the WebSocket): the status-like answer */
  run?: (w: World, as: Session | null, prepared: unknown) => Promise<number>
  /** a further check of what the role was given */
  reply?: (role: RoleName, res: LightMyRequestResponse, w: World) => void
}

/** A rule whose prepared value has a type. */
const rule = <P = undefined>(
  r: Omit<Rule, 'prepare' | 'request' | 'run'> & {
    prepare?: (w: World) => Promise<P>
    request?: (w: World, as: Session | null, prepared: P) => InjectOptions | Promise<InjectOptions>
    run?: (w: World, as: Session | null, prepared: P) => Promise<number>
  },
): Rule => r as Rule

const auth = (as: Session | null) => (as ? bearer(as.token) : {})
const getAs = (url: string) => (_w: World, as: Session | null) => ({
  method: 'GET' as const,
  url,
  headers: auth(as),
})

// visitor, user, another user, organizer, another organizer, admin
const SIGNED_IN = row(401, 200, 200, 200, 200, 200)
const ADMIN_ONLY = row(401, 403, 403, 403, 403, 200)

/** an invitation of the user's to the door staff of a pending event of the organizer's (its own) */
async function invitationOfUser(w: World): Promise<string> {
  const event = await submitEvent(app(), w.organizer, { title: 'Door Rehearsal' })
  const invited = await app().inject({
    method: 'POST',
    url: `/api/v1/checkin/${event._id}/door-staff`,
    headers: bearer(w.organizer.token),
    payload: { email: w.user.email },
  })
  expect(invited.statusCode, invited.body).toBe(202)
  const mine = await app().inject({
    method: 'GET',
    url: '/api/v1/checkin/invitations',
    headers: bearer(w.user.token),
  })
  return (
    (mine.json() as Array<{ _id: string; eventId: string }>).find((i) => i.eventId === event._id)?._id ?? ''
  )
}

/** an approved event of the organizer's whose sale opens in an hour behind a waiting room */
async function eventWithRoom(w: World): Promise<EventView> {
  const event = await approvedEvent(app(), w.organizer, w.admin, { title: 'Big On-sale' }, plenty)
  const set = await app().inject({
    method: 'PUT',
    url: `/api/v1/event/${event._id}/onsale`,
    headers: bearer(w.organizer.token),
    payload: {
      opensAt: new Date(Date.now() + 3_600_000).toISOString(),
      waitingRoom: true,
      admitPerMinute: 60,
    },
  })
  expect(set.statusCode, set.body).toBe(200)
  return event
}

const rules: Rule[] = [
  // accounts
  rule({
    route: 'POST /api/v1/auth/register',
    when: 'a new account',
    expect: everyone(200),
    request: (_w, as) => ({
      method: 'POST',
      url: '/api/v1/auth/register',
      headers: auth(as),
      payload: { username: 'Newcomer', email: uniqueEmail('register'), password: 'password-1' },
    }),
  }),
  rule({
    route: 'POST /api/v1/auth/login',
    when: "the user's own e-mail and password",
    expect: everyone(200),
    request: (w, as) => ({
      method: 'POST',
      url: '/api/v1/auth/login',
      headers: auth(as),
      payload: { email: w.user.email, password: w.user.password },
    }),
  }),
  rule({
    route: 'GET /api/v1/auth/profile',
    when: 'the own profile',
    expect: SIGNED_IN,
    request: getAs('/api/v1/auth/profile'),
  }),
  rule({
    route: 'POST /api/v1/auth/getbyid',
    when: 'the user, who holds a ticket to the organizer’s event',
    expect: row(401, 403, 403, 200, 404, 200),
    request: (w, as) => ({
      method: 'POST',
      url: '/api/v1/auth/getbyid',
      headers: auth(as),
      payload: { userid: w.user.id },
    }),
  }),
  rule({
    route: 'POST /api/v1/auth/forgotpassword',
    when: 'any well-formed e-mail',
    expect: everyone(200),
    request: (_w, as) => ({
      method: 'POST',
      url: '/api/v1/auth/forgotpassword',
      headers: auth(as),
      payload: { email: uniqueEmail('forgot') },
    }),
  }),
  rule({
    route: 'POST /api/v1/auth/reset-password/:token',
    when: 'the token of a reset mail',
    expect: everyone(200),
    fresh: true,
    prepare: async () => resetTokenOf((await signUp(app(), 'Forgetful')).email),
    request: (_w, as, token) => ({
      method: 'POST',
      url: `/api/v1/auth/reset-password/${token}`,
      headers: auth(as),
      payload: { password: 'brand-new-1' },
    }),
  }),
  rule({
    route: 'POST /api/v1/auth/reset-password/:token',
    when: 'a token no mail ever carried',
    expect: everyone(400),
    request: (_w, as) => ({
      method: 'POST',
      url: `/api/v1/auth/reset-password/${randomBytes(32).toString('base64url')}`,
      headers: auth(as),
      payload: { password: 'brand-new-1' },
    }),
  }),
  rule({
    route: 'POST /api/v1/admin/create-organizer',
    when: 'a new organizer',
    expect: row(401, 403, 403, 403, 403, 201),
    request: (_w, as) => ({
      method: 'POST',
      url: '/api/v1/admin/create-organizer',
      headers: auth(as),
      payload: { name: 'New Org', email: uniqueEmail('org'), password: 'organizer-1' },
    }),
  }),
  rule({
    route: 'GET /api/v1/admin/getalluser',
    when: 'every account',
    expect: ADMIN_ONLY,
    request: getAs('/api/v1/admin/getalluser'),
  }),

  // events
  rule({
    route: 'GET /api/v1/event',
    when: 'the listing',
    expect: everyone(200),
    request: getAs('/api/v1/event'),
  }),
  rule({
    route: 'GET /api/v1/event/filter',
    when: 'a category filter',
    expect: everyone(200),
    request: getAs('/api/v1/event/filter?search=Music&filterType=category'),
  }),
  rule({
    route: 'GET /api/v1/event/:id',
    when: 'an approved event',
    expect: everyone(200),
    request: (w, as) => getAs(`/api/v1/event/${w.event._id}`)(w, as),
  }),
  rule({
    route: 'GET /api/v1/event/:id',
    when: 'a pending event (its organizer and admins only)',
    expect: row(404, 404, 404, 200, 404, 200),
    request: (w, as) => getAs(`/api/v1/event/${w.pending._id}`)(w, as),
  }),
  rule({
    route: 'POST /api/v1/event/create',
    when: 'a complete event form',
    expect: row(401, 403, 403, 201, 201, 403),
    request: async (_w, as) => {
      const form = await multipartBody({
        title: 'Access Night',
        description: 'Who may submit events.',
        date: `${nextYear}-05-01`,
        time: '20:00',
        location: 'Pune',
        category: 'Music',
        ticketTypes: JSON.stringify(plenty),
      })
      return {
        method: 'POST',
        url: '/api/v1/event/create',
        payload: form.payload,
        headers: { ...form.headers, ...auth(as) },
      }
    },
  }),
  rule({
    route: 'GET /api/v1/ticket/getorgid',
    when: 'the own events',
    expect: row(401, 403, 403, 200, 200, 403),
    request: getAs('/api/v1/ticket/getorgid'),
    reply: (role, res, w) => {
      if (role === 'another organizer') expect(res.body).not.toContain(w.event._id)
    },
  }),
  rule({
    route: 'GET /api/v1/admin/events',
    when: 'every event, any status',
    expect: ADMIN_ONLY,
    request: getAs('/api/v1/admin/events'),
  }),
  rule({
    route: 'PUT /api/v1/admin/events/:id/status',
    when: 'approving a pending event',
    expect: ADMIN_ONLY,
    fresh: true,
    prepare: (w) => submitEvent(app(), w.organizer),
    request: (_w, as, pending) => ({
      method: 'PUT',
      url: `/api/v1/admin/events/${pending._id}/status`,
      headers: auth(as),
      payload: { status: 'Approved' },
    }),
  }),

  // tickets
  rule({
    route: 'POST /api/v1/ticket/create',
    when: 'one seat of an approved event',
    expect: SIGNED_IN,
    request: (w, as) => ({
      method: 'POST',
      url: '/api/v1/ticket/create',
      headers: auth(as),
      payload: { eventId: w.event._id, ticketType: 'General Admission', quantity: 1 },
    }),
  }),
  rule({
    route: 'POST /api/v1/ticket/handlePaymentSuccess',
    when: "the user's order, paid at checkout (the order's buyer only)",
    expect: row(401, 200, 404, 404, 404, 404),
    prepare: async (w) => {
      const placed = await hold(app(), w.user, w.event, 'General Admission')
      const paid = await pay(app(), w.user, placed)
      expect(paid.statusCode, paid.body).toBe(200)
      return paid.json() as Checkout
    },
    request: (_w, as, checkout) => ({
      method: 'POST',
      url: '/api/v1/ticket/handlePaymentSuccess',
      headers: auth(as),
      payload: {
        paymentId: checkout.razorpay_payment_id,
        orderId: checkout.razorpay_order_id,
        signature: checkout.razorpay_signature,
      },
    }),
  }),
  rule({
    route: 'GET /api/v1/ticket/getTicketbyId/:ticketId',
    when: "the user's ticket (owner, event's organizer, admin)",
    expect: row(401, 200, 404, 200, 404, 200),
    request: (w, as) => getAs(`/api/v1/ticket/getTicketbyId/${w.ticket}`)(w, as),
  }),
  rule({
    route: 'GET /api/v1/ticket/registrations',
    when: 'the own registrations',
    expect: SIGNED_IN,
    request: getAs('/api/v1/ticket/registrations'),
    reply: (role, res, w) => {
      if (role !== 'user') expect(res.body).not.toContain(w.ticket)
    },
  }),
  rule({
    route: 'DELETE /api/v1/ticket/cancel/:ticketId',
    when: "the user's ticket (its owner only)",
    expect: row(401, 200, 404, 404, 404, 404),
    fresh: true,
    prepare: (w) => buy(app(), w.user, w.event, 'General Admission'),
    request: (_w, as, ticket) => ({
      method: 'DELETE',
      url: `/api/v1/ticket/cancel/${ticket}`,
      headers: auth(as),
    }),
  }),
  rule({
    route: 'DELETE /api/v1/ticket/:ticketId',
    when: "the user's ticket (its owner only)",
    expect: row(401, 200, 404, 404, 404, 404),
    fresh: true,
    prepare: (w) => buy(app(), w.user, w.event, 'General Admission'),
    request: (_w, as, ticket) => ({ method: 'DELETE', url: `/api/v1/ticket/${ticket}`, headers: auth(as) }),
  }),
  rule({
    route: 'POST /api/v1/ticket/:ticketId/refund',
    when: "the user's ticket, refunded on purpose (the event's organizer, admin)",
    expect: row(401, 403, 403, 200, 404, 200),
    fresh: true,
    prepare: (w) => buy(app(), w.user, w.event, 'General Admission'),
    request: (_w, as, ticket) => ({
      method: 'POST',
      url: `/api/v1/ticket/${ticket}/refund`,
      headers: auth(as),
      payload: { reason: 'Refunded for the access table.' },
    }),
  }),
  rule({
    route: 'POST /api/v1/ticket/transfer',
    when: "the user's ticket to another user (its owner only)",
    expect: row(401, 200, 404, 404, 404, 404),
    fresh: true,
    prepare: (w) => buy(app(), w.user, w.event, 'General Admission'),
    request: (w, as, ticket) => ({
      method: 'POST',
      url: '/api/v1/ticket/transfer',
      headers: auth(as),
      payload: { ticketId: ticket, newAttendeeEmail: w.anotherUser.email },
    }),
  }),

  // the door (issue 16): "another user" is door staff of the organizer's event, and of nothing else
  rule({
    route: 'GET /api/v1/ticket/:ticketId/passes',
    when: "the user's ticket (owner, event's organizer, admin; not the event's door staff)",
    expect: row(401, 200, 404, 200, 404, 200),
    request: (w, as) => getAs(`/api/v1/ticket/${w.ticket}/passes`)(w, as),
  }),
  rule({
    route: 'POST /api/v1/checkin/:eventId/scans',
    when: "a scan at the organizer's event (organizer, its door staff, admin)",
    expect: row(401, 403, 200, 200, 403, 200),
    request: (w, as) => ({
      method: 'POST',
      url: `/api/v1/checkin/${w.event._id}/scans`,
      headers: auth(as),
      payload: { scans: [{ code: 'not-a-pass', scannedAt: new Date().toISOString(), device: 'access' }] },
    }),
  }),
  rule({
    route: 'GET /api/v1/checkin/:eventId/manifest',
    when: "the organizer's event (organizer, its door staff, admin)",
    expect: row(401, 403, 200, 200, 403, 200),
    request: (w, as) => getAs(`/api/v1/checkin/${w.event._id}/manifest`)(w, as),
  }),
  rule({
    route: 'GET /api/v1/checkin/:eventId/manifest',
    when: 'a pending event (hidden from who has no part in it)',
    expect: row(401, 404, 404, 200, 404, 200),
    request: (w, as) => getAs(`/api/v1/checkin/${w.pending._id}/manifest`)(w, as),
  }),
  rule({
    route: 'GET /api/v1/checkin/:eventId/summary',
    when: "the organizer's event (organizer, its door staff, admin)",
    expect: row(401, 403, 200, 200, 403, 200),
    request: (w, as) => getAs(`/api/v1/checkin/${w.event._id}/summary`)(w, as),
  }),
  rule({
    route: 'GET /api/v1/checkin/:eventId/door-staff',
    when: "the organizer's event (organizer, admin; not its door staff)",
    expect: row(401, 403, 403, 200, 403, 200),
    request: (w, as) => getAs(`/api/v1/checkin/${w.event._id}/door-staff`)(w, as),
  }),
  rule({
    route: 'POST /api/v1/checkin/:eventId/door-staff',
    when: "an e-mail invited to the organizer's event's door staff (organizer, admin)",
    expect: row(401, 403, 403, 202, 403, 202),
    request: (w, as) => ({
      method: 'POST',
      url: `/api/v1/checkin/${w.event._id}/door-staff`,
      headers: auth(as),
      payload: { email: uniqueEmail('helper') },
    }),
  }),
  rule({
    route: 'DELETE /api/v1/checkin/:eventId/door-staff/:invitationId',
    when: "an invitation to the organizer's event's door staff (organizer, admin)",
    expect: row(401, 403, 403, 200, 403, 200),
    fresh: true,
    prepare: async (w) => {
      const email = uniqueEmail('steward')
      const res = await app().inject({
        method: 'POST',
        url: `/api/v1/checkin/${w.event._id}/door-staff`,
        headers: bearer(w.organizer.token),
        payload: { email },
      })
      expect(res.statusCode, res.body).toBe(202)
      const list = await app().inject({
        method: 'GET',
        url: `/api/v1/checkin/${w.event._id}/door-staff`,
        headers: bearer(w.organizer.token),
      })
      return (list.json() as Array<{ _id: string; email: string }>).find((i) => i.email === email)?._id ?? ''
    },
    request: (w, as, invitationId) => ({
      method: 'DELETE',
      url: `/api/v1/checkin/${w.event._id}/door-staff/${invitationId}`,
      headers: auth(as),
    }),
  }),
  rule({
    route: 'GET /api/v1/checkin/invitations',
    when: "the caller's own invitations to door staff",
    expect: row(401, 200, 200, 200, 200, 200),
    request: (w, as) => getAs('/api/v1/checkin/invitations')(w, as),
  }),
  rule({
    route: 'POST /api/v1/checkin/invitations/:invitationId/accept',
    when: "an invitation to the user's e-mail (that account only)",
    expect: row(401, 200, 404, 404, 404, 404),
    fresh: true,
    prepare: (w) => invitationOfUser(w),
    request: (_w, as, invitationId) => ({
      method: 'POST',
      url: `/api/v1/checkin/invitations/${invitationId}/accept`,
      headers: auth(as),
    }),
  }),
  rule({
    route: 'DELETE /api/v1/checkin/invitations/:invitationId',
    when: "an invitation to the user's e-mail, declined (that account only)",
    expect: row(401, 200, 404, 404, 404, 404),
    fresh: true,
    prepare: (w) => invitationOfUser(w),
    request: (_w, as, invitationId) => ({
      method: 'DELETE',
      url: `/api/v1/checkin/invitations/${invitationId}`,
      headers: auth(as),
    }),
  }),

  // promo codes (issue 17)
  rule({
    route: 'GET /api/v1/event/:id/promo-codes',
    when: "the organizer's approved event (organizer, admin)",
    expect: row(401, 403, 403, 200, 403, 200),
    request: (w, as) => getAs(`/api/v1/event/${w.event._id}/promo-codes`)(w, as),
  }),
  rule({
    route: 'GET /api/v1/event/:id/promo-codes',
    when: "the organizer's pending event (as if it did not exist to others)",
    expect: row(401, 404, 404, 200, 404, 200),
    request: (w, as) => getAs(`/api/v1/event/${w.pending._id}/promo-codes`)(w, as),
  }),
  rule({
    route: 'POST /api/v1/event/:id/promo-codes',
    when: "a new code for the organizer's event (organizer, admin)",
    expect: row(401, 403, 403, 201, 403, 201),
    fresh: true,
    prepare: async () => `ACCESS-${++promoCodes}`,
    request: (w, as, code) => ({
      method: 'POST',
      url: `/api/v1/event/${w.event._id}/promo-codes`,
      headers: auth(as),
      payload: { code, percentOff: 10 },
    }),
  }),
  rule({
    route: 'GET /api/v1/event/:id/promo-codes/:code/price',
    when: "a code of an approved event, for anyone signed in (the booking screen's check)",
    expect: row(401, 200, 200, 200, 200, 200),
    prepare: async (w) => {
      const res = await app().inject({
        method: 'POST',
        url: `/api/v1/event/${w.event._id}/promo-codes`,
        headers: bearer(w.organizer.token),
        payload: { code: 'PRICE-CHECK', percentOff: 10 },
      })
      expect(res.statusCode, res.body).toBe(201)
    },
    request: (w, as) =>
      getAs(`/api/v1/event/${w.event._id}/promo-codes/price-check/price?ticketType=VIP&quantity=1`)(w, as),
  }),
  rule({
    route: 'DELETE /api/v1/event/:id/promo-codes/:code',
    when: "a code of the organizer's event (organizer, admin)",
    expect: row(401, 403, 403, 200, 403, 200),
    fresh: true,
    prepare: async (w) => {
      const code = `GONE-${++promoCodes}`
      const res = await app().inject({
        method: 'POST',
        url: `/api/v1/event/${w.event._id}/promo-codes`,
        headers: bearer(w.organizer.token),
        payload: { code, amountOff: 20 },
      })
      expect(res.statusCode, res.body).toBe(201)
      return code
    },
    request: (w, as, code) => ({
      method: 'DELETE',
      url: `/api/v1/event/${w.event._id}/promo-codes/${code}`,
      headers: auth(as),
    }),
  }),

  // seat maps (issue 40): the plan is its organizer's; a pending event's map is seen as the event is
  rule({
    route: 'PUT /api/v1/event/:id/seatmap',
    when: "the organizer's pending event's plan (its organizer only: not an admin)",
    expect: row(401, 403, 403, 200, 404, 403),
    request: (w, as) => ({
      method: 'PUT',
      url: `/api/v1/event/${w.pending._id}/seatmap`,
      headers: auth(as),
      payload: vipPlan,
    }),
  }),
  rule({
    route: 'GET /api/v1/event/:id/seatmap',
    when: "the organizer's pending event with a seat map (its organizer and admins)",
    expect: row(404, 404, 404, 200, 404, 200),
    prepare: async (w) => {
      const res = await app().inject({
        method: 'PUT',
        url: `/api/v1/event/${w.pending._id}/seatmap`,
        headers: auth(w.organizer),
        payload: vipPlan,
      })
      expect(res.statusCode, res.body).toBe(200)
    },
    request: (w, as) => ({ method: 'GET', url: `/api/v1/event/${w.pending._id}/seatmap`, headers: auth(as) }),
  }),

  rule({
    route: 'GET /api/v1/event/:id/seats/:seatId',
    when: "a seat of the organizer's pending event (its organizer and admins)",
    expect: row(401, 403, 403, 200, 404, 200),
    prepare: async (w) => {
      await app().inject({
        method: 'PUT',
        url: `/api/v1/event/${w.pending._id}/seatmap`,
        headers: auth(w.organizer),
        payload: vipPlan,
      })
      const map = await app().inject({
        method: 'GET',
        url: `/api/v1/event/${w.pending._id}/seatmap`,
        headers: auth(w.organizer),
      })
      return (map.json() as { sections: Array<{ rows: Array<{ seats: Array<{ id: string }> }> }> })
        .sections[0]?.rows[0]?.seats[0]?.id
    },
    request: (w, as, seatId) => ({
      method: 'GET',
      url: `/api/v1/event/${w.pending._id}/seats/${seatId}`,
      headers: auth(as),
    }),
  }),

  // editing and cancelling an event (issue 17)
  rule({
    route: 'PUT /api/v1/event/:id',
    when: "a change to the organizer's approved event (its organizer only: not an admin)",
    expect: row(401, 403, 403, 200, 403, 403),
    request: (w, as) => ({
      method: 'PUT',
      url: `/api/v1/event/${w.event._id}`,
      headers: auth(as),
      payload: { description: 'A description changed by its organizer.' },
    }),
  }),
  rule({
    route: 'POST /api/v1/event/:id/cancel',
    when: "the organizer's approved event, cancelled (organizer, admin)",
    expect: row(401, 403, 403, 200, 403, 200),
    fresh: true,
    prepare: (w) => approvedEvent(app(), w.organizer, w.admin, { title: 'To call off' }, plenty),
    request: (_w, as, event) => ({
      method: 'POST',
      url: `/api/v1/event/${(event as EventView)._id}/cancel`,
      headers: auth(as),
      payload: { reason: 'Called off for the access table.' },
    }),
  }),

  // waiting lists (issue 17): anyone signed in; a list of a type on sale is refused (409)
  rule({
    route: 'POST /api/v1/event/:id/waitlist',
    when: 'a ticket type on sale (joining is refused while seats are on sale)',
    expect: row(401, 409, 409, 409, 409, 409),
    request: (w, as) => ({
      method: 'POST',
      url: `/api/v1/event/${w.event._id}/waitlist`,
      headers: auth(as),
      payload: { ticketType: 'VIP', quantity: 1 },
    }),
  }),
  rule({
    route: 'DELETE /api/v1/event/:id/waitlist',
    when: 'nobody on the list (signed in: 404)',
    expect: row(401, 404, 404, 404, 404, 404),
    request: (w, as) => ({
      method: 'DELETE',
      url: `/api/v1/event/${w.event._id}/waitlist`,
      headers: auth(as),
    }),
  }),
  rule({
    route: 'GET /api/v1/waitlist/mine',
    when: 'their own places in line',
    expect: row(401, 200, 200, 200, 200, 200),
    request: getAs('/api/v1/waitlist/mine'),
  }),

  // the waiting room (issue 41): on an event of the organizer's with a room of its own, so the
  // world's event stays on sale to the other rules
  rule({
    route: 'PUT /api/v1/event/:id/onsale',
    when: "the sale time of the organizer's approved event (its organizer only)",
    expect: row(401, 403, 403, 200, 403, 403),
    prepare: (w) => approvedEvent(app(), w.organizer, w.admin, { title: 'On sale soon' }, plenty),
    request: (_w, as, event) => ({
      method: 'PUT',
      url: `/api/v1/event/${event._id}/onsale`,
      headers: auth(as),
      payload: { opensAt: new Date(Date.now() + 3_600_000).toISOString(), waitingRoom: true },
    }),
  }),
  // billing (issue 42): an organizer's own profile
  rule({
    route: 'PUT /api/v1/organizer/billing',
    when: 'their own profile (organizers only)',
    expect: row(401, 403, 403, 200, 200, 403),
    request: (_w, as) => ({
      method: 'PUT',
      url: '/api/v1/organizer/billing',
      headers: auth(as),
      payload: { legalName: 'Their LLP', address: '1 Road, Pune', state: '27', invoicePrefix: 'TL' },
    }),
  }),
  rule({
    route: 'GET /api/v1/organizer/billing',
    when: 'their own profile, saved by the rule before (organizers only)',
    expect: row(401, 403, 403, 200, 200, 403),
    request: getAs('/api/v1/organizer/billing'),
  }),
  rule({
    route: 'GET /api/v1/tax-rates',
    when: 'the GST rates and the booking fee (anyone)',
    expect: everyone(200),
    request: getAs('/api/v1/tax-rates'),
  }),
  rule({
    route: 'GET /api/v1/ticket/:ticketId/invoice',
    when: "the user's invoiced ticket (its buyer, its event's organizer, admins; others: 404)",
    expect: row(401, 200, 404, 200, 404, 200),
    prepare: (w) => invoicedTicket(w),
    request: (_w, as, ticket) => ({
      method: 'GET',
      url: `/api/v1/ticket/${ticket}/invoice?format=json`,
      headers: auth(as),
    }),
  }),
  rule({
    route: 'GET /api/v1/ticket/:ticketId/credit-note',
    when: "the user's refunded ticket (its buyer, its event's organizer, admins; others: 404)",
    expect: row(401, 200, 404, 200, 404, 200),
    prepare: async (w) => {
      const ticket = await invoicedTicket(w)
      const res = await app().inject({
        method: 'DELETE',
        url: `/api/v1/ticket/${ticket}`,
        headers: auth(w.user),
      })
      expect(res.statusCode, res.body).toBe(200)
      return ticket
    },
    request: (_w, as, ticket) => ({
      method: 'GET',
      url: `/api/v1/ticket/${ticket}/credit-note`,
      headers: auth(as),
    }),
  }),
  // API tokens (issue 43): an organizer's or admin's own
  rule({
    route: 'POST /api/v1/account/tokens',
    when: 'a token of their own (organizers and admins)',
    expect: row(401, 403, 403, 201, 201, 201),
    request: (_w, as) => ({
      method: 'POST',
      url: '/api/v1/account/tokens',
      headers: auth(as),
      payload: { name: 'Access rule', scopes: ['events:read'] },
    }),
  }),
  rule({
    route: 'GET /api/v1/account/tokens',
    when: 'their own tokens (organizers and admins)',
    expect: row(401, 403, 403, 200, 200, 200),
    request: getAs('/api/v1/account/tokens'),
  }),
  rule({
    route: 'DELETE /api/v1/account/tokens/:id',
    when: "the organizer's token (its owner only; others: 404)",
    fresh: true,
    expect: row(401, 403, 403, 200, 404, 404),
    prepare: async (w) => {
      const res = await app().inject({
        method: 'POST',
        url: '/api/v1/account/tokens',
        headers: auth(w.organizer),
        payload: { name: 'To revoke', scopes: ['events:read'] },
      })
      expect(res.statusCode, res.body).toBe(201)
      return res.json().id as string
    },
    request: (_w, as, id) => ({ method: 'DELETE', url: `/api/v1/account/tokens/${id}`, headers: auth(as) }),
  }),
  // webhooks (issue 43): an organizer's own endpoints
  rule({
    route: 'POST /api/v1/organizer/webhooks',
    when: 'an endpoint of their own (organizers only)',
    expect: row(401, 403, 403, 201, 201, 403),
    request: (_w, as) => ({
      method: 'POST',
      url: '/api/v1/organizer/webhooks',
      headers: auth(as),
      payload: { url: 'https://hooks.example.com/in', events: ['order.paid'] },
    }),
  }),
  rule({
    route: 'GET /api/v1/organizer/webhooks',
    when: 'their own endpoints (organizers only)',
    expect: row(401, 403, 403, 200, 200, 403),
    request: getAs('/api/v1/organizer/webhooks'),
  }),
  rule({
    route: 'DELETE /api/v1/organizer/webhooks/:id',
    when: "the organizer's endpoint (its owner only; others: 404)",
    fresh: true,
    expect: row(401, 403, 403, 200, 404, 403),
    prepare: (w) => organizerEndpoint(w),
    request: (_w, as, id) => ({
      method: 'DELETE',
      url: `/api/v1/organizer/webhooks/${id}`,
      headers: auth(as),
    }),
  }),
  rule({
    route: 'GET /api/v1/organizer/webhooks/:id/deliveries',
    when: "the organizer's endpoint's deliveries (its owner only; others: 404)",
    expect: row(401, 403, 403, 200, 404, 403),
    prepare: (w) => organizerEndpoint(w),
    request: (_w, as, id) => ({
      method: 'GET',
      url: `/api/v1/organizer/webhooks/${id}/deliveries`,
      headers: auth(as),
    }),
  }),
  rule({
    route: 'POST /api/v1/organizer/webhooks/:id/deliveries/:deliveryId/retry',
    when: 'a delivery the endpoint does not have (its owner: 404 naming it; others: 404 the endpoint)',
    expect: row(401, 403, 403, 404, 404, 403),
    prepare: (w) => organizerEndpoint(w),
    request: (_w, as, id) => ({
      method: 'POST',
      url: `/api/v1/organizer/webhooks/${id}/deliveries/${id}-1/retry`,
      headers: auth(as),
    }),
  }),
  rule({
    route: 'GET /api/v1/organizer/invoices',
    when: 'their own documents (organizers only)',
    expect: row(401, 403, 403, 200, 200, 403),
    request: getAs('/api/v1/organizer/invoices'),
  }),
  rule({
    route: 'GET /api/v1/admin/invoices',
    when: "the platform's booking fee documents (admins only)",
    expect: ADMIN_ONLY,
    request: getAs('/api/v1/admin/invoices'),
  }),
  rule({
    route: 'GET /api/v1/account/invoices',
    when: 'their own documents as a buyer (anyone signed in)',
    expect: row(401, 200, 200, 200, 200, 200),
    request: getAs('/api/v1/account/invoices'),
  }),
  rule({
    route: 'PUT /api/v1/admin/booking-fee',
    when: "the platform's booking fee, set to none (admins only)",
    expect: ADMIN_ONLY,
    request: (_w, as) => ({
      method: 'PUT',
      url: '/api/v1/admin/booking-fee',
      headers: auth(as),
      payload: { perTicket: 0, percent: 0, taxRate: 18 },
    }),
  }),
  rule({
    route: 'GET /api/v1/admin/booking-fee',
    when: "the platform's booking fee (admins only)",
    expect: ADMIN_ONLY,
    request: getAs('/api/v1/admin/booking-fee'),
  }),
  rule({
    route: 'GET /api/v1/event/:id/onsale',
    when: 'the sale time of an approved event (anyone)',
    expect: everyone(200),
    prepare: (w) => eventWithRoom(w),
    request: (_w, as, event) => getAs(`/api/v1/event/${event._id}/onsale`)(_w, as),
  }),
  rule({
    route: 'POST /api/v1/event/:id/queue',
    when: 'a line before the sale (anyone signed in joins, once)',
    expect: row(401, 200, 200, 200, 200, 200),
    prepare: (w) => eventWithRoom(w),
    request: (_w, as, event) => ({
      method: 'POST',
      url: `/api/v1/event/${event._id}/queue`,
      headers: auth(as),
    }),
  }),
  rule({
    route: 'GET /api/v1/event/:id/queue/me',
    when: 'a line the user is in (the others are not: 404)',
    expect: row(401, 200, 404, 404, 404, 404),
    prepare: async (w) => {
      const event = await eventWithRoom(w)
      const joined = await app().inject({
        method: 'POST',
        url: `/api/v1/event/${event._id}/queue`,
        headers: auth(w.user),
      })
      expect(joined.statusCode, joined.body).toBe(200)
      return event
    },
    request: (_w, as, event) => getAs(`/api/v1/event/${event._id}/queue/me`)(_w, as),
  }),
  ...(
    [
      'GET /api/v1/event/:id/queue',
      'POST /api/v1/event/:id/queue/pause',
      'POST /api/v1/event/:id/queue/resume',
    ] as const
  ).map((route) =>
    rule({
      route,
      when: "the line of the organizer's event (its organizer and admins)",
      expect: row(401, 403, 403, 200, 403, 200),
      prepare: (w) => eventWithRoom(w),
      request: (_w, as, event) => ({
        method: route.startsWith('GET') ? 'GET' : 'POST',
        url: `/api/v1/event/${event._id}/queue${route.endsWith('pause') ? '/pause' : route.endsWith('resume') ? '/resume' : ''}`,
        headers: auth(as),
      }),
    }),
  ),

  // organizer tools
  rule({
    route: 'GET /api/v1/ticket/analytics/:eventId',
    when: "the organizer's event",
    expect: row(401, 403, 403, 200, 404, 200),
    request: (w, as) => getAs(`/api/v1/ticket/analytics/${w.event._id}`)(w, as),
  }),
  rule({
    route: 'GET /api/v1/dashboard/events',
    when: 'a page of the own events with their figures (every event for an admin)',
    expect: row(401, 403, 403, 200, 200, 200),
    request: getAs('/api/v1/dashboard/events?limit=100'),
    reply: (role, res, w) => {
      if (role === 'another organizer') expect(res.body).not.toContain(w.event._id)
      else if (res.statusCode === 200) expect(res.body).toContain(w.event._id)
    },
  }),
  rule({
    route: 'GET /api/v1/dashboard/events/:eventId',
    when: "the organizer's event's figures",
    expect: row(401, 403, 403, 200, 404, 200),
    request: (w, as) => getAs(`/api/v1/dashboard/events/${w.event._id}`)(w, as),
  }),
  rule({
    route: 'GET /api/v1/dashboard/events/:eventId/attendees',
    when: "the organizer's event's attendees",
    expect: row(401, 403, 403, 200, 404, 200),
    request: (w, as) => getAs(`/api/v1/dashboard/events/${w.event._id}/attendees`)(w, as),
  }),
  rule({
    route: 'GET /api/v1/dashboard/events/:eventId/attendees/:accountId/tickets',
    when: "a person's tickets to the organizer's event (to refund from its attendee list)",
    expect: row(401, 403, 403, 200, 404, 200),
    request: (w, as) =>
      getAs(`/api/v1/dashboard/events/${w.event._id}/attendees/${w.user.id}/tickets`)(w, as),
  }),
  rule({
    route: 'GET /api/v1/organizers/attendees',
    when: 'the attendees of the own events',
    expect: row(401, 403, 403, 200, 200, 200),
    request: getAs('/api/v1/organizers/attendees'),
    reply: (role, res, w) => {
      if (role === 'another organizer') expect(res.body).not.toContain(w.user.email)
      else if (res.statusCode === 200) expect(res.body).toContain(w.user.email)
    },
  }),
  rule({
    route: 'GET /api/v1/organizers/attendees.csv',
    when: 'the attendees of the own events, as CSV',
    expect: row(401, 403, 403, 200, 200, 200),
    request: getAs('/api/v1/organizers/attendees.csv'),
    reply: (role, res, w) => {
      if (role === 'another organizer') expect(res.body).not.toContain(w.user.email)
      else if (res.statusCode === 200) expect(res.body).toContain(w.user.email)
    },
  }),

  // schedule
  rule({
    route: 'GET /api/v1/schedule',
    when: 'every session',
    expect: everyone(200),
    request: getAs('/api/v1/schedule'),
  }),
  rule({
    route: 'POST /api/v1/schedule',
    when: "a session of the organizer's event",
    expect: row(401, 403, 403, 201, 404, 403),
    request: (w, as) => ({
      method: 'POST',
      url: '/api/v1/schedule',
      headers: auth(as),
      payload: {
        eventId: w.event._id,
        sessionTitle: 'Opening',
        startTime: `${nextYear}-03-15T18:00`,
        endTime: `${nextYear}-03-15T19:00`,
      },
    }),
  }),
  rule({
    route: 'POST /api/v1/notify',
    when: "a notice to the organizer's attendees",
    expect: row(401, 403, 403, 202, 404, 403),
    request: (w, as) => ({
      method: 'POST',
      url: '/api/v1/notify',
      headers: auth(as),
      payload: {
        eventId: w.event._id,
        startTime: `${nextYear}-03-15T18:00`,
        endTime: `${nextYear}-03-15T20:00`,
      },
    }),
  }),

  // support
  rule({
    route: 'POST /api/v1/admin/support',
    when: 'a new inquiry (users only)',
    expect: row(401, 201, 201, 403, 403, 403),
    request: (_w, as) => ({
      method: 'POST',
      url: '/api/v1/admin/support',
      headers: auth(as),
      payload: { subject: 'Seats', inquiry: 'Are there seats for wheelchairs?' },
    }),
  }),
  rule({
    route: 'POST /api/v1/admin/support/get',
    when: 'every inquiry',
    expect: ADMIN_ONLY,
    request: (_w, as) => ({ method: 'POST', url: '/api/v1/admin/support/get', headers: auth(as) }),
  }),
  rule({
    route: 'POST /api/v1/admin/support/reply',
    when: "the user's inquiry",
    expect: ADMIN_ONLY,
    request: (w, as) => ({
      method: 'POST',
      url: '/api/v1/admin/support/reply',
      headers: auth(as),
      payload: { inquiryId: w.inquiry, reply: 'Yes, rows A and B.' },
    }),
  }),
  rule({
    route: 'GET /api/v1/support/mine',
    when: 'the own inquiries',
    expect: SIGNED_IN,
    request: getAs('/api/v1/support/mine'),
    reply: (role, res, w) => {
      if (role !== 'user' && res.statusCode === 200) expect(res.body).not.toContain(w.inquiry)
    },
  }),

  // payments: the webhook knows no roles, only the provider's signature
  rule({
    route: 'POST /api/v1/payments/webhook',
    when: 'a body signed with the webhook secret',
    expect: everyone(200),
    request: (_w, as) => {
      const body = JSON.stringify({
        event: 'payment.captured',
        payload: { payment: { entity: { id: 'pay_unknown', order_id: 'order_unknown' } } },
      })
      return {
        method: 'POST',
        url: '/api/v1/payments/webhook',
        payload: body,
        headers: {
          ...auth(as),
          'content-type': 'application/json',
          'x-razorpay-signature': webhookSignature(server.config.payments.webhookSecret, body),
        },
      }
    },
  }),
  rule({
    route: 'POST /api/v1/payments/webhook',
    when: 'a body signed with anything else',
    expect: everyone(400),
    request: (_w, as) => {
      const body = JSON.stringify({ event: 'payment.captured', payload: {} })
      return {
        method: 'POST',
        url: '/api/v1/payments/webhook',
        payload: body,
        headers: {
          ...auth(as),
          'content-type': 'application/json',
          'x-razorpay-signature': webhookSignature('not-the-webhook-secret', body),
        },
      }
    },
  }),
  rule({
    route: 'POST /api/v1/payments/local/pay',
    when: "the user's held order (its buyer only)",
    expect: row(401, 200, 404, 404, 404, 404),
    prepare: async (w) => hold(app(), w.user, w.event, 'General Admission'),
    request: (_w, as, placed) => ({
      method: 'POST',
      url: '/api/v1/payments/local/pay',
      headers: auth(as),
      payload: { orderId: placed.orderId, outcome: 'success' },
    }),
  }),
]

/**
 * The local gateway's Razorpay-shaped REST API knows no roles either: the key id and secret (HTTP
 * Basic) are all that count, so a role's token alone is 401 and the key is 200 whoever holds it.
 */
type GatewayIds = { orderId: string; paymentId: string }
const gatewayRoutes: Array<{ route: string; request: (ids: GatewayIds) => Omit<InjectOptions, 'headers'> }> =
  [
    {
      route: 'POST /api/v1/payments/local/v1/orders',
      request: () => ({
        method: 'POST',
        url: '/api/v1/payments/local/v1/orders',
        payload: { amount: 10_000, currency: 'INR' },
      }),
    },
    {
      route: 'GET /api/v1/payments/local/v1/orders/:id/payments',
      request: (ids) => ({ method: 'GET', url: `/api/v1/payments/local/v1/orders/${ids.orderId}/payments` }),
    },
    {
      route: 'GET /api/v1/payments/local/v1/payments/:id',
      request: (ids) => ({ method: 'GET', url: `/api/v1/payments/local/v1/payments/${ids.paymentId}` }),
    },
    {
      route: 'POST /api/v1/payments/local/v1/payments/:id/capture',
      request: (ids) => ({
        method: 'POST',
        url: `/api/v1/payments/local/v1/payments/${ids.paymentId}/capture`,
      }),
    },
    {
      route: 'POST /api/v1/payments/local/v1/payments/:id/refund',
      request: (ids) => ({
        method: 'POST',
        url: `/api/v1/payments/local/v1/payments/${ids.paymentId}/refund`,
        payload: { amount: 100 },
      }),
    },
    {
      route: 'GET /api/v1/payments/local/v1/payments/:id/refunds',
      request: (ids) => ({
        method: 'GET',
        url: `/api/v1/payments/local/v1/payments/${ids.paymentId}/refunds`,
      }),
    },
  ]
for (const { route, request } of gatewayRoutes) {
  rules.push(
    rule({
      route,
      when: "the role's token and no gateway key",
      expect: everyone(401),
      prepare: gatewayPayment,
      request: (_w, as, ids) => ({ ...request(ids), headers: auth(as) }),
    }),
    rule({
      route,
      when: 'the gateway key id and secret (Basic)',
      expect: everyone(200),
      prepare: gatewayPayment,
      request: (_w, _as, ids) => ({ ...request(ids), headers: gatewayKey() }),
    }),
    rule({
      route,
      when: 'the key id with a wrong secret',
      expect: everyone(401),
      prepare: gatewayPayment,
      request: (_w, _as, ids) => ({
        ...request(ids),
        headers: basicAuth(server.config.payments.keyId, 'not-the-key-secret'),
      }),
    }),
  )
}

rules.push(
  // probes and the API description
  ...['/api/v1/health/live', '/api/v1/health/ready', '/api/v1/openapi.json', '/api/v1/site'].map((url) =>
    rule({ route: `GET ${url}`, when: 'anyone', expect: everyone(200), request: getAs(url) }),
  ),
  // the admins' activity feed: a WebSocket whose first message carries the token
  rule({
    route: 'GET /api/v1/activity',
    when: 'the first message carries the role’s token (4401: no session, 4403: not an admin)',
    expect: row(4401, 4403, 4403, 4403, 4403, 200),
    run: (_w, as) => feedAnswer(as?.token),
  }),
  // outside the API
  rule({
    route: 'GET /uploads/*',
    when: "an event's image",
    expect: everyone(200),
    request: (w, as) => getAs(w.image)(w, as),
  }),
  rule({
    route: 'GET /*',
    when: 'the web app (asking for HTML)',
    expect: everyone(200),
    request: (_w, as) => ({
      method: 'GET',
      url: '/events/anything',
      headers: { ...auth(as), accept: 'text/html' },
    }),
  }),
  rule({
    route: 'OPTIONS *',
    when: 'a CORS preflight from the allowed origin',
    expect: everyone(204),
    request: (_w, as) => ({
      method: 'OPTIONS',
      url: '/api/v1/ticket/create',
      headers: {
        ...auth(as),
        origin: 'http://localhost:5173',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'authorization,content-type',
      },
    }),
  }),
)

beforeAll(async () => {
  server = await startServer()
  const admin = await adminSession(app())
  const [organizer, anotherOrganizer] = [
    await organizerSession(app(), 'Owner'),
    await organizerSession(app(), 'Rival'),
  ]
  const [user, anotherUser] = [await signUp(app(), 'Buyer'), await signUp(app(), 'Stranger')]
  const image = await multipartBody(
    {
      title: 'Access Gala',
      description: 'The event everyone is asking about.',
      date: `${nextYear}-03-15`,
      time: '18:00',
      location: 'Mumbai',
      category: 'Music',
      ticketTypes: JSON.stringify(plenty),
    },
    [{ field: 'images', filename: 'poster.png', bytes: pngImage(), contentType: 'image/png' }],
  )
  const created = await app().inject({
    method: 'POST',
    url: '/api/v1/event/create',
    payload: image.payload,
    headers: { ...image.headers, ...bearer(organizer.token) },
  })
  expect(created.statusCode, created.body).toBe(201)
  const review = await app().inject({
    method: 'PUT',
    url: `/api/v1/admin/events/${created.json().event._id}/status`,
    headers: bearer(admin.token),
    payload: { status: 'Approved' },
  })
  expect(review.statusCode, review.body).toBe(200)
  const event = review.json().event as EventView
  const pending = await submitEvent(app(), organizer, { title: 'Still Pending' })
  const ticket = await buy(app(), user, event, 'General Admission')
  // "another user" works the event's door: it may scan there, and that gives it nothing else
  const staffed = await app().inject({
    method: 'POST',
    url: `/api/v1/checkin/${event._id}/door-staff`,
    headers: bearer(organizer.token),
    payload: { email: anotherUser.email },
  })
  expect(staffed.statusCode, staffed.body).toBe(202)
  const invitations = await app().inject({
    method: 'GET',
    url: '/api/v1/checkin/invitations',
    headers: bearer(anotherUser.token),
  })
  const invitation = (invitations.json() as Array<{ _id: string; eventId: string }>).find(
    (i) => i.eventId === event._id,
  )
  const accepted = await app().inject({
    method: 'POST',
    url: `/api/v1/checkin/invitations/${invitation?._id}/accept`,
    headers: bearer(anotherUser.token),
  })
  expect(accepted.statusCode, accepted.body).toBe(200)
  const asked = await app().inject({
    method: 'POST',
    url: '/api/v1/admin/support',
    headers: bearer(user.token),
    payload: { subject: 'Parking', inquiry: 'Is there parking?' },
  })
  expect(asked.statusCode, asked.body).toBe(201)
  world = {
    sessions: {
      user,
      'another user': anotherUser,
      organizer,
      'another organizer': anotherOrganizer,
      admin,
    },
    user,
    anotherUser,
    organizer,
    anotherOrganizer,
    admin,
    event,
    pending,
    ticket,
    inquiry: asked.json().inquiry._id,
    image: event.images[0]?.url ?? '',
  }
})
afterAll(async () => {
  await server?.close()
  console.info(`access: ${checked} route × role checks`)
  recordFigures('access', { checks: checked, routes: byRoute.size, roles: roles.length })
})

let checked = 0

describe('the access table', () => {
  it('has a rule for every route the app serves, and none for a route it does not serve', () => {
    requireWebBuild(server.config.webDist) // (GET /* is served only with the web app built)
    const served = servedRoutes(app())
    const ruled = new Set(rules.map((r) => r.route))

    expect(served.filter((route) => !ruled.has(route))).toEqual([])
    expect([...ruled].filter((route) => !served.includes(route))).toEqual([])
  })
})

const byRoute = new Map<string, Rule[]>()
for (const r of rules) byRoute.set(r.route, [...(byRoute.get(r.route) ?? []), r])

for (const [route, routeRules] of byRoute) {
  describe(route, () => {
    it.each(routeRules.map((r) => [r.when, r] as const))('%s', async (_when, r) => {
      if (route === 'GET /*') requireWebBuild(server.config.webDist)
      const shared = r.prepare && !r.fresh ? await r.prepare(world) : undefined
      const actual = {} as Statuses
      const replies: string[] = []
      for (const role of roles) {
        const as = role === 'visitor' ? null : world.sessions[role]
        const prepared = r.fresh && r.prepare ? await r.prepare(world) : shared
        if (r.run) {
          actual[role] = await r.run(world, as, prepared)
        } else if (r.request) {
          const res = await app().inject(await r.request(world, as, prepared))
          actual[role] = res.statusCode
          if (res.statusCode >= 400) {
            const message = (res.json() as { message?: unknown }).message
            if (typeof message !== 'string' || !message.trim())
              replies.push(`${role}: ${res.body.slice(0, 200)}`)
          }
          r.reply?.(role, res, world)
        }
        checked++
      }

      expect(actual).toEqual(r.expect)
      expect(replies, 'every refusal says why in {message}').toEqual([])
    })
  })
}

/** A JWT made by hand: any header, any claims, signed (HS256) with the given secret or not at all. */
function jwt(header: Record<string, unknown>, claims: Record<string, unknown>, secret?: string): string {
  const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url')
  const head = `${b64(header)}.${b64(claims)}`
  return `${head}.${secret ? createHmac('sha256', secret).update(head).digest('base64url') : ''}`
}
const claimsOf = (token: string) =>
  JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString('utf8')) as Record<string, unknown>

describe('JWTs that must not work', () => {
  const now = () => Math.floor(Date.now() / 1000)
  const forged = (): Array<[string, string]> => {
    const admin = world.admin.token
    const claims = claimsOf(admin)
    const [head, , signature] = admin.split('.')
    const secret = server.config.jwt.secret
    return [
      [
        'a tampered signature',
        `${head}.${admin.split('.')[1]}.${(signature ?? '').split('').reverse().join('')}`,
      ],
      [
        'claims changed under the old signature',
        `${head}.${Buffer.from(JSON.stringify({ ...claimsOf(world.user.token), role: 'admin' })).toString('base64url')}.${signature}`,
      ],
      [
        'a signature made with another secret',
        jwt({ alg: 'HS256', typ: 'JWT' }, claims, 'not-the-secret-'.repeat(3)),
      ],
      ['alg: none', jwt({ alg: 'none', typ: 'JWT' }, claims)],
      ['alg: None with a signature', jwt({ alg: 'None', typ: 'JWT' }, claims, secret)],
      [
        'an expired token',
        jwt({ alg: 'HS256', typ: 'JWT' }, { ...claims, iat: now() - 7200, exp: now() - 3600 }, secret),
      ],
      [
        'the token of an account that does not exist (deleted, or never made)',
        jwt({ alg: 'HS256', typ: 'JWT' }, { ...claims, sub: 'no-such-account' }, secret),
      ],
      [
        'a token without a password version',
        jwt({ alg: 'HS256', typ: 'JWT' }, { ...claims, pv: undefined }, secret),
      ],
      ['a token of an older password', jwt({ alg: 'HS256', typ: 'JWT' }, { ...claims, pv: 1 }, secret)],
    ]
  }

  it('are 401 on a route for signed-in accounts and on an admin route, with a message', async () => {
    const answers: string[] = []
    for (const [label, token] of forged()) {
      for (const url of ['/api/v1/auth/profile', '/api/v1/admin/getalluser']) {
        const res = await app().inject({ method: 'GET', url, headers: bearer(token) })
        answers.push(`${label} ${url}: ${res.statusCode} ${typeof res.json().message}`)
        checked++
      }
    }

    expect(answers).toEqual(
      forged().flatMap(([label]) =>
        ['/api/v1/auth/profile', '/api/v1/admin/getalluser'].map((url) => `${label} ${url}: 401 string`),
      ),
    )
  })

  it('give nothing on a route open to anyone: a pending event stays hidden', async () => {
    const statuses = await Promise.all(
      forged().map(async ([label, token]) => {
        const res = await app().inject({
          method: 'GET',
          url: `/api/v1/event/${world.pending._id}`,
          headers: bearer(token),
        })
        return `${label}: ${res.statusCode}`
      }),
    )

    expect(statuses).toEqual(forged().map(([label]) => `${label}: 404`))
  })

  it('are refused by the activity feed (4401)', async () => {
    const codes = []
    for (const [, token] of forged()) codes.push(await feedAnswer(token))

    expect(codes).toEqual(forged().map(() => 4401))
  })

  it('take the role from the account, not from the claims: a user’s token claiming admin is 403', async () => {
    const claims = claimsOf(world.user.token)
    const token = jwt({ alg: 'HS256', typ: 'JWT' }, { ...claims, role: 'admin' }, server.config.jwt.secret)

    const res = await app().inject({ method: 'GET', url: '/api/v1/admin/getalluser', headers: bearer(token) })

    expect(res.statusCode).toBe(403)
  })

  it('a token issued before a password reset stops working', async () => {
    const forgetful = await signUp(app(), 'Rotated')
    const token = await resetTokenOf(forgetful.email)
    const reset = await app().inject({
      method: 'POST',
      url: `/api/v1/auth/reset-password/${token}`,
      payload: { password: 'rotated-secret-1' },
    })
    expect(reset.statusCode, reset.body).toBe(200)

    const old = await app().inject({
      method: 'GET',
      url: '/api/v1/auth/profile',
      headers: bearer(forgetful.token),
    })
    const fresh = await login(app(), forgetful.email, 'rotated-secret-1')
    const now = await app().inject({ method: 'GET', url: '/api/v1/auth/profile', headers: bearer(fresh) })

    expect(old.statusCode).toBe(401)
    expect(now.statusCode).toBe(200)
  })
})

describe('two people changing the same thing at once', () => {
  it('two admins approving and rejecting one event with If-Match: one 200, one 409, one fact', async () => {
    const second = {
      email: uniqueEmail('second-admin'),
      password: 'second-admin-1',
      username: 'Second Admin',
    }
    await ensureAdmin(app().platform.ledger, app().services.accounts, second)
    const admins = [world.admin, { token: await login(app(), second.email, second.password) }]
    for (const first of ['Approved', 'Rejected'] as const) {
      const event = await submitEvent(app(), world.organizer, { title: `Contested ${first}` })
      const seen = await Promise.all(
        admins.map(async (admin) => {
          const res = await app().inject({
            method: 'GET',
            url: '/api/v1/admin/events',
            headers: bearer(admin.token),
          })
          return (res.json() as EventView[]).find((e) => e._id === event._id)?.version
        }),
      )
      expect(seen[0]).toBeTypeOf('number')
      expect(seen[1]).toBe(seen[0])
      const decisions =
        first === 'Approved' ? (['Approved', 'Rejected'] as const) : (['Rejected', 'Approved'] as const)
      const factsBefore = (await app().platform.ledger.readStream(`event-${event._id}`)).length

      const answers = await Promise.all(
        decisions.map((status, i) =>
          app().inject({
            method: 'PUT',
            url: `/api/v1/admin/events/${event._id}/status`,
            headers: { ...bearer(admins[i]?.token ?? ''), 'if-match': `"${seen[i]}"` },
            payload: { status },
          }),
        ),
      )

      expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 409])
      const loser = answers.find((a) => a.statusCode === 409)
      expect(loser?.json().message).toEqual(expect.stringMatching(/\S/))
      const winner = decisions[answers.findIndex((a) => a.statusCode === 200)]
      expect((await app().platform.ledger.readStream(`event-${event._id}`)).length).toBe(factsBefore + 1)
      const now = await app().inject({
        method: 'GET',
        url: `/api/v1/event/${event._id}`,
        headers: bearer(world.admin.token),
      })
      expect(now.json().approvalStatus).toBe(winner)
    }
  })

  it("two tabs of the ticket's owner transferring and cancelling it at once: one 200, one 409, a consistent ticket", async () => {
    for (const first of ['transfer', 'cancel'] as const) {
      const ticket = await buy(app(), world.user, world.event, 'General Admission')
      const transfer = () =>
        app().inject({
          method: 'POST',
          url: '/api/v1/ticket/transfer',
          headers: bearer(world.user.token),
          payload: { ticketId: ticket, newAttendeeEmail: world.anotherUser.email },
        })
      const cancel = () =>
        app().inject({
          method: 'DELETE',
          url: `/api/v1/ticket/cancel/${ticket}`,
          headers: bearer(world.user.token),
        })

      const [a, b] = await Promise.all(first === 'transfer' ? [transfer(), cancel()] : [cancel(), transfer()])
      const [transferred, cancelled] = first === 'transfer' ? [a, b] : [b, a]

      expect([transferred?.statusCode, cancelled?.statusCode].sort()).toEqual([200, 409])
      const order = await orderRow(app(), ticket)
      const facts = (await app().platform.ledger.readStream(`order-${ticket}`)).map((f) => f.type)
      if (transferred?.statusCode === 200) {
        expect(order).toMatchObject({ status: 'issued', ownerId: world.anotherUser.id })
        expect(facts).toContain('TicketTransferred')
        expect(facts).not.toContain('TicketCancelled')
      } else {
        expect(order).toMatchObject({ status: 'cancelled', ownerId: world.user.id })
        expect(facts).toContain('TicketCancelled')
        expect(facts).not.toContain('TicketTransferred')
      }
      const holder = transferred?.statusCode === 200 ? world.anotherUser : world.user
      const seen = await app().inject({
        method: 'GET',
        url: `/api/v1/ticket/getTicketbyId/${ticket}`,
        headers: bearer(holder.token),
      })
      expect(seen.statusCode).toBe(200)
      expect(
        (await factsOfType(app(), 'TicketCancelled')).filter(
          (f) => (f.data as { orderId: string }).orderId === ticket,
        ),
      ).toHaveLength(cancelled?.statusCode === 200 ? 1 : 0)
    }
  })
})
