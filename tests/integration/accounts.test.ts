// The accounts API (API.md: /auth/*, /admin/create-organizer, /admin/getalluser) against the real
// app, its SQLite file and Redis: every test checks the status, the body and the stored rows, and
// every reply of this file is scanned for password hashes and reset-token hashes.
import { randomBytes } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { createDecoder, createSigner, createVerifier } from 'fast-jwt'
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify'
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { loadConfig, withJwtSecret } from '../../server/config.ts'
import { buildApp } from '../../server/root.ts'
import { adminSession, bearer, login, organizerSession, type Session, signUp } from '../support/accounts.ts'
import { ADMIN, sameStore, startApp, type TestApp, testConfigOnStore } from '../support/app.ts'
import { dbRow, dbRows, factField, tableNames } from '../support/db.ts'
import { type OutboxMail, readOutbox, waitForMail } from '../support/outbox.ts'

const SECRET_MARKERS = ['$argon2', 'passwordHash', 'password_hash', 'tokenHash']

/** Wraps app.inject (the test's HTTP client) so that no reply of this file can carry a secret. */
function scanEveryReply(app: FastifyInstance) {
  const inject = app.inject.bind(app)
  app.inject = (async (options: InjectOptions) => {
    const res: LightMyRequestResponse = await inject(options)
    for (const marker of SECRET_MARKERS) {
      expect(res.body, `${options.method} ${options.url} leaks ${marker}`).not.toContain(marker)
    }
    return res
  }) as unknown as FastifyInstance['inject']
}

type AccountRow = {
  id: string
  username: string
  email: string
  role: string
  phone: string | null
  password_hash: string
  password_changed_at: number
  created_at: string
}
type LedgerRow = { position: number; stream: string; version: number; type: string; data: string; at: string }

let t: TestApp
let app: FastifyInstance

// The limits get their own tests (rate-limits.test.ts); here they are raised so that many tests
// from one address, and repeated reset requests of one account, do not trip them.
beforeAll(async () => {
  t = await startApp({ LOGIN_FAILS_PER_IP: '1000', FORGOT_PER_IP: '1000', FORGOT_PER_ACCOUNT: '100' })
  app = t.app
  scanEveryReply(app)
})
afterAll(async () => {
  await t?.close()
})

const count = async (sql: string, ...params: unknown[]) =>
  ((await dbRow<{ n: number }>(app, sql, ...params)) as { n: number }).n
const ledgerSize = () => count('SELECT count(*) AS n FROM ledger')
const accountCount = () => count('SELECT count(*) AS n FROM accounts')
const accountByEmail = (email: string) =>
  dbRow<AccountRow>(app, 'SELECT * FROM accounts WHERE email = ?', email)
const accountById = (id: string) => dbRow<AccountRow>(app, 'SELECT * FROM accounts WHERE id = ?', id)
const factsOf = async (type: string, accountId: string) =>
  (
    await dbRows<LedgerRow>(
      app,
      `SELECT * FROM ledger WHERE type = ? AND ${factField(app, 'accountId')} = ? ORDER BY position`,
      type,
      accountId,
    )
  ).map((row) => ({ ...row, data: JSON.parse(row.data) as Record<string, unknown> }))
const registeredFactsFor = (email: string) =>
  count(
    `SELECT count(*) AS n FROM ledger WHERE type = 'AccountRegistered' AND ${factField(app, 'email')} = ?`,
    email,
  )

let serial = 0
const freshEmail = (name = 'person') => `${name}-${++serial}-${randomBytes(4).toString('hex')}@example.com`

const post = (url: string, payload: unknown, headers: Record<string, string> = {}) =>
  app.inject({ method: 'POST', url: `/api/v1${url}`, payload: payload as InjectOptions['payload'], headers })
const postRaw = (url: string, body: string, contentType = 'application/json') =>
  app.inject({
    method: 'POST',
    url: `/api/v1${url}`,
    payload: body,
    headers: { 'content-type': contentType },
  })
const get = (url: string, headers: Record<string, string> = {}) =>
  app.inject({ method: 'GET', url: `/api/v1${url}`, headers })

const profile = (token: string) => get('/auth/profile', bearer(token))
const loginStatus = async (email: string, password: string) =>
  (await post('/auth/login', { email, password })).statusCode

async function register(overrides: Record<string, unknown> = {}) {
  const body = { username: 'Asha', email: freshEmail(), password: 'first-password', ...overrides }
  const res = await post('/auth/register', body)
  expect(res.statusCode, res.body).toBe(200)
  return body as { username: string; email: string; password: string }
}

const resetLinkPattern = () =>
  new RegExp(
    `${app.platform.config.publicUrl.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}/reset-password/([A-Za-z0-9_-]+)`,
  )

const tokenOf = (mail: OutboxMail) => {
  const token = resetLinkPattern().exec(mail.text)?.[1]
  if (!token) throw new Error(`no reset link in mail: ${mail.text}`)
  return token
}

/** Asks for a reset link through the API and returns the token from the mail it causes. */
async function requestResetToken(email: string, except: string[] = []): Promise<string> {
  const res = await post('/auth/forgotpassword', { email })
  expect(res.statusCode, res.body).toBe(200)
  const mail = await waitForMail(
    app.platform.config.outboxDir,
    (m) => m.to.includes(email) && !except.some((old) => m.text.includes(old)),
  )
  return tokenOf(mail)
}

const resetPassword = (token: string, password: string) => post(`/auth/reset-password/${token}`, { password })

describe('POST /api/v1/auth/register', () => {
  it('creates a user account, with the e-mail stored in lower case, and answers {status:true, message}', async () => {
    const email = freshEmail('Mixed.Case')
    const shouted = `  ${email.toUpperCase()} `
    const before = await ledgerSize()

    const res = await post('/auth/register', {
      username: 'Asha',
      email: shouted,
      password: 'secret-1',
      phone: '+91 98765 43210',
    })

    expect(res.statusCode).toBe(200)
    expect(res.json()).toEqual({ status: true, message: expect.stringMatching(/\S/) })
    const row = await accountByEmail(email.toLowerCase())
    expect(row).toMatchObject({
      username: 'Asha',
      email: email.toLowerCase(),
      role: 'user',
      phone: '+91 98765 43210',
    })
    expect(row?.password_hash).toMatch(/^\$argon2id\$/)
    expect(row?.password_hash).not.toContain('secret-1')
    expect(await count('SELECT count(*) AS n FROM accounts WHERE email = ?', shouted)).toBe(0)
    expect(await ledgerSize()).toBe(before + 1)
    const facts = await factsOf('AccountRegistered', row?.id ?? '')
    expect(facts).toHaveLength(1)
    expect(facts[0]?.data).toMatchObject({ accountId: row?.id, email: email.toLowerCase(), role: 'user' })
  })

  it('always creates role user, whatever role the body asks for', async () => {
    const email = freshEmail()
    const res = await post('/auth/register', {
      username: 'Sneaky',
      email,
      password: 'secret-1',
      role: 'admin',
    })

    expect(res.statusCode).toBe(200)
    expect((await accountByEmail(email))?.role).toBe('user')
  })

  it('answers 409 {status:false, message} for a taken e-mail, also when it differs only by case', async () => {
    const { email } = await register()
    const before = { ledger: await ledgerSize(), accounts: await accountCount() }

    const same = await post('/auth/register', { username: 'Other', email, password: 'other-pass' })
    const upper = await post('/auth/register', {
      username: 'Other',
      email: email.toUpperCase(),
      password: 'x-pass1',
    })

    expect(same.statusCode).toBe(409)
    expect(same.json()).toEqual({ status: false, message: expect.stringMatching(/\S/) })
    expect(upper.statusCode).toBe(409)
    expect(upper.json()).toEqual(same.json())
    expect(await ledgerSize()).toBe(before.ledger)
    expect(await accountCount()).toBe(before.accounts)
    expect((await accountByEmail(email))?.username).toBe('Asha')
  })

  const valid = { username: 'Valid Name', password: 'secret-1' }
  it.each<[string, () => unknown, string[]]>([
    ['a password shorter than 6', () => ({ ...valid, email: freshEmail(), password: '12345' }), ['password']],
    ['an e-mail without @', () => ({ ...valid, email: 'not-an-email' }), ['email']],
    ['an empty e-mail', () => ({ ...valid, email: '' }), ['email']],
    ['a missing username', () => ({ email: freshEmail(), password: 'secret-1' }), ['username']],
    ['a blank username', () => ({ ...valid, username: '   ', email: freshEmail() }), ['username']],
    ['a missing password', () => ({ username: 'x', email: freshEmail() }), ['password']],
    ['no fields at all', () => ({}), ['username', 'email', 'password']],
    ['an array instead of the object', () => [{ ...valid, email: freshEmail() }], ['username']],
    [
      'arrays instead of strings',
      () => ({ username: ['a'], email: [freshEmail()], password: ['secret-1'] }),
      ['username', 'email', 'password'],
    ],
    [
      'objects instead of strings',
      () => ({ username: { a: 1 }, email: freshEmail(), password: 'secret-1' }),
      ['username'],
    ],
    [
      'numbers instead of strings',
      () => ({ username: 'x', email: freshEmail(), password: 123456 }),
      ['password'],
    ],
    ['a JSON null body', () => null, ['body']],
    [
      'a username of 61 characters',
      () => ({ ...valid, username: 'u'.repeat(61), email: freshEmail() }),
      ['username'],
    ],
    [
      'a huge username',
      () => ({ ...valid, username: 'u'.repeat(200_000), email: freshEmail() }),
      ['username'],
    ],
    ['an e-mail of 300 characters', () => ({ ...valid, email: `${'e'.repeat(288)}@example.com` }), ['email']],
    [
      'a password of 257 characters',
      () => ({ ...valid, email: freshEmail(), password: 'p'.repeat(257) }),
      ['password'],
    ],
    ['a malformed phone', () => ({ ...valid, email: freshEmail(), phone: 'call me' }), ['phone']],
  ])('answers 400 {status:false, message, issues} and stores nothing for %s', async (_, body, fields) => {
    const before = { ledger: await ledgerSize(), accounts: await accountCount() }

    const res = await postRaw('/auth/register', JSON.stringify(body()))

    expect(res.statusCode).toBe(400)
    const reply = res.json()
    expect(reply).toEqual({
      status: false,
      message: expect.stringMatching(/\S/),
      issues: expect.arrayContaining(
        fields.map((field) => ({ field, message: expect.stringMatching(/\S/) })),
      ),
    })
    expect(reply.message).toBe(reply.issues[0].message)
    expect(await ledgerSize()).toBe(before.ledger)
    expect(await accountCount()).toBe(before.accounts)
  })

  it('says "Password must be at least 6 characters." for a 5-character password', async () => {
    const res = await post('/auth/register', { ...valid, email: freshEmail(), password: 'abcde' })

    expect(res.statusCode).toBe(400)
    expect(res.json().issues).toEqual([
      { field: 'password', message: 'Password must be at least 6 characters.' },
    ])
  })

  it.each([
    ['text that is not JSON', '{"username": "x", email: '],
    [
      'a __proto__ key',
      `{"username":"x","email":"${freshEmail()}","password":"secret-1","__proto__":{"role":"admin"}}`,
    ],
    [
      'a constructor.prototype key',
      `{"username":"x","email":"${freshEmail()}","password":"secret-1","constructor":{"prototype":{"role":"admin"}}}`,
    ],
  ])('answers 400 {status:false, message} and stores nothing for %s', async (_, body) => {
    const before = { ledger: await ledgerSize(), accounts: await accountCount() }

    const res = await postRaw('/auth/register', body)

    expect(res.statusCode).toBe(400)
    expect(res.json()).toEqual({ status: false, message: expect.stringMatching(/\S/) })
    expect(res.body).not.toMatch(/SyntaxError|\.ts:\d+|\.js:\d+/)
    expect(await ledgerSize()).toBe(before.ledger)
    expect(await accountCount()).toBe(before.accounts)
  })

  it('lets exactly one of 20 simultaneous sign-ups with one e-mail through; the others get 409', async () => {
    const email = freshEmail('race')
    const before = await accountCount()

    const replies = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        post('/auth/register', { username: `racer${i}`, email, password: 'secret-1' }),
      ),
    )

    const statuses = replies.map((r) => r.statusCode).sort()
    expect(statuses).toEqual([200, ...Array(19).fill(409)])
    for (const r of replies.filter((r) => r.statusCode === 409)) {
      expect(r.json()).toEqual({ status: false, message: expect.stringMatching(/\S/) })
    }
    expect(await accountCount()).toBe(before + 1)
    expect(await registeredFactsFor(email)).toBe(1)
    const winner = replies.findIndex((r) => r.statusCode === 200)
    expect((await accountByEmail(email))?.username).toBe(`racer${winner}`)
  })
})

describe('POST /api/v1/auth/login', () => {
  it('answers {status:true, token, message} with a bare HS256 JWT for the account', async () => {
    const { email, password } = await register()
    const row = await accountByEmail(email)

    const res = await post('/auth/login', { email: email.toUpperCase(), password })

    expect(res.statusCode).toBe(200)
    const body = res.json()
    expect(body).toEqual({ status: true, token: expect.any(String), message: expect.stringMatching(/\S/) })
    expect(body.token).toMatch(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/)
    const decoded = createDecoder({ complete: true })(body.token) as {
      header: Record<string, unknown>
      payload: { sub: string; iat: number; exp: number }
    }
    expect(decoded.header.alg).toBe('HS256')
    const claims = createVerifier({ key: app.platform.config.jwt.secret, algorithms: ['HS256'] })(body.token)
    expect(claims.sub).toBe(row?.id)
    expect(claims.exp - claims.iat).toBe(24 * 3600) // JWT_EXPIRES_IN defaults to 1d
    expect(Math.abs(claims.iat - Date.now() / 1000)).toBeLessThan(60)
  })

  it('answers 401 {status:false, message} with the same message for a wrong password and an unknown e-mail', async () => {
    const { email } = await register()
    const before = await ledgerSize()

    const wrong = await post('/auth/login', { email, password: 'not-the-password' })
    const unknown = await post('/auth/login', { email: freshEmail('nobody'), password: 'not-the-password' })

    expect(wrong.statusCode).toBe(401)
    expect(wrong.json()).toEqual({ status: false, message: expect.stringMatching(/\S/) })
    expect(unknown.statusCode).toBe(401)
    expect(unknown.json()).toEqual(wrong.json())
    expect(await ledgerSize()).toBe(before)
  })

  it.each([
    ['no e-mail', { password: 'secret-1' }],
    ['no password', { email: 'someone@example.com' }],
    ['empty strings', { email: '', password: '' }],
    ['an empty object', {}],
  ])("answers 400 'Email and Password are required' for %s", async (_, body) => {
    const res = await post('/auth/login', body)

    expect(res.statusCode).toBe(400)
    expect(res.json()).toMatchObject({ status: false, message: 'Email and Password are required' })
    expect(res.json().issues).toEqual(
      expect.arrayContaining([{ field: expect.any(String), message: 'Email and Password are required' }]),
    )
  })
})

describe('GET /api/v1/auth/profile', () => {
  let user: Session
  const secret = () => app.platform.config.jwt.secret
  const nowSeconds = () => Math.floor(Date.now() / 1000)
  const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url')

  beforeAll(async () => {
    user = await signUp(app, 'profiled')
  })

  it('answers {user:{_id, username, email, role, phone, ticketId:[]}} for the caller', async () => {
    const res = await profile(user.token)

    expect(res.statusCode).toBe(200)
    const row = await accountByEmail(user.email)
    expect(res.json()).toEqual({
      user: {
        _id: row?.id,
        username: 'profiled',
        email: user.email,
        role: 'user',
        phone: null,
        ticketId: [],
      },
    })
  })

  it("answers an organizer's and the admin's own profile with their roles", async () => {
    const organizer = await organizerSession(app)
    const admin = await adminSession(app)

    expect((await profile(organizer.token)).json().user).toMatchObject({
      _id: organizer.id,
      role: 'organizers',
    })
    expect((await profile(admin.token)).json().user).toMatchObject({
      _id: (await accountByEmail(ADMIN.email))?.id,
      email: ADMIN.email,
      role: 'admin',
    })
  })

  it('answers 401 {message} without a token', async () => {
    const res = await get('/auth/profile')

    expect(res.statusCode).toBe(401)
    expect(res.json()).toEqual({ message: expect.stringMatching(/\S/) })
  })

  it('answers 401 for a token whose payload was changed after signing', async () => {
    const admin = await adminSession(app)
    const [header, payload, signature] = user.token.split('.')
    const claims = JSON.parse(Buffer.from(payload ?? '', 'base64url').toString())
    const forged = [header, b64({ ...claims, sub: admin.id, role: 'admin' }), signature].join('.')

    const res = await profile(forged)

    expect(res.statusCode).toBe(401)
    expect(res.json()).toEqual({ message: expect.stringMatching(/\S/) })
  })

  it('answers 401 for a token whose signature was altered', async () => {
    const [header, payload, signature = ''] = user.token.split('.')
    const flipped = `${signature.slice(0, 10)}${signature[10] === 'A' ? 'B' : 'A'}${signature.slice(11)}`

    expect((await profile(user.token)).statusCode).toBe(200)
    expect((await profile([header, payload, flipped].join('.'))).statusCode).toBe(401)
  })

  it('answers 401 for an unsigned token (alg: none)', async () => {
    const unsigned = `${b64({ alg: 'none', typ: 'JWT' })}.${b64({ sub: user.id, role: 'user', iat: nowSeconds(), exp: nowSeconds() + 3600 })}.`

    const res = await profile(unsigned)

    expect(res.statusCode).toBe(401)
    expect(res.json()).toEqual({ message: expect.stringMatching(/\S/) })
  })

  it('answers 401 for a token signed with another secret', async () => {
    const other = createSigner({
      key: randomBytes(48).toString('base64url'),
      algorithm: 'HS256',
      expiresIn: 3600_000,
    })

    expect((await profile(other({ sub: user.id, role: 'user' }))).statusCode).toBe(401)
  })

  it('answers 401 for an expired token and 200 for the same token with a future expiry', async () => {
    const sign = createSigner({ key: secret(), algorithm: 'HS256' })
    const iat = nowSeconds()

    const pv = (await accountById(user.id))?.password_changed_at
    const expired = await profile(sign({ sub: user.id, role: 'user', pv, iat, exp: iat - 1 }))
    const current = await profile(sign({ sub: user.id, role: 'user', pv, iat, exp: iat + 3600 }))

    expect(expired.statusCode).toBe(401)
    expect(expired.json()).toEqual({ message: expect.stringMatching(/\S/) })
    expect(current.statusCode).toBe(200)
    expect(current.json().user._id).toBe(user.id)
  })

  it('answers 401 for a well-signed token of an account that does not exist', async () => {
    const sign = createSigner({ key: secret(), algorithm: 'HS256', expiresIn: 3600_000 })
    const ghost = randomBytes(12).toString('hex')
    expect(await accountById(ghost)).toBeUndefined()

    const res = await profile(sign({ sub: ghost, role: 'admin' }))

    expect(res.statusCode).toBe(401)
    expect(res.json()).toEqual({ message: expect.stringMatching(/\S/) })
  })

  it("takes the role from the account, not from the token's claims", async () => {
    const sign = createSigner({ key: secret(), algorithm: 'HS256', expiresIn: 3600_000 })
    const promoted = sign({
      sub: user.id,
      role: 'admin',
      pv: (await accountById(user.id))?.password_changed_at,
    })

    expect((await profile(promoted)).json().user.role).toBe('user')
    expect((await get('/admin/getalluser', bearer(promoted))).statusCode).toBe(403)
  })

  it('stops accepting a token issued before a password reset, and accepts one issued after', async () => {
    const someone = await signUp(app, 'resetter')
    const token = await requestResetToken(someone.email)
    expect((await resetPassword(token, 'brand-new-password')).statusCode).toBe(200)

    const old = await profile(someone.token)
    const fresh = await profile(await login(app, someone.email, 'brand-new-password'))

    expect(old.statusCode).toBe(401)
    expect(old.json()).toEqual({ message: expect.stringMatching(/\S/) })
    expect(fresh.statusCode).toBe(200)
  })

  // Was a bug while the check compared whole-second iat with the change time: a token issued
  // earlier in the same second as the reset kept working. Tokens now carry the password version.
  it('stops accepting a token issued in the same second just before a password reset', async () => {
    const someone = await signUp(app, 'quick')
    let old = ''
    const used: string[] = []
    // Retried until the login and the reset fall into one second (they take ~100 ms together).
    for (let attempt = 0; attempt < 3; attempt++) {
      while (Date.now() % 1000 > 50) await new Promise((r) => setTimeout(r, 5))
      const password = attempt === 0 ? someone.password : `changed-${attempt - 1}`
      old = await login(app, someone.email, password)
      const token = await requestResetToken(someone.email, used)
      used.push(token)
      expect((await resetPassword(token, `changed-${attempt}`)).statusCode).toBe(200)
      const iat = (createDecoder()(old) as { iat: number }).iat
      if (iat === Math.floor(((await accountByEmail(someone.email))?.password_changed_at ?? 0) / 1000)) break
    }
    const row = await accountByEmail(someone.email)
    const iat = (createDecoder()(old) as { iat: number }).iat
    expect(iat).toBe(Math.floor((row?.password_changed_at ?? 0) / 1000))

    expect((await profile(old)).statusCode).toBe(401)
  })
})

describe('POST /api/v1/auth/getbyid', () => {
  let admin: Session
  let organizer: Session
  let user: Session
  let phoneUser: { email: string; username: string; id: string }

  beforeAll(async () => {
    admin = await adminSession(app)
    organizer = await organizerSession(app)
    user = await signUp(app, 'plain')
    const registered = await register({ username: 'Phoned', phone: '+91 99999 00000' })
    phoneUser = { ...registered, id: (await accountByEmail(registered.email))?.id ?? '' }
  })

  it('answers the admin {user:{_id, username, email, phone, paymentStatus}}', async () => {
    const res = await post('/auth/getbyid', { userid: phoneUser.id }, bearer(admin.token))

    expect(res.statusCode).toBe(200)
    expect(res.json()).toEqual({
      user: {
        _id: phoneUser.id,
        username: 'Phoned',
        email: phoneUser.email,
        phone: '+91 99999 00000',
        paymentStatus: null,
      },
    })
  })

  it('answers the admin 404 {message} for an id no account has', async () => {
    const res = await post('/auth/getbyid', { userid: randomBytes(12).toString('hex') }, bearer(admin.token))

    expect(res.statusCode).toBe(404)
    expect(res.json()).toEqual({ message: expect.stringMatching(/\S/) })
  })

  it('answers an organizer 404 for a user holding none of its tickets, exactly as for no account at all', async () => {
    const existing = await post('/auth/getbyid', { userid: user.id }, bearer(organizer.token))
    const missing = await post(
      '/auth/getbyid',
      { userid: randomBytes(12).toString('hex') },
      bearer(organizer.token),
    )

    expect(existing.statusCode).toBe(404)
    expect(existing.json()).toEqual({ message: expect.stringMatching(/\S/) })
    expect(missing.statusCode).toBe(404)
    expect(existing.json()).toEqual(missing.json())
  })

  it('answers 403 {message} to an account of role user', async () => {
    const res = await post('/auth/getbyid', { userid: phoneUser.id }, bearer(user.token))

    expect(res.statusCode).toBe(403)
    expect(res.json()).toEqual({ message: expect.stringMatching(/\S/) })
  })

  it('answers 401 {message} to a visitor', async () => {
    const res = await post('/auth/getbyid', { userid: phoneUser.id })

    expect(res.statusCode).toBe(401)
    expect(res.json()).toEqual({ message: expect.stringMatching(/\S/) })
  })

  it.each<[string, unknown]>([
    ['no userid', {}],
    ['an empty userid', { userid: '' }],
    ['a userid with a space', { userid: 'a b' }],
    ['a path as userid', { userid: '../accounts' }],
    ['a userid of 65 characters', { userid: 'a'.repeat(65) }],
    ['a number', { userid: 42 }],
    ['an operator object', { userid: { $ne: null } }],
  ])('answers 400 with an issue on userid for %s', async (_, body) => {
    const res = await post('/auth/getbyid', body, bearer(admin.token))

    expect(res.statusCode).toBe(400)
    expect(res.json()).toEqual({
      message: expect.stringMatching(/\S/),
      issues: [{ field: 'userid', message: expect.stringMatching(/\S/) }],
    })
  })
})

describe('POST /api/v1/auth/forgotpassword', () => {
  const outbox = () => app.platform.config.outboxDir
  const tables = () => tableNames(app)

  it('answers the same for a known and an unknown e-mail, and mails a link only to the known one', async () => {
    const { email, username } = await register({ username: 'Forgetful' })
    const unknown = freshEmail('stranger')
    const before = await ledgerSize()

    const forUnknown = await post('/auth/forgotpassword', { email: unknown })
    const forKnown = await post('/auth/forgotpassword', { email })

    expect(forKnown.statusCode).toBe(200)
    expect(forKnown.json()).toEqual({ status: true, message: expect.stringMatching(/\S/) })
    expect(forUnknown.statusCode).toBe(200)
    expect(forUnknown.json()).toEqual(forKnown.json())
    const mail = await waitForMail(outbox(), (m) => m.to.includes(email))
    expect(mail.text).toContain(username)
    expect(mail.text).toMatch(resetLinkPattern())
    expect(resetLinkPattern().exec(mail.text)?.[0]).toBe(
      `${app.platform.config.publicUrl}/reset-password/${tokenOf(mail)}`,
    )
    expect(forKnown.body).not.toContain(tokenOf(mail))
    await new Promise((r) => setTimeout(r, 300))
    expect(readOutbox(outbox()).filter((m) => m.to.includes(unknown))).toEqual([])
    expect(await ledgerSize()).toBe(before + 1) // the known account's request only
  })

  it('keeps only a hash of the token: the raw token is in no table and nowhere in the database files', async () => {
    const { email } = await register()
    const accountId = (await accountByEmail(email))?.id ?? ''

    const token = await requestResetToken(email)

    const [fact] = await factsOf('PasswordResetRequested', accountId)
    const tokenHash = String(fact?.data.tokenHash)
    expect(tokenHash).toMatch(/^[0-9a-f]{64}$/)
    expect(tokenHash).not.toContain(token)
    const expiresAt = Date.parse(String(fact?.data.expiresAt))
    expect(Math.abs(expiresAt - Date.now() - app.platform.config.resetTokenMinutes * 60_000)).toBeLessThan(
      60_000,
    )
    expect(await dbRows(app, 'SELECT * FROM password_reset_links WHERE account_id = ?', accountId)).toEqual([
      { token_hash: tokenHash, account_id: accountId, expires_at: fact?.data.expiresAt },
    ])
    for (const table of await tables()) {
      const dump = JSON.stringify(await dbRows(app, `SELECT * FROM "${table}"`))
      expect(dump, `table ${table}`).not.toContain(token)
    }
    expect(JSON.stringify(await dbRows(app, 'SELECT * FROM ledger'))).toContain(tokenHash)
    const file = app.platform.config.databaseFile
    for (const path of [file, `${file}-wal`]) {
      let bytes: Buffer
      try {
        bytes = readFileSync(path)
      } catch {
        continue
      }
      expect(bytes.includes(token), path).toBe(false)
    }
  })

  it('finds the account whatever the case of the e-mail', async () => {
    const { email } = await register()

    const res = await post('/auth/forgotpassword', { email: email.toUpperCase() })

    expect(res.statusCode).toBe(200)
    const mail = await waitForMail(outbox(), (m) => m.to.includes(email))
    expect(tokenOf(mail)).toMatch(/^[A-Za-z0-9_-]{20,}$/)
  })

  it.each<[string, unknown]>([
    ['an empty e-mail', { email: '' }],
    ['no e-mail', {}],
  ])("answers 400 {status:false, message:'Email required'} for %s", async (_, body) => {
    const before = await ledgerSize()

    const res = await post('/auth/forgotpassword', body)

    expect(res.statusCode).toBe(400)
    expect(res.json()).toMatchObject({ status: false, message: 'Email required' })
    expect(await ledgerSize()).toBe(before)
  })

  it('answers 400 for a malformed e-mail and stores nothing', async () => {
    const before = await ledgerSize()

    const res = await post('/auth/forgotpassword', { email: 'no-at-sign' })

    expect(res.statusCode).toBe(400)
    expect(res.json()).toMatchObject({
      status: false,
      issues: [{ field: 'email', message: expect.any(String) }],
    })
    expect(await ledgerSize()).toBe(before)
  })
})

describe('POST /api/v1/auth/reset-password/:token', () => {
  it('sets the new password: the old one no longer logs in, the new one does', async () => {
    const { email, password } = await register()
    const row = await accountByEmail(email)
    const token = await requestResetToken(email)

    const res = await resetPassword(token, 'the-new-password')

    expect(res.statusCode).toBe(200)
    expect(res.json()).toEqual({ status: true, message: expect.stringMatching(/\S/) })
    expect(await loginStatus(email, password)).toBe(401)
    expect(await loginStatus(email, 'the-new-password')).toBe(200)
    const after = await accountByEmail(email)
    expect(after?.password_hash).not.toBe(row?.password_hash)
    expect(after?.password_changed_at).toBeGreaterThan(row?.password_changed_at ?? Number.POSITIVE_INFINITY)
    expect(await factsOf('PasswordReset', row?.id ?? '')).toHaveLength(1)
    expect(await count('SELECT count(*) AS n FROM password_reset_links WHERE account_id = ?', row?.id)).toBe(
      0,
    )
  })

  it('accepts a token once: a second use answers 400 {status:false, message} and changes nothing', async () => {
    const { email } = await register()
    const token = await requestResetToken(email)
    expect((await resetPassword(token, 'first-reset')).statusCode).toBe(200)
    const before = await ledgerSize()

    const again = await resetPassword(token, 'second-reset')

    expect(again.statusCode).toBe(400)
    expect(again.json()).toEqual({ status: false, message: expect.stringMatching(/\S/) })
    expect(await ledgerSize()).toBe(before)
    expect(await loginStatus(email, 'second-reset')).toBe(401)
    expect(await loginStatus(email, 'first-reset')).toBe(200)
  })

  it('invalidates an older link when a newer one is requested', async () => {
    const { email, password } = await register()
    const older = await requestResetToken(email)
    const newer = await requestResetToken(email, [older])
    expect(newer).not.toBe(older)

    const withOlder = await resetPassword(older, 'from-older-link')

    expect(withOlder.statusCode).toBe(400)
    expect(withOlder.json()).toEqual({ status: false, message: expect.stringMatching(/\S/) })
    expect(await loginStatus(email, password)).toBe(200)
    expect((await resetPassword(newer, 'from-newer-link')).statusCode).toBe(200)
    expect(await loginStatus(email, 'from-newer-link')).toBe(200)
  })

  describe('when the link has expired', () => {
    // RESET_TOKEN_MINUTES cannot go below 1, so the clock moves instead: the link is requested
    // through the API, then only Date is faked forward (timers stay real, so Redis, BullMQ and
    // argon2 keep working). The route reads "now" from the clock, exactly as it would later.
    afterEach(() => {
      vi.useRealTimers()
    })
    const clockForward = (minutes: number) => {
      vi.useFakeTimers({ toFake: ['Date'] })
      vi.setSystemTime(Date.now() + minutes * 60_000)
    }

    it('answers 400 {status:false, message} once RESET_TOKEN_MINUTES have passed', async () => {
      const { email, password } = await register()
      const token = await requestResetToken(email)
      const before = await ledgerSize()

      clockForward(app.platform.config.resetTokenMinutes + 1)
      const res = await resetPassword(token, 'too-late-password')
      vi.useRealTimers()

      expect(res.statusCode).toBe(400)
      expect(res.json()).toEqual({ status: false, message: expect.stringMatching(/\S/) })
      expect(await ledgerSize()).toBe(before)
      expect(await loginStatus(email, password)).toBe(200)
      expect(await loginStatus(email, 'too-late-password')).toBe(401)
    })

    it('still works a minute before RESET_TOKEN_MINUTES have passed', async () => {
      const { email } = await register()
      const token = await requestResetToken(email)

      clockForward(app.platform.config.resetTokenMinutes - 1)
      const res = await resetPassword(token, 'just-in-time')
      vi.useRealTimers()

      expect(res.statusCode).toBe(200)
      expect(await loginStatus(email, 'just-in-time')).toBe(200)
    })
  })

  it.each([
    ['a well-formed token nobody was sent', randomBytes(32).toString('base64url')],
    ['a token that is too short', 'abc'],
    ['a token with characters a link never has', 'not!a*token$at(all)aaaaaaaaa'],
    ['a token far too long', 'a'.repeat(300)],
  ])('answers 400 {status:false, message} for %s', async (_, token) => {
    const before = await ledgerSize()

    const res = await post(`/auth/reset-password/${encodeURIComponent(token)}`, { password: 'whatever-1' })

    expect(res.statusCode).toBe(400)
    expect(res.json()).toMatchObject({ status: false, message: expect.stringMatching(/\S/) })
    expect(await ledgerSize()).toBe(before)
  })

  it("answers 400 'Password is required.' without a password, and the link still works afterwards", async () => {
    const { email } = await register()
    const token = await requestResetToken(email)

    const missing = await post(`/auth/reset-password/${token}`, {})
    const short = await resetPassword(token, '12345')

    expect(missing.statusCode).toBe(400)
    expect(missing.json()).toMatchObject({ status: false, message: 'Password is required.' })
    expect(short.statusCode).toBe(400)
    expect(short.json().issues).toEqual([{ field: 'password', message: expect.stringMatching(/\S/) }])
    expect((await resetPassword(token, 'valid-password')).statusCode).toBe(200)
  })

  it('lets exactly one of two simultaneous resets with one token through', async () => {
    const { email } = await register()
    const accountId = (await accountByEmail(email))?.id ?? ''
    const token = await requestResetToken(email)

    const [a, b] = await Promise.all([resetPassword(token, 'password-a'), resetPassword(token, 'password-b')])

    expect([a?.statusCode, b?.statusCode].sort()).toEqual([200, 400])
    expect(await factsOf('PasswordReset', accountId)).toHaveLength(1)
    const winner = a?.statusCode === 200 ? 'password-a' : 'password-b'
    const loser = winner === 'password-a' ? 'password-b' : 'password-a'
    expect(await loginStatus(email, winner)).toBe(200)
    expect(await loginStatus(email, loser)).toBe(401)
  })
})

describe('POST /api/v1/admin/create-organizer', () => {
  let admin: Session
  beforeAll(async () => {
    admin = await adminSession(app)
  })

  it('answers 201 {status:true, message} and creates an organizer account that can log in', async () => {
    const email = freshEmail('organizer')
    const before = await ledgerSize()

    const res = await post(
      '/admin/create-organizer',
      { name: 'Olga Org', email: email.toUpperCase(), password: 'org-password' },
      bearer(admin.token),
    )

    expect(res.statusCode).toBe(201)
    expect(res.json()).toEqual({ status: true, message: expect.stringMatching(/\S/) })
    const row = await accountByEmail(email)
    expect(row).toMatchObject({ username: 'Olga Org', email, role: 'organizers' })
    expect(await ledgerSize()).toBe(before + 1)
    expect((await factsOf('AccountRegistered', row?.id ?? ''))[0]?.data).toMatchObject({
      role: 'organizers',
      createdBy: admin.id,
    })
    const token = await login(app, email, 'org-password')
    expect((await profile(token)).json().user).toMatchObject({ _id: row?.id, role: 'organizers' })
  })

  it('answers 409 {status:false, message} for a taken e-mail, whatever its case', async () => {
    const { email } = await register()
    const before = { ledger: await ledgerSize(), accounts: await accountCount() }

    const res = await post(
      '/admin/create-organizer',
      { name: 'Dup', email: email.toUpperCase(), password: 'org-password' },
      bearer(admin.token),
    )

    expect(res.statusCode).toBe(409)
    expect(res.json()).toEqual({ status: false, message: expect.stringMatching(/\S/) })
    expect((await accountByEmail(email))?.role).toBe('user')
    expect(await ledgerSize()).toBe(before.ledger)
    expect(await accountCount()).toBe(before.accounts)
  })

  it('answers 403 to a user and to an organizer, 401 to a visitor, and creates nothing', async () => {
    const user = await signUp(app)
    const organizer = await organizerSession(app)
    const email = freshEmail('blocked')
    const body = { name: 'Nope', email, password: 'org-password' }
    const before = await ledgerSize()

    const asUser = await post('/admin/create-organizer', body, bearer(user.token))
    const asOrganizer = await post('/admin/create-organizer', body, bearer(organizer.token))
    const asVisitor = await post('/admin/create-organizer', body)

    expect(asUser.statusCode).toBe(403)
    expect(asUser.json()).toEqual({ status: false, message: expect.stringMatching(/\S/) })
    expect(asOrganizer.statusCode).toBe(403)
    expect(asVisitor.statusCode).toBe(401)
    expect(asVisitor.json()).toEqual({ status: false, message: expect.stringMatching(/\S/) })
    expect(await accountByEmail(email)).toBeUndefined()
    expect(await ledgerSize()).toBe(before)
  })

  it.each<[string, Record<string, unknown>, string]>([
    ['no name', { email: 'x@example.com', password: 'org-password' }, 'name'],
    ['no e-mail', { name: 'N', password: 'org-password' }, 'email'],
    ['no password', { name: 'N', email: 'x@example.com' }, 'password'],
    ['a short password', { name: 'N', email: 'x@example.com', password: '123' }, 'password'],
  ])('answers 400 with an issue on the field for %s', async (_, body, field) => {
    const before = await ledgerSize()

    const res = await post('/admin/create-organizer', body, bearer(admin.token))

    expect(res.statusCode).toBe(400)
    expect(res.json()).toEqual({
      status: false,
      message: expect.stringMatching(/\S/),
      issues: [{ field, message: expect.stringMatching(/\S/) }],
    })
    expect(await ledgerSize()).toBe(before)
  })
})

describe('GET /api/v1/admin/getalluser', () => {
  it('answers the admin a bare array of {_id, username, email, role} for every account, and nothing else', async () => {
    const admin = await adminSession(app)
    const user = await signUp(app, 'listed')
    const organizer = await organizerSession(app, 'listedorg')

    const res = await get('/admin/getalluser', bearer(admin.token))

    expect(res.statusCode).toBe(200)
    const list = res.json() as Record<string, unknown>[]
    expect(Array.isArray(list)).toBe(true)
    const rows = await dbRows<AccountRow>(app, 'SELECT id, username, email, role FROM accounts')
    expect(list).toHaveLength(rows.length)
    expect(new Set(list.map((a) => a._id))).toEqual(new Set(rows.map((r) => r.id)))
    for (const item of list) expect(Object.keys(item).sort()).toEqual(['_id', 'email', 'role', 'username'])
    expect(list).toEqual(
      expect.arrayContaining([
        { _id: admin.id, username: ADMIN.username, email: ADMIN.email, role: 'admin' },
        { _id: user.id, username: 'listed', email: user.email, role: 'user' },
        { _id: organizer.id, username: 'listedorg', email: organizer.email, role: 'organizers' },
      ]),
    )
  })

  it('answers 403 to a user and to an organizer, 401 to a visitor', async () => {
    const user = await signUp(app)
    const organizer = await organizerSession(app)

    const asUser = await get('/admin/getalluser', bearer(user.token))
    const asOrganizer = await get('/admin/getalluser', bearer(organizer.token))
    const asVisitor = await get('/admin/getalluser')

    expect(asUser.statusCode).toBe(403)
    expect(asUser.json()).toEqual({ message: expect.stringMatching(/\S/) })
    expect(asOrganizer.statusCode).toBe(403)
    expect(asVisitor.statusCode).toBe(401)
  })
})

describe('the first admin (ADMIN_EMAIL, ADMIN_PASSWORD)', () => {
  it('is created once, and a later start with another ADMIN_PASSWORD does not overwrite it', async () => {
    const { config: first, release } = await testConfigOnStore({
      ADMIN_EMAIL: 'Boss@Example.com',
      ADMIN_PASSWORD: 'first-secret',
    })
    const dir = first.dataDir
    try {
      const one = await buildApp(first)
      scanEveryReply(one)
      const rowsOf = (a: FastifyInstance) =>
        dbRows<AccountRow>(a, "SELECT * FROM accounts WHERE role = 'admin'")
      const [created] = await rowsOf(one)
      expect(await rowsOf(one)).toHaveLength(1)
      expect(created).toMatchObject({ email: 'boss@example.com', role: 'admin', username: ADMIN.username })
      expect(await login(one, 'boss@example.com', 'first-secret')).toMatch(/\./)
      await one.close()

      const second = withJwtSecret(
        loadConfig({
          NODE_ENV: 'test',
          DATA_DIR: dir,
          QUEUE_PREFIX: first.queuePrefix,
          LOG_LEVEL: 'silent',
          ADMIN_EMAIL: 'boss@example.com',
          ADMIN_PASSWORD: 'second-secret',
          ...sameStore(first),
        }),
      )
      const two = await buildApp(second)
      scanEveryReply(two)
      try {
        const rows = await rowsOf(two)
        expect(rows).toHaveLength(1)
        expect(rows[0]?.id).toBe(created?.id)
        expect(rows[0]?.password_hash).toBe(created?.password_hash)
        expect(await dbRow(two, "SELECT count(*) AS n FROM ledger WHERE type = 'AccountRegistered'")).toEqual(
          {
            n: 1,
          },
        )
        const tryLogin = (password: string) =>
          two.inject({
            method: 'POST',
            url: '/api/v1/auth/login',
            payload: { email: 'boss@example.com', password },
          })
        expect((await tryLogin('first-secret')).statusCode).toBe(200)
        expect((await tryLogin('second-secret')).statusCode).toBe(401)
      } finally {
        await two.close()
      }
    } finally {
      await release()
    }
  })
})
