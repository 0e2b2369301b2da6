// The door's read models on both stores (issue 16 on issue 15's two stores): a corpus of real facts
// made through the app on SQLite (tickets of several quantities and types, transferred once and
// twice, cancelled, unpaid; scans of every result, double entries over several minutes, an admitted
// ticket then transferred and another then cancelled; door staff added and removed), copied into a
// PostgreSQL ledger with booking's and the door's PostgreSQL projections. Then every door table is
// compared row for row, and every door query answers the same on both for a range of arguments.
// Last, the migrations' backfill of passes (for databases that held tickets before the door
// existed) is held against what the projection folded, on each store.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { EventView, TicketTypeInput } from '../../contracts/catalog.ts'
import type { ScanReply, TicketPass } from '../../contracts/checkin.ts'
import { bookingProjection } from '../../server/booking/project.ts'
import { checkinProjection } from '../../server/checkin/project.ts'
import { checkinQueries } from '../../server/checkin/queries.ts'
import { migrationsFolder, type Sqlite } from '../../server/db/connection.ts'
import { openPostgres, type PgConnection, pgMigrationsFolder } from '../../server/db/pg-connection.ts'
import { pgSql, poolQueryable, sqliteSql } from '../../server/db/sql.ts'
import { promised } from '../../server/db/store.ts'
import type { StoredFact } from '../../server/ledger/ledger.ts'
import { PgLedger } from '../../server/ledger/pg-ledger.ts'
import { onPostgres } from '../../server/ledger/read-projection.ts'
import { rebuildReadModels } from '../../server/ledger/rebuild.ts'
import { pgOrderSummaries } from '../../server/pg-projections.ts'
import { adminSession, organizerSession, type Session, signUp } from '../support/accounts.ts'
import { wallClockIn } from '../support/clock.ts'
import { sqliteLedger, sqliteOf } from '../support/db.ts'
import { freshDatabase, type TestDatabase } from '../support/postgres.ts'
import { approvedEvent, buy, cancel, get, hold, post, transfer, until } from '../support/sales.ts'
import { startServer, type TestServer } from '../support/server.ts'
import { allFacts, pgRows, sqliteRows } from '../support/stores.ts'

const doorTables = ['passes', 'double_entries', 'admissions', 'admissions_by_minute', 'door_invitations']

let server: TestServer
let database: TestDatabase
let postgres: PgConnection
let sqlite: Sqlite
let facts: StoredFact[]
const events: EventView[] = []
const tickets: string[] = []
let people: Session[] = []

const types: TicketTypeInput[] = [
  { type: 'General Admission', price: 499.5, quantity: 500 },
  { type: 'VIP', price: 1500, quantity: 50 },
]

/** an event two hours from now, in the app's zone: its door has been open for 22 hours */
const startingSoon = () => {
  const { date, time } = wallClockIn(server.config.timeZone, 120)
  return { date, time }
}
/** the start of the minute two hours ago: the door's scans happen from then on */
const sceneStart = Math.floor((Date.now() - 2 * 3_600_000) / 60_000) * 60_000
const scene = (minute: number, second: number) =>
  new Date(sceneStart + minute * 60_000 + second * 1000).toISOString()

/** Real sales and a real door through the real app, on SQLite. */
async function sellAndScan(app: FastifyInstance) {
  const admin = await adminSession(app)
  const kabini = await organizerSession(app, 'kabini')
  const hampi = await organizerSession(app, 'hampi')
  const names = ['asha', 'Bala', 'chitra', 'Dev', 'esha', 'Farid', 'gita', 'Hari']
  const buyers: Session[] = []
  for (const name of names) buyers.push(await signUp(app, name))
  const [gate, usher, temp] = [
    await signUp(app, 'gate'),
    await signUp(app, 'usher'),
    await signUp(app, 'temp'),
  ]
  people = [...buyers, gate, usher, temp, kabini, hampi]
  const b = (i: number) => buyers[i] as Session
  events.push(await approvedEvent(app, kabini, admin, { title: 'Kabini Door', ...startingSoon() }, types))
  events.push(await approvedEvent(app, hampi, admin, { title: 'Hampi Door', ...startingSoon() }, types))
  events.push(await approvedEvent(app, kabini, admin, { title: 'Kabini Quiet', ...startingSoon() }, types))
  const [k, h] = events as [EventView, EventView, EventView]
  const invite = async (as: Session, event: EventView, email: string) =>
    expect((await post(app, `/api/v1/checkin/${event._id}/door-staff`, as, { email })).statusCode).toBe(202)
  const invitationOf = async (who: Session, event: EventView) =>
    (
      (await get(app, '/api/v1/checkin/invitations', who)).json() as Array<{ _id: string; eventId: string }>
    ).find((i) => i.eventId === event._id)?._id ?? ''
  const staff = async (as: Session, event: EventView, who: Session) => {
    await invite(as, event, who.email)
    const accepted = await post(
      app,
      `/api/v1/checkin/invitations/${await invitationOf(who, event)}/accept`,
      who,
    )
    expect(accepted.statusCode, accepted.body).toBe(200)
  }
  await staff(kabini, k, gate)
  await staff(kabini, k, temp)
  await staff(hampi, h, usher)
  await staff(admin, h, temp)
  // invited and not (yet) accepted: an account, an address with none, one sent twice
  await invite(kabini, k, usher.email)
  await invite(kabini, k, 'nobody-yet@example.com')
  await invite(kabini, k, 'nobody-yet@example.com')
  // one withdrawn, one declined
  await invite(hampi, h, 'withdrawn@example.com')
  const listed = (await get(app, `/api/v1/checkin/${h._id}/door-staff`, hampi)).json() as Array<{
    _id: string
    email: string
  }>
  const withdrawn = listed.find((i) => i.email === 'withdrawn@example.com')?._id
  const removals = [
    { url: `/api/v1/checkin/${h._id}/door-staff/${withdrawn}`, as: hampi },
    { url: `/api/v1/checkin/${k._id}/door-staff/${await invitationOf(temp, k)}`, as: kabini },
  ]
  await invite(hampi, h, gate.email)
  removals.push({ url: `/api/v1/checkin/invitations/${await invitationOf(gate, h)}`, as: gate })
  for (const { url, as } of removals) {
    const removed = await app.inject({
      method: 'DELETE',
      url,
      headers: { authorization: `Bearer ${as.token}` },
    })
    expect(removed.statusCode, removed.body).toBe(200)
  }

  for (let i = 0; i < buyers.length; i++) {
    tickets.push(await buy(app, b(i), i % 3 === 2 ? h : k, i % 2 ? 'VIP' : 'General Admission', (i % 4) + 1))
  }
  // unpaid: no passes
  await hold(app, b(0), k, 'VIP', 2)
  const passesOf = async (ticket: string, owner: Session) =>
    (await get(app, `/api/v1/ticket/${ticket}/passes`, owner)).json() as TicketPass[]
  const code = async (i: number, admission = 1) =>
    (await passesOf(tickets[i] as string, b(i)))[admission - 1]?.code ?? ''
  const scan = async (as: Session, event: EventView, scans: Array<[string, string, string]>) => {
    const res = await post(app, `/api/v1/checkin/${event._id}/scans`, as, {
      scans: scans.map(([c, device, scannedAt]) => ({ code: c, device, scannedAt })),
    })
    expect(res.statusCode, res.body).toBe(200)
    return (res.json() as ScanReply[]).map((r) => r.result)
  }
  const oldCode = await code(1)
  // scans across minutes, from three devices, with double entries
  expect(
    await scan(gate, k, [
      [await code(0), 'a', scene(0, 1)],
      [await code(1), 'a', scene(0, 40)],
      [await code(1, 2), 'b', scene(1, 10)],
      [await code(0), 'b', scene(1, 20)],
      [await code(3), 'c', scene(3, 0)],
      [await code(3, 2), 'c', scene(3, 30)],
      [await code(3), 'a', scene(4, 0)],
      [await code(2), 'a', scene(4, 10)],
      ['garbage', 'a', scene(4, 20)],
    ]),
  ).toEqual([
    'admitted',
    'admitted',
    'admitted',
    'already-admitted',
    'admitted',
    'admitted',
    'already-admitted',
    'wrong-event',
    'invalid',
  ])
  expect(await scan(usher, h, [[await code(2), 'h', scene(60, 0)]])).toEqual(['admitted'])
  // an admitted ticket transferred twice (its old code void, the new one a double entry), another
  // refunded by its organizer (its holder may no longer cancel it once let in)
  await transfer(app, b(1), tickets[1] as string, b(4))
  await transfer(app, b(4), tickets[1] as string, b(6))
  // its code as the holder had it (a void pass is shown with none)
  const cancelledCode = (await passesOf(tickets[3] as string, b(3)))[0]?.code ?? ''
  const refunded = await post(app, `/api/v1/ticket/${tickets[3]}/refund`, kabini, { reason: 'Left early' })
  expect(refunded.statusCode, refunded.body).toBe(200)
  await transfer(app, b(4), tickets[4] as string, b(7))
  await cancel(app, b(5), tickets[5] as string)
  expect(
    await scan(kabini, k, [
      [oldCode, 'a', scene(10, 0)],
      ['TKT1.not.signed', 'a', scene(10, 1)],
      [(await passesOf(tickets[1] as string, b(6)))[0]?.code ?? '', 'b', scene(10, 2)],
      [(await passesOf(tickets[4] as string, b(7)))[0]?.code ?? '', 'b', scene(11, 0)],
      [cancelledCode, 'b', scene(11, 30)],
    ]),
  ).toEqual(['void', 'invalid', 'already-admitted', 'admitted', 'void'])
  // the two cancelled tickets' refunds, paid by a worker
  await until(
    async () =>
      (await app.platform.ledger.readFrom(0, 1_000_000)).filter((f) => f.type === 'PaymentRefunded')
        .length === 2,
  )
}

beforeAll(async () => {
  // the door's events start within the day, and tickets of theirs are still cancelled
  server = await startServer({
    RATE_LIMITS: 'off',
    MAX_HELD_SEATS_PER_ADDRESS: '1000',
    CANCEL_CUTOFF_HOURS: '0',
  })
  await sellAndScan(server.app)
  sqlite = sqliteOf(server.app)
  // door staff of an older version of the app, which named accounts directly: one kept, one removed
  const [k] = events as [EventView]
  const [kept, dropped] = people as [Session, Session]
  let version = (
    sqlite.prepare('SELECT max(version) AS v FROM ledger WHERE stream = ?').get(`event-${k._id}`) as {
      v: number
    }
  ).v
  for (const [type, who] of [
    ['DoorStaffAdded', kept],
    ['DoorStaffAdded', dropped],
    ['DoorStaffRemoved', dropped],
  ] as const)
    sqlite
      .prepare('INSERT INTO ledger (stream, version, type, data, meta, at) VALUES (?, ?, ?, ?, ?, ?)')
      .run(
        `event-${k._id}`,
        ++version,
        type,
        JSON.stringify({ eventId: k._id, accountId: who.id, by: 'someone' }),
        '{}',
        new Date().toISOString(),
      )
  rebuildReadModels(sqliteLedger(server.app))
  facts = allFacts(sqliteLedger(server.app))
  database = await freshDatabase()
  postgres = await openPostgres(database.url)
  const ledger = new PgLedger(postgres.pool, [
    onPostgres(checkinProjection, (_x, tx) => pgOrderSummaries(tx)),
    onPostgres(bookingProjection),
  ])
  await ledger.copyIn(facts)
}, 180_000)

afterAll(async () => {
  await postgres?.close()
  await database?.drop()
  await server?.close()
})

describe('the corpus', () => {
  it('holds every kind of door fact and pass', () => {
    const kinds = new Set(facts.map((f) => f.type))
    for (const type of [
      'PassAdmitted',
      'PassScanRefused',
      'DoorStaffAdded',
      'DoorStaffInvited',
      'DoorStaffAccepted',
      'DoorStaffRemoved',
      'TicketTransferred',
    ])
      expect(kinds, type).toContain(type)
    const statuses = sqlite.prepare('SELECT DISTINCT status FROM passes ORDER BY 1').all()
    expect(statuses).toEqual([{ status: 'admitted' }, { status: 'valid' }, { status: 'void' }])
    expect(sqlite.prepare('SELECT max(version) AS v FROM passes').get()).toEqual({ v: 2 })
  })
})

describe("the door's read models", () => {
  it.each(doorTables)('%s: the same rows on both stores', async (table) => {
    const rows = sqliteRows(sqlite, table)
    expect(rows.length).toBeGreaterThan(0)
    expect(await pgRows(postgres.pool, table)).toEqual(rows)
  })
})

describe('the same answers on both stores', () => {
  it("the door's reads of every ticket, event and account", async () => {
    // one set of queries, on each store
    const lite = promised(checkinQueries(sqliteSql(sqliteLedger(server.app).db.$client)))
    const pg = promised(checkinQueries(pgSql(poolQueryable(postgres.pool))))
    const orders = sqlite.prepare('SELECT id FROM orders').all() as Array<{ id: string }>
    for (const { id } of [...orders, { id: 'none' }]) {
      expect(await pg.passesOfTicket(id)).toEqual(await lite.passesOfTicket(id))
    }
    for (const event of [...events.map((e) => e._id), 'none']) {
      expect(await pg.passesOfEvent(event)).toEqual(await lite.passesOfEvent(event))
      expect(await pg.admitted(event)).toEqual(await lite.admitted(event))
      expect(await pg.expected(event)).toEqual(await lite.expected(event))
      expect(await pg.perMinute(event)).toEqual(await lite.perMinute(event))
      for (const limit of [undefined, 1, 2, 100]) {
        expect(await pg.doubleEntries(event, limit)).toEqual(await lite.doubleEntries(event, limit))
      }
      expect(await pg.doorStaff(event)).toEqual(await lite.doorStaff(event))
      for (const person of [...people.map((p) => p.id), 'nobody']) {
        expect(await pg.isDoorStaff(event, person)).toBe(await lite.isDoorStaff(event, person))
      }
      for (const { invitation_id: id } of sqliteRows(sqlite, 'door_invitations') as Array<{
        invitation_id: string
      }>)
        expect(await pg.invitation(id)).toEqual(await lite.invitation(id))
    }
    expect(await pg.invitation('none')).toEqual(await lite.invitation('none'))
    for (const person of [...people, { id: 'nobody', email: 'nobody-yet@example.com' }])
      expect(await pg.invitationsOf(person.id, person.email.toUpperCase())).toEqual(
        await lite.invitationsOf(person.id, person.email),
      )
    const statuses = sqlite
      .prepare('SELECT status, count(*) AS n FROM door_invitations GROUP BY 1 ORDER BY 1')
      .all()
    expect(statuses).toEqual([
      { status: 'accepted', n: 3 },
      { status: 'invited', n: 3 },
    ])
    const [k] = events as [EventView]
    expect(await lite.doubleEntries(k._id)).toHaveLength(3)
    expect((await lite.perMinute(k._id)).length).toBeGreaterThan(3)
  })
})

/** The hand-written backfill at the end of a migration file (after its "-- Backfill" comment). */
function backfillOf(file: string): string {
  const text = readFileSync(file, 'utf8')
  const at = text.indexOf('-- Backfill')
  if (at < 0) throw new Error(`no backfill in ${file}`)
  return text.slice(at)
}

/** what the backfill can know of a pass: everything but whether (and when, where) it was scanned */
const unscanned = (rows: Record<string, unknown>[]) =>
  rows
    .map(
      ({ status, admitted_at: _a, device: _d, ...row }): Record<string, unknown> => ({
        ...row,
        status: status === 'admitted' ? 'valid' : status,
      }),
    )
    .sort((a, b) => (String(a.id) < String(b.id) ? -1 : 1))

describe("the migrations' backfill of passes", () => {
  it('makes on SQLite the passes the projection folded (scans aside)', () => {
    const folded = unscanned(sqliteRows(sqlite, 'passes'))
    sqlite.exec('SAVEPOINT backfill')
    try {
      sqlite.exec('DELETE FROM passes')
      sqlite.exec(backfillOf(join(migrationsFolder, '0013_door.sql')))
      expect(unscanned(sqliteRows(sqlite, 'passes'))).toEqual(folded)
    } finally {
      sqlite.exec('ROLLBACK TO backfill')
      sqlite.exec('RELEASE backfill')
    }
    expect(sqliteRows(sqlite, 'passes').some((r) => r.status === 'admitted')).toBe(true)
  })

  it('makes on PostgreSQL the passes the projection folded (scans aside)', async () => {
    const folded = unscanned(await pgRows(postgres.pool, 'passes'))
    const client = await postgres.pool.connect()
    try {
      await client.query('BEGIN')
      await client.query('DELETE FROM passes')
      await client.query(backfillOf(join(pgMigrationsFolder, '0004_door.sql')))
      const { rows } = await client.query('SELECT * FROM passes')
      expect(unscanned(rows)).toEqual(folded)
    } finally {
      await client.query('ROLLBACK')
      client.release()
    }
  })
})

/**
 * The door staff as the door's first migration kept it (one row per account named), of the
 * invitations that are what the projection makes of such accounts (no e-mail, not accepted).
 */
const oldDoorStaff = `CREATE TABLE door_staff (event_id text NOT NULL, account_id text NOT NULL,
  added_at text NOT NULL, PRIMARY KEY (event_id, account_id));
INSERT INTO door_staff SELECT event_id, account_id, invited_at FROM door_invitations WHERE email IS NULL;
DELETE FROM door_invitations WHERE email IS NULL;`

/** the SQL statements of a migration's text (drizzle's breakpoints between them) */
const statementsOf = (sql: string) =>
  sql
    .split('--> statement-breakpoint')
    .map((s) => s.trim())
    .filter(Boolean)

describe("the migrations' backfill of door staff invitations", () => {
  it('makes on SQLite, of the door staff before invitations, the invitations the projection folded', () => {
    const folded = sqliteRows(sqlite, 'door_invitations')
    expect(folded.some((r) => r.email === null)).toBe(true)
    sqlite.exec('SAVEPOINT backfill')
    try {
      sqlite.exec(oldDoorStaff)
      for (const statement of statementsOf(backfillOf(join(migrationsFolder, '0018_door_invitations.sql'))))
        sqlite.exec(statement)
      expect(sqliteRows(sqlite, 'door_invitations')).toEqual(folded)
      expect(sqlite.prepare("SELECT name FROM sqlite_master WHERE name = 'door_staff'").all()).toEqual([])
    } finally {
      sqlite.exec('ROLLBACK TO backfill')
      sqlite.exec('RELEASE backfill')
    }
  })

  it('makes on PostgreSQL, of the door staff before invitations, the invitations the projection folded', async () => {
    const folded = await pgRows(postgres.pool, 'door_invitations')
    const client = await postgres.pool.connect()
    try {
      await client.query('BEGIN')
      await client.query(oldDoorStaff)
      for (const statement of statementsOf(backfillOf(join(pgMigrationsFolder, '0009_door_invitations.sql'))))
        await client.query(statement)
      // (the transaction's own client: the backfill is not committed)
      expect(await pgRows(client as unknown as typeof postgres.pool, 'door_invitations')).toEqual(folded)
    } finally {
      await client.query('ROLLBACK')
      client.release()
    }
  })
})
