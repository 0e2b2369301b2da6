// A refusal is a reply: a request refused before its body is read (no token, the wrong role, a
// disguised file, a file or request over its size cap) reaches a real client over a real socket as
// its status and JSON message while the client is still sending megabytes, never as a reset or
// broken pipe, and nothing it carried is kept.
import { readdirSync } from 'node:fs'
import { connect } from 'node:net'
import { join } from 'node:path'
import { Worker } from 'node:worker_threads'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { organizerSession, type Session, signUp } from '../support/accounts.ts'
import { dbCount } from '../support/db.ts'
import { multipartBody, pngImage, type Upload } from '../support/media.ts'
import { nextYear } from '../support/sales.ts'
import { startServer, type TestServer } from '../support/server.ts'

const MB = 1024 * 1024
const TIMES = 50

let server: TestServer
let organizer: Session
let user: Session

beforeAll(async () => {
  server = await startServer({ UPLOAD_IMAGE_MAX_MB: '1', UPLOAD_REQUEST_MAX_MB: '2' })
  organizer = await organizerSession(server.app, 'Refused')
  user = await signUp(server.app, 'plainuser')
})
afterAll(async () => {
  await server?.close()
})

const fields = {
  title: 'Refused Night',
  description: 'Uploads the server turns away.',
  date: `${nextYear}-07-01`,
  time: '20:00',
  location: 'Pune',
  category: 'Music',
  ticketTypes: JSON.stringify([{ type: 'General Admission', price: 300, quantity: 50 }]),
}

const png = (filename: string, bytes: number): Upload => ({
  field: 'images',
  filename,
  bytes: pngImage({ padTo: bytes }),
  contentType: 'image/png',
})

type Sent = { body: number; token: string | null }
type Outcome = { status: number; body: unknown } | { error: string }

/**
 * The client: Node's fetch in a thread of its own, as a browser or another process would be. In the
 * server's own event loop, reads and writes take turns so politely that a reset never shows.
 */
const CLIENT = `
const { parentPort, workerData } = require('node:worker_threads')
const { url, bodies, sends } = workerData
;(async () => {
  const outcomes = []
  for (const send of sends) {
    const body = bodies[send.body]
    const headers = { 'content-type': body.type, ...(send.token ? { authorization: 'Bearer ' + send.token } : {}) }
    try {
      const res = await fetch(url, { method: 'POST', body: body.bytes, headers, signal: AbortSignal.timeout(20000) })
      const text = await res.text()
      let parsed = text
      try { parsed = JSON.parse(text) } catch {}
      outcomes.push({ status: res.status, body: parsed })
    } catch (error) {
      outcomes.push({ error: error.message + ': ' + (error.cause?.code ?? error.cause?.message ?? '') })
    }
  }
  parentPort.postMessage(outcomes)
})()
`

/** POSTs the forms one after another from the client thread; how many of each reply (or error) came back. */
async function postAll(bodies: Form[], sends: Sent[]): Promise<Record<string, number>> {
  const client = new Worker(CLIENT, {
    eval: true,
    workerData: {
      url: `${server.url}/api/v1/event/create`,
      bodies: bodies.map((body) => ({
        bytes: new Uint8Array(body.payload),
        type: body.headers['content-type'],
      })),
      sends,
    },
  })
  try {
    const outcomes = await new Promise<Outcome[]>((resolve, reject) => {
      client.once('message', resolve)
      client.once('error', reject)
    })
    const tally: Record<string, number> = {}
    for (const outcome of outcomes) {
      const key = 'error' in outcome ? outcome.error : `${outcome.status} ${JSON.stringify(outcome.body)}`
      tally[key] = (tally[key] ?? 0) + 1
    }
    return tally
  } finally {
    await client.terminate()
  }
}

type Form = Awaited<ReturnType<typeof multipartBody>>
const times = (n: number, send: (i: number) => Sent) => Array.from({ length: n }, (_, i) => send(i))

const incoming = () => readdirSync(join(server.config.uploadsDir, '.incoming'))
const stored = () => readdirSync(server.config.uploadsDir).filter((name) => name !== '.incoming')
const eventCount = () => dbCount(server.app, 'events')

const images = (count: number) => Array.from({ length: count }, (_, i) => png(`photo-${i}.png`, 0.95 * MB))
const notAnImage = 'is not an image (JPEG, PNG, GIF, WebP or AVIF).'

describe('POST /api/v1/event/create refused before its body is read, over a real socket', () => {
  it(`answers a disguised image (text named photo.png, followed by 8.5 MB of images) with 400 and its message, ${TIMES} times out of ${TIMES}`, async () => {
    const disguised: Upload = {
      field: 'images',
      filename: 'photo.png',
      bytes: Buffer.from('just some text, not a picture\n'.repeat(8_000)),
      contentType: 'image/png',
    }
    const body = await multipartBody(fields, [disguised, ...images(9)])
    expect(body.payload.length).toBeGreaterThan(8 * MB)

    const tally = await postAll(
      [body],
      times(TIMES, () => ({ body: 0, token: organizer.token })),
    )

    expect(tally).toEqual({
      [`400 ${JSON.stringify({
        message: `"photo.png" ${notAnImage}`,
        issues: [{ field: 'images', message: `"photo.png" ${notAnImage}` }],
      })}`]: TIMES,
    })
  })

  it(`answers a 9.5 MB upload without a token with 401, and by a plain user with 403, ${TIMES} times out of ${TIMES}`, async () => {
    const body = await multipartBody(fields, images(10))

    const tally = await postAll(
      [body],
      times(TIMES, (i) => ({ body: 0, token: i % 2 ? user.token : null })),
    )

    expect(tally).toEqual({
      [`401 ${JSON.stringify({ message: 'Please log in to continue.' })}`]: TIMES / 2,
      [`403 ${JSON.stringify({ message: 'You are not allowed to do this.' })}`]: TIMES / 2,
    })
  })

  it(`answers a 9 MB image over UPLOAD_IMAGE_MAX_MB=1, and 9.5 MB of images over UPLOAD_REQUEST_MAX_MB=2, with 413, ${TIMES} times out of ${TIMES}`, async () => {
    const overImage = await multipartBody(fields, [png('big.png', 9 * MB)])
    const overRequest = await multipartBody(fields, images(10))

    const tally = await postAll(
      [overImage, overRequest],
      times(TIMES, (i) => ({ body: i % 2, token: organizer.token })),
    )

    expect(tally).toEqual({
      [`413 ${JSON.stringify({ message: '"big.png" is larger than 1 MB, the limit for one image.' })}`]:
        TIMES / 2,
      [`413 ${JSON.stringify({ message: 'The files together are larger than this request may carry.' })}`]:
        TIMES / 2,
    })
  })

  it('kept nothing of the refused requests: no event, no stored file, nothing staged', async () => {
    expect(await eventCount()).toBe(0)
    expect(stored()).toEqual([])
    expect(incoming()).toEqual([])
  })
})

/**
 * Clients that each speak for themselves: Node's http client (keep-alive or `Connection: close`,
 * writing the body as fast as the server takes it and stopping once the reply is in), and a raw
 * socket that writes the request and its whole body at once and then reads until the server closes.
 * A reset or broken pipe before the reply has been read whole, or after it on the raw socket (which
 * only ever closes gracefully), is what a refusal must never be. Each runs in a thread of its own.
 */
const SOCKET_CLIENT = `
const http = require('node:http')
const net = require('node:net')
const { parentPort, workerData } = require('node:worker_threads')
const { port, path, body, type, token, mode, connection, times } = workerData
const bytes = Buffer.from(body)
const headers = {
  'content-type': type,
  'content-length': String(bytes.length),
  connection,
  ...(token ? { authorization: 'Bearer ' + token } : {}),
}
const viaHttp = () => new Promise((resolve) => {
  let settled = false
  const finish = (outcome) => { if (!settled) { settled = true; resolve(outcome) } }
  const timer = setTimeout(() => { finish({ error: 'timed out' }); req.destroy() }, 20000)
  const req = http.request({ host: '127.0.0.1', port, path, method: 'POST', headers, agent: false })
  let replied = false
  req.on('response', (res) => {
    replied = true
    let text = ''
    res.setEncoding('utf8')
    res.on('data', (t) => { text += t })
    res.on('end', () => {
      clearTimeout(timer)
      let parsed = text
      try { parsed = JSON.parse(text) } catch {}
      finish({ status: res.statusCode, body: parsed })
      req.destroy()
    })
    res.on('error', (e) => finish({ error: 'reply cut: ' + (e.code || e.message) }))
  })
  req.on('error', (e) => { clearTimeout(timer); finish({ error: e.code || e.message }) })
  const chunk = 64 * 1024
  let at = 0
  const pump = () => {
    while (!replied && !req.destroyed && at < bytes.length) {
      const piece = bytes.subarray(at, at + chunk)
      at += piece.length
      if (!req.write(piece)) { req.once('drain', pump); return }
    }
    if (!replied && !req.destroyed) req.end()
  }
  pump()
})
const viaSocket = () => new Promise((resolve) => {
  let settled = false
  const finish = (outcome) => { if (!settled) { settled = true; resolve(outcome) } }
  const socket = net.connect(port, '127.0.0.1')
  const timer = setTimeout(() => { finish({ error: 'timed out' }); socket.destroy() }, 20000)
  const chunks = []
  socket.on('data', (c) => chunks.push(c))
  socket.on('error', (e) => { clearTimeout(timer); finish({ error: e.code || e.message }) })
  socket.on('close', () => {
    clearTimeout(timer)
    const text = Buffer.concat(chunks).toString('utf8')
    const status = Number(/^HTTP\\/1\\.1 (\\d{3})/.exec(text)?.[1])
    const [head, ...rest] = text.split('\\r\\n\\r\\n')
    let content = rest.join('\\r\\n\\r\\n')
    if (/transfer-encoding: chunked/i.test(head)) content = content.replace(/^[0-9a-f]+\\r\\n/i, '').replace(/\\r\\n0\\r\\n\\r\\n$/, '')
    let parsed = content
    try { parsed = JSON.parse(content) } catch {}
    finish(status ? { status, body: parsed } : { error: 'no reply: ' + JSON.stringify(text.slice(0, 80)) })
  })
  const lines = ['POST ' + path + ' HTTP/1.1', 'Host: 127.0.0.1:' + port]
  for (const [k, v] of Object.entries(headers)) lines.push(k + ': ' + v)
  socket.write(lines.join('\\r\\n') + '\\r\\n\\r\\n')
  socket.write(bytes)
})
;(async () => {
  const outcomes = []
  for (let i = 0; i < times; i++) outcomes.push(await (mode === 'raw' ? viaSocket() : viaHttp()))
  parentPort.postMessage(outcomes)
})()
`

type ClientMode = 'http' | 'raw'
type Connection = 'close' | 'keep-alive'

/** Sends one request `times` times, one after another, from a client thread; how many of each reply (or error). */
async function sendFromThread(
  request: { path: string; body: Buffer; type: string; token?: string | null },
  mode: ClientMode,
  connection: Connection,
  times: number,
): Promise<Record<string, number>> {
  const client = new Worker(SOCKET_CLIENT, {
    eval: true,
    workerData: {
      port: Number(new URL(server.url).port),
      path: request.path,
      body: new Uint8Array(request.body),
      type: request.type,
      token: request.token ?? null,
      mode,
      connection,
      times,
    },
  })
  try {
    const outcomes = await new Promise<Outcome[]>((resolve, reject) => {
      client.once('message', resolve)
      client.once('error', reject)
    })
    const tally: Record<string, number> = {}
    for (const outcome of outcomes) {
      const key = 'error' in outcome ? outcome.error : `${outcome.status} ${JSON.stringify(outcome.body)}`
      tally[key] = (tally[key] ?? 0) + 1
    }
    return tally
  } finally {
    await client.terminate()
  }
}

const TRIES = 10
const clients: Array<[ClientMode, Connection]> = [
  ['http', 'close'],
  ['raw', 'close'],
  ['http', 'keep-alive'],
  ['raw', 'keep-alive'],
]

describe('a refusal is a reply whether the client keeps the connection alive or not', () => {
  it.each(clients)(
    `a 9 MB upload without a token is answered 401, ${TRIES} times out of ${TRIES} (%s client, Connection: %s)`,
    async (mode, connection) => {
      const form = await multipartBody(fields, images(9))
      expect(form.payload.length).toBeGreaterThan(8 * MB)

      const tally = await sendFromThread(
        { path: '/api/v1/event/create', body: form.payload, type: form.headers['content-type'] },
        mode,
        connection,
        TRIES,
      )

      expect(tally).toEqual({ [`401 ${JSON.stringify({ message: 'Please log in to continue.' })}`]: TRIES })
    },
  )

  it.each(clients)(
    `a 5 MB JSON sign-in is answered 413, ${TRIES} times out of ${TRIES} (%s client, Connection: %s)`,
    async (mode, connection) => {
      const body = Buffer.from(JSON.stringify({ email: 'a@example.com', password: 'x'.repeat(5 * MB) }))

      const tally = await sendFromThread(
        { path: '/api/v1/auth/login', body, type: 'application/json' },
        mode,
        connection,
        TRIES,
      )

      expect(tally).toEqual({
        [`413 ${JSON.stringify({ message: 'The request body is too large.', status: false })}`]: TRIES,
      })
    },
  )

  it.each(clients)(
    `a 9 MB upload to an address that does not exist is answered 404, ${TRIES} times out of ${TRIES} (%s client, Connection: %s)`,
    async (mode, connection) => {
      const form = await multipartBody(fields, images(9))

      const tally = await sendFromThread(
        { path: '/api/v1/no-such-upload', body: form.payload, type: form.headers['content-type'] },
        mode,
        connection,
        TRIES,
      )

      expect(tally).toEqual({
        [`404 ${JSON.stringify({ message: 'Not found: POST /api/v1/no-such-upload' })}`]: TRIES,
      })
    },
  )
})

describe('requests the HTTP parser cannot read', () => {
  /** the raw bytes sent, and everything the server sent back before it closed */
  const raw = (bytes: string) =>
    new Promise<string>((resolve, reject) => {
      const { port } = new URL(server.url)
      const socket = connect(Number(port), '127.0.0.1', () => socket.write(bytes))
      const received: Buffer[] = []
      socket.on('data', (chunk) => received.push(chunk))
      socket.on('error', reject)
      socket.on('close', () => resolve(Buffer.concat(received).toString()))
      socket.setTimeout(10_000, () => socket.destroy(new Error('no answer')))
    })

  it.each([
    ['a length that is not a number', 'Content-Length: abc\r\n\r\n{}'],
    ['both a length and chunks', 'Content-Length: 2\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n'],
    ['a broken chunk size', 'Transfer-Encoding: chunked\r\n\r\nzz\r\n{}\r\n0\r\n\r\n'],
  ])('answers %s with 400 and {message}, then closes', async (_label, rest) => {
    const answer = await raw(
      `POST /api/v1/auth/login HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n${rest}`,
    )
    const [head = '', body = ''] = answer.split('\r\n\r\n')
    expect(head).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n/)
    expect(head).toMatch(/content-type: application\/json/i)
    expect(JSON.parse(body)).toEqual({
      message: 'The request could not be read: it is not well-formed HTTP.',
    })
  })

  it('answers an HTTP/1.1 request without a Host header with 400 and {message}, its body unread', async () => {
    const answer = await raw(
      'POST /api/v1/event/create HTTP/1.1\r\nContent-Type: application/json\r\nContent-Length: 2\r\n' +
        'Connection: close\r\n\r\n{}',
    )
    const [head = '', body = ''] = answer.split('\r\n\r\n')
    expect(head).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n/)
    expect(head).toMatch(/content-type: application\/json/i)
    expect(head).toMatch(/x-content-type-options: nosniff/i)
    expect(JSON.parse(body)).toEqual({ message: 'The request has no Host header: HTTP/1.1 requires one.' })
  })

  it('still answers an HTTP/1.0 request without a Host header', async () => {
    const answer = await raw('GET /api/v1/health/live HTTP/1.0\r\n\r\n')
    expect(answer).toMatch(/^HTTP\/1\.1 200 OK\r\n/)
  })
})
