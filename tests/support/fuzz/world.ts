// The world the fuzz test's requests are aimed at: accounts of every role (and broken credentials),
// events approved, pending and another organizer's, tickets, held orders, a checkout, the gateway's
// own orders and payments, an inquiry, a reset token and an upload, so generated requests reach the
// rules behind validation and not only the door.
import { expect } from 'vitest'
import type { EventView } from '../../../contracts/catalog.ts'
import { adminSession, bearer, organizerSession, type Session, signUp } from '../accounts.ts'
import type { TestApp } from '../app.ts'
import { pngImage } from '../media.ts'
import { waitForMail } from '../outbox.ts'
import { buy, type Checkout, hold, pay, submitEvent } from '../sales.ts'
import { multipart, plenty, validEventFields } from './generators.ts'

export type World = {
  /** Authorization header by label ('visitor': none) */
  auth: Record<string, string | undefined>
  user: Session
  anotherUser: Session
  /** the approved event, the organizer's pending one, another organizer's, one that does not exist */
  eventIds: string[]
  /** the approved event's ticket types, then another event's */
  ticketTypeIds: string[]
  ticketIds: string[]
  /** the codes of the user's first ticket's passes (issue 16), then one of another event's door */
  passCodes: string[]
  heldOrders: string[]
  checkout: Checkout
  gatewayOrders: string[]
  gatewayPayments: string[]
  inquiryIds: string[]
  userIds: string[]
  /** invitations to door staff: "another user"'s (accepted), then one that does not exist */
  invitationIds: string[]
  emails: string[]
  resetTokens: string[]
  uploads: string[]
  /** what the gateway signs its webhooks with */
  webhookSecret: string
}

async function resetTokenOf(t: TestApp, email: string): Promise<string> {
  await t.app.inject({ method: 'POST', url: '/api/v1/auth/forgotpassword', payload: { email } })
  const mail = await waitForMail(t.config.outboxDir, (m) => m.to.includes(email))
  return /\/reset-password\/([A-Za-z0-9_-]+)/.exec(mail.text)?.[1] ?? ''
}

const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url')

/** Makes the world in the app under test: every role signs up, sells, buys and asks once. */
export async function makeWorld(t: TestApp): Promise<World> {
  const app = t.app
  const admin = await adminSession(app)
  const organizer = await organizerSession(app, 'FuzzOrg')
  const anotherOrganizer = await organizerSession(app, 'FuzzRival')
  const user = await signUp(app, 'FuzzUser')
  const anotherUser = await signUp(app, 'FuzzOther')
  const forgetful = await signUp(app, 'FuzzForgetful')

  const form = multipart(
    [
      ...Object.entries(validEventFields()).map(([name, value]) => ({ name, value })),
      { name: 'images', filename: 'poster.png', type: 'image/png', value: pngImage() },
    ],
    'ok',
  )
  const created = await app.inject({
    method: 'POST',
    url: '/api/v1/event/create',
    payload: form.payload,
    headers: { 'content-type': form.type, ...bearer(organizer.token) },
  })
  expect(created.statusCode, created.body).toBe(201)
  const approved = await app.inject({
    method: 'PUT',
    url: `/api/v1/admin/events/${created.json().event._id}/status`,
    headers: bearer(admin.token),
    payload: { status: 'Approved' },
  })
  const event = approved.json().event as EventView
  const pending = await submitEvent(app, organizer, {}, plenty)
  const rivals = await submitEvent(app, anotherOrganizer, {}, plenty)
  const tickets = [await buy(app, user, event, 'VIP'), await buy(app, user, event, 'General Admission')]
  const toConfirm = await hold(app, user, event, 'VIP')
  const paid = await pay(app, user, toConfirm)
  const checkout = paid.json() as Checkout
  await app.inject({
    method: 'POST',
    url: '/api/v1/ticket/handlePaymentSuccess',
    headers: bearer(user.token),
    payload: {
      paymentId: checkout.razorpay_payment_id,
      orderId: checkout.razorpay_order_id,
      signature: checkout.razorpay_signature,
    },
  })
  const held = await hold(app, user, event, 'General Admission')
  const inquiry = await app.inject({
    method: 'POST',
    url: '/api/v1/admin/support',
    headers: bearer(user.token),
    payload: { subject: 'Fuzz', inquiry: 'Anything?' },
  })
  const key = `Basic ${Buffer.from(`${t.config.payments.keyId}:${t.config.payments.keySecret}`).toString('base64')}`
  const gatewayOrder = await app.inject({
    method: 'POST',
    url: '/api/v1/payments/local/v1/orders',
    headers: { authorization: key },
    payload: { amount: 100_000, currency: 'INR' },
  })
  const gatewayPaid = (await app.platform.localGateway?.pay(gatewayOrder.json().id, 'success')) as Checkout
  // the door (issue 16): "another user" is the approved event's door staff (invited, accepted);
  // passes to scan
  await app.inject({
    method: 'POST',
    url: `/api/v1/checkin/${event._id}/door-staff`,
    headers: bearer(organizer.token),
    payload: { email: anotherUser.email },
  })
  const invitations = await app.inject({
    method: 'GET',
    url: '/api/v1/checkin/invitations',
    headers: bearer(anotherUser.token),
  })
  const invitationIds = (invitations.json() as Array<{ _id: string }>).map((i) => i._id)
  for (const id of invitationIds)
    await app.inject({
      method: 'POST',
      url: `/api/v1/checkin/invitations/${id}/accept`,
      headers: bearer(anotherUser.token),
    })
  const passes = await app.inject({
    method: 'GET',
    url: `/api/v1/ticket/${tickets[0]}/passes`,
    headers: bearer(user.token),
  })
  const passCodes = (passes.json() as Array<{ code: string }>).map((p) => p.code)
  const claims = JSON.parse(Buffer.from(admin.token.split('.')[1] ?? '', 'base64url').toString())

  return {
    auth: {
      visitor: undefined,
      user: `Bearer ${user.token}`,
      'another user': `Bearer ${anotherUser.token}`,
      organizer: `Bearer ${organizer.token}`,
      'another organizer': `Bearer ${anotherOrganizer.token}`,
      admin: `Bearer ${admin.token}`,
      'the gateway key': key,
      'Bearer and nothing': 'Bearer',
      'Bearer and a space': 'Bearer ',
      'Bearer null': 'Bearer null',
      'Bearer a.b.c': 'Bearer a.b.c',
      'a lower-case scheme': `bearer ${admin.token}`,
      'an admin token, tampered': `Bearer ${admin.token.slice(0, -3)}abc`,
      'alg none': `Bearer ${b64({ alg: 'none', typ: 'JWT' })}.${b64(claims)}.`,
      'a token of no account': `Bearer ${b64({ alg: 'HS256', typ: 'JWT' })}.${b64({ ...claims, sub: 'ghost' })}.x`,
      'an 8 kB token': `Bearer ${'x'.repeat(8000)}`,
      'Basic, wrong secret': `Basic ${Buffer.from(`${t.config.payments.keyId}:nope`).toString('base64')}`,
      'Basic, not base64': 'Basic !!!not-base64!!!',
      'Basic, no colon': `Basic ${Buffer.from('justakey').toString('base64')}`,
    },
    user,
    anotherUser,
    eventIds: [event._id, pending._id, rivals._id, 'no-such-event'],
    ticketTypeIds: [
      ...event.ticketTypes.map((tt) => tt._id),
      ...(rivals.ticketTypes.map((tt) => tt._id) ?? []),
    ],
    ticketIds: [...tickets, toConfirm.ticketId, held.ticketId, 'no-such-ticket'],
    passCodes,
    heldOrders: [held.orderId, toConfirm.orderId, 'order_unknown'],
    checkout,
    gatewayOrders: [gatewayOrder.json().id, held.orderId, 'order_unknown'],
    gatewayPayments: [gatewayPaid.razorpay_payment_id, checkout.razorpay_payment_id, 'pay_unknown'],
    inquiryIds: [inquiry.json().inquiry._id, 'no-such-inquiry'],
    userIds: [user.id, anotherUser.id, organizer.id, admin.id, 'no-such-user'],
    invitationIds: [...invitationIds, 'no-such-invitation'],
    // (not the forgetful one's: a new reset request would retire the token below)
    emails: [user.email, anotherUser.email, organizer.email, 'nobody@example.com'],
    // (a token of the right shape that was never sent)
    resetTokens: [await resetTokenOf(t, forgetful.email), Buffer.alloc(32, 7).toString('base64url')],
    uploads: (event.images ?? []).map((i) => i.url.replace(/^.*\/uploads\//, '')),
    webhookSecret: t.config.payments.webhookSecret,
  }
}
