// The catalogue on a real listening server: who hears of a submission and of a review on the
// sockets, and how an upload refused part-way behaves on a real connection.
import { readdirSync } from 'node:fs'
import { request } from 'node:http'
import { join } from 'node:path'
import { io as connect, type Socket } from 'socket.io-client'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { EventView } from '../../contracts/catalog.ts'
import type { EventStatusPush, LivePush } from '../../contracts/live.ts'
import { adminSession, bearer, organizerSession, type Session, signUp } from '../support/accounts.ts'
import { multipartBody, pngImage, type Upload } from '../support/media.ts'
import { startServer, type TestServer } from '../support/server.ts'

let server: TestServer
let admin: Session
let organizer: Session
const sockets: Socket[] = []
beforeAll(async () => {
  server = await startServer({ RATE_LIMITS: 'off' })
  admin = await adminSession(server.app)
  organizer = await organizerSession(server.app, 'Meera')
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

async function watch(socket: Socket, room: string) {
  const ack = (await socket.emitWithAck('watch', room)) as { ok: boolean }
  expect(ack.ok).toBe(true)
}

type Push = LivePush<EventStatusPush>

/** Everything a socket hears, and a way to wait for one push about one event. */
function ear(socket: Socket) {
  const heard: Push[] = []
  const checks = new Set<() => void>()
  socket.on('fact', (push: Push) => {
    // the dashboards' rows and attendees that come with a review: tested in dashboards.test.ts
    if ('figures' in push.data || 'attendees' in push.data) return
    heard.push(push)
    for (const check of checks) check()
  })
  return {
    heard,
    about: (eventId: string) => heard.filter((p) => p.data.eventId === eventId).map((p) => p.type),
    waitFor(type: string, eventId: string, ms = 2000): Promise<Push> {
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          checks.delete(check)
          reject(new Error(`no ${type} for ${eventId} within ${ms} ms; heard ${heard.map((p) => p.type)}`))
        }, ms)
        const check = () => {
          const push = heard.find((p) => p.type === type && p.data.eventId === eventId)
          if (!push) return
          checks.delete(check)
          clearTimeout(timer)
          resolve(push)
        }
        checks.add(check)
        check()
      })
    },
  }
}

/** Submits an event over real HTTP (the browser's multipart encoding), as its organizer. */
async function submitEvent(by: Session, title: string): Promise<EventView> {
  const form = new FormData()
  const fields = {
    title,
    description: 'Live test event.',
    date: `${new Date().getFullYear() + 1}-04-20`,
    time: '18:00',
    location: 'Bengaluru',
    category: 'Music',
    ticketTypes: JSON.stringify([{ type: 'General Admission', price: 250, quantity: 40 }]),
  }
  for (const [name, value] of Object.entries(fields)) form.append(name, value)
  form.append('images', new Blob([new Uint8Array(pngImage())], { type: 'image/png' }), 'poster.png')
  const res = await fetch(`${server.url}/api/v1/event/create`, {
    method: 'POST',
    headers: bearer(by.token),
    body: form,
  })
  const body = await res.json()
  expect(res.status, JSON.stringify(body)).toBe(201)
  return body.event as EventView
}

async function review(eventId: string, status: 'Approved' | 'Rejected') {
  const res = await server.app.inject({
    method: 'PUT',
    url: `/api/v1/admin/events/${eventId}/status`,
    headers: bearer(admin.token),
    payload: { status },
  })
  expect(res.statusCode, res.body).toBe(200)
}

const positionOf = async (eventId: string, type: string) =>
  (await server.app.platform.ledger.readStream(`event-${eventId}`)).find((f) => f.type === type)?.position

describe('EventSubmitted pushes', () => {
  it("reach the admins' room at once, and the organizer; no one else", async () => {
    const admins = ear(await open(admin.token))
    const own = ear(await open(organizer.token))
    const otherOrganizer = ear(await open((await organizerSession(server.app, 'Kabir')).token))
    const someUser = ear(await open((await signUp(server.app, 'Arjun')).token))
    const visitorSocket = await open()
    await watch(visitorSocket, 'events')
    const visitor = ear(visitorSocket)

    const event = await submitEvent(organizer, 'Raga Nights Live')
    const expected = {
      position: await positionOf(event._id, 'EventSubmitted'),
      type: 'EventSubmitted',
      stream: `event-${event._id}`,
      at: expect.any(String),
      data: {
        eventId: event._id,
        organizerId: organizer.id,
        title: 'Raga Nights Live',
        approvalStatus: 'Pending',
      },
    }
    expect(await admins.waitFor('EventSubmitted', event._id, 1000)).toEqual(expected)
    expect(await own.waitFor('EventSubmitted', event._id, 1000)).toEqual(expected)

    // Pushes leave in ledger order: once the approval has reached everyone, any push about the
    // submission would have arrived before it.
    await review(event._id, 'Approved')
    await Promise.all([
      admins.waitFor('EventApproved', event._id),
      own.waitFor('EventApproved', event._id),
      visitor.waitFor('EventApproved', event._id),
    ])
    expect(visitor.about(event._id)).toEqual(['EventApproved'])
    expect(otherOrganizer.about(event._id)).toEqual([])
    expect(someUser.about(event._id)).toEqual([])
  })
})

describe('EventApproved pushes', () => {
  it("reach the organizer, the admins, visitors on the listing and its organizer watching the event's room", async () => {
    const event = await submitEvent(organizer, 'Approved Live')
    const own = ear(await open(organizer.token))
    const admins = ear(await open(admin.token))
    const listingSocket = await open()
    await watch(listingSocket, 'events')
    const listing = ear(listingSocket)
    // a pending event's room is its organizer's and the admins' until approved; a visitor is refused
    expect(await (await open()).emitWithAck('watch', `event-${event._id}`)).toEqual({
      ok: false,
      message: 'No such event.',
    })
    const detailSocket = await open(organizer.token)
    await watch(detailSocket, `event-${event._id}`)
    const detail = ear(detailSocket)

    await review(event._id, 'Approved')

    const expected = {
      position: await positionOf(event._id, 'EventApproved'),
      type: 'EventApproved',
      stream: `event-${event._id}`,
      at: expect.any(String),
      data: { eventId: event._id, organizerId: organizer.id, approvalStatus: 'Approved' },
    }
    // the organizer watching its event's page hears the full message once, the public its copy
    // without the account behind the event
    for (const audience of [own, admins, detail]) {
      expect(await audience.waitFor('EventApproved', event._id)).toEqual(expected)
    }
    expect(await listing.waitFor('EventApproved', event._id)).toEqual({
      ...expected,
      data: { eventId: event._id, approvalStatus: 'Approved' },
    })
    expect(listing.about(event._id)).toEqual(['EventApproved'])
    expect(detail.about(event._id)).toEqual(['EventApproved'])
  })
})

describe('EventRejected pushes', () => {
  it('reach the organizer and the admins', async () => {
    const event = await submitEvent(organizer, 'Rejected Live')
    const own = ear(await open(organizer.token))
    const admins = ear(await open(admin.token))

    await review(event._id, 'Rejected')

    const expected = {
      position: await positionOf(event._id, 'EventRejected'),
      type: 'EventRejected',
      stream: `event-${event._id}`,
      at: expect.any(String),
      data: { eventId: event._id, organizerId: organizer.id, approvalStatus: 'Rejected' },
    }
    expect(await own.waitFor('EventRejected', event._id)).toEqual(expected)
    expect(await admins.waitFor('EventRejected', event._id)).toEqual(expected)
  })
})

type Outcome = { status?: number; body?: string; sent: number; of: number; settled: boolean }

/**
 * Posts a multipart body over a real connection, writing it with backpressure as a browser
 * would, and reports whether the exchange settled (response read and the request closed) in
 * time; a stuck request is destroyed so the server can still shut down.
 */
async function postSlowly(url: string, token: string, files: Upload[], ms = 5000): Promise<Outcome> {
  const fields = {
    title: 'Big upload',
    description: 'Refused part-way.',
    date: `${new Date().getFullYear() + 1}-04-20`,
    time: '18:00',
    location: 'Pune',
    category: 'Film',
    ticketTypes: JSON.stringify([{ type: 'VIP', price: 100, quantity: 5 }]),
  }
  const { payload, headers } = await multipartBody(fields, files)
  return new Promise((resolve) => {
    const outcome: Outcome = { sent: 0, of: payload.length, settled: false }
    const req = request(`${url}/api/v1/event/create`, {
      method: 'POST',
      headers: { ...headers, ...bearer(token), 'content-length': payload.length },
    })
    const timer = setTimeout(() => {
      req.destroy()
      resolve(outcome)
    }, ms)
    req.on('response', (res) => {
      outcome.status = res.statusCode
      let text = ''
      res.setEncoding('utf8')
      res.on('data', (chunk: string) => {
        text += chunk
      })
      res.on('end', () => {
        outcome.body = text
      })
    })
    req.on('error', () => {}) // a server that stops reading may reset the connection: that settles it
    req.on('close', () => {
      clearTimeout(timer)
      outcome.settled = true
      resolve(outcome)
    })
    const write = () => {
      while (outcome.sent < payload.length) {
        const chunk = payload.subarray(outcome.sent, outcome.sent + 64 * 1024)
        outcome.sent += chunk.length
        if (!req.write(chunk)) {
          req.once('drain', write)
          return
        }
      }
      req.end()
    }
    write()
  })
}

describe('POST /api/v1/event/create on a real connection', () => {
  let small: TestServer
  let owner: Session
  beforeAll(async () => {
    small = await startServer({ RATE_LIMITS: 'off', UPLOAD_IMAGE_MAX_MB: '1' })
    owner = await organizerSession(small.app)
  })
  afterAll(async () => {
    // A connection the server stopped reading would otherwise keep close() waiting forever.
    small.app.server.closeAllConnections()
    await small.close()
  })

  it('settles a request whose upload is accepted (the check below can tell)', async () => {
    const outcome = await postSlowly(small.url, owner.token, [
      { field: 'images', filename: 'fits.png', bytes: pngImage({ padTo: 512 * 1024 }) },
    ])
    expect(outcome).toMatchObject({ status: 201, settled: true })
    expect(outcome.sent).toBe(outcome.of)
  })

  it.each([
    ['an image over the size limit', 413, 'huge.png', pngImage({ padTo: 30 * 1024 * 1024 })],
    ['a large file that is not an image', 400, 'notes.png', Buffer.alloc(30 * 1024 * 1024, 'text ')],
  ])('answers %s early and does not leave the connection hanging', async (_case, status, filename, bytes) => {
    const outcome = await postSlowly(small.url, owner.token, [{ field: 'images', filename, bytes }])
    expect(outcome.status).toBe(status)
    expect(JSON.parse(outcome.body ?? '{}').message).toContain(filename)
    expect(readdirSync(join(small.config.uploadsDir, '.incoming'))).toEqual([])
    // The refusal comes before the body is in; the server must then read the rest or close the
    // connection, or the browser's upload (and the server's shutdown) waits forever.
    expect(outcome, `sent ${outcome.sent} of ${outcome.of} bytes`).toMatchObject({ settled: true })
  })
})
