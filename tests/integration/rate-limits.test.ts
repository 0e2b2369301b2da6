// Brute-force limits on login and forgot-password (issue 2): failed logins are counted per account
// and per IP, reset requests per account and per IP, each answered with 429, a message and
// Retry-After; RATE_LIMITS=off turns them off. The counters live in the real Redis.
import { randomBytes } from 'node:crypto'
import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type Session, signUp } from '../support/accounts.ts'
import { startApp, type TestApp } from '../support/app.ts'
import { readOutbox, waitForMail } from '../support/outbox.ts'

const LIMITS = {
  LOGIN_FAILS_PER_ACCOUNT: '3',
  LOGIN_FAILS_PER_IP: '10',
  LOGIN_WINDOW_MINUTES: '15',
  FORGOT_PER_ACCOUNT: '2',
  FORGOT_PER_IP: '5',
  FORGOT_WINDOW_MINUTES: '60',
}

let t: TestApp
let app: FastifyInstance

beforeAll(async () => {
  t = await startApp(LIMITS)
  app = t.app
})
afterAll(async () => {
  await t?.close()
})

// Every test uses addresses of its own, so the per-IP counters of one test never reach another.
let subnet = 0
const freshIp = () =>
  `10.${++subnet}.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250) + 1}`

const loginFrom = (ip: string, email: string, password: string) =>
  app.inject({ method: 'POST', url: '/api/v1/auth/login', payload: { email, password }, remoteAddress: ip })
const forgotFrom = (ip: string, email: string) =>
  app.inject({ method: 'POST', url: '/api/v1/auth/forgotpassword', payload: { email }, remoteAddress: ip })
const failLogins = async (ip: string, email: string, times: number) => {
  for (let i = 0; i < times; i++) {
    const res = await loginFrom(ip, email, `wrong-password-${i}`)
    expect(res.statusCode, `failure ${i + 1} of ${email}`).toBe(401)
  }
}
const unknownEmail = () => `nobody-${randomBytes(5).toString('hex')}@example.com`

/** A 429 as the contract has it: {status:false, message}, and Retry-After within the window. */
function expectTooMany(res: Awaited<ReturnType<typeof loginFrom>>, windowMinutes: string) {
  expect(res.statusCode).toBe(429)
  expect(res.json()).toEqual({ status: false, message: expect.stringMatching(/\S/) })
  const retryAfter = Number(res.headers['retry-after'])
  expect(Number.isInteger(retryAfter)).toBe(true)
  expect(retryAfter).toBeGreaterThan(0)
  expect(retryAfter).toBeLessThanOrEqual(Number(windowMinutes) * 60)
}

describe('POST /api/v1/auth/login, per account', () => {
  it('answers 429 with a message and Retry-After after 3 failures, even to the right password', async () => {
    const victim = await signUp(app, 'victim')
    const ip = freshIp()
    await failLogins(ip, victim.email, 3)

    const right = await loginFrom(ip, victim.email, victim.password)
    const elsewhere = await loginFrom(freshIp(), victim.email.toUpperCase(), victim.password)

    expectTooMany(right, LIMITS.LOGIN_WINDOW_MINUTES)
    expect(right.json()).not.toHaveProperty('token')
    expectTooMany(elsewhere, LIMITS.LOGIN_WINDOW_MINUTES) // the count follows the account, not the address
  })

  it('still lets another account sign in from the same address', async () => {
    const victim = await signUp(app, 'locked')
    const neighbour = await signUp(app, 'neighbour')
    const ip = freshIp()
    await failLogins(ip, victim.email, 3)
    expectTooMany(await loginFrom(ip, victim.email, victim.password), LIMITS.LOGIN_WINDOW_MINUTES)

    const res = await loginFrom(ip, neighbour.email, neighbour.password)

    expect(res.statusCode).toBe(200)
    expect(res.json().token).toEqual(expect.any(String))
  })

  it("forgets an account's failures when it signs in: 2 failures, a success, 2 failures → still allowed", async () => {
    const user = await signUp(app, 'forgetful')
    const ip = freshIp()
    await failLogins(ip, user.email, 2)
    expect((await loginFrom(ip, user.email, user.password)).statusCode).toBe(200)
    await failLogins(ip, user.email, 2)

    const res = await loginFrom(ip, user.email, user.password)

    expect(res.statusCode).toBe(200)
  })

  it('counts failures for an e-mail no account has, answering it like any other account', async () => {
    const ip = freshIp()
    const email = unknownEmail()
    await failLogins(ip, email, 3)

    const res = await loginFrom(ip, email, 'another-guess')

    expectTooMany(res, LIMITS.LOGIN_WINDOW_MINUTES)
  })

  // BUG: the limit is checked (get) before the password is verified and counted (penalty) after,
  // so simultaneous attempts all pass the check: 12 parallel guesses get 12 answers, not 3.
  it('allows no more than 3 guesses at a password, even when they arrive at the same moment', async () => {
    const user = await signUp(app, 'parallel')
    const ip = freshIp()

    const replies = await Promise.all(
      Array.from({ length: 12 }, (_, i) => loginFrom(ip, user.email, `parallel-guess-${i}`)),
    )

    const answered = replies.filter((r) => r.statusCode === 401).length
    const refused = replies.filter((r) => r.statusCode === 429).length
    expect(answered + refused).toBe(12)
    expect(answered).toBeLessThanOrEqual(3)
  })
})

describe('POST /api/v1/auth/login, per IP', () => {
  it('answers 429 to an address after 10 failures spread over many accounts; another address is unaffected', async () => {
    const ip = freshIp()
    const people = await Promise.all(Array.from({ length: 6 }, (_, i) => signUp(app, `crowd${i}`)))
    // 2 failures per account: under the per-account limit of 3, so only the address's count trips.
    for (const person of people.slice(0, 5)) await failLogins(ip, person.email, 2)
    const last = people[5] as Session

    const here = await loginFrom(ip, last.email, last.password)
    const elsewhere = await loginFrom(freshIp(), last.email, last.password)

    expectTooMany(here, LIMITS.LOGIN_WINDOW_MINUTES)
    expect(elsewhere.statusCode).toBe(200)
  })

  it('does not count successful sign-ins, so many people behind one address can sign in', async () => {
    const ip = freshIp()
    const people = await Promise.all(Array.from({ length: 12 }, (_, i) => signUp(app, `office${i}`)))
    const guesser = people[0] as Session
    await failLogins(ip, unknownEmail(), 3)
    await failLogins(ip, unknownEmail(), 3)
    await failLogins(ip, unknownEmail(), 3) // 9 of the address's 10

    for (const person of people) {
      const res = await loginFrom(ip, person.email, person.password)
      expect(res.statusCode, person.email).toBe(200)
    }
    await failLogins(ip, guesser.email, 1) // the 10th failure

    expectTooMany(await loginFrom(ip, guesser.email, guesser.password), LIMITS.LOGIN_WINDOW_MINUTES)
  })
})

describe('POST /api/v1/auth/forgotpassword', () => {
  const mailsTo = (email: string) => readOutbox(t.config.outboxDir).filter((m) => m.to.includes(email))

  it('answers 429 to the third request for one account within the window, and sends no third mail', async () => {
    const user = await signUp(app, 'resetting')

    const first = await forgotFrom(freshIp(), user.email)
    const second = await forgotFrom(freshIp(), user.email)
    const third = await forgotFrom(freshIp(), user.email.toUpperCase())

    expect(first.statusCode).toBe(200)
    expect(second.statusCode).toBe(200)
    expectTooMany(third, LIMITS.FORGOT_WINDOW_MINUTES)
    await waitForMail(t.config.outboxDir, () => mailsTo(user.email).length >= 2)
    await new Promise((r) => setTimeout(r, 300))
    expect(mailsTo(user.email)).toHaveLength(2)
    const requested = app.platform.connection.sqlite
      .prepare(
        "SELECT count(*) AS n FROM ledger WHERE type = 'PasswordResetRequested' AND json_extract(data, '$.accountId') = ?",
      )
      .get(user.id)
    expect(requested).toEqual({ n: 2 })
  })

  it('answers 429 to an address after 5 requests for different e-mails; another address is unaffected', async () => {
    const ip = freshIp()
    for (let i = 0; i < 5; i++) expect((await forgotFrom(ip, unknownEmail())).statusCode).toBe(200)

    const here = await forgotFrom(ip, unknownEmail())
    const elsewhere = await forgotFrom(freshIp(), unknownEmail())

    expectTooMany(here, LIMITS.FORGOT_WINDOW_MINUTES)
    expect(elsewhere.statusCode).toBe(200)
  })
})

describe('RATE_LIMITS=off', () => {
  let open: TestApp
  beforeAll(async () => {
    open = await startApp({ ...LIMITS, RATE_LIMITS: 'off' })
  })
  afterAll(async () => {
    await open?.close()
  })

  it('never answers 429: 50 failed logins, then the right password signs in', async () => {
    const user = await signUp(open.app, 'loadtest')
    const statuses = new Set<number>()
    for (let i = 0; i < 50; i++) {
      const res = await open.app.inject({
        method: 'POST',
        url: '/api/v1/auth/login',
        payload: { email: user.email, password: `wrong-${i}` },
      })
      statuses.add(res.statusCode)
    }

    const right = await open.app.inject({
      method: 'POST',
      url: '/api/v1/auth/login',
      payload: { email: user.email, password: user.password },
    })

    expect([...statuses]).toEqual([401])
    expect(right.statusCode).toBe(200)
  })

  it('never answers 429 to repeated reset requests', async () => {
    const user = await signUp(open.app, 'loadreset')
    const statuses = new Set<number>()
    for (let i = 0; i < 8; i++) {
      const res = await open.app.inject({
        method: 'POST',
        url: '/api/v1/auth/forgotpassword',
        payload: { email: user.email },
      })
      statuses.add(res.statusCode)
    }

    expect([...statuses]).toEqual([200])
  })
})
