// API tokens (issue 43) on the real app and store (both, by the suite's projects): an organizer
// makes a named token with scopes, bound to some events or all, with an expiry; the secret is given
// once and only its hash is kept; the token works as a Bearer on the organizer's own API within its
// scopes and events, and nowhere else (no account settings, no admin, no tokens of its own);
// revoking it refuses it at once; the list shows last use and address; calls are limited per token.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  MAX_TOKENS,
  TOKEN_INVALID,
  TOKEN_NOT_HERE,
  TOKEN_OTHER_EVENT,
  TOKEN_SOME_EVENTS,
  TOO_MANY_TOKENS,
  tokenLacksScope,
} from '../../contracts/tokens.ts'
import { adminSession, bearer, organizerSession, type Session, signUp } from '../support/accounts.ts'
import { dbRows, rebuildStore } from '../support/db.ts'
import { approvedEvent, get } from '../support/sales.ts'
import { startServer, type TestServer } from '../support/server.ts'

let server: TestServer
const app = () => server.app
let admin: Session
let organizer: Session

beforeAll(async () => {
  server = await startServer({ RATE_LIMITS: 'off', LOG_LEVEL: 'error' })
  admin = await adminSession(app())
  organizer = await organizerSession(app(), 'TokenMaker')
}, 60_000)

afterAll(async () => {
  await server?.close()
})

const make = (who: Session, body: Record<string, unknown>, on = app()) =>
  on.inject({ method: 'POST', url: '/api/v1/account/tokens', headers: bearer(who.token), payload: body })

const withToken = (
  token: string,
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  url: string,
  payload?: unknown,
  on = app(),
) =>
  on.inject({ method, url, headers: { authorization: `Bearer ${token}` }, ...(payload ? { payload } : {}) })

describe('POST, GET and DELETE /account/tokens', () => {
  it('makes a token whose secret is shown once and kept only as a hash', async () => {
    const res = await make(organizer, { name: 'CRM sync', scopes: ['events:read', 'orders:read'] })
    expect(res.statusCode, res.body).toBe(201)
    const made = res.json()
    expect(made).toMatchObject({
      name: 'CRM sync',
      scopes: ['events:read', 'orders:read'],
      eventIds: null,
      expiresAt: null,
    })
    expect(made.token).toMatch(/^tkt_[a-f0-9]{24}_[A-Za-z0-9_-]{43}$/)
    const secret = made.token.split('_').slice(2).join('_')
    const ledger = await dbRows(app(), 'SELECT data FROM ledger')
    expect(ledger.some((row) => String(row.data).includes(secret))).toBe(false)
    const stored = await dbRows(app(), `SELECT * FROM api_tokens WHERE id = '${made.id}'`)
    expect(JSON.stringify(stored)).not.toContain(secret)
    const list = (await get(app(), '/api/v1/account/tokens', organizer)).json()
    expect(list).toEqual([
      {
        id: made.id,
        name: 'CRM sync',
        scopes: ['events:read', 'orders:read'],
        eventIds: null,
        expiresAt: null,
        lastUsedAt: null,
        lastAddress: null,
      },
    ])
    expect(JSON.stringify(list)).not.toContain(secret)
  })

  it('refuses unknown scopes, a past expiry, someone else’s events, and buyers', async () => {
    expect((await make(organizer, { name: 'x', scopes: ['admin:all'] })).statusCode).toBe(400)
    expect((await make(organizer, { name: 'x', scopes: [] })).statusCode).toBe(400)
    const past = await make(organizer, {
      name: 'x',
      scopes: ['events:read'],
      expiresAt: '2020-01-01T00:00:00Z',
    })
    expect([past.statusCode, past.json().message]).toEqual([400, 'Expires at must be in the future.'])
    const noInstant = await make(organizer, {
      name: 'x',
      scopes: ['events:read'],
      expiresAt: '2030-01-01T10:00:00+05',
    })
    expect([noInstant.statusCode, noInstant.json().message]).toEqual([
      400,
      'Expires at must be an ISO date and time (2027-01-31T00:00:00Z).',
    ])
    // a day the calendar has not is refused, not kept as the day Date rolls it into (2 March)
    const noSuchDay = await make(organizer, {
      name: 'x',
      scopes: ['events:read'],
      expiresAt: '2030-02-30T00:00:00Z',
    })
    expect([noSuchDay.statusCode, noSuchDay.json().message]).toEqual([
      400,
      'Expires at must be an ISO date and time (2027-01-31T00:00:00Z).',
    ])
    const other = await organizerSession(app(), 'OtherOrg')
    const theirs = await approvedEvent(app(), other, admin)
    const bound = await make(organizer, { name: 'x', scopes: ['events:read'], eventIds: [theirs._id] })
    expect([bound.statusCode, bound.json().message]).toEqual([
      400,
      `Event ${theirs._id} is not one of yours.`,
    ])
    expect((await make(await signUp(app()), { name: 'x', scopes: ['events:read'] })).statusCode).toBe(403)
  })

  it('keeps an account to MAX_TOKENS live tokens: a revoked one makes room', async () => {
    const holder = await organizerSession(app(), 'Hoarder')
    const tries = await Promise.all(
      Array.from({ length: MAX_TOKENS + 2 }, (_, i) =>
        make(holder, { name: `t${i}`, scopes: ['events:read'] }),
      ),
    )
    expect(tries.filter((r) => r.statusCode === 201)).toHaveLength(MAX_TOKENS)
    for (const refused of tries.filter((r) => r.statusCode !== 201))
      expect([refused.statusCode, refused.json().message]).toEqual([409, TOO_MANY_TOKENS])
    const made = tries.find((r) => r.statusCode === 201)?.json() as { id: string }
    const revoked = await app().inject({
      method: 'DELETE',
      url: `/api/v1/account/tokens/${made.id}`,
      headers: bearer(holder.token),
    })
    expect(revoked.statusCode).toBe(200)
    expect((await make(holder, { name: 'again', scopes: ['events:read'] })).statusCode).toBe(201)
    expect((await make(holder, { name: 'one more', scopes: ['events:read'] })).statusCode).toBe(409)
  })
})

describe('a token on the API', () => {
  it('works within its scopes on the organizer’s own API, and nowhere else', async () => {
    const event = await approvedEvent(app(), organizer, admin, { title: 'Token Night' })
    const { token } = (
      await make(organizer, { name: 'reader', scopes: ['events:read', 'attendees:read'] })
    ).json()
    const mine = await withToken(token, 'GET', '/api/v1/ticket/getorgid')
    expect(mine.statusCode, mine.body).toBe(200)
    expect(mine.json().map((e: { _id: string }) => e._id)).toContain(event._id)
    expect((await withToken(token, 'GET', '/api/v1/organizers/attendees')).statusCode).toBe(200)
    // a scope it lacks
    const write = await withToken(token, 'PUT', `/api/v1/event/${event._id}`, { title: 'Renamed' })
    expect([write.statusCode, write.json().message]).toEqual([403, tokenLacksScope('events:write')])
    // no account settings, tokens, admin or billing profile with a token
    for (const [method, url] of [
      ['GET', '/api/v1/auth/profile'],
      ['GET', '/api/v1/account/tokens'],
      ['POST', '/api/v1/account/tokens'],
      ['GET', '/api/v1/organizer/billing'],
      ['GET', '/api/v1/admin/getalluser'],
    ] as const) {
      const res = await withToken(
        token,
        method,
        url,
        method === 'POST' ? { name: 'y', scopes: ['events:read'] } : undefined,
      )
      expect([url, res.statusCode, res.json().message]).toEqual([url, 403, TOKEN_NOT_HERE])
    }
    // a garbled or unknown token is refused, as is one of the right shape with a wrong secret
    expect((await withToken('tkt_nope', 'GET', '/api/v1/ticket/getorgid')).json().message).toBe(TOKEN_INVALID)
    const forged = `${token.slice(0, 29)}${'A'.repeat(43)}`
    expect((await withToken(forged, 'GET', '/api/v1/ticket/getorgid')).statusCode).toBe(401)
    // on a public route it is only a visitor's request
    expect((await withToken(token, 'GET', '/api/v1/event')).statusCode).toBe(200)
  })

  it('bound to some events: those only, and no question about all events', async () => {
    const [one, two] = [
      await approvedEvent(app(), organizer, admin, { title: 'Bound One' }),
      await approvedEvent(app(), organizer, admin, { title: 'Bound Two' }),
    ]
    const { token } = (
      await make(organizer, {
        name: 'door app',
        scopes: ['checkin:write', 'events:write'],
        eventIds: [one._id],
      })
    ).json()
    const manifest = await withToken(token, 'GET', `/api/v1/checkin/${one._id}/manifest`)
    expect(manifest.statusCode, manifest.body).toBe(200)
    const other = await withToken(token, 'GET', `/api/v1/checkin/${two._id}/manifest`)
    expect([other.statusCode, other.json().message]).toEqual([403, TOKEN_OTHER_EVENT])
    const edited = await withToken(token, 'PUT', `/api/v1/event/${one._id}`, { title: 'Bound One, renamed' })
    expect(edited.statusCode, edited.body).toBe(200)
    const create = await withToken(token, 'POST', '/api/v1/event/create')
    expect([create.statusCode, create.json().message]).toEqual([403, TOKEN_SOME_EVENTS])
    // its event's waiting room: set, paused and resumed as the organizer would
    const opensAt = new Date(Date.now() + 3_600_000).toISOString()
    const room = await withToken(token, 'PUT', `/api/v1/event/${one._id}/onsale`, {
      opensAt,
      waitingRoom: true,
    })
    expect(room.statusCode, room.body).toBe(200)
    for (const step of ['pause', 'resume']) {
      const moved = await withToken(token, 'POST', `/api/v1/event/${one._id}/queue/${step}`)
      expect([step, moved.statusCode], moved.body).toEqual([step, 200])
    }
    const elsewhere = await withToken(token, 'POST', `/api/v1/event/${two._id}/queue/pause`)
    expect([elsewhere.statusCode, elsewhere.json().message]).toEqual([403, TOKEN_OTHER_EVENT])
  })

  it('is refused at once when revoked, or once expired; the list shows its last use', async () => {
    const made = (await make(organizer, { name: 'short', scopes: ['events:read'] })).json()
    expect((await withToken(made.token, 'GET', '/api/v1/ticket/getorgid')).statusCode).toBe(200)
    const listed = (await get(app(), '/api/v1/account/tokens', organizer)).json()
    const mine = listed.find((t: { id: string }) => t.id === made.id)
    expect(mine.lastUsedAt).not.toBeNull()
    expect(mine.lastAddress).toBe('127.0.0.1')
    // another organizer cannot revoke it
    const stranger = await organizerSession(app(), 'Stranger')
    const theirs = await app().inject({
      method: 'DELETE',
      url: `/api/v1/account/tokens/${made.id}`,
      headers: bearer(stranger.token),
    })
    expect(theirs.statusCode).toBe(404)
    const revoked = await app().inject({
      method: 'DELETE',
      url: `/api/v1/account/tokens/${made.id}`,
      headers: bearer(organizer.token),
    })
    expect([revoked.statusCode, revoked.json().message]).toEqual([200, 'Token revoked.'])
    const after = await withToken(made.token, 'GET', '/api/v1/ticket/getorgid')
    expect([after.statusCode, after.json().message]).toEqual([401, TOKEN_INVALID])
    expect(
      (await get(app(), '/api/v1/account/tokens', organizer)).json().map((t: { id: string }) => t.id),
    ).not.toContain(made.id)
    const again = await app().inject({
      method: 'DELETE',
      url: `/api/v1/account/tokens/${made.id}`,
      headers: bearer(organizer.token),
    })
    expect(again.statusCode).toBe(404)
    // an expired token
    const soon = (
      await make(organizer, {
        name: 'soon',
        scopes: ['events:read'],
        expiresAt: new Date(Date.now() + 1500).toISOString(),
      })
    ).json()
    expect((await withToken(soon.token, 'GET', '/api/v1/ticket/getorgid')).statusCode).toBe(200)
    await new Promise((r) => setTimeout(r, 1600))
    expect((await withToken(soon.token, 'GET', '/api/v1/ticket/getorgid')).statusCode).toBe(401)
  })

  it('keeps the tokens as a rebuild from the ledger makes them', async () => {
    const read = () => dbRows(app(), 'SELECT * FROM api_tokens ORDER BY id')
    const before = await read()
    expect(before.length).toBeGreaterThan(2)
    await rebuildStore(app())
    expect(await read()).toEqual(before)
  })
})

describe('a token’s calls', () => {
  let limited: TestServer
  beforeAll(async () => {
    limited = await startServer({ LOG_LEVEL: 'error', TOKEN_REQUESTS_PER_MINUTE: '5' })
  }, 60_000)
  afterAll(async () => {
    await limited?.close()
  })

  it('are limited per token: past its allowance a 429 with Retry-After; another token goes on', async () => {
    const org = await organizerSession(limited.app, 'Limited')
    const first = (await make(org, { name: 'a', scopes: ['events:read'] }, limited.app)).json().token
    const second = (await make(org, { name: 'b', scopes: ['events:read'] }, limited.app)).json().token
    const statuses = []
    for (let i = 0; i < 7; i++)
      statuses.push(
        (await withToken(first, 'GET', '/api/v1/ticket/getorgid', undefined, limited.app)).statusCode,
      )
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429, 429])
    const refused = await withToken(first, 'GET', '/api/v1/ticket/getorgid', undefined, limited.app)
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0)
    expect(refused.json().message).toMatch(/^Too many requests with this API token: at most 5 a minute/)
    expect(
      (await withToken(second, 'GET', '/api/v1/ticket/getorgid', undefined, limited.app)).statusCode,
    ).toBe(200)
  })
})
