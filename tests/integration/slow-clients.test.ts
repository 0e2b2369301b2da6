// Slow clients (slowloris): a request body trickling in slower than BODY_TIMEOUT_SECONDS, or an
// upload slower than UPLOAD_MIN_KB_PER_SECOND, is answered 408 with a message and its connection
// closed within a bound, storing nothing; an upload that merely takes longer than the body time is
// not cut. Each client is a raw socket, so the bytes go out exactly as slowly as the test says.
import { readdirSync } from 'node:fs'
import { connect } from 'node:net'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { organizerSession, type Session } from '../support/accounts.ts'
import { dbRows } from '../support/db.ts'
import { multipartBody, pngImage } from '../support/media.ts'
import { nextYear } from '../support/sales.ts'
import { startServer, type TestServer } from '../support/server.ts'

const BODY_TIMEOUT_SECONDS = 2
const MIN_KB_PER_SECOND = 8

let server: TestServer
let organizer: Session

beforeAll(async () => {
  server = await startServer({
    BODY_TIMEOUT_SECONDS: String(BODY_TIMEOUT_SECONDS),
    UPLOAD_MIN_KB_PER_SECOND: String(MIN_KB_PER_SECOND),
  })
  organizer = await organizerSession(server.app, 'Patient')
})
afterAll(async () => {
  await server?.close()
})

type Seen = {
  status: number | null
  body: unknown
  /** ms from the first byte sent to the first byte of the reply */
  answeredMs: number | null
  /** ms from the first byte sent to the server closing its side */
  endedMs: number | null
  sent: number
}

/**
 * Sends the request line, headers and `head` of the body at once, then the rest `piece` bytes
 * every `everyMs`, until it is all sent or the server closes; what came back, and when.
 */
function trickle(options: {
  path: string
  headers: Record<string, string>
  body: Buffer
  head: number
  piece: number
  everyMs: number
  giveUpMs: number
}): Promise<Seen> {
  const { port } = new URL(server.url)
  return new Promise((resolve) => {
    const socket = connect(Number(port), '127.0.0.1')
    const started = Date.now()
    const received: Buffer[] = []
    const seen: Seen = { status: null, body: null, answeredMs: null, endedMs: null, sent: 0 }
    let pump: NodeJS.Timeout | undefined
    let settle: NodeJS.Timeout | undefined
    const finish = () => {
      clearInterval(pump)
      clearTimeout(giveUp)
      clearTimeout(settle)
      socket.destroy()
      const text = Buffer.concat(received).toString('utf8')
      seen.status = Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1]) || null
      const body = text.split('\r\n\r\n')[1]
      try {
        seen.body = body ? JSON.parse(body) : null
      } catch {
        seen.body = body
      }
      resolve(seen)
    }
    const giveUp = setTimeout(finish, options.giveUpMs)
    const send = (bytes: Buffer) => {
      if (socket.writable && bytes.length > 0) {
        socket.write(bytes)
        seen.sent += bytes.length
      }
    }
    socket.on('connect', () => {
      const lines = Object.entries({ host: `127.0.0.1:${port}`, ...options.headers })
        .map(([name, value]) => `${name}: ${value}\r\n`)
        .join('')
      socket.write(`POST ${options.path} HTTP/1.1\r\n${lines}content-length: ${options.body.length}\r\n\r\n`)
      send(options.body.subarray(0, options.head))
      pump = setInterval(() => {
        if (seen.sent >= options.body.length) return clearInterval(pump)
        send(options.body.subarray(seen.sent, seen.sent + options.piece))
      }, options.everyMs)
    })
    socket.on('data', (chunk) => {
      seen.answeredMs ??= Date.now() - started
      received.push(chunk)
      // A whole reply on a connection kept open: a moment more to see whether it closes, then done.
      const text = Buffer.concat(received).toString('utf8')
      const [head = '', body] = text.split('\r\n\r\n')
      const length = Number(/\r\ncontent-length: (\d+)/i.exec(head)?.[1])
      if (body !== undefined && Buffer.byteLength(body) >= length) settle ??= setTimeout(finish, 1000)
    })
    socket.on('end', () => {
      seen.endedMs = Date.now() - started
      finish()
    })
    socket.on('error', () => {})
    socket.on('close', finish)
  })
}

const eventFields = (title: string) => ({
  title,
  description: 'Sent over a very slow line.',
  date: `${nextYear}-08-01`,
  time: '18:00',
  location: 'Shillong',
  category: 'Music',
  ticketTypes: JSON.stringify([{ type: 'General Admission', price: 200, quantity: 40 }]),
})

async function upload(title: string, imageBytes: number) {
  const form = await multipartBody(eventFields(title), [
    {
      field: 'images',
      filename: 'slow.png',
      bytes: pngImage({ padTo: imageBytes }),
      contentType: 'image/png',
    },
  ])
  return {
    path: '/api/v1/event/create',
    headers: { ...form.headers, authorization: `Bearer ${organizer.token}` },
    body: form.payload,
  }
}

const login = () => {
  const body = Buffer.from(JSON.stringify({ email: 'slow@example.com', password: 'x'.repeat(200) }))
  return { path: '/api/v1/auth/login', headers: { 'content-type': 'application/json' }, body }
}

const incoming = () => readdirSync(join(server.config.uploadsDir, '.incoming'))
const stored = () => readdirSync(server.config.uploadsDir).filter((name) => name !== '.incoming')
const eventTitles = async () =>
  (await dbRows<{ title: string }>(server.app, 'SELECT title FROM events')).map((row) => row.title)
const TOO_SLOW = {
  message: 'The request arrived too slowly and was cut off. Please try again on a steadier connection.',
}

describe(`a JSON body slower than BODY_TIMEOUT_SECONDS=${BODY_TIMEOUT_SECONDS}`, () => {
  it.each([
    ['trickling in a byte every 100 ms', { head: 10, piece: 1, everyMs: 100 }],
    ['never coming after its headers', { head: 0, piece: 0, everyMs: 100 }],
  ])(
    'is answered 408 with a message once the time is up, and the connection closed: %s',
    async (_label, pace) => {
      const seen = await trickle({ ...login(), ...pace, giveUpMs: 10_000 })

      expect(seen.status, JSON.stringify(seen)).toBe(408)
      // (the /auth routes' error replies also carry status: false)
      expect(seen.body).toEqual({ status: false, ...TOO_SLOW })
      expect(seen.answeredMs).toBeGreaterThanOrEqual(BODY_TIMEOUT_SECONDS * 1000 - 50)
      expect(seen.answeredMs).toBeLessThan(BODY_TIMEOUT_SECONDS * 1000 + 1500)
      expect(seen.endedMs).not.toBeNull()
      expect(seen.endedMs).toBeLessThan(BODY_TIMEOUT_SECONDS * 1000 + 3000)
    },
  )

  it('is not cut when it comes in pieces but whole within the time', async () => {
    const seen = await trickle({ ...login(), head: 0, piece: 40, everyMs: 100, giveUpMs: 10_000 })

    expect(seen.status, JSON.stringify(seen)).toBe(401)
    expect(seen.answeredMs).toBeLessThan(BODY_TIMEOUT_SECONDS * 1000)
  })
})

describe(`an upload slower than UPLOAD_MIN_KB_PER_SECOND=${MIN_KB_PER_SECOND}`, () => {
  it.each([
    ['trickling at 2 KB/s', { piece: 1024, everyMs: 500 }],
    ['stalling after its first 4 KB', { piece: 0, everyMs: 500 }],
  ])('is answered 408 with a message and closed, and nothing of it is kept: %s', async (label, pace) => {
    const seen = await trickle({
      ...(await upload(`Cut off ${label}`, 200_000)),
      head: 4096,
      ...pace,
      giveUpMs: 15_000,
    })

    expect(seen.status, JSON.stringify(seen)).toBe(408)
    expect(seen.body).toEqual(TOO_SLOW)
    // Judged over a window of BODY_TIMEOUT_SECONDS (at most 10 s), sampled once a second.
    expect(seen.answeredMs).toBeGreaterThanOrEqual(BODY_TIMEOUT_SECONDS * 1000)
    expect(seen.answeredMs).toBeLessThan(BODY_TIMEOUT_SECONDS * 1000 + 2500)
    expect(seen.endedMs).not.toBeNull()
    expect(seen.sent).toBeLessThan(200_000)
    expect(await eventTitles()).not.toContain(`Cut off ${label}`)
    expect(incoming()).toEqual([])
    expect(stored()).toEqual([])
  })

  it('is not cut when it keeps up the rate, however long it takes: 64 KB/s for over twice the body time', async () => {
    const seen = await trickle({
      ...(await upload('Steady upload', 300_000)),
      head: 16_384,
      piece: 16_384,
      everyMs: 250,
      giveUpMs: 15_000,
    })

    expect(seen.status, JSON.stringify(seen)).toBe(201)
    expect(seen.answeredMs).toBeGreaterThan(BODY_TIMEOUT_SECONDS * 2000)
    expect(await eventTitles()).toContain('Steady upload')
    expect(stored()).toHaveLength(1)
  })

  it('leaves the server serving others', async () => {
    const res = await fetch(`${server.url}/api/v1/health/live`, { signal: AbortSignal.timeout(5000) })
    expect(res.status).toBe(200)
  })
})
