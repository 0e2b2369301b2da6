// The original client, served elsewhere, against this API (API.md's event object, media URLs,
// /auth/getbyid's paymentStatus and CORS): live counts in `quantity`, absolute media URLs with
// files any origin may show, the attendee's best payment status, and preflights for PUT and DELETE.
import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { EventView } from '../../contracts/catalog.ts'
import { buildApp } from '../../server/root.ts'
import { adminSession, bearer, organizerSession, type Session, signUp } from '../support/accounts.ts'
import { startApp, type TestApp, testConfigOnStore } from '../support/app.ts'
import { multipartBody, pngImage, webmVideo } from '../support/media.ts'
import { buy, cancel, get, hold, post, signUpAll, submitEvent } from '../support/sales.ts'
import { startServer, type TestServer } from '../support/server.ts'

const PARTNER = 'https://partner.example'
let t: TestApp
let admin: Session

beforeAll(async () => {
  t = await startApp({ RATE_LIMITS: 'off', CORS_ORIGINS: PARTNER })
  admin = await adminSession(t.app)
})

afterAll(async () => {
  await t?.close()
})

const year = new Date().getFullYear() + 1

/** An event with one image and one video, as the web form sends it; the 201 reply. */
async function eventWithMedia(app: FastifyInstance, organizer: Session, title: string) {
  const body = await multipartBody(
    {
      title,
      description: 'Media for every origin.',
      date: `${year}-05-10`,
      time: '18:00',
      location: 'Bengaluru',
      category: 'Film',
      ticketTypes: JSON.stringify([{ type: 'General Admission', price: 100, quantity: 10 }]),
    },
    [
      { field: 'images', filename: 'poster.png', bytes: pngImage(), contentType: 'image/png' },
      { field: 'videos', filename: 'teaser.webm', bytes: webmVideo(), contentType: 'video/webm' },
    ],
  )
  const res = await app.inject({
    method: 'POST',
    url: '/api/v1/event/create',
    payload: body.payload,
    headers: { ...body.headers, ...bearer(organizer.token) },
  })
  expect(res.statusCode, res.body).toBe(201)
  return res.json().event as EventView
}

const approve = (app: FastifyInstance, eventId: string) =>
  app.inject({
    method: 'PUT',
    url: `/api/v1/admin/events/${eventId}/status`,
    headers: bearer(admin.token),
    payload: { status: 'Approved' },
  })

describe('ticketTypes[].quantity carries the live count (API.md: the event object)', () => {
  it('is capacity − sold − held in every event object, with available the same and capacity set', async () => {
    const organizer = await organizerSession(t.app)
    const created = await submitEvent(t.app, organizer, { title: 'Counted Live', category: 'Counting' })
    // Creation takes `quantity` as the capacity; nothing is sold yet.
    expect(created.ticketTypes.map((x) => [x.type, x.quantity, x.available, x.capacity])).toEqual([
      ['General Admission', 100, 100, 100],
      ['VIP', 20, 20, 20],
    ])
    const approved = await approve(t.app, created._id)
    expect(approved.statusCode).toBe(200)

    const [buyer, holder] = await signUpAll(t.app, ['LiveBuyer', 'LiveHolder'] as const)
    await buy(t.app, buyer, created, 'VIP', 3) // sold
    await hold(t.app, holder, created, 'VIP', 2) // held, unpaid

    const expected = [
      {
        _id: expect.any(String),
        type: 'General Admission',
        price: 500,
        quantity: 100,
        available: 100,
        capacity: 100,
        taxRate: 0,
      },
      {
        _id: expect.any(String),
        type: 'VIP',
        price: 1500,
        quantity: 15,
        available: 15,
        capacity: 20,
        taxRate: 0,
      },
    ]
    const mine = (list: EventView[]) => list.find((e) => e._id === created._id)?.ticketTypes
    expect((await get(t.app, `/api/v1/event/${created._id}`)).json().ticketTypes).toEqual(expected)
    expect(mine((await get(t.app, '/api/v1/event')).json())).toEqual(expected)
    expect(
      mine((await get(t.app, '/api/v1/event/filter?filterType=category&search=Counting')).json()),
    ).toEqual(expected)
    expect(mine((await get(t.app, '/api/v1/admin/events', admin)).json())).toEqual(expected)
    expect(mine((await get(t.app, '/api/v1/ticket/getorgid', organizer)).json())).toEqual(expected)
    // Rejecting an approved event answers with the event as it is now.
    const rejected = await t.app.inject({
      method: 'PUT',
      url: `/api/v1/admin/events/${created._id}/status`,
      headers: bearer(admin.token),
      payload: { status: 'Rejected' },
    })
    expect(rejected.statusCode, rejected.body).toBe(200)
    expect(rejected.json().event.ticketTypes).toEqual(expected)
  })
})

describe('media URLs are absolute and the files load from any origin', () => {
  let event: EventView
  let organizer: Session

  beforeAll(async () => {
    organizer = await organizerSession(t.app)
    event = await eventWithMedia(t.app, organizer, 'Absolute Media')
    expect((await approve(t.app, event._id)).statusCode).toBe(200)
  })

  it("in development and tests, uses the request's own origin, for each host asking", async () => {
    // light-my-request's default Host is localhost:80
    expect(event.images[0]?.url).toMatch(/^http:\/\/localhost:80\/uploads\/[a-f0-9]{24}\.png$/)
    expect(event.videos[0]?.url).toMatch(/^http:\/\/localhost:80\/uploads\/[a-f0-9]{24}\.webm$/)

    const name = event.images[0]?.url.split('/uploads/')[1]
    for (const host of ['tickets.test:8080', '192.168.1.20:3000']) {
      const headers = { host }
      const detail = await t.app.inject({ method: 'GET', url: `/api/v1/event/${event._id}`, headers })
      expect(detail.json().images).toEqual([{ url: `http://${host}/uploads/${name}` }])
      // The listings are cached per ledger head: each host still gets its own URLs.
      for (const url of ['/api/v1/event', '/api/v1/event/filter?filterType=category&search=Film']) {
        const listed = (await t.app.inject({ method: 'GET', url, headers })).json() as EventView[]
        const found = listed.find((e) => e._id === event._id)
        expect(found?.images, url).toEqual([{ url: `http://${host}/uploads/${name}` }])
        expect(found?.videos[0]?.url, url).toMatch(new RegExp(`^http://${host.replace('.', '\\.')}/uploads/`))
      }
    }
  })

  it('in production, uses PUBLIC_URL whatever the Host header says', async () => {
    const stored = await testConfigOnStore({ PUBLIC_URL: 'https://tickets.example.com/' })
    const config = { ...stored.config, env: 'production' as const }
    const app = await buildApp(config)
    try {
      const organizer = await organizerSession(app)
      const created = await eventWithMedia(app, organizer, 'Production Media')
      expect(created.images[0]?.url).toMatch(/^https:\/\/tickets\.example\.com\/uploads\/[a-f0-9]{24}\.png$/)
      const detail = await app.inject({
        method: 'GET',
        url: `/api/v1/event/${created._id}`,
        headers: { ...bearer(organizer.token), host: 'evil.example' },
      })
      expect(detail.json().videos[0].url).toMatch(
        /^https:\/\/tickets\.example\.com\/uploads\/[a-f0-9]{24}\.webm$/,
      )
    } finally {
      await app.close()
      await stored.release()
    }
  })

  it('serves /uploads/* cross-origin-readable, cached for good, the API itself staying same-origin', async () => {
    const url = event.images[0]?.url as string
    const res = await t.app.inject({ method: 'GET', url })
    expect(res.statusCode).toBe(200)
    expect(res.headers['content-type']).toBe('image/png')
    expect(res.headers['cross-origin-resource-policy']).toBe('cross-origin')
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable')

    const api = await get(t.app, '/api/v1/event')
    expect(api.headers['cross-origin-resource-policy']).toBe('same-origin')
    // a missing file is still a plain 404
    const missing = await t.app.inject({ method: 'GET', url: '/uploads/000000000000000000000000.png' })
    expect(missing.statusCode).toBe(404)
  })

  it('answers a Range request for a video with 206 and the bytes asked for', async () => {
    const url = event.videos[0]?.url as string
    const whole = await t.app.inject({ method: 'GET', url })
    expect(whole.statusCode).toBe(200)
    expect(whole.headers['accept-ranges']).toBe('bytes')
    const size = whole.rawPayload.length

    const part = await t.app.inject({ method: 'GET', url, headers: { range: 'bytes=10-49' } })
    expect(part.statusCode).toBe(206)
    expect(part.headers['content-range']).toBe(`bytes 10-49/${size}`)
    expect(part.headers['content-length']).toBe('40')
    expect(part.rawPayload.equals(whole.rawPayload.subarray(10, 50))).toBe(true)
    expect(part.headers['cross-origin-resource-policy']).toBe('cross-origin')

    const beyond = await t.app.inject({ method: 'GET', url, headers: { range: `bytes=${size + 10}-` } })
    expect(beyond.statusCode).toBe(416)
  })

  it("gives Your Registrations the event's image as an absolute URL too", async () => {
    const buyer = await signUp(t.app, 'MediaBuyer')
    await buy(t.app, buyer, event, 'General Admission', 1)
    const res = await get(t.app, '/api/v1/ticket/registrations', buyer)
    expect(res.statusCode).toBe(200)
    expect(res.json()[0].image).toBe(event.images[0]?.url)
    expect(res.json()[0].image).toMatch(/^http:\/\/localhost:80\/uploads\//)
  })
})

describe("POST /auth/getbyid's paymentStatus: the attendee's best for the caller's events", () => {
  it('is Completed for a holder of a paid ticket who cancelled another, and the CSV says the same', async () => {
    const organizer = await organizerSession(t.app)
    const event = await submitEvent(t.app, organizer, { title: 'Best Status' })
    expect((await approve(t.app, event._id)).statusCode).toBe(200)
    const attendee = await signUp(t.app, 'KeepsOne')
    await buy(t.app, attendee, event, 'VIP', 1)
    const second = await buy(t.app, attendee, event, 'General Admission', 1)
    await cancel(t.app, attendee, second) // the latest change to their orders is a cancellation

    for (const caller of [organizer, admin]) {
      const res = await post(t.app, '/api/v1/auth/getbyid', caller, { userid: attendee.id })
      expect(res.statusCode, res.body).toBe(200)
      expect(res.json().user).toEqual({
        _id: attendee.id,
        username: 'KeepsOne',
        email: attendee.email,
        phone: null,
        paymentStatus: 'Completed',
      })
    }

    const csv = await get(t.app, '/api/v1/organizers/attendees.csv', organizer)
    expect(csv.statusCode).toBe(200)
    // SPEC's six columns first (one row per admission: the cancelled ticket has none), then its type
    const rows = csv.body.trim().split('\r\n').slice(1)
    expect(rows).toHaveLength(1)
    expect(rows[0]?.split(',').slice(0, 7)).toEqual([
      'Best Status',
      'Music',
      'KeepsOne',
      attendee.email,
      '',
      'Completed',
      'VIP',
    ])
  })

  it("is Cancelled for an account whose every ticket was cancelled, for the admin (any organizer's events)", async () => {
    const organizer = await organizerSession(t.app)
    const event = await submitEvent(t.app, organizer, { title: 'All Cancelled' })
    expect((await approve(t.app, event._id)).statusCode).toBe(200)
    const quitter = await signUp(t.app, 'Quitter')
    await cancel(t.app, quitter, await buy(t.app, quitter, event, 'VIP', 1))
    const res = await post(t.app, '/api/v1/auth/getbyid', admin, { userid: quitter.id })
    expect(res.json().user.paymentStatus).toBe('Cancelled')
    // their organizer no longer sees them at all
    expect((await post(t.app, '/api/v1/auth/getbyid', organizer, { userid: quitter.id })).statusCode).toBe(
      404,
    )
  })

  it("counts only the caller's events: another organizer's paid ticket does not make it Completed", async () => {
    const [mine, theirs] = [await organizerSession(t.app), await organizerSession(t.app)]
    const myEvent = await submitEvent(t.app, mine, { title: 'Mine' })
    const theirEvent = await submitEvent(t.app, theirs, { title: 'Theirs' })
    for (const e of [myEvent, theirEvent]) expect((await approve(t.app, e._id)).statusCode).toBe(200)
    const person = await signUp(t.app, 'TwoOrganizers')
    await buy(t.app, person, myEvent, 'VIP', 1)
    await buy(t.app, person, theirEvent, 'VIP', 1)
    const cancelled = await buy(t.app, person, myEvent, 'General Admission', 1)
    await cancel(t.app, person, cancelled)
    const res = await post(t.app, '/api/v1/auth/getbyid', mine, { userid: person.id })
    expect(res.json().user.paymentStatus).toBe('Completed')
  })
})

describe('CORS for a client served from an allowed origin', () => {
  const preflight = (app: FastifyInstance, origin: string, method: string, url: string) =>
    app.inject({
      method: 'OPTIONS',
      url,
      headers: {
        origin,
        'access-control-request-method': method,
        'access-control-request-headers': 'authorization,content-type',
      },
    })

  it.each([
    ['GET', '/api/v1/event'],
    ['POST', '/api/v1/ticket/create'],
    ['PUT', '/api/v1/admin/events/abc/status'],
    ['DELETE', '/api/v1/ticket/abc'],
  ])('allows %s %s with the Authorization and Content-Type headers', async (method, url) => {
    const pre = await preflight(t.app, PARTNER, method, url)
    expect(pre.statusCode).toBe(204)
    expect(pre.headers['access-control-allow-origin']).toBe(PARTNER)
    expect(pre.headers['access-control-allow-credentials']).toBe('true')
    const methods = String(pre.headers['access-control-allow-methods']).split(/,\s*/)
    expect(methods).toEqual(expect.arrayContaining(['GET', 'POST', 'PUT', 'DELETE']))
    const allowed = String(pre.headers['access-control-allow-headers']).toLowerCase().split(/,\s*/)
    expect(allowed).toEqual(expect.arrayContaining(['authorization', 'content-type']))
  })

  it('gives an origin not listed nothing', async () => {
    const pre = await preflight(t.app, 'https://evil.example', 'DELETE', '/api/v1/ticket/abc')
    expect(pre.headers['access-control-allow-origin']).toBeUndefined()
  })

  describe('Socket.IO', () => {
    let server: TestServer
    beforeAll(async () => {
      server = await startServer({ RATE_LIMITS: 'off', CORS_ORIGINS: PARTNER })
    })
    afterAll(async () => {
      await server?.close()
    })

    it('answers the preflight of its polling transport for an allowed origin, not for others', async () => {
      const ask = (origin: string) =>
        fetch(`${server.url}/socket.io/?EIO=4&transport=polling`, {
          method: 'OPTIONS',
          headers: {
            origin,
            'access-control-request-method': 'POST',
            'access-control-request-headers': 'authorization,content-type',
          },
        })
      const ok = await ask(PARTNER)
      expect(ok.status).toBe(204)
      expect(ok.headers.get('access-control-allow-origin')).toBe(PARTNER)
      expect(ok.headers.get('access-control-allow-methods')).toMatch(/POST/)
      const allowed = (ok.headers.get('access-control-allow-headers') ?? '').toLowerCase()
      expect(allowed).toMatch(/authorization/)
      expect(allowed).toMatch(/content-type/)
      const other = await ask('https://evil.example')
      expect(other.headers.get('access-control-allow-origin')).toBeNull()
    })
  })
})
