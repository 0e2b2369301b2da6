// Accounts, support and schedule on both stores (issue 15): real flows through the app on SQLite
// make a ledger; every fact of it is copied into PostgreSQL with these areas' PostgreSQL
// projections; then every table of the three areas must hold the same rows, and every query of
// theirs must answer the same on both stores, found or not, in the same order.
import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import type { EventView } from '../../contracts/catalog.ts'
import { accountsProjection } from '../../server/accounts/project.ts'
import { accountQueries } from '../../server/accounts/queries.ts'
import { openPostgres, type PgConnection } from '../../server/db/pg-connection.ts'
import { pgSql, poolQueryable, sqliteSql } from '../../server/db/sql.ts'
import { promised } from '../../server/db/store.ts'
import { PgLedger } from '../../server/ledger/pg-ledger.ts'
import { onPostgres } from '../../server/ledger/read-projection.ts'
import { scheduleProjection } from '../../server/schedule/project.ts'
import { scheduleQueries } from '../../server/schedule/queries.ts'
import { supportProjection } from '../../server/support/project.ts'
import { supportQueries } from '../../server/support/queries.ts'
import { upcasters } from '../../server/upcasters.ts'
import { adminSession, login, organizerSession, type Session, signUp } from '../support/accounts.ts'
import { startApp, type TestApp } from '../support/app.ts'
import { sqliteLedger, sqliteOf } from '../support/db.ts'
import { waitForMail } from '../support/outbox.ts'
import { freshDatabase, type TestDatabase } from '../support/postgres.ts'
import { approvedEvent, post, submitEvent } from '../support/sales.ts'
import { allFacts, pgRows, sqliteRows } from '../support/stores.ts'

const tables = ['accounts', 'password_reset_links', 'inquiries', 'sessions'] as const

let sqliteSide: TestApp
let database: TestDatabase
let pgSide: PgConnection
let app: FastifyInstance

/** The raw token of the reset link mailed to `email` (the link's text), other than `except`. */
async function resetToken(email: string, except: string[] = []): Promise<string> {
  const res = await post(app, '/api/v1/auth/forgotpassword', null, { email })
  expect(res.statusCode, res.body).toBe(200)
  const mail = await waitForMail(
    app.platform.config.outboxDir,
    (m) => m.to.includes(email) && !except.some((old) => m.text.includes(old)),
  )
  const token = /\/reset-password\/([A-Za-z0-9_-]+)/.exec(mail.text)?.[1]
  if (!token) throw new Error(`no reset link in ${mail.text}`)
  return token
}

async function ask(asker: Session, subject: string): Promise<string> {
  const res = await post(app, '/api/v1/admin/support', asker, { subject, inquiry: `About ${subject}` })
  expect(res.statusCode, res.body).toBe(201)
  return res.json().inquiry._id as string
}

async function answer(admin: Session, inquiryId: string, reply: string) {
  const res = await post(app, '/api/v1/admin/support/reply', admin, { inquiryId, reply })
  expect(res.statusCode, res.body).toBe(200)
}

async function schedule(
  organizer: Session,
  event: EventView,
  title: string,
  startTime: string,
  endTime: string,
) {
  const res = await post(app, '/api/v1/schedule', organizer, {
    eventId: event._id,
    sessionTitle: title,
    description: `${title}, in detail`,
    startTime,
    endTime,
    speakers: [
      { name: 'Asha Rao', bio: 'Plays the veena "since 1999"' },
      { name: 'Ravi ₹ Kumar', bio: 'Tabla; \\ and / in his bio' },
    ],
    location: 'Hall B',
  })
  expect(res.statusCode, res.body).toBe(201)
  return res.json()._id as string
}

/** Facts made by the app at one frozen instant: rows that tie in time, ordered by arrival. */
async function atOneInstant<T>(run: () => Promise<T>): Promise<T> {
  vi.useFakeTimers({ toFake: ['Date'], now: Date.now() })
  try {
    return await run()
  } finally {
    vi.useRealTimers()
  }
}

beforeAll(async () => {
  sqliteSide = await startApp({ RATE_LIMITS: 'off' })
  app = sqliteSide.app
  const admin = await adminSession(app)
  const [asha, ravi, meera] = [
    await signUp(app, 'Asha'),
    await signUp(app, 'Ravi'),
    await signUp(app, 'Meera'),
  ]
  const shouting = await post(app, '/api/v1/auth/register', null, {
    username: 'Loud',
    email: `  Loud.Person-${Date.now()}@Example.COM `,
    password: 'password-1',
    phone: '+91 98450 12345',
  })
  expect(shouting.statusCode, shouting.body).toBe(200)
  const [org1, org2] = [await organizerSession(app, 'kabini'), await organizerSession(app, 'raga')]

  // Reset links: Asha asks twice (the second replaces the first) and resets with the second; Ravi
  // asks and leaves his link unused; Meera asks, resets, and asks again.
  const first = await resetToken(asha.email)
  const second = await resetToken(asha.email, [first])
  const reset = await post(app, `/api/v1/auth/reset-password/${second}`, null, { password: 'new-password-2' })
  expect(reset.statusCode, reset.body).toBe(200)
  // a new password ends the sessions signed in with the old one
  asha.token = await login(app, asha.email, 'new-password-2')
  await resetToken(ravi.email)
  const meeras = await resetToken(meera.email)
  expect(
    (await post(app, `/api/v1/auth/reset-password/${meeras}`, null, { password: 'p-3-meera' })).statusCode,
  ).toBe(200)
  meera.token = await login(app, meera.email, 'p-3-meera')
  await resetToken(meera.email, [meeras])

  // Inquiries: some answered, some pending, three opened at one instant (ties in time).
  const asked = [await ask(asha, 'Refunds'), await ask(ravi, 'Parking'), await ask(asha, 'Seats')]
  const together = await atOneInstant(async () => [
    await ask(meera, 'Same instant 1'),
    await ask(ravi, 'Same instant 2'),
    await ask(meera, 'Same instant 3'),
  ])
  await answer(admin, asked[0] as string, 'Refunds take five days.')
  await answer(admin, together[1] as string, 'Parking is free.')
  await ask(asha, 'After the answers')

  // Sessions on three events (one still pending), with start times that tie within an event and
  // across events, written in several of the formats the API accepts (stored as written).
  const kabini = await approvedEvent(app, org1, admin, { title: 'Kabini Jazz' })
  const raga = await approvedEvent(app, org2, admin, { title: 'Raga Nights' })
  const pending = await submitEvent(app, org1, { title: 'Not yet approved' })
  await schedule(org1, kabini, 'Opening', '2030-03-15T10:00', '2030-03-15T11:00')
  await schedule(org1, kabini, 'Parallel A', '2030-03-15T12:00', '2030-03-15T13:00')
  await schedule(org2, raga, 'Tie across events', '2030-03-15T12:00', '2030-03-15T12:30')
  await schedule(org1, kabini, 'Parallel B', '2030-03-15T12:00', '2030-03-15T12:45')
  await schedule(org1, kabini, 'In UTC', '2030-03-15T08:00:00.000Z', '2030-03-15T09:00:00.000Z')
  await schedule(org2, raga, 'With an offset', '2030-03-15T09:30+05:30', '2030-03-15T10:30+05:30')
  await schedule(org1, pending, 'On a pending event', '2030-04-01T18:00', '2030-04-01T19:00')
  const notice = await post(app, '/api/v1/notify', org1, {
    eventId: kabini._id,
    startTime: '2030-03-15T10:15',
    endTime: '2030-03-15T11:15',
  })
  expect(notice.statusCode, notice.body).toBe(202)

  database = await freshDatabase()
  pgSide = await openPostgres(database.url, 4)
  const ledger = new PgLedger(
    pgSide.pool,
    [onPostgres(accountsProjection), onPostgres(supportProjection), onPostgres(scheduleProjection)],
    undefined,
    upcasters,
  )
  await ledger.copyIn(allFacts(sqliteLedger(app)))
}, 120_000)

afterAll(async () => {
  await pgSide?.close()
  await database?.drop()
  await sqliteSide?.close()
})

describe('the corpus', () => {
  it('has every fact type of the three areas, and ties in time to order by arrival', async () => {
    const types = new Set(allFacts(sqliteLedger(app)).map((f) => f.type))
    for (const type of [
      'AccountRegistered',
      'PasswordResetRequested',
      'PasswordReset',
      'InquiryOpened',
      'InquiryAnswered',
      'SessionScheduled',
      'ScheduleNoticePosted',
    ]) {
      expect(types, type).toContain(type)
    }
    const times = (await promised(supportQueries(sqliteSql(sqliteLedger(app).db.$client))).all()).map(
      (i) => i.createdAt,
    )
    expect(new Set(times).size).toBeLessThan(times.length)
  })
})

describe.each(tables)('the %s table', (table) => {
  it('holds the same rows on both stores', async () => {
    const expected = sqliteRows(sqliteOf(app), table)
    expect(expected.length).toBeGreaterThan(0)
    expect(await pgRows(pgSide.pool, table)).toEqual(expected)
  })
})

/** Each call's answer from SQLite, and from PostgreSQL, side by side. */
async function both<A extends unknown[], R>(
  sqlite: (...args: A) => R | Promise<R>,
  pg: (...args: A) => Promise<R>,
  argsList: A[],
): Promise<{ sqlite: R[]; pg: R[] }> {
  return {
    sqlite: await Promise.all(argsList.map((args) => sqlite(...args))),
    pg: await Promise.all(argsList.map((args) => pg(...args))),
  }
}

const column = (table: string, name: string) =>
  (sqliteOf(app).prepare(`SELECT ${name} AS v FROM ${table}`).all() as Array<{ v: string }>).map((r) => r.v)

describe('the accounts queries', () => {
  // one set of queries, on each store
  const stores = () => ({
    s: promised(accountQueries(sqliteSql(sqliteLedger(app).db.$client))),
    p: promised(accountQueries(pgSql(poolQueryable(pgSide.pool)))),
  })

  it('byId: every account, and one that does not exist', async () => {
    const { s, p } = stores()
    const args = [...column('accounts', 'id'), 'ffffffffffffffffffffffff', ''].map((id) => [id] as [string])
    const answers = await both(s.byId, p.byId, args)
    expect(answers.sqlite.filter(Boolean)).toHaveLength(args.length - 2)
    expect(answers.pg).toEqual(answers.sqlite)
  })

  it('byEmail: every e-mail as stored and shouted, and one unknown', async () => {
    const { s, p } = stores()
    const emails = column('accounts', 'email')
    const args = [...emails, ...emails.map((e) => e.toUpperCase()), 'nobody@example.com'].map(
      (e) => [e] as [string],
    )
    const answers = await both(s.byEmail, p.byEmail, args)
    expect(answers.sqlite.filter(Boolean)).toHaveLength(emails.length * 2)
    expect(answers.pg).toEqual(answers.sqlite)
  })

  it('byIds: none, some, all, with unknown and repeated ids', async () => {
    const { s, p } = stores()
    const ids = column('accounts', 'id')
    const args = [
      [],
      [ids[2] as string],
      ids,
      [...ids].reverse(),
      [ids[0] as string, 'missing', ids[0] as string],
    ].map((list) => [list] as [string[]])
    const answers = await both(s.byIds, p.byIds, args)
    // by id, each once: the order SQLite's plan read them in by its key, now spelled out
    expect(answers.pg).toEqual(answers.sqlite)
    answers.sqlite.forEach((found, i) => {
      const known = (args[i]?.[0] ?? []).filter((id) => ids.includes(id))
      expect(found.map((a) => a.id)).toEqual([...new Set(known)].sort())
    })
    expect(answers.sqlite[2]).toHaveLength(ids.length)
  })

  it('all: every account, oldest first', async () => {
    const { s, p } = stores()
    expect(await p.all()).toEqual(await s.all())
  })

  it('resetLinkOwner: every live link, a used or replaced one, and none', async () => {
    const { s, p } = stores()
    const live = column('password_reset_links', 'token_hash')
    const gone = allFacts(sqliteLedger(app))
      .filter((f) => f.type === 'PasswordResetRequested')
      .map((f) => (f.data as { tokenHash: string }).tokenHash)
      .filter((hash) => !live.includes(hash))
    expect(gone.length).toBeGreaterThan(0)
    const args = [...live, ...gone, 'no-such-hash'].map((h) => [h] as [string])
    const answers = await both(s.resetLinkOwner, p.resetLinkOwner, args)
    expect(answers.sqlite.filter(Boolean)).toHaveLength(live.length)
    expect(answers.pg).toEqual(answers.sqlite)
  })
})

describe('the support queries', () => {
  // one set of queries, on each store
  const stores = () => ({
    s: promised(supportQueries(sqliteSql(sqliteLedger(app).db.$client))),
    p: promised(supportQueries(pgSql(poolQueryable(pgSide.pool)))),
  })

  it('all: newest first, ties in time by arrival', async () => {
    const { s, p } = stores()
    const all = await s.all()
    expect(await p.all()).toEqual(all)
    // arrival is the order SQLite's rowid keeps
    const byRowid = sqliteOf(app)
      .prepare('SELECT id FROM inquiries ORDER BY created_at DESC, rowid DESC')
      .all()
    expect(all.map((i) => ({ id: i.id }))).toEqual(byRowid)
  })

  it('page and count: every page of every size, and past the end', async () => {
    const { s, p } = stores()
    const n = column('inquiries', 'id').length
    expect(await s.count()).toBe(n)
    expect(await p.count()).toBe(n)
    const args: Array<[number, number]> = []
    for (const size of [1, 2, 3, n]) for (let from = 0; from <= n; from += size) args.push([size, from])
    const answers = await both(s.page, p.page, args)
    expect(answers.pg).toEqual(answers.sqlite)
    const all = await s.all()
    expect(answers.sqlite.filter((_, i) => args[i]?.[0] === 1).flat()).toEqual(all)
  })

  it('ofUser: every asker, someone who never asked, and no one', async () => {
    const { s, p } = stores()
    const args = [...new Set([...column('inquiries', 'user_id'), ...column('accounts', 'id')]), 'nobody'].map(
      (id) => [id] as [string],
    )
    const answers = await both(s.ofUser, p.ofUser, args)
    expect(answers.pg).toEqual(answers.sqlite)
  })

  it('byId: every inquiry, and one that does not exist', async () => {
    const { s, p } = stores()
    const args = [...column('inquiries', 'id'), 'nope'].map((id) => [id] as [string])
    const answers = await both(s.byId, p.byId, args)
    expect(answers.sqlite.at(-1)).toBeUndefined()
    expect(answers.pg).toEqual(answers.sqlite)
  })
})

describe('the schedule queries', () => {
  // one set of queries, on each store
  const stores = () => ({
    s: promised(scheduleQueries(sqliteSql(sqliteLedger(app).db.$client))),
    p: promised(scheduleQueries(pgSql(poolQueryable(pgSide.pool)))),
  })

  it('ofEvents: none, each event, all in any order, with events that have no sessions', async () => {
    const { s, p } = stores()
    const events = [...new Set(column('sessions', 'event_id'))]
    const args = [
      [],
      ...events.map((e) => [e]),
      events,
      [...events].reverse(),
      [...events, 'no-such-event', events[0] as string],
      ['no-such-event'],
    ].map((list) => [list] as [string[]])
    const answers = await both(s.ofEvents, p.ofEvents, args)
    expect(answers.sqlite[events.length + 1]).toHaveLength(column('sessions', 'id').length)
    expect(answers.pg).toEqual(answers.sqlite)
  })

  it('byId: every session, and one that does not exist', async () => {
    const { s, p } = stores()
    const args = [...column('sessions', 'id'), 'nope'].map((id) => [id] as [string])
    const answers = await both(s.byId, p.byId, args)
    expect(answers.pg).toEqual(answers.sqlite)
  })
})
