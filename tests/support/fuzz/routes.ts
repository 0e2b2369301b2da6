// Every route the app serves, and how to make bad requests for it (the fuzz test's route specs):
// each names its path, body, query and headers from the generators, aimed at the world the test
// set up (tests/support/fuzz/world.ts), with the edge cases of its own rules and examples written out.
import fc from 'fast-check'
import { webhookSignature } from '../../../server/payments/signatures.ts'
import { nextYear } from '../sales.ts'
import {
  badEmails,
  badPasswords,
  badTimes,
  commonHeaders,
  completeForm,
  contentTypeLies,
  enc,
  eventForm,
  example,
  files,
  fixed,
  freshEmail,
  gatewayAuth,
  http,
  jsonBody,
  LONG,
  malformedJson,
  nasty,
  param,
  query,
  type Req,
  sessionEnd,
  sessionStart,
} from './generators.ts'
import type { World } from './world.ts'

// The payment webhook's deliveries: bodies of the gateway's shapes and of none, signed or not.
const webhookBody = (w: World) =>
  fc.oneof(
    {
      weight: 3,
      arbitrary: fc
        .record({
          event: fc.oneof(fc.constantFrom('payment.captured', 'payment.failed', 'order.paid'), nasty),
          id: fc.oneof(fc.constantFrom(...w.gatewayPayments), nasty),
          order: fc.oneof(fc.constantFrom(...w.gatewayOrders), nasty),
        })
        .map(({ event, id, order }) =>
          JSON.stringify({ event, payload: { payment: { entity: { id, order_id: order } } } }),
        ),
    },
    { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.stringify(v) ?? 'null') },
    {
      weight: 1,
      arbitrary: fc.constantFrom(
        'null',
        '[]',
        '"payment"',
        '7',
        'true',
        '{"payload":null}',
        '{"payload":{"payment":null}}',
        '{"payload":{"payment":{"entity":null}}}',
        '{"payload":{"order":{"entity":{"id":7}}}}',
        ...malformedJson,
      ),
    },
  )
type Signature = 'genuine' | 'none' | 'other secret' | 'upper case' | 'garbage'
/** A webhook delivery of this body, signed as said, sent as this content type. */
function webhookRequest(
  w: World,
  body: string,
  signature: Signature,
  type = 'application/json',
  ip = '10.0.0.1',
): Req {
  const genuine = webhookSignature(w.webhookSecret, body)
  const signatures: Record<Signature, string | undefined> = {
    genuine,
    none: undefined,
    'other secret': webhookSignature('not-the-webhook-secret', body),
    'upper case': genuine.toUpperCase(),
    garbage: 'zz',
  }
  const sig = signatures[signature]
  return {
    method: 'POST',
    url: '/api/v1/payments/webhook',
    headers: { 'content-type': type, ...(sig === undefined ? {} : { 'x-razorpay-signature': sig }) },
    payload: body,
    remoteAddress: ip,
    auth: `signature: ${signature}`,
  }
}
const webhook = (w: World) =>
  fc
    .record({
      body: webhookBody(w),
      signature: fc.constantFrom<Signature>(
        'genuine',
        'genuine',
        'genuine',
        'none',
        'other secret',
        'upper case',
        'garbage',
      ),
      type: fc.oneof(
        { weight: 5, arbitrary: fc.constant('application/json') },
        { weight: 1, arbitrary: fc.constantFrom(...contentTypeLies) },
      ),
      ip: fc.ipV4(),
    })
    .map(({ body, signature, type, ip }) => webhookRequest(w, body, signature, type, ip))

const gatewayPath = (make: (id: string) => string, ids: () => string[]) => param(ids()).map(make)

/** How to fuzz one route: requests of bad input for it, aimed at the world's accounts and things. */
export type RouteSpec = {
  /** as servedRoutes names it: 'POST /api/v1/auth/login' */
  route: string
  /** this many times the runs of a route (the routes with the most ways to go wrong get more) */
  scale?: number
  request: (w: World) => fc.Arbitrary<Req>
  /** requests every run sends first: the shapes of input this route must survive, written out */
  examples?: (w: World) => Req[]
}

export const routeSpecs: RouteSpec[] = [
  // accounts
  {
    route: 'POST /api/v1/auth/register',
    request: (w) =>
      http({
        method: 'POST',
        path: fixed('/api/v1/auth/register'),
        body: jsonBody(
          {
            username: fc.constantFrom('Fuzzy', 'Ünï 名前 😀', 'a'.repeat(60)),
            email: freshEmail('register'),
            password: fc.constantFrom('password-1', 'p'.repeat(256)),
            phone: fc.constantFrom('+91 98765 43210', '(080) 1234-5678'),
          },
          {
            username: fc.constantFrom('a'.repeat(61), '   '),
            email: fc.oneof(badEmails(), fc.constantFrom(...w.emails)),
            password: badPasswords(),
            phone: fc.constantFrom('123', 'phone', '+'.repeat(30)),
          },
        ),
      }),
  },
  {
    route: 'POST /api/v1/auth/login',
    request: (w) =>
      http({
        method: 'POST',
        path: fixed('/api/v1/auth/login'),
        body: jsonBody(
          {
            email: fc.constantFrom(w.user.email, w.anotherUser.email.toUpperCase()),
            password: fc.constant('password-1'),
          },
          {
            email: fc.oneof(badEmails(), freshEmail('login')),
            password: fc.constantFrom('password-2', 'p'.repeat(257)),
          },
        ),
      }),
  },
  {
    route: 'POST /api/v1/auth/forgotpassword',
    request: (w) =>
      http({
        method: 'POST',
        path: fixed('/api/v1/auth/forgotpassword'),
        body: jsonBody(
          { email: fc.oneof(freshEmail('forgot'), fc.constantFrom(...w.emails)) },
          { email: badEmails() },
        ),
      }),
  },
  {
    route: 'POST /api/v1/auth/reset-password/:token',
    request: (w) =>
      http({
        method: 'POST',
        path: param(w.resetTokens).map((token) => `/api/v1/auth/reset-password/${token}`),
        body: jsonBody({ password: fc.constantFrom('brand-new-1') }, { password: badPasswords() }),
      }),
  },
  {
    route: 'GET /api/v1/auth/profile',
    request: () => http({ method: 'GET', path: fixed('/api/v1/auth/profile') }),
  },
  {
    route: 'POST /api/v1/auth/getbyid',
    request: (w) =>
      http({
        method: 'POST',
        path: fixed('/api/v1/auth/getbyid'),
        body: jsonBody(
          { userid: fc.constantFrom(...w.userIds) },
          { userid: fc.constantFrom('no-such-user', 'a/b', '') },
        ),
      }),
  },
  {
    route: 'POST /api/v1/admin/create-organizer',
    request: (w) =>
      http({
        method: 'POST',
        path: fixed('/api/v1/admin/create-organizer'),
        body: jsonBody(
          {
            name: fc.constantFrom('Org', 'Ørg 名'),
            email: freshEmail('organizer'),
            password: fc.constant('organizer-1'),
          },
          {
            name: fc.constantFrom('', 'a'.repeat(61)),
            email: fc.oneof(badEmails(), fc.constantFrom(...w.emails)),
            password: badPasswords(),
          },
        ),
      }),
  },
  {
    route: 'GET /api/v1/admin/getalluser',
    request: () => http({ method: 'GET', path: fixed('/api/v1/admin/getalluser') }),
  },

  // events
  {
    route: 'GET /api/v1/event',
    request: () =>
      http({
        method: 'GET',
        path: fixed('/api/v1/event'),
        headers: commonHeaders,
        query: query({
          page: fc.constantFrom('1', '2', '0', '-1', '1e3', '99999999', ''),
          limit: fc.constantFrom('1', '50', '200', '201', '0', 'all'),
        }),
      }),
  },
  {
    route: 'GET /api/v1/event/filter',
    request: () =>
      http({
        method: 'GET',
        path: fixed('/api/v1/event/filter'),
        query: query({
          search: fc.constantFrom(
            'Music',
            '0-1000',
            '100-',
            'a-b',
            '-',
            `${nextYear}-04-01`,
            'Delhi',
            '.*',
            '(a+)+$',
          ),
          filterType: fc.constantFrom('category', 'date', 'location', 'price', 'CATEGORY', 'title'),
        }),
      }),
  },
  {
    route: 'GET /api/v1/event/:id',
    request: (w) => http({ method: 'GET', path: param(w.eventIds).map((id) => `/api/v1/event/${id}`) }),
  },
  {
    route: 'POST /api/v1/event/create',
    scale: 3,
    request: () => http({ method: 'POST', path: fixed('/api/v1/event/create'), body: eventForm }),
    examples: () => [
      ...(['no final boundary', 'another boundary', 'LF only', 'no boundary', 'cut short'] as const).map(
        (framing) => example('POST', '/api/v1/event/create', 'organizer', completeForm([], framing)),
      ),
      ...files.map((value) =>
        example(
          'POST',
          '/api/v1/event/create',
          'organizer',
          completeForm([{ name: 'images', filename: 'poster.png', type: 'image/png', value }]),
        ),
      ),
      example('POST', '/api/v1/event/create', 'organizer', {
        payload: '{"title":"JSON"}',
        type: 'application/json',
      }),
    ],
  },
  {
    route: 'GET /api/v1/ticket/getorgid',
    request: () => http({ method: 'GET', path: fixed('/api/v1/ticket/getorgid') }),
  },
  {
    route: 'GET /api/v1/admin/events',
    request: () => http({ method: 'GET', path: fixed('/api/v1/admin/events') }),
  },
  {
    route: 'PUT /api/v1/admin/events/:id/status',
    request: (w) =>
      http({
        method: 'PUT',
        path: param(w.eventIds).map((id) => `/api/v1/admin/events/${id}/status`),
        body: jsonBody(
          { status: fc.constantFrom('Approved', 'Rejected') },
          { status: fc.constantFrom('Pending', 'approved', 'Deleted') },
        ),
        headers: fc.record(
          {
            'if-match': fc.constantFrom(
              '"1"',
              'W/"2"',
              '3',
              '*',
              '"abc"',
              '1, 2',
              '"99999999999999999999"',
              '',
            ),
          },
          { requiredKeys: [] },
        ),
      }),
  },

  // tickets
  {
    route: 'POST /api/v1/ticket/create',
    request: (w) =>
      http({
        method: 'POST',
        path: fixed('/api/v1/ticket/create'),
        body: jsonBody(
          {
            eventId: fc.constant(w.eventIds[0]),
            ticketType: fc.constantFrom('VIP', 'General Admission', 'vip', ...w.ticketTypeIds.slice(0, 2)),
            quantity: fc.constantFrom(1, 2, '3', ' 4 ', 10),
            amount: fc.constantFrom(1, -100, 0, 'free', 1e308),
            promoCode: fc.constantFrom('FUZZ10', 'fuzz10', 'NOPE-NOT-A-CODE'),
          },
          {
            eventId: fc.constantFrom(...w.eventIds.slice(1)),
            ticketType: fc.constantFrom('Balcony', '', ...w.ticketTypeIds.slice(2)),
            quantity: fc.constantFrom(11, 0, -1, 1.5, 1e308, 'NaN', '1e3', '0x3', 2 ** 53 + 2),
            promoCode: fc.constantFrom('', 'x', ' ', 'a'.repeat(40), 5, 'TEN OFF', '%', null),
            seats: fc.constantFrom([], ['zzzzzzzzzz'], ['a', 'a'], 'A1', [7], Array(21).fill('abc'), [
              'NOT-AN-ID',
            ]),
          },
        ),
      }),
  },
  {
    route: 'POST /api/v1/ticket/handlePaymentSuccess',
    request: (w) =>
      http({
        method: 'POST',
        path: fixed('/api/v1/ticket/handlePaymentSuccess'),
        body: jsonBody(
          {
            paymentId: fc.constant(w.checkout.razorpay_payment_id),
            orderId: fc.constant(w.checkout.razorpay_order_id),
            signature: fc.constant(w.checkout.razorpay_signature),
            razorpay_payment_id: fc.constant(w.checkout.razorpay_payment_id),
            razorpay_order_id: fc.constant(w.checkout.razorpay_order_id),
            razorpay_signature: fc.constant(w.checkout.razorpay_signature),
            event: nasty,
          },
          {
            paymentId: fc.constantFrom('pay_other', w.gatewayPayments[0]),
            orderId: fc.constantFrom(...w.heldOrders),
            signature: fc.constantFrom('deadbeef', w.checkout.razorpay_signature.toUpperCase()),
          },
        ),
      }),
  },
  {
    route: 'GET /api/v1/ticket/getTicketbyId/:ticketId',
    request: (w) =>
      http({ method: 'GET', path: param(w.ticketIds).map((id) => `/api/v1/ticket/getTicketbyId/${id}`) }),
  },
  {
    route: 'GET /api/v1/ticket/registrations',
    request: () => http({ method: 'GET', path: fixed('/api/v1/ticket/registrations') }),
  },
  {
    route: 'DELETE /api/v1/ticket/cancel/:ticketId',
    request: (w) =>
      http({ method: 'DELETE', path: param(w.ticketIds).map((id) => `/api/v1/ticket/cancel/${id}`) }),
  },
  {
    route: 'DELETE /api/v1/ticket/:ticketId',
    request: (w) => http({ method: 'DELETE', path: param(w.ticketIds).map((id) => `/api/v1/ticket/${id}`) }),
  },
  {
    route: 'POST /api/v1/ticket/:ticketId/refund',
    request: (w) =>
      http({
        method: 'POST',
        path: param(w.ticketIds).map((id) => `/api/v1/ticket/${id}/refund`),
        body: jsonBody({ reason: fc.constantFrom('Cannot attend', '', 'x'.repeat(501)) }),
      }),
  },
  {
    route: 'POST /api/v1/ticket/transfer',
    request: (w) =>
      http({
        method: 'POST',
        path: fixed('/api/v1/ticket/transfer'),
        body: jsonBody(
          {
            ticketId: fc.constantFrom(...w.ticketIds.slice(0, 2)),
            newAttendeeEmail: fc.constantFrom(w.anotherUser.email, w.user.email),
          },
          {
            ticketId: fc.constantFrom(...w.ticketIds.slice(2)),
            newAttendeeEmail: fc.oneof(badEmails(), freshEmail('transfer')),
          },
        ),
      }),
  },

  // the door (issue 16)
  {
    route: 'GET /api/v1/ticket/:ticketId/passes',
    request: (w) =>
      http({ method: 'GET', path: param(w.ticketIds).map((id) => `/api/v1/ticket/${id}/passes`) }),
  },
  {
    route: 'POST /api/v1/checkin/:eventId/scans',
    scale: 2,
    request: (w) => {
      const code = fc.oneof(
        { weight: 3, arbitrary: fc.constantFrom(...w.passCodes) },
        {
          weight: 2,
          arbitrary: fc.constantFrom(...w.passCodes).map((c) => `${c.slice(0, 20)}A${c.slice(21)}`),
        },
        {
          weight: 1,
          arbitrary: fc.constantFrom('', 'TKT1..', 'TKT1.e30.x', 'x'.repeat(1000), 'x'.repeat(1001)),
        },
        { weight: 1, arbitrary: nasty },
      )
      const scan = fc.record({
        code,
        scannedAt: fc.oneof(
          { weight: 3, arbitrary: fc.constant(new Date().toISOString()) },
          { weight: 1, arbitrary: badTimes() },
          { weight: 1, arbitrary: fc.constantFrom('+275760-09-13T00:00:00.000Z', '0000-01-01T00:00:00Z') },
          { weight: 1, arbitrary: nasty },
        ),
        device: fc.oneof(fc.constantFrom('door-1', '', 'd'.repeat(101), '😀'), nasty),
      })
      return http({
        method: 'POST',
        path: param(w.eventIds).map((id) => `/api/v1/checkin/${id}/scans`),
        body: jsonBody(
          { scans: fc.array(scan, { minLength: 1, maxLength: 5 }) },
          {
            scans: fc.oneof(
              fc.constantFrom<unknown>([], 'all', [null], {}),
              fc.constant(Array.from({ length: 501 }, () => ({ code: 'x', scannedAt: 'y', device: 'z' }))),
            ),
          },
        ),
      })
    },
  },
  ...(['manifest', 'summary', 'door-staff'] as const).map(
    (what): RouteSpec => ({
      route: `GET /api/v1/checkin/:eventId/${what}`,
      request: (w) =>
        http({ method: 'GET', path: param(w.eventIds).map((id) => `/api/v1/checkin/${id}/${what}`) }),
    }),
  ),
  {
    route: 'POST /api/v1/checkin/:eventId/door-staff',
    request: (w) =>
      http({
        method: 'POST',
        path: param(w.eventIds).map((id) => `/api/v1/checkin/${id}/door-staff`),
        body: jsonBody({ email: fc.constantFrom(...w.emails) }, { email: badEmails() }),
      }),
  },
  {
    route: 'DELETE /api/v1/checkin/:eventId/door-staff/:invitationId',
    request: (w) =>
      http({
        method: 'DELETE',
        path: fc
          .tuple(param(w.eventIds), param(w.invitationIds))
          .map(([event, invitation]) => `/api/v1/checkin/${event}/door-staff/${invitation}`),
      }),
  },
  {
    route: 'GET /api/v1/checkin/invitations',
    request: () => http({ method: 'GET', path: fc.constant('/api/v1/checkin/invitations') }),
  },
  {
    route: 'POST /api/v1/checkin/invitations/:invitationId/accept',
    request: (w) =>
      http({
        method: 'POST',
        path: param(w.invitationIds).map((id) => `/api/v1/checkin/invitations/${id}/accept`),
      }),
  },
  {
    route: 'DELETE /api/v1/checkin/invitations/:invitationId',
    request: (w) =>
      http({
        method: 'DELETE',
        path: param(w.invitationIds).map((id) => `/api/v1/checkin/invitations/${id}`),
      }),
  },

  // promo codes (issue 17)
  {
    route: 'GET /api/v1/event/:id/promo-codes',
    request: (w) =>
      http({ method: 'GET', path: param(w.eventIds).map((id) => `/api/v1/event/${id}/promo-codes`) }),
  },
  {
    route: 'POST /api/v1/event/:id/promo-codes',
    request: (w) =>
      http({
        method: 'POST',
        path: param(w.eventIds).map((id) => `/api/v1/event/${id}/promo-codes`),
        body: jsonBody(
          {
            code: fc.constantFrom('FUZZ10', 'fuzz-20', 'Fuzz_30'),
            percentOff: fc.constantFrom(10, 100, 1),
            ticketTypes: fc.constantFrom(['VIP'], ['General Admission', 'VIP']),
            maxUses: fc.constantFrom(1, 20, 1_000_000),
            startsAt: fc.constantFrom('2020-01-01T00:00:00Z', `${nextYear}-01-01T00:00:00.000Z`),
          },
          {
            code: fc.constantFrom('', 'x', '-LEADING', 'a'.repeat(40), 'TEN OFF', 7, null),
            percentOff: fc.constantFrom(0, 101, -5, 2.5, '10', 1e308),
            amountOff: fc.constantFrom(0, -1, 0.001, 1e308, '50'),
            ticketTypes: fc.constantFrom([], ['Balcony'], 'VIP', [1]),
            maxUses: fc.constantFrom(0, -1, 1.5, 2 ** 53 + 2),
            endsAt: fc.constantFrom('yesterday', '2020-13-45T99:99', '', 0),
          },
        ),
      }),
  },
  {
    route: 'GET /api/v1/event/:id/promo-codes/:code/price',
    request: (w) =>
      http({
        method: 'GET',
        path: fc
          .tuple(param(w.eventIds), fc.constantFrom('FUZZ10', 'fuzz10', 'NOPE', '%', 'x', 'a'.repeat(40)))
          .map(([event, code]) => `/api/v1/event/${event}/promo-codes/${enc(code)}/price`),
        query: query({
          ticketType: fc.constantFrom(
            'VIP',
            'vip',
            'General Admission',
            'Balcony',
            '',
            ...w.ticketTypeIds.slice(0, 2),
          ),
          quantity: fc.constantFrom('1', '2', '0', '-1', '1.5', '9999999', 'NaN', ''),
        }),
      }),
  },
  {
    route: 'DELETE /api/v1/event/:id/promo-codes/:code',
    request: (w) =>
      http({
        method: 'DELETE',
        path: fc
          .tuple(param(w.eventIds), fc.constantFrom('FUZZ10', 'fuzz10', 'NOPE', '%', 'x', 'a'.repeat(40)))
          .map(([event, code]) => `/api/v1/event/${event}/promo-codes/${enc(code)}`),
      }),
  },

  // editing and cancelling an event (issue 17)
  {
    route: 'PUT /api/v1/event/:id',
    request: (w) =>
      http({
        method: 'PUT',
        path: param(w.eventIds).map((id) => `/api/v1/event/${id}`),
        body: jsonBody(
          {
            title: fc.constantFrom('Renamed', 'ज़ाकिर हुसैन', 'A'.repeat(150)),
            location: fc.constantFrom('Hall 2', 'Mumbai'),
            time: fc.constantFrom('19:30', '00:00'),
            ticketTypes: fc.constantFrom(
              [{ type: 'VIP', price: 1500, quantity: 1000 }],
              [
                { type: 'General Admission', price: 0, quantity: 5 },
                { type: 'VIP', price: 99.5, quantity: 1_000_000 },
              ],
            ),
            salesEnd: fc.constantFrom('', `${nextYear}-01-01T10:00`),
          },
          {
            title: fc.constantFrom('', ' ', 'A'.repeat(151), 7, null),
            date: fc.constantFrom('2001-01-01', '2030-02-30', 'tomorrow', ''),
            ticketTypes: fc.constantFrom([], [{ type: 'Balcony', price: 1, quantity: 1 }], 'VIP', [
              { type: 'VIP', price: -1, quantity: 0 },
            ]),
            images: fc.constantFrom([{ url: 'https://elsewhere.example/x.png' }], 'none', [{}]),
            salesEnd: fc.constantFrom('2999-01-01T10:00', 'soon', 5),
          },
        ),
      }),
  },
  {
    route: 'POST /api/v1/event/:id/cancel',
    request: (w) =>
      http({
        method: 'POST',
        path: param(w.eventIds).map((id) => `/api/v1/event/${id}/cancel`),
        body: jsonBody(
          { reason: fc.constantFrom('The venue flooded.', 'रद्द') },
          { reason: fc.constantFrom('', ' ', 'x'.repeat(501), 3, null) },
        ),
      }),
  },

  // seat maps (issue 40)
  {
    route: 'PUT /api/v1/event/:id/seatmap',
    request: (w) =>
      http({
        method: 'PUT',
        path: param(w.eventIds).map((id) => `/api/v1/event/${id}/seatmap`),
        body: jsonBody(
          {
            stage: fc.constantFrom(null, { x: 0, y: -2, w: 10, h: 1 }),
            sections: fc.constantFrom([
              {
                name: 'Stalls',
                ticketType: 'VIP',
                rows: [{ label: 'A', seats: [{ number: 1 }, { number: 2 }] }],
              },
            ]),
          },
          {
            stage: fc.constantFrom({ x: 'a' }, 5, { x: 200_001, y: 0, w: 1, h: 1 }),
            sections: fc.constantFrom(
              [],
              'Stalls',
              [{ name: '', ticketType: 'VIP', rows: [] }],
              [{ name: 'S', ticketType: 'Balcony', rows: [{ label: 'A', seats: [{ number: -1 }] }] }],
              [
                {
                  name: 'S',
                  ticketType: 'VIP',
                  rows: [{ label: 'A', seats: [{ number: 1 }, { number: 1 }] }],
                },
              ],
              [
                {
                  name: 'S',
                  ticketType: 'VIP',
                  rows: [{ label: 'x'.repeat(13), seats: [{ number: 'A B' }] }],
                },
              ],
            ),
          },
        ),
      }),
  },
  {
    route: 'GET /api/v1/event/:id/seats/:seatId',
    request: (w) =>
      http({
        method: 'GET',
        path: param(w.eventIds).chain((id) =>
          fc
            .constantFrom('abcdefghij', 'ZZZ', '', '../x', 'a'.repeat(40))
            .map((seat) => `/api/v1/event/${id}/seats/${seat}`),
        ),
      }),
  },
  {
    route: 'GET /api/v1/event/:id/seatmap',
    request: (w) =>
      http({ method: 'GET', path: param(w.eventIds).map((id) => `/api/v1/event/${id}/seatmap`) }),
  },

  // waiting lists (issue 17)
  {
    route: 'POST /api/v1/event/:id/waitlist',
    request: (w) =>
      http({
        method: 'POST',
        path: param(w.eventIds).map((id) => `/api/v1/event/${id}/waitlist`),
        body: jsonBody(
          {
            ticketType: fc.constantFrom('VIP', 'vip', 'General Admission', ...w.ticketTypeIds.slice(0, 2)),
            quantity: fc.constantFrom(1, 2, 10),
          },
          {
            ticketType: fc.constantFrom('', 'Balcony', 7, null, 'x'.repeat(65)),
            quantity: fc.constantFrom(0, -1, 1.5, '2', 1001, 2 ** 53 + 2),
          },
        ),
      }),
  },
  {
    route: 'DELETE /api/v1/event/:id/waitlist',
    request: (w) =>
      http({
        method: 'DELETE',
        path: param(w.eventIds).map((id) => `/api/v1/event/${id}/waitlist`),
        query: query({ ticketType: fc.constantFrom('VIP', 'Balcony', '', 'general admission') }),
      }),
  },
  {
    route: 'GET /api/v1/waitlist/mine',
    request: () => http({ method: 'GET', path: fc.constant('/api/v1/waitlist/mine') }),
  },

  // the waiting room (issue 41): a valid sale time here is one already past, without a room, so
  // the world's checkouts stay open to the other routes' requests
  {
    route: 'PUT /api/v1/event/:id/onsale',
    request: (w) =>
      http({
        method: 'PUT',
        path: param(w.eventIds).map((id) => `/api/v1/event/${id}/onsale`),
        body: jsonBody(
          {
            opensAt: fc.constantFrom('2020-01-01T10:00:00Z', '2021-06-01T00:00:00.000Z'),
            waitingRoom: fc.constant(false),
            admitPerMinute: fc.constantFrom(1, 60, 100_000),
          },
          {
            opensAt: fc.constantFrom('', 'tomorrow', '2026-13-01T00:00:00Z', 5, null, '2026-12-24'),
            waitingRoom: fc.constantFrom('yes', 1, null),
            admitPerMinute: fc.constantFrom(0, -1, 1.5, '60', 100_001, 2 ** 53 + 2),
          },
        ),
      }),
  },
  // billing (issue 42)
  {
    route: 'PUT /api/v1/organizer/billing',
    request: () =>
      http({
        method: 'PUT',
        path: fixed('/api/v1/organizer/billing'),
        body: jsonBody(
          {
            legalName: fc.constantFrom('Rangmanch LLP', 'A'),
            gstin: fc.constantFrom('27AAPFU0939F1ZV', null, ''),
            address: fc.constantFrom('12 FC Road, Pune'),
            state: fc.constantFrom('27'),
            invoicePrefix: fc.constantFrom('RMP', 'a1'),
          },
          {
            legalName: fc.constantFrom('', 7, null, 'x'.repeat(201)),
            gstin: fc.constantFrom('27AAPFU0939F1ZW', '99AAPFU0939F1ZV', 'short', 15, '29AAGCB7383J1Z4'),
            address: fc.constantFrom('', null, 'x'.repeat(501)),
            state: fc.constantFrom('', '99', 27, 'MH', '028'),
            invoicePrefix: fc.constantFrom('', 'TOOLONG', 'a/b', null),
          },
        ),
      }),
  },
  {
    route: 'GET /api/v1/organizer/billing',
    request: () => http({ method: 'GET', path: fixed('/api/v1/organizer/billing') }),
  },
  {
    route: 'PUT /api/v1/admin/booking-fee',
    request: () =>
      http({
        method: 'PUT',
        path: fixed('/api/v1/admin/booking-fee'),
        body: jsonBody(
          {
            perTicket: fc.constantFrom(0, 10, 12.5),
            percent: fc.constantFrom(0, 2, 0.75),
            taxRate: fc.constantFrom(18, 0, 5),
          },
          {
            perTicket: fc.constantFrom(-1, 10.005, '10', null, 20_000),
            percent: fc.constantFrom(51, -1, 'x', 1.234),
            taxRate: fc.constantFrom(7, -5, '18', null),
          },
        ),
      }),
  },
  {
    route: 'GET /api/v1/account/invoices',
    request: () => http({ method: 'GET', path: fixed('/api/v1/account/invoices') }),
  },
  {
    route: 'GET /api/v1/admin/booking-fee',
    request: () => http({ method: 'GET', path: fixed('/api/v1/admin/booking-fee') }),
  },
  {
    route: 'GET /api/v1/tax-rates',
    request: () => http({ method: 'GET', path: fixed('/api/v1/tax-rates') }),
  },
  {
    route: 'GET /api/v1/ticket/:ticketId/invoice',
    request: (w) =>
      http({
        method: 'GET',
        path: param(w.ticketIds).map((id) => `/api/v1/ticket/${id}/invoice`),
        query: query({
          format: fc.constantFrom('json', 'pdf', 'xml', ''),
          of: fc.constantFrom('tickets', 'fee', 'x'),
        }),
      }),
  },
  {
    route: 'GET /api/v1/ticket/:ticketId/credit-note',
    request: (w) =>
      http({
        method: 'GET',
        path: param(w.ticketIds).map((id) => `/api/v1/ticket/${id}/credit-note`),
        query: query({
          format: fc.constantFrom('json', 'pdf', '1'),
          of: fc.constantFrom('tickets', 'fee', ''),
        }),
      }),
  },
  // API tokens (issue 43)
  {
    route: 'POST /api/v1/account/tokens',
    request: () =>
      http({
        method: 'POST',
        path: fixed('/api/v1/account/tokens'),
        body: jsonBody(
          {
            name: fc.constantFrom('CRM', 'Door app'),
            scopes: fc.constantFrom(['events:read'], ['orders:read', 'checkin:write']),
          },
          {
            name: fc.constantFrom('', null, 5, 'x'.repeat(81)),
            scopes: fc.constantFrom([], ['root'], 'events:read', null, [1]),
            eventIds: fc.constantFrom([], ['nope'], 'x', [null], ['../..']),
            expiresAt: fc.constantFrom('2020-01-01T00:00:00Z', 'tomorrow', 7, ''),
          },
        ),
      }),
  },
  {
    route: 'GET /api/v1/account/tokens',
    request: () => http({ method: 'GET', path: fixed('/api/v1/account/tokens') }),
  },
  {
    route: 'DELETE /api/v1/account/tokens/:id',
    request: () =>
      http({
        method: 'DELETE',
        path: fc
          .constantFrom('0123456789abcdef01234567', 'nope', '%00', 'x'.repeat(300))
          .map((id) => `/api/v1/account/tokens/${id}`),
      }),
  },
  // webhooks (issue 43)
  {
    route: 'POST /api/v1/organizer/webhooks',
    request: () =>
      http({
        method: 'POST',
        path: fixed('/api/v1/organizer/webhooks'),
        body: jsonBody(
          {
            url: fc.constantFrom('https://hooks.example.com/in', 'https://a.example.org/x?y=1'),
            events: fc.constantFrom(['order.paid'], ['event.approved', 'checkin.admitted']),
          },
          {
            url: fc.constantFrom(
              '',
              'ftp://x',
              'http://127.0.0.1/',
              'https://169.254.169.254/',
              'not a url',
              7,
              'https://[::1]/',
            ),
            events: fc.constantFrom([], ['order.stolen'], 'order.paid', null),
            eventIds: fc.constantFrom([], ['nope'], 'x', ['../..']),
          },
        ),
      }),
  },
  {
    route: 'GET /api/v1/organizer/webhooks',
    request: () => http({ method: 'GET', path: fixed('/api/v1/organizer/webhooks') }),
  },
  {
    route: 'DELETE /api/v1/organizer/webhooks/:id',
    request: () =>
      http({
        method: 'DELETE',
        path: fc
          .constantFrom('0123456789abcdef01234567', 'nope', '%00')
          .map((id) => `/api/v1/organizer/webhooks/${id}`),
      }),
  },
  {
    route: 'GET /api/v1/organizer/webhooks/:id/deliveries',
    request: () =>
      http({
        method: 'GET',
        path: fc
          .constantFrom('0123456789abcdef01234567', 'x')
          .map((id) => `/api/v1/organizer/webhooks/${id}/deliveries`),
      }),
  },
  {
    route: 'POST /api/v1/organizer/webhooks/:id/deliveries/:deliveryId/retry',
    request: () =>
      http({
        method: 'POST',
        path: fc
          .constantFrom(
            ['0123456789abcdef01234567', '0123456789abcdef01234567-5'],
            ['x', 'y'],
            ['0123456789abcdef01234567', '..'],
          )
          .map(([id, d]) => `/api/v1/organizer/webhooks/${id}/deliveries/${d}/retry`),
      }),
  },
  {
    route: 'GET /api/v1/organizer/invoices',
    request: () =>
      http({
        method: 'GET',
        path: fixed('/api/v1/organizer/invoices'),
        query: query({
          from: fc.constantFrom('2026-04-01', '2026-13-01', '', 'yesterday', '2026-02-30'),
          to: fc.constantFrom('2027-03-31', '1999-01-01', '9999-99-99'),
          format: fc.constantFrom('json', 'csv', 'pdf'),
        }),
      }),
  },
  {
    route: 'GET /api/v1/admin/invoices',
    request: () =>
      http({
        method: 'GET',
        path: fixed('/api/v1/admin/invoices'),
        query: query({
          from: fc.constantFrom('2026-04-01', '2026-13-01', '', 'yesterday'),
          to: fc.constantFrom('2027-03-31', '1999-01-01', '9999-99-99'),
          format: fc.constantFrom('json', 'csv', 'xml'),
        }),
      }),
  },
  {
    route: 'GET /api/v1/event/:id/onsale',
    request: (w) =>
      http({ method: 'GET', path: param(w.eventIds).map((id) => `/api/v1/event/${id}/onsale`) }),
  },
  {
    route: 'POST /api/v1/event/:id/queue',
    request: (w) =>
      http({ method: 'POST', path: param(w.eventIds).map((id) => `/api/v1/event/${id}/queue`) }),
  },
  {
    route: 'GET /api/v1/event/:id/queue/me',
    request: (w) =>
      http({ method: 'GET', path: param(w.eventIds).map((id) => `/api/v1/event/${id}/queue/me`) }),
  },
  {
    route: 'GET /api/v1/event/:id/queue',
    request: (w) => http({ method: 'GET', path: param(w.eventIds).map((id) => `/api/v1/event/${id}/queue`) }),
  },
  {
    route: 'POST /api/v1/event/:id/queue/pause',
    request: (w) =>
      http({ method: 'POST', path: param(w.eventIds).map((id) => `/api/v1/event/${id}/queue/pause`) }),
  },
  {
    route: 'POST /api/v1/event/:id/queue/resume',
    request: (w) =>
      http({ method: 'POST', path: param(w.eventIds).map((id) => `/api/v1/event/${id}/queue/resume`) }),
  },

  // organizer tools
  {
    route: 'GET /api/v1/ticket/analytics/:eventId',
    request: (w) =>
      http({ method: 'GET', path: param(w.eventIds).map((id) => `/api/v1/ticket/analytics/${id}`) }),
  },
  {
    route: 'GET /api/v1/dashboard/events',
    request: () =>
      http({
        method: 'GET',
        path: fixed('/api/v1/dashboard/events'),
        query: query({
          page: fc.constantFrom('1', '2', '0', '-1', '1.5', '999999', '9999999'),
          limit: fc.constantFrom('1', '25', '100', '101', '0', 'all'),
          status: fc.constantFrom('Pending', 'Approved', 'Rejected', 'pending', 'Sold'),
          search: fc.constantFrom('Kabini', '%', '_', '\\', "' OR 1=1 --", ''),
        }),
      }),
  },
  {
    route: 'GET /api/v1/dashboard/events/:eventId',
    request: (w) =>
      http({ method: 'GET', path: param(w.eventIds).map((id) => `/api/v1/dashboard/events/${id}`) }),
  },
  {
    route: 'GET /api/v1/dashboard/events/:eventId/attendees',
    request: (w) =>
      http({
        method: 'GET',
        path: param(w.eventIds).map((id) => `/api/v1/dashboard/events/${id}/attendees`),
        query: query({
          page: fc.constantFrom('1', '3', '0', 'x'),
          limit: fc.constantFrom('50', '100', '101'),
          search: fc.constantFrom('fan', '%', "'); DROP TABLE attendance; --"),
        }),
      }),
  },
  {
    route: 'GET /api/v1/dashboard/events/:eventId/attendees/:accountId/tickets',
    request: (w) =>
      http({
        method: 'GET',
        path: fc
          .tuple(param(w.eventIds), param([w.user.id, w.anotherUser.id]))
          .map(
            ([eventId, accountId]) => `/api/v1/dashboard/events/${eventId}/attendees/${accountId}/tickets`,
          ),
      }),
  },
  {
    route: 'GET /api/v1/organizers/attendees',
    request: () => http({ method: 'GET', path: fixed('/api/v1/organizers/attendees') }),
  },
  {
    route: 'GET /api/v1/organizers/attendees.csv',
    request: () =>
      http({ method: 'GET', path: fixed('/api/v1/organizers/attendees.csv'), headers: commonHeaders }),
  },

  // schedule
  {
    route: 'GET /api/v1/schedule',
    request: (w) =>
      http({
        method: 'GET',
        path: fixed('/api/v1/schedule'),
        query: query({ eventId: fc.constantFrom(...w.eventIds) }),
      }),
  },
  {
    route: 'POST /api/v1/schedule',
    request: (w) =>
      http({
        method: 'POST',
        path: fixed('/api/v1/schedule'),
        body: jsonBody(
          {
            eventId: fc.constantFrom(...w.eventIds.slice(0, 2)),
            sessionTitle: fc.constantFrom('Opening', 'a'.repeat(150)),
            description: fc.constantFrom('', 'About it'),
            startTime: fc.constant(sessionStart),
            endTime: fc.constant(sessionEnd),
            speakers: fc.constantFrom<unknown>([], [{ name: 'Asha', bio: 'Sings.' }]),
            location: fc.constantFrom('Hall A', ''),
          },
          {
            eventId: fc.constantFrom(...w.eventIds.slice(2)),
            sessionTitle: fc.constantFrom('a'.repeat(151), ''),
            startTime: badTimes(),
            endTime: badTimes(),
            speakers: fc.constantFrom<unknown>(
              [{ name: 'Asha' }],
              [null],
              'Asha',
              Array.from({ length: 51 }, () => ({ name: 'n', bio: 'b' })),
              [{ name: LONG, bio: LONG }],
            ),
          },
        ),
      }),
  },
  {
    route: 'POST /api/v1/notify',
    request: (w) =>
      http({
        method: 'POST',
        path: fixed('/api/v1/notify'),
        body: jsonBody(
          {
            eventId: fc.constantFrom(...w.eventIds.slice(0, 2)),
            startTime: fc.constant(sessionStart),
            endTime: fc.constant(sessionEnd),
          },
          { eventId: fc.constantFrom(...w.eventIds.slice(2)), startTime: badTimes(), endTime: badTimes() },
        ),
      }),
  },

  // support
  {
    route: 'POST /api/v1/admin/support',
    request: () =>
      http({
        method: 'POST',
        path: fixed('/api/v1/admin/support'),
        body: jsonBody(
          {
            subject: fc.constantFrom('Seats', 'a'.repeat(200)),
            inquiry: fc.constantFrom('Where?', 'a'.repeat(5000)),
          },
          { subject: fc.constantFrom('', 'a'.repeat(201)), inquiry: fc.constantFrom('', 'a'.repeat(5001)) },
        ),
      }),
  },
  {
    route: 'POST /api/v1/admin/support/get',
    request: () => http({ method: 'POST', path: fixed('/api/v1/admin/support/get') }),
  },
  {
    route: 'POST /api/v1/admin/support/reply',
    request: (w) =>
      http({
        method: 'POST',
        path: fixed('/api/v1/admin/support/reply'),
        body: jsonBody(
          { inquiryId: fc.constant(w.inquiryIds[0]), reply: fc.constant('Here.') },
          {
            inquiryId: fc.constantFrom(...w.inquiryIds.slice(1)),
            reply: fc.constantFrom('', 'a'.repeat(5001)),
          },
        ),
      }),
  },
  {
    route: 'GET /api/v1/support/mine',
    request: () => http({ method: 'GET', path: fixed('/api/v1/support/mine') }),
  },

  // payments
  {
    route: 'POST /api/v1/payments/webhook',
    scale: 2,
    request: webhook,
    examples: (w) => [
      ...['null', '7', '"text"', '[]', 'true', '{"payload":null}', '{"payload":{"payment":null}}'].map(
        (body) => webhookRequest(w, body, 'genuine'),
      ),
      webhookRequest(w, '{"event":"payment.captured"}', 'other secret'),
    ],
  },
  {
    route: 'POST /api/v1/payments/local/pay',
    request: (w) =>
      http({
        method: 'POST',
        path: fixed('/api/v1/payments/local/pay'),
        body: jsonBody(
          { orderId: fc.constantFrom(...w.heldOrders), outcome: fc.constantFrom('success', 'failure') },
          { outcome: fc.constantFrom('maybe', 'SUCCESS') },
        ),
      }),
  },
  {
    route: 'POST /api/v1/payments/local/v1/orders',
    request: () =>
      http({
        method: 'POST',
        path: fixed('/api/v1/payments/local/v1/orders'),
        auth: gatewayAuth,
        body: jsonBody(
          {
            amount: fc.constantFrom(50_000, 100),
            currency: fc.constantFrom('INR', 'USD'),
            receipt: fc.constantFrom('r1', LONG),
            notes: fc.constantFrom<unknown>({}, { a: 'b' }),
          },
          { amount: fc.constantFrom(99, 1.5, -100, 1e308), notes: fc.constantFrom<unknown>({ a: 1 }, []) },
        ),
      }),
  },
  {
    route: 'GET /api/v1/payments/local/v1/orders/:id/payments',
    request: (w) =>
      http({
        method: 'GET',
        path: gatewayPath(
          (id) => `/api/v1/payments/local/v1/orders/${id}/payments`,
          () => w.gatewayOrders,
        ),
        auth: gatewayAuth,
      }),
  },
  {
    route: 'GET /api/v1/payments/local/v1/payments/:id',
    request: (w) =>
      http({
        method: 'GET',
        path: gatewayPath(
          (id) => `/api/v1/payments/local/v1/payments/${id}`,
          () => w.gatewayPayments,
        ),
        auth: gatewayAuth,
      }),
  },
  {
    route: 'POST /api/v1/payments/local/v1/payments/:id/capture',
    request: (w) =>
      http({
        method: 'POST',
        path: gatewayPath(
          (id) => `/api/v1/payments/local/v1/payments/${id}/capture`,
          () => w.gatewayPayments,
        ),
        auth: gatewayAuth,
      }),
  },
  {
    route: 'POST /api/v1/payments/local/v1/payments/:id/refund',
    request: (w) =>
      http({
        method: 'POST',
        path: gatewayPath(
          (id) => `/api/v1/payments/local/v1/payments/${id}/refund`,
          () => w.gatewayPayments,
        ),
        auth: gatewayAuth,
        body: jsonBody(
          { amount: fc.constantFrom<unknown>(100, 1) },
          { amount: fc.constantFrom<unknown>(0, -500, 1.5, 'abc', '100', null, 1e308) },
        ),
      }),
    examples: (w) =>
      ['abc', '100', 1e308, [], {}].map((amount) =>
        example(
          'POST',
          `/api/v1/payments/local/v1/payments/${w.gatewayPayments[0]}/refund`,
          'the gateway key',
          {
            payload: JSON.stringify({ amount }),
            type: 'application/json',
          },
        ),
      ),
  },
  {
    route: 'GET /api/v1/payments/local/v1/payments/:id/refunds',
    request: (w) =>
      http({
        method: 'GET',
        path: gatewayPath(
          (id) => `/api/v1/payments/local/v1/payments/${id}/refunds`,
          () => w.gatewayPayments,
        ),
        auth: gatewayAuth,
      }),
  },

  // probes, the API description, the activity feed (a WebSocket asked for plain HTTP)
  {
    route: 'GET /api/v1/health/live',
    request: () => http({ method: 'GET', path: fixed('/api/v1/health/live') }),
  },
  {
    route: 'GET /api/v1/health/ready',
    request: () => http({ method: 'GET', path: fixed('/api/v1/health/ready') }),
  },
  {
    route: 'GET /api/v1/site',
    request: () => http({ method: 'GET', path: fixed('/api/v1/site') }),
  },
  {
    route: 'GET /api/v1/openapi.json',
    request: () => http({ method: 'GET', path: fixed('/api/v1/openapi.json') }),
  },
  {
    route: 'GET /api/v1/activity',
    examples: () => [
      example('GET', '/api/v1/activity', 'admin'),
      example('GET', '/api/v1/activity', 'visitor'),
    ],
    request: () =>
      http({
        method: 'GET',
        path: fixed('/api/v1/activity'),
        headers: fc.record(
          {
            upgrade: fc.constantFrom('websocket', 'h2c', 'nonsense'),
            connection: fc.constantFrom('upgrade', 'keep-alive', 'Upgrade, close'),
            'sec-websocket-version': fc.constantFrom('13', '8', 'x'),
            'sec-websocket-key': fc.constantFrom('dGhlIHNhbXBsZSBub25jZQ==', 'short', ''),
          },
          { requiredKeys: [] },
        ),
      }),
  },

  // outside the API: media, the web app, CORS preflights
  {
    route: 'GET /uploads/*',
    request: (w) =>
      http({
        method: 'GET',
        path: fc
          .oneof(
            { weight: 3, arbitrary: fc.constantFrom(...w.uploads) },
            {
              weight: 3,
              arbitrary: fc.constantFrom(
                '../jwt-secret',
                '..%2fjwt-secret',
                '%2e%2e/%2e%2e/etc/passwd',
                '.incoming/',
                '.incoming/x.part',
                '..%5cjwt-secret',
                'missing.png',
                '%00',
                'a%00.png',
                `${'x'.repeat(300)}.png`,
                '',
                '.',
                '%',
              ),
            },
            { weight: 1, arbitrary: fc.string({ maxLength: 20 }).map(encodeURIComponent) },
          )
          .map((name) => `/uploads/${name}`),
        headers: commonHeaders,
      }),
  },
  {
    route: 'GET /*',
    request: () =>
      http({
        method: 'GET',
        path: fc
          .oneof(
            fc.constantFrom(
              '/',
              '/events/abc',
              '/index.html',
              '/assets/%2e%2e/index.html',
              '/%2e%2e/package.json',
              '/.env',
              '/../server/config.ts',
              '/assets/%00',
              '/%',
              '/sw.js',
              `/${'x'.repeat(3000)}`,
            ),
            fc.string({ maxLength: 20 }).map((s) => `/${enc(s)}`),
          )
          .map((path) => path),
        headers: commonHeaders,
      }),
  },
  {
    route: 'OPTIONS *',
    examples: () => [example('OPTIONS', '/api/v1/event', 'visitor')],
    request: () =>
      fc
        .record({
          path: fc.constantFrom('/api/v1/ticket/create', '/api/v1/event', '/uploads/x.png', '/', '/nowhere'),
          origin: fc.constantFrom('http://localhost:5173', 'https://evil.example', 'null', ''),
          method: fc.constantFrom('POST', 'DELETE', 'PUT', 'TRACE', 'nonsense', ''),
          headers: fc.constantFrom('authorization,content-type', 'x-anything', '', '\u00e9'),
          ip: fc.ipV4(),
        })
        .map(({ path, origin, method, headers, ip }): Req => {
          const all: Record<string, string> = {}
          if (origin) all.origin = origin
          if (method) all['access-control-request-method'] = method
          if (headers && /^[\x20-\x7e]*$/.test(headers)) all['access-control-request-headers'] = headers
          return { method: 'OPTIONS', url: path, headers: all, remoteAddress: ip, auth: 'a preflight' }
        }),
  },
]
