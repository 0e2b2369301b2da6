// Abuse limits on sign-in, sign-up and forgot-password (issues 2 and 11). Failed logins are
// counted per (account, address) pair and per address; an account's failures from everywhere past
// its ceiling slow it to one attempt per LOGIN_SLOW_SECONDS but never lock it; a completed reset
// starts the counts afresh. Sign-ups and reset requests are counted per address (and reset requests
// per account). Refusals are 429 with a message and Retry-After; RATE_LIMITS=off turns them off.
// The counters live in the real Redis.
import { randomBytes } from 'node:crypto'
import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { adminSession, bearer, organizerSession, type Session, signUp } from '../support/accounts.ts'
import { startApp, type TestApp } from '../support/app.ts'
import { dbRow, factField } from '../support/db.ts'
import { readOutbox, waitForMail } from '../support/outbox.ts'
import { approvedEvent, buy } from '../support/sales.ts'

const LIMITS = {
  LOGIN_FAILS_PER_ACCOUNT_ADDRESS: '3',
  LOGIN_FAILS_PER_ACCOUNT: '6',
  LOGIN_SLOW_SECONDS: '2',
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
    expect(res.statusCode, `failure ${i + 1} of ${email} from ${ip}`).toBe(401)
  }
}
const unknownEmail = () => `nobody-${randomBytes(5).toString('hex')}@example.com`
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

type Reply = Awaited<ReturnType<typeof loginFrom>>

/** A 429 as the contract has it: {status:false, message}, and Retry-After within `seconds`. */
function expectTooMany(res: Reply, seconds: number) {
  expect(res.statusCode).toBe(429)
  expect(res.json()).toEqual({ status: false, message: expect.stringMatching(/\S/) })
  const retryAfter = Number(res.headers['retry-after'])
  expect(Number.isInteger(retryAfter)).toBe(true)
  expect(retryAfter).toBeGreaterThan(0)
  expect(retryAfter).toBeLessThanOrEqual(seconds)
  return retryAfter
}
const LOGIN_WINDOW = Number(LIMITS.LOGIN_WINDOW_MINUTES) * 60
const SLOW = Number(LIMITS.LOGIN_SLOW_SECONDS)

describe('POST /api/v1/auth/login, per account and address', () => {
  it('answers 429 to an address after 3 failures at an account, even to the right password; its owner signs in from another', async () => {
    const victim = await signUp(app, 'victim')
    const attacker = freshIp()
    await failLogins(attacker, victim.email, 3)

    const right = await loginFrom(attacker, victim.email, victim.password)
    const shouted = await loginFrom(attacker, victim.email.toUpperCase(), victim.password)
    const owner = await loginFrom(freshIp(), victim.email, victim.password)

    expectTooMany(right, LOGIN_WINDOW)
    expect(right.json()).not.toHaveProperty('token')
    expectTooMany(shouted, LOGIN_WINDOW) // the count follows the e-mail, whatever its case
    expect(owner.statusCode).toBe(200)
    expect(owner.json().token).toEqual(expect.any(String))
  })

  it('still lets another account sign in from the same address', async () => {
    const victim = await signUp(app, 'locked')
    const neighbour = await signUp(app, 'neighbour')
    const ip = freshIp()
    await failLogins(ip, victim.email, 3)
    expectTooMany(await loginFrom(ip, victim.email, victim.password), LOGIN_WINDOW)

    const res = await loginFrom(ip, neighbour.email, neighbour.password)

    expect(res.statusCode).toBe(200)
    expect(res.json().token).toEqual(expect.any(String))
  })

  it("forgets the pair's failures when it signs in: 2 failures, a success, 2 failures → still allowed", async () => {
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

    expectTooMany(res, LOGIN_WINDOW)
  })

  it('allows no more than 3 guesses from one address, even when they arrive at the same moment', async () => {
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

describe('POST /api/v1/auth/login, past the account ceiling of 6 failures from everywhere', () => {
  /** 3 failures from each of two addresses: the account reaches its ceiling, both pairs their limit. */
  const failFromEverywhere = async (email: string) => {
    await failLogins(freshIp(), email, 3)
    await failLogins(freshIp(), email, 3)
  }

  it('slows the account to one attempt per 2 seconds, whoever sends it, and never locks it', async () => {
    const victim = await signUp(app, 'slowed')
    await failFromEverywhere(victim.email)
    const owner = freshIp()

    const guess = await loginFrom(freshIp(), victim.email, 'one-more-guess')
    const waiting = []
    for (let i = 0; i < 4; i++) waiting.push(await loginFrom(owner, victim.email, victim.password))
    const retryAfter = expectTooMany(waiting[0] as Reply, SLOW)
    await pause(retryAfter * 1000)
    const turn = await loginFrom(owner, victim.email, victim.password)

    expect(guess.statusCode).toBe(401) // this turn's attempt, checked as usual
    for (const res of waiting) {
      expectTooMany(res, SLOW)
      expect(res.json().message).toMatch(/second/)
    }
    // 4 refusals while waiting did not use up the owner's 3 failures: they were never checked.
    expect(turn.statusCode).toBe(200)
    expect(turn.json().token).toEqual(expect.any(String))
  })

  it('lets one of many attempts arriving at the same moment through', async () => {
    const victim = await signUp(app, 'crowded')
    await failFromEverywhere(victim.email)

    const replies = await Promise.all(
      Array.from({ length: 6 }, (_, i) => loginFrom(freshIp(), victim.email, `crowd-guess-${i}`)),
    )

    expect(replies.map((r) => r.statusCode).sort()).toEqual([401, 429, 429, 429, 429, 429])
  })
})

describe('POST /api/v1/auth/reset-password/:token, and the sign-in counts', () => {
  it('starts them afresh: the refused address signs in with the new password, and the account is no longer slowed', async () => {
    const victim = await signUp(app, 'recovering')
    const home = freshIp()
    await failLogins(home, victim.email, 3)
    await failLogins(freshIp(), victim.email, 3)
    expectTooMany(await loginFrom(home, victim.email, victim.password), LOGIN_WINDOW)
    expect((await loginFrom(freshIp(), victim.email, 'one-more-guess')).statusCode).toBe(401)
    expectTooMany(await loginFrom(freshIp(), victim.email, victim.password), SLOW)

    expect((await forgotFrom(home, victim.email)).statusCode).toBe(200)
    const mail = await waitForMail(t.config.outboxDir, (m) => m.to.includes(victim.email))
    const token = /\/reset-password\/([A-Za-z0-9_-]+)/.exec(mail.text)?.[1]
    const reset = await app.inject({
      method: 'POST',
      url: `/api/v1/auth/reset-password/${token}`,
      payload: { password: 'the-new-password' },
      remoteAddress: home,
    })
    expect(reset.statusCode).toBe(200)

    const signIn = await loginFrom(home, victim.email, 'the-new-password')

    expect(signIn.statusCode).toBe(200)
    expect(signIn.json().token).toEqual(expect.any(String))
    // 6 failures back to back: none is slowed or refused.
    await failLogins(freshIp(), victim.email, 3)
    await failLogins(freshIp(), victim.email, 3)
  })
})

describe('POST /api/v1/auth/login, per IP', () => {
  it('answers 429 to an address after 10 failures spread over many accounts; another address is unaffected', async () => {
    const ip = freshIp()
    const people = await Promise.all(Array.from({ length: 6 }, (_, i) => signUp(app, `crowd${i}`)))
    // 2 failures per account: under the pair's limit of 3, so only the address's count trips.
    for (const person of people.slice(0, 5)) await failLogins(ip, person.email, 2)
    const last = people[5] as Session

    const here = await loginFrom(ip, last.email, last.password)
    const elsewhere = await loginFrom(freshIp(), last.email, last.password)

    expectTooMany(here, LOGIN_WINDOW)
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

    expectTooMany(await loginFrom(ip, guesser.email, guesser.password), LOGIN_WINDOW)
  })
})

describe('POST /api/v1/auth/login, a burst from one address', () => {
  it("of 30 wrong guesses at 30 accounts arriving at the same moment stays within the address's 10 failures", async () => {
    const ip = freshIp()

    const replies = await Promise.all(
      Array.from({ length: 30 }, (_, i) => loginFrom(ip, unknownEmail(), `burst-guess-${i}`)),
    )

    const answered = replies.filter((r) => r.statusCode === 401).length
    const refused = replies.filter((r) => r.statusCode === 429)
    expect(answered + refused.length).toBe(30)
    expect(answered).toBe(10)
    for (const res of refused) expectTooMany(res, LOGIN_WINDOW)
    expectTooMany(await loginFrom(ip, unknownEmail(), 'one-more'), LOGIN_WINDOW)
  })

  it('of 12 people signing in at the same moment lets every one in, more than the address may fail', async () => {
    const ip = freshIp()
    const people = await Promise.all(Array.from({ length: 12 }, (_, i) => signUp(app, `campus${i}`)))

    const replies = await Promise.all(people.map((person) => loginFrom(ip, person.email, person.password)))

    expect(replies.map((r) => r.statusCode)).toEqual(people.map(() => 200))
  })

  it('of 12 people signing in at the same moment lets every one in, with 9 of its 10 failures spent', async () => {
    const ip = freshIp()
    const people = await Promise.all(Array.from({ length: 12 }, (_, i) => signUp(app, `lecture${i}`)))
    for (let i = 0; i < 3; i++) await failLogins(ip, unknownEmail(), 3)

    const replies = await Promise.all(people.map((person) => loginFrom(ip, person.email, person.password)))

    expect(replies.map((r) => r.statusCode)).toEqual(people.map(() => 200))
  })

  it('of 12 people and 12 wrong guesses mixed: the people get in, the guesses stop at the 10th failure', async () => {
    const ip = freshIp()
    const people = await Promise.all(Array.from({ length: 12 }, (_, i) => signUp(app, `hall${i}`)))
    await failLogins(ip, unknownEmail(), 3)

    const [signIns, guesses] = await Promise.all([
      Promise.all(people.map((person) => loginFrom(ip, person.email, person.password))),
      Promise.all(Array.from({ length: 12 }, (_, i) => loginFrom(ip, unknownEmail(), `mixed-guess-${i}`))),
    ])

    expect(guesses.filter((r) => r.statusCode === 401).length).toBe(7)
    expect(guesses.filter((r) => r.statusCode === 429).length).toBe(5)
    // a person whose turn came after the 10th failure is refused with the rest: the address is spent
    for (const res of signIns) expect([200, 429]).toContain(res.statusCode)
  })
})

describe('POST /api/v1/auth/forgotpassword', () => {
  const mailsTo = (email: string) => readOutbox(t.config.outboxDir).filter((m) => m.to.includes(email))
  const FORGOT_WINDOW = Number(LIMITS.FORGOT_WINDOW_MINUTES) * 60

  it('answers 429 to the third request for one account within the window, and sends no third mail', async () => {
    const user = await signUp(app, 'resetting')

    const first = await forgotFrom(freshIp(), user.email)
    const second = await forgotFrom(freshIp(), user.email)
    const third = await forgotFrom(freshIp(), user.email.toUpperCase())

    expect(first.statusCode).toBe(200)
    expect(second.statusCode).toBe(200)
    expectTooMany(third, FORGOT_WINDOW)
    await waitForMail(t.config.outboxDir, () => mailsTo(user.email).length >= 2)
    await pause(300)
    expect(mailsTo(user.email)).toHaveLength(2)
    const requested = await dbRow(
      app,
      `SELECT count(*) AS n FROM ledger WHERE type = 'PasswordResetRequested' AND ${factField(app, 'accountId')} = ?`,
      user.id,
    )
    expect(requested).toEqual({ n: 2 })
  })

  it('answers 429 to an address after 5 requests for different e-mails; another address is unaffected', async () => {
    const ip = freshIp()
    for (let i = 0; i < 5; i++) expect((await forgotFrom(ip, unknownEmail())).statusCode).toBe(200)

    const here = await forgotFrom(ip, unknownEmail())
    const elsewhere = await forgotFrom(freshIp(), unknownEmail())

    expectTooMany(here, FORGOT_WINDOW)
    expect(elsewhere.statusCode).toBe(200)
  })
})

describe('POST /api/v1/auth/register, per address', () => {
  let farm: TestApp
  beforeAll(async () => {
    farm = await startApp({ ...LIMITS, SIGNUPS_PER_ADDRESS: '3', SIGNUP_WINDOW_MINUTES: '60' })
  })
  afterAll(async () => {
    await farm?.close()
  })
  const SIGNUP_WINDOW = 60 * 60

  const registerFrom = (ip: string, email: string) =>
    farm.app.inject({
      method: 'POST',
      url: '/api/v1/auth/register',
      payload: { username: 'Farmer', email, password: 'password-1' },
      remoteAddress: ip,
    })
  const accountsWith = (email: string) =>
    dbRow(farm.app, 'SELECT count(*) AS n FROM accounts WHERE email = ?', email)

  it('answers 429 to the 4th sign-up from one address within the window, and makes no account; another address is unaffected', async () => {
    const ip = freshIp()
    for (let i = 0; i < 3; i++) expect((await registerFrom(ip, unknownEmail())).statusCode).toBe(200)
    const email = unknownEmail()

    const here = await registerFrom(ip, email)
    const elsewhere = await registerFrom(freshIp(), unknownEmail())

    expectTooMany(here, SIGNUP_WINDOW)
    expect(await accountsWith(email)).toEqual({ n: 0 })
    expect(elsewhere.statusCode).toBe(200)
  })

  it('counts an IPv6 client by its /64: each sign-up from a fresh address of it uses the same allowance', async () => {
    const network = `2001:db8:${Math.floor(Math.random() * 0xffff).toString(16)}:1`
    for (let i = 1; i <= 3; i++)
      expect((await registerFrom(`${network}::${i}`, unknownEmail())).statusCode).toBe(200)

    const here = await registerFrom(`${network}:0:0:0:ffff`, unknownEmail())

    expectTooMany(here, SIGNUP_WINDOW)
    expect((await registerFrom(`${network.slice(0, -1)}2::1`, unknownEmail())).statusCode).toBe(200)
  })

  it('counts every attempt, not only the accounts made: tries at a taken e-mail use up the allowance', async () => {
    const taken = unknownEmail()
    expect((await registerFrom(freshIp(), taken)).statusCode).toBe(200)
    const prober = freshIp()
    for (let i = 0; i < 3; i++) expect((await registerFrom(prober, taken)).statusCode).toBe(409)

    const probe = await registerFrom(prober, taken)
    const fresh = await registerFrom(prober, unknownEmail())

    expectTooMany(probe, SIGNUP_WINDOW) // the answer no longer tells whether the e-mail is taken
    expectTooMany(fresh, SIGNUP_WINDOW)
  })
})

describe('RATE_LIMITS=off', () => {
  let open: TestApp
  beforeAll(async () => {
    open = await startApp({ ...LIMITS, SIGNUPS_PER_ADDRESS: '1', RATE_LIMITS: 'off' })
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

  it('never answers 429 to sign-ups: 3 from one address, over SIGNUPS_PER_ADDRESS=1', async () => {
    const made = []
    for (let i = 0; i < 3; i++) made.push(await signUp(open.app, `farmed${i}`))

    expect(made).toHaveLength(3)
  })
})

describe('what one account may do per hour: inquiries, transfers, waiting list, door staff changes, seat maps saved, tokens and webhooks added, sale rooms changed', () => {
  let hourly: TestApp
  beforeAll(async () => {
    hourly = await startApp({
      INQUIRIES_PER_HOUR: '2',
      TRANSFERS_PER_HOUR: '2',
      WAITLIST_CHANGES_PER_HOUR: '2',
      DOOR_STAFF_CHANGES_PER_HOUR: '2',
      SEATMAP_SAVES_PER_HOUR: '2',
      INTEGRATIONS_ADDED_PER_HOUR: '2',
      SALE_ROOM_CHANGES_PER_HOUR: '2',
    })
  })
  afterAll(async () => {
    await hourly?.close()
  })
  const send = (who: Session, method: 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) =>
    hourly.app.inject({ method, url, headers: bearer(who.token), ...(payload ? { payload } : {}) })
  /** the 429 of an hourly allowance: the action named, the wait, Retry-After within the hour */
  const expectHourly = (res: Reply, what: string) => {
    expect(res.statusCode, res.body).toBe(429)
    expect(res.json().message).toMatch(
      new RegExp(`^Too many ${what}\\. Please try again in \\d+ minutes?\\.$`),
    )
    expect(Number(res.headers['retry-after'])).toBeLessThanOrEqual(3600)
  }

  it('refuses the third inquiry of an account, storing nothing; another account still asks', async () => {
    const [asker, other] = [await signUp(hourly.app, 'Asker'), await signUp(hourly.app, 'Other')]
    const ask = (who: Session) =>
      send(who, 'POST', '/api/v1/admin/support', { subject: 'Hi', inquiry: 'A question.' })
    expect((await ask(asker)).statusCode).toBe(201)
    expect((await ask(asker)).statusCode).toBe(201)
    const head = await hourly.app.platform.ledger.head()

    const third = await ask(asker)

    expectHourly(third, 'inquiries sent')
    expect(await hourly.app.platform.ledger.head()).toBe(head)
    expect((await ask(other)).statusCode).toBe(201)
  })

  it('refuses the third transfer of an account (a ticket passed back and forth), and the third waiting list change', async () => {
    const app = hourly.app
    const admin = await adminSession(app)
    const organizer = await organizerSession(app, 'Hourly')
    const event = await approvedEvent(app, organizer, admin, { title: 'Ping Pong' })
    const [ping, pong] = [await signUp(app, 'Ping'), await signUp(app, 'Pong')]
    const ticket = await buy(app, ping, event, 'VIP', 1)
    const pass = (from: Session, to: Session) =>
      send(from, 'POST', '/api/v1/ticket/transfer', { ticketId: ticket, newAttendeeEmail: to.email })
    for (const [from, to] of [
      [ping, pong],
      [pong, ping],
      [ping, pong],
      [pong, ping],
    ] as const)
      expect((await pass(from, to)).statusCode).toBe(200)

    expectHourly(await pass(ping, pong), 'tickets transferred')
    // joining while seats are on sale is refused (409), and counts as a change all the same
    const join = () =>
      send(ping, 'POST', `/api/v1/event/${event._id}/waitlist`, { ticketType: 'VIP', quantity: 1 })
    expect((await join()).statusCode).toBe(409)
    expect((await join()).statusCode).toBe(409)
    expectHourly(await join(), 'waiting list changes')
  })

  it('refuses the third seat map an organizer saves (each keeps its whole plan on the event), appending nothing', async () => {
    const app = hourly.app
    const admin = await adminSession(app)
    const [drafter, other] = [
      await organizerSession(app, 'Drafter'),
      await organizerSession(app, 'OtherHall'),
    ]
    const [event, another] = [
      await approvedEvent(app, drafter, admin, { title: 'Redrawn Hall' }),
      await approvedEvent(app, other, admin, { title: 'Other Hall' }),
    ]
    const save = (who: Session, on: { _id: string }, seats: number) =>
      send(who, 'PUT', `/api/v1/event/${on._id}/seatmap`, {
        sections: [
          {
            name: 'Stalls',
            ticketType: 'VIP',
            rows: [{ label: 'A', seats: Array.from({ length: seats }, (_, i) => ({ number: i + 1 })) }],
          },
        ],
      })
    expect((await save(drafter, event, 4)).statusCode).toBe(200)
    expect((await save(drafter, event, 5)).statusCode).toBe(200)
    const head = await app.platform.ledger.head()

    expectHourly(await save(drafter, event, 6), 'seat maps saved')
    expect(await app.platform.ledger.head()).toBe(head)
    expect((await save(other, another, 4)).statusCode).toBe(200)
    // both refused before the body is read: not the other's event, and past the allowance (a body
    // that is not even JSON would be a 400 once read)
    const garbled = (who: Session, on: { _id: string }) =>
      app.inject({
        method: 'PUT',
        url: `/api/v1/event/${on._id}/seatmap`,
        headers: { ...bearer(who.token), 'content-type': 'application/json' },
        payload: '{"sections": [',
      })
    expect((await garbled(other, event)).statusCode).toBe(403)
    expectHourly(await garbled(drafter, event), 'seat maps saved')
    expect((await garbled(other, another)).statusCode).toBe(400)
  })

  it('refuses the third API token an account makes and the third webhook an organizer adds, never a revocation', async () => {
    const app = hourly.app
    const [maker, other] = [await organizerSession(app, 'Maker'), await organizerSession(app, 'Maker2')]
    const make = (who: Session) =>
      send(who, 'POST', '/api/v1/account/tokens', { name: 'CI', scopes: ['events:read'] })
    const first = await make(maker)
    expect(first.statusCode, first.body).toBe(201)
    expect((await send(maker, 'DELETE', `/api/v1/account/tokens/${first.json().id}`)).statusCode).toBe(200)
    const second = await make(maker)
    expect(second.statusCode).toBe(201)
    const head = await app.platform.ledger.head()
    expectHourly(await make(maker), 'API tokens and webhooks added')
    expect(await app.platform.ledger.head()).toBe(head)
    // revoking is never refused
    expect((await send(maker, 'DELETE', `/api/v1/account/tokens/${second.json().id}`)).statusCode).toBe(200)
    expect((await make(other)).statusCode).toBe(201)
    // endpoints count with the tokens
    const hook = (who: Session) =>
      send(who, 'POST', '/api/v1/organizer/webhooks', {
        url: 'https://example.com/hook',
        events: ['order.paid'],
      })
    expect((await hook(other)).statusCode).toBe(201)
    expectHourly(await hook(other), 'API tokens and webhooks added')
  })

  it('refuses the third change of an organizer to a sale time or its waiting room; an admin stepping in is not counted', async () => {
    const app = hourly.app
    const admin = await adminSession(app)
    const organizer = await organizerSession(app, 'Roomy')
    const event = await approvedEvent(app, organizer, admin, { title: 'Big On-sale' })
    const opensAt = new Date(Date.now() + 3_600_000).toISOString()
    const onsale = () =>
      send(organizer, 'PUT', `/api/v1/event/${event._id}/onsale`, { opensAt, waitingRoom: true })
    expect((await onsale()).statusCode).toBe(200)
    expect((await send(organizer, 'POST', `/api/v1/event/${event._id}/queue/pause`)).statusCode).toBe(200)
    const head = await app.platform.ledger.head()
    expectHourly(
      await send(organizer, 'POST', `/api/v1/event/${event._id}/queue/resume`),
      'changes to sales and waiting rooms',
    )
    expectHourly(await onsale(), 'changes to sales and waiting rooms')
    expect(await app.platform.ledger.head()).toBe(head)
    for (let i = 0; i < 3; i++) {
      const step = i % 2 === 0 ? 'resume' : 'pause'
      expect((await send(admin, 'POST', `/api/v1/event/${event._id}/queue/${step}`)).statusCode).toBe(200)
    }
  })

  it('refuses the third door staff change of an organizer (each invitation is a mail), mailing nothing more', async () => {
    const app = hourly.app
    const admin = await adminSession(app)
    const organizer = await organizerSession(app, 'Inviter')
    const event = await approvedEvent(app, organizer, admin, { title: 'Many Doors' })
    const invite = () =>
      send(organizer, 'POST', `/api/v1/checkin/${event._id}/door-staff`, {
        email: `victim-${Date.now()}@example.com`,
      })
    expect((await invite()).statusCode).toBe(202)
    expect((await invite()).statusCode).toBe(202)
    const head = await app.platform.ledger.head()

    expectHourly(await invite(), 'door staff changes')
    expect(await app.platform.ledger.head()).toBe(head)
  })
})
