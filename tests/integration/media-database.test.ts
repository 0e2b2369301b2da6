// Media every process can read (issue 15, MEDIA_STORE=database): two app processes, each with a
// data folder of its own, keep the store and the media in one PostgreSQL database. An image taken
// in with an event by one is served by the other, whole, by byte range (also across the pieces a
// large file is read in) and to HEAD, with the headers the uploads folder is served with; nothing
// of it is written to either data folder; a refused upload leaves no row; a missing name is a 404.
import { randomBytes } from 'node:crypto'
import { readdirSync, rmSync } from 'node:fs'
import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { EventView } from '../../contracts/catalog.ts'
import { ensureAdmin } from '../../server/accounts/seed-admin.ts'
import { createHttpApp } from '../../server/app.ts'
import type { Config } from '../../server/config.ts'
import { openPostgres, type PgConnection } from '../../server/db/pg-connection.ts'
import { createTokens } from '../../server/http/access.ts'
import { createLogger } from '../../server/log.ts'
import { compose } from '../../server/root.ts'
import { bearer, organizerSession, type Session } from '../support/accounts.ts'
import { testConfig } from '../support/app.ts'
import { multipartBody, pngImage, type Upload } from '../support/media.ts'
import { freshDatabase, type TestDatabase } from '../support/postgres.ts'
import { nextYear } from '../support/sales.ts'

type Process = { app: FastifyInstance; config: Config; pg: PgConnection; close(): Promise<void> }

/**
 * One app process as main.ts would run it against PostgreSQL for the store and media: its own data
 * folder, a media pool of its own, the real HTTP app (createHttpApp) given that pool.
 */
async function startProcess(databaseUrl: string): Promise<Process> {
  const config = testConfig({
    REDIS_URL: 'off',
    DATABASE_URL: databaseUrl,
    JWT_SECRET: jwtSecret,
    MEDIA_STORE: 'database',
  })
  const logger = createLogger(config)
  const pg = await openPostgres(databaseUrl, 4)
  const { platform, services } = await compose(config, logger)
  const app = await createHttpApp({
    config,
    logger,
    platform,
    services,
    tokens: createTokens(config),
    mediaPool: pg.pool,
  })
  if (config.admin) await ensureAdmin(platform.ledger, services.accounts, config.admin)
  return {
    app,
    config,
    pg,
    async close() {
      await app.live.close()
      await app.close()
      await platform.close()
      await pg.close()
      rmSync(config.dataDir, { recursive: true, force: true })
    },
  }
}

let database: TestDatabase
/** one secret for both processes, as DATABASE_URL requires: a sign-in at one is good at the other */
const jwtSecret = randomBytes(32).toString('base64url')
let one: Process
let other: Process
let organizer: Session

beforeAll(async () => {
  database = await freshDatabase()
  // one after the other: the first applies the migrations, the second finds them applied
  one = await startProcess(database.url)
  other = await startProcess(database.url)
  organizer = await organizerSession(one.app, 'MediaEverywhere')
})
afterAll(async () => {
  await one?.close()
  await other?.close()
  await database?.drop()
})

const fields = {
  title: 'Shared Media Night',
  description: 'Posters every server can show.',
  date: `${nextYear}-05-10`,
  time: '19:00',
  location: 'Pune',
  category: 'Music',
  ticketTypes: JSON.stringify([{ type: 'General Admission', price: 300, quantity: 50 }]),
}

const image = (filename: string, bytes: Buffer): Upload => ({
  field: 'images',
  filename,
  bytes,
  contentType: 'image/png',
})

async function submit(app: FastifyInstance, uploads: Upload[], extra: Record<string, string> = {}) {
  const { payload, headers } = await multipartBody({ ...fields, ...extra }, uploads)
  return app.inject({
    method: 'POST',
    url: '/api/v1/event/create',
    payload,
    headers: { ...headers, ...bearer(organizer.token) },
  })
}

/** The path of a media URL the API gives (absolute, against the asker's origin in tests). */
const pathOf = (url: string) => new URL(url).pathname

async function rows(): Promise<Array<{ name: string; size: number; contentType: string }>> {
  const result = await one.pg.pool.query(
    'SELECT name, size, content_type AS "contentType" FROM media ORDER BY name',
  )
  return result.rows
}

/** What either process wrote to its uploads folder (the staging folder's leftovers included). */
const onDisk = (p: Process) => ({
  uploads: readdirSync(p.config.uploadsDir).filter((name) => name !== '.incoming'),
  incoming: readdirSync(`${p.config.uploadsDir}/.incoming`),
})

describe('MEDIA_STORE=database', () => {
  it('is the default when DATABASE_URL is set', () => {
    expect(one.config.mediaStore).toBe('database')
  })

  it('serves an image taken in by one process from another: whole, by range and to HEAD', async () => {
    const poster = pngImage({ width: 40, height: 30, padTo: 5_000 })
    const res = await submit(one.app, [image('poster.png', poster)])
    expect(res.statusCode, res.body).toBe(201)
    const event = res.json().event as EventView
    const url = pathOf(event.images[0]?.url as string)
    const name = url.replace('/uploads/', '')
    expect(url).toMatch(/^\/uploads\/[a-f0-9]{24}\.png$/)
    expect(await rows()).toContainEqual({ name, size: poster.length, contentType: 'image/png' })
    expect(onDisk(one)).toEqual({ uploads: [], incoming: [] })

    const whole = await other.app.inject({ method: 'GET', url })
    expect(whole.statusCode).toBe(200)
    expect(whole.rawPayload.equals(poster)).toBe(true)
    expect(whole.headers).toMatchObject({
      'content-type': 'image/png',
      'content-length': String(poster.length),
      'cache-control': 'public, max-age=31536000, immutable',
      'cross-origin-resource-policy': 'cross-origin',
      'accept-ranges': 'bytes',
    })

    const part = await other.app.inject({ method: 'GET', url, headers: { range: 'bytes=10-49' } })
    expect(part.statusCode).toBe(206)
    expect(part.headers['content-range']).toBe(`bytes 10-49/${poster.length}`)
    expect(part.headers['content-length']).toBe('40')
    expect(part.headers['cross-origin-resource-policy']).toBe('cross-origin')
    expect(part.rawPayload.equals(poster.subarray(10, 50))).toBe(true)

    const last = await other.app.inject({ method: 'GET', url, headers: { range: 'bytes=-16' } })
    expect(last.statusCode).toBe(206)
    expect(last.headers['content-range']).toBe(
      `bytes ${poster.length - 16}-${poster.length - 1}/${poster.length}`,
    )
    expect(last.rawPayload.equals(poster.subarray(-16))).toBe(true)

    const beyond = await other.app.inject({
      method: 'GET',
      url,
      headers: { range: `bytes=${poster.length + 10}-` },
    })
    expect(beyond.statusCode).toBe(416)
    expect(beyond.headers['content-range']).toBe(`bytes */${poster.length}`)

    // several ranges, or a range for another version (If-Range), are answered whole
    const several = await other.app.inject({ method: 'GET', url, headers: { range: 'bytes=0-1,5-9' } })
    expect(several.statusCode).toBe(200)
    expect(several.rawPayload.equals(poster)).toBe(true)
    const stale = await other.app.inject({
      method: 'GET',
      url,
      headers: { range: 'bytes=0-1', 'if-range': '"something-else"' },
    })
    expect(stale.statusCode).toBe(200)

    const head = await other.app.inject({ method: 'HEAD', url })
    expect(head.statusCode).toBe(200)
    expect(head.headers['content-length']).toBe(String(poster.length))
    expect(head.headers['content-type']).toBe('image/png')
    expect(head.rawPayload.length).toBe(0)

    // the client's cached copy is still good
    const again = await other.app.inject({
      method: 'GET',
      url,
      headers: { 'if-none-match': whole.headers.etag as string },
    })
    expect(again.statusCode).toBe(304)
    expect(again.rawPayload.length).toBe(0)

    // serving wrote nothing to the other process's folder either
    expect(onDisk(other)).toEqual({ uploads: [], incoming: [] })
  })

  it('sends a large file in pieces, and a range across the pieces', async () => {
    const MB = 1024 * 1024
    const large = pngImage({ width: 8, height: 8, padTo: 3 * MB + 123 })
    const res = await submit(one.app, [image('large.png', large)])
    expect(res.statusCode, res.body).toBe(201)
    const url = pathOf((res.json().event as EventView).images[0]?.url as string)

    const whole = await other.app.inject({ method: 'GET', url })
    expect(whole.statusCode).toBe(200)
    expect(whole.headers['content-length']).toBe(String(large.length))
    expect(whole.rawPayload.equals(large)).toBe(true)

    const [start, end] = [MB - 100, 2 * MB + 99]
    const across = await other.app.inject({ method: 'GET', url, headers: { range: `bytes=${start}-` } })
    expect(across.statusCode).toBe(206)
    expect(across.rawPayload.equals(large.subarray(start))).toBe(true)
    const middle = await other.app.inject({ method: 'GET', url, headers: { range: `bytes=${start}-${end}` } })
    expect(middle.statusCode).toBe(206)
    expect(middle.headers['content-range']).toBe(`bytes ${start}-${end}/${large.length}`)
    expect(middle.rawPayload.equals(large.subarray(start, end + 1))).toBe(true)
  })

  it('keeps no row of a refused upload, refused while it arrives or after its files were kept', async () => {
    const before = await rows()

    const disguised = await submit(one.app, [
      image('fine.png', pngImage()),
      image('photo.png', Buffer.from('not an image at all, only text '.repeat(300))),
    ])
    expect(disguised.statusCode).toBe(400)
    expect(disguised.json().message).toBe('"photo.png" is not an image (JPEG, PNG, GIF, WebP or AVIF).')

    // The files are committed before the event is decided; a date in the past is refused then.
    const past = await submit(one.app, [image('late.png', pngImage())], { date: '2000-01-01' })
    expect(past.statusCode).toBe(400)
    expect(past.json().message).toBe('The date cannot be in the past.')

    expect(await rows()).toEqual(before)
    expect(onDisk(one)).toEqual({ uploads: [], incoming: [] })
  })

  it('answers 404 for a name it does not hold, a dot file or a path', async () => {
    for (const url of [
      '/uploads/000000000000000000000000.png',
      '/uploads/.incoming',
      '/uploads/.incoming/x.part',
      '/uploads/%2Eincoming',
      '/uploads/a%2Fb.png',
      '/uploads/x.png%00',
    ]) {
      const res = await other.app.inject({ method: 'GET', url })
      expect(res.statusCode, url).toBe(404)
      expect(res.json(), url).toHaveProperty('message')
    }
  })
})
