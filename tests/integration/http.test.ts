// The HTTP edge of the real app: error replies, security headers, CORS, request ids, probes, the
// API description, configuration, the JWT secret kept in the data folder, and the jobs adapter.
import { randomBytes } from 'node:crypto'
import { existsSync, readFileSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import Database from 'better-sqlite3'
import { Queue } from 'bullmq'
import type { FastifyInstance, InjectOptions } from 'fastify'
import * as v from 'valibot'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ConfigError, loadConfig, withJwtSecret } from '../../server/config.ts'
import { BUSY } from '../../server/http/errors.ts'
import { issuesOf } from '../../server/http/valibot.ts'
import { buildApp } from '../../server/root.ts'
import { adminSession, bearer, login, signUp } from '../support/accounts.ts'
import { servedRoutes, startApp, type TestApp, testConfig } from '../support/app.ts'
import { dbCount, testStore } from '../support/db.ts'
import { dropQueuePrefix, sharedRedisUrl, sleep, waitFor } from '../support/faults.ts'
import { readOutbox, waitForMail } from '../support/outbox.ts'

let t: TestApp
let app: FastifyInstance
let adminToken: string

beforeAll(async () => {
  // a client served from another origin (a partner's site) is allowed by CORS_ORIGINS
  t = await startApp({ CORS_ORIGINS: 'https://partner.example' })
  app = t.app
  adminToken = (await adminSession(app)).token
})
afterAll(async () => {
  await t?.close()
})

const accountCount = () => dbCount(app, 'accounts')
const ledgerSize = () => dbCount(app, 'ledger')

/** A reply that tells a person what went wrong, and nothing about the server's insides. */
function expectPlainError(res: { body: string; json(): unknown; headers: Record<string, unknown> }) {
  expect(res.headers['content-type']).toMatch(/^application\/json/)
  const body = res.json() as Record<string, unknown>
  expect(body.message).toEqual(expect.stringMatching(/\S/))
  expect(body).not.toHaveProperty('stack')
  expect(res.body).not.toMatch(/\bat .+:\d+:\d+|node_modules|\/server\/|Error:/)
}

describe('unknown routes', () => {
  it.each([
    ['GET', '/api/v1/no-such-thing'],
    ['POST', '/api/v1/auth/no-such-thing'],
    ['DELETE', '/api/v1/auth/login'],
  ] as const)('answer %s %s with 404 {message}', async (method, url) => {
    const res = await app.inject({ method, url, headers: { accept: 'text/html,application/json' } })

    expect(res.statusCode).toBe(404)
    expect(Object.keys(res.json())).toEqual(['message'])
    expectPlainError(res)
  })

  it('names a long unknown path by its first 200 characters only', async () => {
    const path = `/api/v1/event/${'a'.repeat(3000)}/nothing`
    const res = await app.inject({ method: 'GET', url: path })

    expect(res.statusCode).toBe(404)
    expect(res.json()).toEqual({ message: `Not found: GET ${path.slice(0, 200)}…` })
  })
})

describe('bodies the API cannot read', () => {
  const register = (payload: string | Buffer, contentType: string) =>
    app.inject({
      method: 'POST',
      url: '/api/v1/auth/register',
      payload,
      headers: { 'content-type': contentType },
    })
  const account = () => ({
    username: 'Edge',
    email: `edge-${randomBytes(4).toString('hex')}@example.com`,
    password: 'secret-1',
  })

  it('answers malformed JSON with 400 {message} and no stack', async () => {
    const before = await ledgerSize()

    const res = await register('{"username": "x", "email": ', 'application/json')

    expect(res.statusCode).toBe(400)
    expectPlainError(res)
    expect(await ledgerSize()).toBe(before)
  })

  it.each(['application/x-www-form-urlencoded', 'application/xml', 'image/png'])(
    'answers a body of type %s with 415 and a message',
    async (contentType) => {
      const before = await accountCount()

      const res = await register('username=x&email=y', contentType)

      expect(res.statusCode).toBe(415)
      expectPlainError(res)
      expect(await accountCount()).toBe(before)
    },
  )

  // Both are types a cross-site HTML form can send without a CORS preflight.
  it('does not act on JSON sent as text/plain', async () => {
    const before = await accountCount()

    const res = await register(JSON.stringify(account()), 'text/plain')

    expect([400, 415]).toContain(res.statusCode)
    expectPlainError(res)
    expect(await accountCount()).toBe(before)
  })

  it('does not act on the fields of a multipart form', async () => {
    const before = await accountCount()
    const fields = Object.entries(account())
      .map(([name, value]) => `--xyz\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`)
      .join('')

    const res = await register(`${fields}--xyz--\r\n`, 'multipart/form-data; boundary=xyz')

    expect([400, 415]).toContain(res.statusCode)
    expectPlainError(res)
    expect(await accountCount()).toBe(before)
  })

  // SPEC §7: the client sends a JSON content type on every call; Express read an empty body as none.
  it('reads an empty JSON body as none on a route that takes no body', async () => {
    const emptyJson = { 'content-type': 'application/json', ...bearer(adminToken) }

    const inbox = await app.inject({ method: 'POST', url: '/api/v1/admin/support/get', headers: emptyJson })
    const cancel = await app.inject({
      method: 'DELETE',
      url: '/api/v1/ticket/no-such-ticket',
      headers: emptyJson,
      payload: '',
    })

    expect(inbox.statusCode).toBe(200)
    expect(Array.isArray(inbox.json())).toBe(true)
    // answered for what it asks (no such ticket), not for the body it does not need
    expect(cancel.statusCode).toBe(404)
    expect(cancel.json().message).not.toMatch(/body/i)
  })

  it('still says an empty JSON body is empty on a route that takes one, and stores nothing', async () => {
    const before = await ledgerSize()

    const res = await register('', 'application/json')

    expect(res.statusCode).toBe(400)
    expect(res.json().message).toBe('The request body is empty; send a JSON object.')
    expect(await ledgerSize()).toBe(before)
  })

  it('names the field holding a NUL character, as a validation error does, and stores nothing', async () => {
    const before = await accountCount()

    const res = await register(JSON.stringify({ ...account(), username: 'Ed\u0000ge' }), 'application/json')

    expect(res.statusCode).toBe(400)
    const message = 'Text may not contain the NUL character (U+0000).'
    expect(res.json()).toEqual({ message, issues: [{ field: 'username', message }], status: false })
    expect(await accountCount()).toBe(before)
  })

  it('answers a body over 1 MB with 413 and a message, and stores nothing', async () => {
    const before = await ledgerSize()
    const body = JSON.stringify({ ...account(), username: 'u'.repeat(1024 * 1024) })

    const res = await register(body, 'application/json')

    expect(res.statusCode).toBe(413)
    expectPlainError(res)
    expect(await ledgerSize()).toBe(before)
  })

  it('reads a body just under 1 MB (and rejects it only for what it says)', async () => {
    const body = JSON.stringify({ ...account(), username: 'u'.repeat(1000 * 1000) })

    const res = await register(body, 'application/json')

    expect(res.statusCode).toBe(400)
    expect(res.json().issues).toEqual([{ field: 'username', message: expect.any(String) }])
  })
})

describe('bad input of every kind', () => {
  const json = 'application/json'
  const garbage: Array<{ label: string; body: string | Buffer; type?: string }> = [
    { label: 'nothing', body: '' },
    { label: 'whitespace', body: '   \n ' },
    { label: 'null', body: 'null' },
    { label: 'true', body: 'true' },
    { label: 'a number', body: '12345' },
    { label: 'NaN', body: 'NaN' },
    { label: 'a string', body: '"hello"' },
    { label: 'an empty array', body: '[]' },
    { label: 'an array of numbers', body: '[1,2,3]' },
    { label: 'an empty object', body: '{}' },
    { label: 'nulls', body: '{"email":null,"password":null,"username":null,"name":null,"userid":null}' },
    { label: 'numbers', body: '{"email":1,"password":2,"username":3,"name":4,"userid":5}' },
    { label: 'operators', body: '{"email":{"$gt":""},"password":{"$ne":null},"userid":{"$ne":1}}' },
    { label: 'arrays', body: '{"email":["a@b.co"],"password":["secret-1"],"userid":["x"]}' },
    { label: 'SQL', body: `{"email":"a@b.co' OR 1=1 --","password":"' OR ''='","userid":"1' OR '1'='1"}` },
    { label: '__proto__', body: '{"__proto__":{"role":"admin"},"email":"a@b.co","password":"secret-1"}' },
    { label: 'constructor', body: '{"constructor":{"prototype":{"role":"admin"}}}' },
    { label: 'a lone surrogate', body: '{"email":"\\ud800@b.co","password":"\\udfff\\ud800x"}' },
    { label: 'NUL characters', body: '{"email":"a\\u0000@b.co","password":"\\u0000\\u0000\\u0000"}' },
    {
      label: 'invalid UTF-8',
      body: Buffer.from([0x7b, 0x22, 0x65, 0x22, 0x3a, 0x22, 0xc3, 0x28, 0xff, 0x22, 0x7d]),
    },
    { label: 'a long e-mail', body: JSON.stringify({ email: `${'a'.repeat(100_000)}@b.co`, password: 'x' }) },
    { label: 'a long password', body: JSON.stringify({ email: 'a@b.co', password: 'p'.repeat(500_000) }) },
    { label: 'deep nesting', body: `${'['.repeat(100_000)}${']'.repeat(100_000)}` },
    { label: 'deep objects', body: `${'{"a":'.repeat(50_000)}1${'}'.repeat(50_000)}` },
    { label: 'a truncated object', body: '{"email":"a@b.co","password":' },
    { label: 'two objects', body: '{}{}' },
    { label: 'a byte-order mark', body: '\ufeff{"email":"a@b.co","password":"secret-1"}' },
    { label: 'a UTF-16 charset', body: '{}', type: 'application/json; charset=utf-16' },
    { label: 'a bogus charset', body: '{}', type: 'application/json; charset=nonsense' },
    { label: 'text/plain', body: '{"email":"a@b.co"}', type: 'text/plain' },
    { label: 'a form', body: 'email=a@b.co&password=x', type: 'application/x-www-form-urlencoded' },
    {
      label: 'a multipart form',
      body: '--b\r\nContent-Disposition: form-data; name="email"\r\n\r\na@b.co\r\n--b--\r\n',
      type: 'multipart/form-data; boundary=b',
    },
    { label: 'a broken multipart form', body: '--b\r\nnonsense', type: 'multipart/form-data; boundary=b' },
    { label: 'multipart without a boundary', body: 'x', type: 'multipart/form-data' },
    { label: 'a content type with no subtype', body: '{}', type: 'application' },
  ]
  const routes = [
    { url: '/api/v1/auth/register' },
    { url: '/api/v1/auth/login' },
    { url: '/api/v1/auth/forgotpassword' },
    { url: `/api/v1/auth/reset-password/${randomBytes(32).toString('base64url')}` },
    { url: '/api/v1/auth/getbyid', admin: true },
    { url: '/api/v1/admin/create-organizer', admin: true },
  ]

  const problems: string[] = []
  const check = async (label: string, options: InjectOptions) => {
    const res = await app.inject(options)
    let body: Record<string, unknown> | null = null
    try {
      body = res.json()
    } catch {}
    if (res.statusCode >= 500) problems.push(`${label}: ${res.statusCode} ${res.body.slice(0, 200)}`)
    else if (res.statusCode >= 400 && typeof body?.message !== 'string')
      problems.push(`${label}: ${res.statusCode} without a message: ${res.body.slice(0, 200)}`)
    else if (/\bat .+:\d+:\d+|node_modules/.test(res.body)) problems.push(`${label}: leaks a stack trace`)
  }

  it('never answers 5xx, and every 4xx carries a message: every garbage body × every account route', async () => {
    let sent = 0
    for (const route of routes) {
      for (const item of garbage) {
        await check(`POST ${route.url.slice(0, 40)} with ${item.label}`, {
          method: 'POST',
          url: route.url,
          payload: item.body,
          headers: { 'content-type': item.type ?? json, ...(route.admin ? bearer(adminToken) : {}) },
          remoteAddress: `10.9.${sent % 250}.${Math.floor(sent / 250) + 1}`,
        })
        sent++
      }
    }

    expect(sent).toBe(routes.length * garbage.length)
    expect(problems).toEqual([])
  })

  it('says what a field must be in words, never the value sent, and lists at most 20 issues', async () => {
    const buyer = await signUp(app)
    const send = (payload: Record<string, unknown>) =>
      app.inject({ method: 'POST', url: '/api/v1/ticket/create', headers: bearer(buyer.token), payload })
    // 100 kB of text where a list of seats goes: a short answer naming the field
    const long = await send({ eventId: 'evt', seats: 'A'.repeat(100_000) })
    expect(long.statusCode).toBe(400)
    expect(long.body.length).toBeLessThan(1_000)
    expect(long.json()).toEqual({
      message: 'seats must be a list.',
      issues: [{ field: 'seats', message: 'seats must be a list.' }],
    })
    // a thousand wrong items: the first 20 issues, each in words
    const many = await send({
      eventId: 'evt',
      seats: Array.from({ length: 1_000 }, () => ({ id: 'x'.repeat(500) })),
    })
    expect(many.statusCode).toBe(400)
    const issues = many.json().issues as Array<{ field: string; message: string }>
    expect(issues).toHaveLength(20)
    for (const issue of issues) expect(issue.message).not.toMatch(/Invalid|received|xxxx/)
    expect(many.body.length).toBeLessThan(4_000)
  })

  it("puts a check's own valibot words (Invalid …: Received …) in words too", () => {
    const schema = v.object({ count: v.pipe(v.number(), v.integer(), v.minValue(1)) })
    const said = (value: unknown) => {
      const result = v.safeParse(schema, { count: value })
      return result.success ? null : issuesOf(schema, result.issues)
    }
    expect(said(1.5)).toEqual([{ field: 'count', message: 'count must be a whole number.' }])
    expect(said(0)).toEqual([{ field: 'count', message: 'count must be at least 1.' }])
    expect(said('x'.repeat(10_000))).toEqual([{ field: 'count', message: 'count must be a number.' }])
  })

  it('never answers 5xx for broken addresses and query strings', async () => {
    const urls = [
      '/api/v1/auth/%',
      '/api/v1/auth/reset-password/%E0%A4%A',
      '/api/v1/auth/reset-password/%00%ff',
      '/api/v1/auth/reset-password/..%2f..%2f..%2fetc%2fpasswd',
      `/api/v1/auth/reset-password/${'a'.repeat(5000)}`,
      '/api/v1/auth/login?x=%zz&__proto__[role]=admin&constructor[prototype][x]=1',
      '/api/v1//auth//login',
      `/api/v1/auth/login?${'a=1&'.repeat(5000)}`,
    ]
    for (const url of urls) {
      await check(`POST ${url.slice(0, 60)}`, {
        method: 'POST',
        url,
        payload: { email: 'a@b.co', password: 'secret-1' },
      })
    }

    expect(problems).toEqual([])
  })

  it('never answers 5xx for broken Authorization headers', async () => {
    const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url')
    const headers = [
      'Bearer',
      'Bearer ',
      'Bearer null',
      'Bearer a.b.c',
      'Bearer ...',
      `Bearer ${'x'.repeat(8000)}`,
      `Bearer ${b64('not an object')}.${b64([])}.sig`,
      `Bearer ${b64({ alg: 'HS256' })}.${b64({ sub: { $ne: null }, exp: 'never' })}.abc`,
      `Bearer ${b64({ alg: 'RS256', typ: 'JWT' })}.${b64({ sub: 'x', exp: 9_999_999_999 })}.abc`,
      'Basic YWRtaW46YWRtaW4=',
      'bearer lower-case-scheme',
    ]
    for (const authorization of headers) {
      for (const url of ['/api/v1/auth/profile', '/api/v1/admin/getalluser']) {
        await check(`GET ${url} with "${authorization.slice(0, 30)}"`, {
          method: 'GET',
          url,
          headers: { authorization },
        })
      }
    }

    expect(problems).toEqual([])
  })
})

// SQLite's own: a write lock another process holds on the file (PostgreSQL has no such lock).
describe.skipIf(testStore === 'postgres')('a database locked by another process', () => {
  it('answers 503 with a message and Retry-After once the busy timeout passes, stores nothing, and works again after', async () => {
    const other = new Database(t.config.databaseFile)
    other.pragma('busy_timeout = 0')
    other.prepare('BEGIN IMMEDIATE').run()
    const before = await ledgerSize()
    const payload = {
      username: 'Locked Out',
      email: `locked-${Date.now()}@example.com`,
      password: 'secret-1',
    }
    let res: Awaited<ReturnType<typeof app.inject>>
    try {
      res = await app.inject({ method: 'POST', url: '/api/v1/auth/register', payload })
    } finally {
      other.prepare('ROLLBACK').run()
      other.close()
    }
    expect(res.statusCode, res.body).toBe(503)
    expect(res.json()).toMatchObject({ message: BUSY })
    expect(res.headers['retry-after']).toBe('1')
    expectPlainError(res)
    expect(await ledgerSize()).toBe(before)
    const again = await app.inject({ method: 'POST', url: '/api/v1/auth/register', payload })
    expect(again.statusCode, again.body).toBeLessThan(300)
  }, 20_000)
})

describe('security headers', () => {
  it.each([
    ['a probe', '/api/v1/health/live', 200],
    ['an error reply', '/api/v1/no-such-thing', 404],
  ])('are sent with %s', async (_, url, status) => {
    const res = await app.inject({ method: 'GET', url })

    expect(res.statusCode).toBe(status)
    const csp = String(res.headers['content-security-policy'])
    expect(csp).toContain("default-src 'self'")
    expect(csp).toContain("object-src 'none'")
    expect(res.headers['x-content-type-options']).toBe('nosniff')
    const framing =
      csp.includes("frame-ancestors 'none'") ||
      /^(DENY|SAMEORIGIN)$/.test(String(res.headers['x-frame-options']))
    expect(framing).toBe(true)
    if (res.headers['strict-transport-security'] !== undefined) {
      expect(res.headers['strict-transport-security']).toMatch(/max-age=\d+/)
    }
    expect(res.headers['x-powered-by']).toBeUndefined()
  })
})

describe('CORS', () => {
  const preflight = (origin: string) =>
    app.inject({
      method: 'OPTIONS',
      url: '/api/v1/auth/login',
      headers: {
        origin,
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'content-type,authorization',
      },
    })

  it.each(['https://partner.example', 'the PUBLIC_URL'])(
    'lets the allowed origin %s call with credentials',
    async (which) => {
      const origin = which === 'the PUBLIC_URL' ? app.platform.config.publicUrl : which
      expect(app.platform.config.corsOrigins).toContain(origin)

      const pre = await preflight(origin)
      const res = await app.inject({
        method: 'POST',
        url: '/api/v1/auth/login',
        headers: { origin },
        payload: { email: 'nobody@example.com', password: 'whatever' },
      })

      expect(pre.statusCode).toBe(204)
      expect(pre.headers['access-control-allow-origin']).toBe(origin)
      expect(pre.headers['access-control-allow-credentials']).toBe('true')
      expect(String(pre.headers['access-control-allow-methods'])).toContain('POST')
      expect(res.headers['access-control-allow-origin']).toBe(origin)
      expect(res.headers['access-control-allow-credentials']).toBe('true')
    },
  )

  it('answers a request without an Origin (not a cross-origin one) with Vary: Origin and no CORS headers', async () => {
    const origin = 'https://partner.example'
    const plain = await app.inject({ method: 'GET', url: '/api/v1/event' })
    const crossing = await app.inject({ method: 'GET', url: '/api/v1/event', headers: { origin } })
    const options = await app.inject({ method: 'OPTIONS', url: '/api/v1/auth/login' })

    expect(plain.statusCode).toBe(200)
    expect(String(plain.headers.vary)).toMatch(/\bOrigin\b/)
    expect(Object.keys(plain.headers).filter((name) => name.startsWith('access-control-'))).toEqual([])
    // the same reply to a page of an allowed origin carries them
    expect(crossing.headers['access-control-allow-origin']).toBe(origin)
    expect(crossing.headers['access-control-allow-credentials']).toBe('true')
    expect(String(crossing.headers['access-control-expose-headers'])).toContain('ETag')
    expect(String(crossing.headers.vary)).toMatch(/\bOrigin\b/)
    // an OPTIONS without an Origin is not a preflight: nothing is allowed by it
    expect(options.statusCode).toBe(404)
    expect(options.json()).toHaveProperty('message')
    expect(options.headers['access-control-allow-methods']).toBeUndefined()
  })

  it('gives a foreign origin no access-control-allow-origin', async () => {
    const origin = 'https://evil.example'

    const pre = await preflight(origin)
    const res = await app.inject({ method: 'GET', url: '/api/v1/health/live', headers: { origin } })

    expect(pre.headers['access-control-allow-origin']).toBeUndefined()
    expect(res.statusCode).toBe(200)
    expect(res.headers['access-control-allow-origin']).toBeUndefined()
  })
})

describe('request ids', () => {
  it('are generated when absent, one per request', async () => {
    const [a, b] = await Promise.all([
      app.inject({ method: 'GET', url: '/api/v1/health/live' }),
      app.inject({ method: 'GET', url: '/api/v1/no-such-thing' }),
    ])

    const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/
    expect(a?.headers['x-request-id']).toMatch(uuid)
    expect(b?.headers['x-request-id']).toMatch(uuid)
    expect(a?.headers['x-request-id']).not.toBe(b?.headers['x-request-id'])
  })

  it('come with the security headers on an address refused before routing, as on any other reply', async () => {
    const res = await app.inject({ method: 'GET', url: '/api/v1/event/%zz' })

    expect(res.statusCode).toBe(400)
    expect(res.json()).toEqual({ message: 'The request address is malformed.' })
    expect(res.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/)
    expect(res.headers['content-security-policy']).toContain("default-src 'self'")
    expect(res.headers['x-content-type-options']).toBe('nosniff')
  })

  it('are passed through when the caller sends one', async () => {
    const id = `trace-${randomBytes(6).toString('hex')}`

    const res = await app.inject({
      method: 'POST',
      url: '/api/v1/auth/login',
      headers: { 'x-request-id': id },
      payload: {},
    })

    expect(res.statusCode).toBe(400)
    expect(res.headers['x-request-id']).toBe(id)
  })
})

describe('GET /api/v1/health/live', () => {
  it('answers 200', async () => {
    const res = await app.inject({ method: 'GET', url: '/api/v1/health/live' })

    expect(res.statusCode).toBe(200)
    expect(res.json()).toEqual({ status: 'ok' })
  })
})

describe('GET /api/v1/health/ready', () => {
  it('answers 200 with the checks of the database, Redis and jobs', async () => {
    const res = await app.inject({ method: 'GET', url: '/api/v1/health/ready' })

    expect(res.statusCode).toBe(200)
    expect(res.json()).toEqual({ status: 'ready', checks: { database: 'ok', redis: 'ok', jobs: 'ok' } })
  })
})

describe('GET /api/v1/openapi.json', () => {
  /** Every /api/v1 route the app serves, read from Fastify's own route table. */
  // Every /api/v1 route the app serves, as OpenAPI writes its path ({param}).
  const apiRoutes = () =>
    servedRoutes(app)
      .filter((route) => route.split(' ')[1]?.startsWith('/api/v1/'))
      .map((route) => route.replace(/:(\w+)/g, '{$1}'))

  it('describes every /api/v1 route the app serves', async () => {
    const res = await app.inject({ method: 'GET', url: '/api/v1/openapi.json' })

    expect(res.statusCode).toBe(200)
    const doc = res.json() as { openapi: string; paths: Record<string, Record<string, unknown>> }
    expect(doc.openapi).toMatch(/^3\./)
    const described = Object.entries(doc.paths).flatMap(([path, methods]) =>
      Object.keys(methods).map((method) => `${method.toUpperCase()} ${path}`),
    )
    const served = apiRoutes()
    expect(served).toEqual(
      expect.arrayContaining([
        'POST /api/v1/auth/register',
        'POST /api/v1/auth/login',
        'GET /api/v1/auth/profile',
        'POST /api/v1/auth/getbyid',
        'POST /api/v1/auth/forgotpassword',
        'POST /api/v1/auth/reset-password/{token}',
        'POST /api/v1/admin/create-organizer',
        'GET /api/v1/admin/getalluser',
        'GET /api/v1/health/live',
        'GET /api/v1/health/ready',
      ]),
    )
    expect(described).toEqual(expect.arrayContaining(served))
    expect(JSON.stringify(doc)).toContain('/api/v1/activity')
  })

  it('marks the routes that need a token', async () => {
    const doc = (await app.inject({ method: 'GET', url: '/api/v1/openapi.json' })).json()

    expect(doc.paths['/api/v1/admin/getalluser'].get.security).toEqual([{ bearer: [] }])
    expect(doc.paths['/api/v1/auth/login'].post.security).toBeUndefined()
  })
})

describe('loadConfig', () => {
  const problemFor = (env: Record<string, string>) => {
    try {
      loadConfig(env)
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError)
      return (error as ConfigError).message
    }
    throw new Error(`loadConfig accepted ${JSON.stringify(env)}`)
  }

  it.each([
    ['PORT', { PORT: 'abc' }],
    ['PORT', { PORT: '70000' }],
    ['SQLITE_SYNCHRONOUS', { SQLITE_SYNCHRONOUS: 'OFF' }],
    ['REDIS_URL', { REDIS_URL: 'http://x' }],
    ['JWT_SECRET', { JWT_SECRET: 'too-short' }],
    ['JWT_EXPIRES_IN', { JWT_EXPIRES_IN: 'forever' }],
    ['PUBLIC_URL', { PUBLIC_URL: 'not a url' }],
    ['LOGIN_FAILS_PER_ACCOUNT', { LOGIN_FAILS_PER_ACCOUNT: '0' }],
    ['RESET_TOKEN_MINUTES', { RESET_TOKEN_MINUTES: 'thirty' }],
    ['RATE_LIMITS', { RATE_LIMITS: 'maybe' }],
    ['ADMIN_EMAIL', { ADMIN_EMAIL: 'not-an-email', ADMIN_PASSWORD: 'secret-1' }],
    ['ADMIN_PASSWORD', { ADMIN_EMAIL: 'boss@example.com' }],
    ['TRUST_PROXY', { TRUST_PROXY: '0.0.0.0/0' }],
    ['ADMIN_EMAIL', { ADMIN_EMAIL: 'boss@example.com' }],
    ['ADMIN_EMAIL', { ADMIN_PASSWORD: 'secret-1' }],
  ])('throws a ConfigError naming %s for %j', (setting, env) => {
    expect(problemFor(env)).toContain(setting)
  })

  it('accepts good values and gives the defaults for the rest', () => {
    const config = loadConfig({
      PORT: '4000',
      SQLITE_SYNCHRONOUS: 'NORMAL',
      REDIS_URL: 'off',
      CORS_ORIGINS: 'https://partner.example, https://other.example',
    })

    expect(config.port).toBe(4000)
    expect(config.sqliteSynchronous).toBe('NORMAL')
    expect(config.redisUrl).toBeNull()
    expect(config.publicUrl).toBe('http://localhost:4000')
    expect(config.corsOrigins).toEqual([
      'http://localhost:4000',
      'http://localhost:5173',
      'https://partner.example',
      'https://other.example',
    ])
    expect(config.rateLimits).toMatchObject({
      enabled: true,
      loginFailsPerAccountAddress: 10,
      loginFailsPerAccount: 100,
      loginFailsPerIp: 100,
    })
    expect(config.resetTokenMinutes).toBe(30)
    expect(config.admin).toBeNull()
  })
})

describe('JWT_SECRET', () => {
  it('is generated once into the data folder and reused by the next start', async () => {
    const first = testConfig()
    const dir = first.dataDir
    const other = testConfig()
    try {
      const secretFile = join(dir, 'jwt-secret')
      expect(readFileSync(secretFile, 'utf8').trim()).toBe(first.jwt.secret)
      expect(first.jwt.secret.length).toBeGreaterThanOrEqual(32)
      expect(statSync(secretFile).mode & 0o077).toBe(0)

      const one = await buildApp(first)
      const user = await signUp(one, 'kept')
      await one.close()

      const again = withJwtSecret(
        loadConfig({ NODE_ENV: 'test', DATA_DIR: dir, LOG_LEVEL: 'silent', QUEUE_PREFIX: first.queuePrefix }),
      )
      expect(again.jwt.secret).toBe(first.jwt.secret)
      const two = await buildApp(again)
      const elsewhere = await buildApp(other)
      try {
        const onTwo = await two.inject({
          method: 'GET',
          url: '/api/v1/auth/profile',
          headers: bearer(user.token),
        })
        const onOther = await elsewhere.inject({
          method: 'GET',
          url: '/api/v1/auth/profile',
          headers: bearer(user.token),
        })

        expect(onTwo.statusCode).toBe(200)
        expect(onTwo.json().user).toMatchObject({ _id: user.id, email: user.email })
        expect(other.jwt.secret).not.toBe(first.jwt.secret)
        expect(onOther.statusCode).toBe(401)
      } finally {
        await two.close()
        await elsewhere.close()
      }
    } finally {
      rmSync(dir, { recursive: true, force: true })
      rmSync(other.dataDir, { recursive: true, force: true })
    }
  })

  it('is taken from the environment when set, and nothing is written', () => {
    const secret = randomBytes(40).toString('base64url')
    const dir = join(tmpdir(), `ticketing-test-${randomBytes(6).toString('hex')}`)

    const config = withJwtSecret(loadConfig({ DATA_DIR: dir, JWT_SECRET: secret }))

    expect(config.jwt.secret).toBe(secret)
    expect(existsSync(dir)).toBe(false)
  })
})

describe('QUEUE_PREFIX', () => {
  it("is the deployment's own when unset: one per JWT_SECRET, the same for every process sharing it", () => {
    const secret = randomBytes(40).toString('base64url')
    const dir = join(tmpdir(), `ticketing-test-${randomBytes(6).toString('hex')}`)
    try {
      const server = withJwtSecret(loadConfig({ DATA_DIR: dir, JWT_SECRET: secret }))
      const worker = withJwtSecret(loadConfig({ DATA_DIR: dir, JWT_SECRET: secret }))
      const elsewhere = withJwtSecret(loadConfig({ DATA_DIR: dir, JWT_SECRET: `${secret}x` }))
      // no JWT_SECRET: the one generated into the data folder, read again by the next process
      const generated = withJwtSecret(loadConfig({ DATA_DIR: dir }))
      const generatedAgain = withJwtSecret(loadConfig({ DATA_DIR: dir }))
      const given = withJwtSecret(loadConfig({ DATA_DIR: dir, JWT_SECRET: secret, QUEUE_PREFIX: 'shop_1' }))

      expect(server.queuePrefix).toMatch(/^ticketing-[0-9a-f]{12}$/)
      expect(worker.queuePrefix).toBe(server.queuePrefix)
      expect(elsewhere.queuePrefix).not.toBe(server.queuePrefix)
      expect(generated.queuePrefix).toMatch(/^ticketing-[0-9a-f]{12}$/)
      expect(generatedAgain.queuePrefix).toBe(generated.queuePrefix)
      expect([server.queuePrefix, elsewhere.queuePrefix]).not.toContain(generated.queuePrefix)
      expect(given.queuePrefix).toBe('shop_1')
      expect(server.queuePrefix).not.toContain(secret.slice(0, 8))
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})

describe('jobs', () => {
  it('run on BullMQ when Redis answers', () => {
    expect(app.platform.jobs.kind).toBe('bullmq')
    expect(app.platform.redis).not.toBeNull()
  })

  // Two deployments on one Redis (staging beside production, two local copies), QUEUE_PREFIX unset.
  it("stay in their own deployment's queues: another deployment's worker on the same Redis never takes them", async () => {
    // one whose jobs wait for workers of its own (WORKERS=off: none run), beside one running workers
    const waiting = await startApp({ QUEUE_PREFIX: '', WORKERS: 'off' })
    const working = await startApp({ QUEUE_PREFIX: '' })
    const mailQueue = new Queue('mail', {
      connection: { url: sharedRedisUrl },
      prefix: waiting.config.queuePrefix,
    })
    try {
      expect(waiting.config.queuePrefix).toMatch(/^ticketing-[0-9a-f]{12}$/)
      expect(working.config.queuePrefix).toMatch(/^ticketing-[0-9a-f]{12}$/)
      expect(working.config.queuePrefix).not.toBe(waiting.config.queuePrefix)
      const user = await signUp(waiting.app, 'staging')

      const res = await waiting.app.inject({
        method: 'POST',
        url: '/api/v1/auth/forgotpassword',
        payload: { email: user.email },
      })

      expect(res.statusCode).toBe(200)
      await waitFor(async () => (await mailQueue.getWaitingCount()) === 1, 10_000, 'the reset mail queued')
      // time enough for a worker on the same keys to take it (they wait on the queue's marker)
      await sleep(1500)
      expect(await mailQueue.getWaitingCount()).toBe(1)
      expect(readOutbox(working.config.outboxDir)).toEqual([])
    } finally {
      await mailQueue.close()
      await waiting.close()
      await working.close()
      await dropQueuePrefix(sharedRedisUrl, waiting.config.queuePrefix)
      await dropQueuePrefix(sharedRedisUrl, working.config.queuePrefix)
    }
  })

  it.each([
    ['REDIS_URL=off', 'off', 'not configured'],
    ['an unreachable Redis', 'redis://127.0.0.1:1', 'not configured'],
  ])('run in-process with %s, and a forgot-password mail still arrives', async (_, redisUrl, redisCheck) => {
    const local = await startApp({ REDIS_URL: redisUrl })
    try {
      expect(local.app.platform.jobs.kind).toBe('in-process')
      expect(local.app.platform.redis).toBeNull()
      const user = await signUp(local.app, 'offline')
      expect(await login(local.app, user.email, user.password)).toMatch(/\./)

      const res = await local.app.inject({
        method: 'POST',
        url: '/api/v1/auth/forgotpassword',
        payload: { email: user.email },
      })

      expect(res.statusCode).toBe(200)
      const mail = await waitForMail(local.config.outboxDir, (m) => m.to.includes(user.email))
      expect(mail.text).toContain(`${local.config.publicUrl}/reset-password/`)
      const ready = await local.app.inject({ method: 'GET', url: '/api/v1/health/ready' })
      expect(ready.statusCode).toBe(200)
      expect(ready.json().checks).toEqual({ database: 'ok', redis: redisCheck, jobs: 'ok' })
    } finally {
      await local.close()
    }
  })
})
