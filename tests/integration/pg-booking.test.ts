// Booking and analytics on both stores (issue 15): a corpus of real facts made by running real sales
// through the app on SQLite (holds paid, failed, replaced, lapsed and released, paid after they
// lapsed, refunded when sold out meanwhile; free tickets; cancellations with refunds; transfers;
// several organizers, events, ticket types and buyers), copied into a PostgreSQL ledger with
// booking's and analytics' PostgreSQL projections. Then every read-model table is compared row for
// row, and every booking, analytics and dashboard query answers the same on both for a range of
// arguments. The catalogue's and accounts' tables, which the dashboards join, are not ported here:
// their rows are copied from SQLite into tables of the same shape made by this test.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { FastifyInstance } from 'fastify'
import type pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { EventView, TicketTypeInput } from '../../contracts/catalog.ts'
import { dashboardQueries } from '../../server/analytics/dashboards.ts'
import { analyticsProjection } from '../../server/analytics/project.ts'
import { analyticsQueries } from '../../server/analytics/queries.ts'
import { bookingProjection } from '../../server/booking/project.ts'
import { bookingQueries } from '../../server/booking/queries.ts'
import type { TicketTypeRow } from '../../server/catalog/queries.ts'
import { migrationsFolder, type Sqlite } from '../../server/db/connection.ts'
import { openPostgres, type PgConnection, pgMigrationsFolder } from '../../server/db/pg-connection.ts'
import { answeringNow, pgSql, poolQueryable, sqliteSql } from '../../server/db/sql.ts'
import { promised } from '../../server/db/store.ts'
import type { StoredFact } from '../../server/ledger/ledger.ts'
import { PgLedger } from '../../server/ledger/pg-ledger.ts'
import { onPostgres } from '../../server/ledger/read-projection.ts'
import { pgOrderSummaries } from '../../server/pg-projections.ts'
import { adminSession, organizerSession, type Session, signUp } from '../support/accounts.ts'
import { sqliteLedger, sqliteOf } from '../support/db.ts'
import { lapseHold, ticketTypeOf } from '../support/events.ts'
import { freshDatabase, type TestDatabase } from '../support/postgres.ts'
import {
  approvedEvent,
  buy,
  type Checkout,
  cancel,
  confirm,
  factsOfType,
  failToPay,
  hold,
  nextYear,
  pay,
  post,
  review,
  submitEvent,
  transfer,
  until,
} from '../support/sales.ts'
import { startServer, type TestServer } from '../support/server.ts'
import { allFacts, normalised, pgRows, sqliteRows } from '../support/stores.ts'

const bookingTables = ['orders', 'inventory', 'held_by_client']
const analyticsTables = ['sales_by_ticket_type', 'sales_by_hour', 'event_sales', 'attendance', 'sales_totals']

let server: TestServer
let database: TestDatabase
let postgres: PgConnection
let sqlite: Sqlite
let facts: StoredFact[]
const events: EventView[] = []
let organizers: Session[] = []
let buyers: Session[] = []

/** A table of another area, with SQLite's rows, in PostgreSQL (numbers as bigint, the rest text). */
async function mirror(pool: pg.Pool, table: string) {
  const rows = sqlite.prepare(`SELECT * FROM "${table}"`).all() as Record<string, unknown>[]
  const columns = (
    sqlite.prepare(`PRAGMA table_info("${table}")`).all() as Array<{ name: string; type: string }>
  )
    .map((c) => `"${c.name}" ${c.type.toLowerCase() === 'integer' ? 'bigint' : 'text'}`)
    .join(', ')
  await pool.query(`CREATE TABLE IF NOT EXISTS "${table}" (${columns})`)
  for (const row of rows) {
    const names = Object.keys(row)
    await pool.query(
      `INSERT INTO "${table}" (${names.map((n) => `"${n}"`).join(', ')})
       VALUES (${names.map((_, i) => `$${i + 1}`).join(', ')})`,
      Object.values(row),
    )
  }
}

const expire = (app: FastifyInstance, orderId: string) => app.services.bookingCommands.expire(orderId)
const streamHas = async (app: FastifyInstance, orderId: string, type: string) =>
  (await app.platform.ledger.readStream(`order-${orderId}`)).some((f) => f.type === type)

/** Real sales through the real app, on SQLite, with its real workers. */
async function sell(app: FastifyInstance) {
  const admin = await adminSession(app)
  organizers = [await organizerSession(app, 'kabini'), await organizerSession(app, 'Hampi')]
  const [kabini, hampi] = organizers as [Session, Session]
  const names = [
    'asha',
    'Bala',
    'chitra',
    'Dev',
    'esha',
    'Farid',
    'gita',
    'Hari',
    'indu',
    'Jai',
    'kavya',
    'Lata',
  ]
  buyers = []
  for (const name of names) buyers.push(await signUp(app, name))
  const b = (i: number) => buyers[i] as Session
  const types: TicketTypeInput[] = [
    { type: 'General Admission', price: 499.5, quantity: 100 },
    { type: 'VIP', price: 1500, quantity: 3 },
  ]
  const free: TicketTypeInput[] = [{ type: 'General Admission', price: 0, quantity: 100 }]
  for (let i = 0; i < 4; i++) {
    const fields = { title: `Kabini Night ${i}`, date: `${nextYear}-0${(i % 3) + 1}-1${i}` }
    events.push(await approvedEvent(app, kabini, admin, fields, i === 3 ? free : types))
  }
  events.push(await approvedEvent(app, hampi, admin, { title: 'Hampi Day 100%_off' }, types))
  // events without sales: one pending, one rejected
  await submitEvent(app, kabini, { title: 'Kabini pending' })
  await review(app, admin, (await submitEvent(app, hampi, { title: 'Hampi rejected' }))._id, 'Rejected')
  const [k0, k1, k2, freeEvent, h0] = events as [EventView, EventView, EventView, EventView, EventView]

  // paid orders, several quantities and types
  const tickets: string[] = []
  for (let i = 0; i < buyers.length; i++) {
    tickets.push(await buy(app, b(i), i % 3 === 0 ? k1 : k0, 'General Admission', (i % 4) + 1))
  }
  tickets.push(await buy(app, b(0), h0, 'VIP', 2))
  tickets.push(await buy(app, b(5), h0, 'General Admission', 3))
  tickets.push(await buy(app, b(6), k2, 'VIP', 1))
  // free tickets, issued at once
  for (const i of [1, 2, 3]) await hold(app, b(i), freeEvent, 'General Admission', i)
  // a failed payment, a hold replaced by a new checkout, holds left open
  await failToPay(app, b(7), k2, 'General Admission', 2)
  await hold(app, b(8), k2, 'General Admission', 4)
  await hold(app, b(8), k2, 'General Admission', 1)
  await hold(app, b(9), h0, 'General Admission', 2)
  await hold(app, b(10), k0, 'VIP', 1)
  // a hold that lapsed and was released
  const lapsed = await hold(app, b(11), k1, 'General Admission', 2)
  await lapseHold(app, lapsed.ticketId)
  await expire(app, lapsed.ticketId)
  // a payment after the hold lapsed, honoured while the seats remain
  const late = await hold(app, b(4), k1, 'VIP', 2)
  await lapseHold(app, late.ticketId)
  await expire(app, late.ticketId)
  await confirm(app, b(4), (await pay(app, b(4), late)).json() as Checkout)
  await until(() => streamHas(app, late.ticketId, 'TicketsIssued'))
  // and one refunded: the last VIP seat of k2 sold meanwhile
  const tooLate = await hold(app, b(3), k2, 'VIP', 2)
  await lapseHold(app, tooLate.ticketId)
  await expire(app, tooLate.ticketId)
  await buy(app, b(2), k2, 'VIP', 2)
  await confirm(app, b(3), (await pay(app, b(3), tooLate)).json() as Checkout)
  await until(() => streamHas(app, tooLate.ticketId, 'PaymentRefunded'))
  // transfers: away, onwards, and back to someone who already attends
  await transfer(app, b(1), tickets[1] as string, b(7))
  await transfer(app, b(7), tickets[1] as string, b(9))
  await transfer(app, b(2), tickets[2] as string, b(5))
  await transfer(app, b(0), tickets[12] as string, b(11))
  // cancellations (paid ones refunded by the payments worker), one of a transferred ticket
  for (const [owner, ticket] of [
    [b(4), tickets[4]],
    [b(8), tickets[8]],
    [b(5), tickets[2]],
  ] as const) {
    await cancel(app, owner, ticket as string)
  }
  // an event called off: its paid ticket cancelled with it and refunded, its open hold released
  const calledOff = await approvedEvent(app, hampi, admin, { title: 'Hampi Eve' }, types)
  await buy(app, b(10), calledOff, 'VIP', 1)
  await hold(app, b(11), calledOff, 'General Admission', 1)
  const off = await post(app, `/api/v1/event/${calledOff._id}/cancel`, hampi, { reason: 'Rain.' })
  expect(off.statusCode, off.body).toBe(200)
  await until(async () => (await factsOfType(app, 'PaymentRefunded')).length === 5)
}

beforeAll(async () => {
  server = await startServer({ RATE_LIMITS: 'off', MAX_HELD_SEATS_PER_ADDRESS: '1000' })
  await sell(server.app)
  sqlite = sqliteOf(server.app)
  facts = allFacts(sqliteLedger(server.app))
  database = await freshDatabase()
  postgres = await openPostgres(database.url)
  for (const table of ['events', 'event_ticket_types', 'accounts']) await mirror(postgres.pool, table)
  const ledger = new PgLedger(postgres.pool, [
    onPostgres(analyticsProjection, (_x, tx) => pgOrderSummaries(tx)),
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
  it('holds every kind of sale', () => {
    const types = new Set(facts.map((f) => f.type))
    for (const type of [
      'TicketsHeld',
      'PaymentCaptured',
      'TicketsIssued',
      'PaymentFailed',
      'HoldExpired',
      'TicketCancelled',
      'TicketTransferred',
      'RefundRequested',
      'PaymentRefunded',
    ]) {
      expect(types, type).toContain(type)
    }
    const issued = facts
      .filter((f) => f.type === 'TicketsIssued')
      .map((f) => f.data as { afterExpiry: boolean })
    expect(issued.some((d) => d.afterExpiry)).toBe(true)
    const statuses = sqlite.prepare('SELECT DISTINCT status FROM orders').all()
    expect(statuses).toHaveLength(5)
  })
})

describe.each([
  ['booking', bookingTables],
  ['analytics', analyticsTables],
])("%s's read models", (_, tables) => {
  it.each(tables)('%s: the same rows on both stores', async (table) => {
    const rows = sqliteRows(sqlite, table)
    expect(rows.length).toBeGreaterThan(0)
    expect(await pgRows(postgres.pool, table)).toEqual(rows)
  })
})

describe('the same answers on both stores', () => {
  const stores = () => {
    // booking's, analytics' and the dashboards' one set of queries, on each store (booking's on
    // SQLite as it answers there: at once)
    const { db } = sqliteLedger(server.app)
    const lite = sqliteSql(db.$client)
    const pg = pgSql(poolQueryable(postgres.pool))
    return {
      booking: [answeringNow(bookingQueries(lite)), promised(bookingQueries(pg))] as const,
      analytics: [promised(analyticsQueries(lite)), promised(analyticsQueries(pg))] as const,
      dashboards: [promised(dashboardQueries(lite)), promised(dashboardQueries(pg))] as const,
    }
  }
  const orderIds = () =>
    sqlite.prepare('SELECT id, provider_order_id AS p FROM orders').all() as Array<{ id: string; p: string }>
  const ticketTypes = () =>
    sqlite
      .prepare(
        'SELECT id, event_id AS eventId, rank, type, price_paise AS pricePaise, quantity FROM event_ticket_types',
      )
      .all() as TicketTypeRow[]
  const everyone = () => [...buyers, ...organizers].map((s) => s.id)

  it("booking's reads of one order, one ticket type, one buyer", async () => {
    const [lite, pg] = stores().booking
    for (const { id, p } of [...orderIds(), { id: 'nope', p: 'nope' }]) {
      expect(await pg.byId(id)).toEqual(lite.byId(id))
      expect(await pg.byProviderOrderId(p)).toEqual(lite.byProviderOrderId(p))
    }
    for (const t of [...ticketTypes(), { ...(ticketTypes()[0] as TicketTypeRow), id: 'none' }]) {
      expect(await pg.available(t)).toBe(lite.available(t))
    }
    for (const account of everyone()) {
      expect(await pg.ticketsOf(account)).toEqual(lite.ticketsOf(account))
      for (const limit of [1, 50])
        expect(await pg.cancelledTicketsOf(account, limit)).toEqual(lite.cancelledTicketsOf(account, limit))
      for (const event of events) {
        expect(await pg.heldBy(account, event._id)).toEqual(lite.heldBy(account, event._id))
        expect(await pg.seatsIssuedTo(account, event._id)).toBe(lite.seatsIssuedTo(account, event._id))
      }
      for (const organizer of organizers) {
        expect(await pg.isAttendeeOf(organizer.id, account)).toBe(lite.isAttendeeOf(organizer.id, account))
        expect(await pg.bestPaymentStatus(account, organizer.id)).toBe(
          lite.bestPaymentStatus(account, organizer.id),
        )
      }
      expect(await pg.bestPaymentStatus(account)).toBe(lite.bestPaymentStatus(account))
    }
    for (const organizer of [undefined, ...organizers.map((o) => o.id)]) {
      expect(await pg.bestPaymentStatuses(everyone(), organizer)).toEqual(
        lite.bestPaymentStatuses(everyone(), organizer),
      )
    }
    expect(await pg.bestPaymentStatuses([])).toEqual(lite.bestPaymentStatuses([]))
    const keys = sqlite.prepare('SELECT DISTINCT client_key AS k FROM held_by_client').all() as Array<{
      k: string
    }>
    for (const { k } of [...keys, { k: 'unknown' }]) {
      for (const event of events) {
        expect(await pg.seatsHeldFrom(k, event._id)).toBe(lite.seatsHeldFrom(k, event._id))
      }
    }
  })

  it("booking's reads over many orders", async () => {
    const [lite, pg] = stores().booking
    const ids = events.map((e) => e._id)
    for (const some of [[], ids, ids.slice(0, 2), [ids[4] as string, 'none']]) {
      // every page of the export, three at a time
      for (let after = '', page = 0; page < 30; page++) {
        const rows = lite.issuedPage(some, after, 3)
        expect(await pg.issuedPage(some, after, 3)).toEqual(rows)
        if (rows.length === 0) break
        after = (rows.at(-1) as { id: string }).id
      }
      const extras = [lite.eventExtras(some), await pg.eventExtras(some)] as const
      for (const event of [...events, { _id: 'none' }]) {
        const [a, b] = extras.map((x) => x.candidates(event._id))
        expect(b).toEqual(a)
      }
      for (const t of ticketTypes()) expect(extras[1].available(t)).toBe(extras[0].available(t))
    }
    for (const event of [...events, { _id: 'none' }]) {
      expect(await pg.attendeeIds(event._id)).toEqual(lite.attendeeIds(event._id))
    }
    const heldUntil = (
      sqlite.prepare('SELECT held_until AS h FROM orders ORDER BY held_until').all() as Array<{ h: string }>
    ).map((r) => r.h)
    for (const at of ['0000', ...heldUntil, '9999']) {
      expect(await pg.releasedUnpaid(at)).toEqual(lite.releasedUnpaid(at))
      expect(await pg.lapsedHolds(at)).toEqual(lite.lapsedHolds(at))
      for (const t of ticketTypes()) {
        expect(await pg.lapsedHolds(at, t.id)).toEqual(lite.lapsedHolds(at, t.id))
      }
    }
    expect(await pg.openHolds()).toEqual(lite.openHolds())
    expect(lite.openHolds().length).toBeGreaterThan(0)
    expect(await pg.refundsOwed()).toEqual(lite.refundsOwed())
  })

  it("analytics' figures of every event", async () => {
    const [lite, pg] = stores().analytics
    const byType = <T extends { ticketTypeId: string }>(rows: T[]) =>
      [...rows].sort((a, b) => (a.ticketTypeId < b.ticketTypeId ? -1 : 1))
    for (const event of [...events, { _id: 'none' }]) {
      expect(byType(await pg.byTicketType(event._id))).toEqual(byType(await lite.byTicketType(event._id)))
      expect(await pg.totals(event._id)).toEqual(await lite.totals(event._id))
      expect(await pg.timeline(event._id)).toEqual(await lite.timeline(event._id))
    }
  })

  it("the dashboards' pages of events, figures and totals", async () => {
    const [lite, pg] = stores().dashboards
    const searches = [undefined, 'night', 'NIGHT', 'kabini n', '100%', '%', '_', 'o', 'zz', '\\']
    for (const organizerId of [null, ...organizers.map((o) => o.id), 'nobody']) {
      for (const status of [undefined, 'Pending', 'Approved', 'Rejected'] as const) {
        for (const search of searches) {
          for (const [page, limit] of [
            [1, 25],
            [1, 2],
            [2, 2],
            [3, 2],
            [4, 2],
            [2, 3],
          ] as const) {
            const filter = { organizerId, status, search, page, limit }
            expect(await pg.eventsPage(filter), JSON.stringify(filter)).toEqual(await lite.eventsPage(filter))
          }
        }
      }
      expect(await pg.totals(organizerId)).toEqual(await lite.totals(organizerId))
    }
    const all = sqlite.prepare('SELECT id FROM events').all() as Array<{ id: string }>
    for (const { id } of [...all, { id: 'none' }])
      expect(await pg.figuresOf(id)).toEqual(await lite.figuresOf(id))
  })

  it("the dashboards' attendee pages and one attendee", async () => {
    const [lite, pg] = stores().dashboards
    for (const event of [...events, { _id: 'none' }]) {
      for (const search of [undefined, 'a', 'A', 'example.com', 'hari', 'zz', '_', '%']) {
        for (const [page, limit] of [
          [1, 50],
          [1, 3],
          [2, 3],
          [3, 3],
        ] as const) {
          const args = [event._id, page, limit, search] as const
          expect(await pg.attendeesPage(...args), JSON.stringify(args)).toEqual(
            await lite.attendeesPage(...args),
          )
        }
      }
      for (const account of [...everyone(), 'nobody']) {
        expect(await pg.attendee(event._id, account)).toEqual(await lite.attendee(event._id, account))
      }
    }
  })
})

/** The hand-written backfill at the end of a migration file (after its "-- Backfill" comment). */
function backfillOf(file: string): string {
  const text = readFileSync(file, 'utf8')
  const at = text.indexOf('-- Backfill')
  if (at < 0) throw new Error(`no backfill in ${file}`)
  return text.slice(at)
}

/** what 0018 (SQLite) and 0009 (PostgreSQL) add to each order, as a database before them had it */
const forgetEndings = `UPDATE orders SET cancelled_at = NULL, cancelled_by = NULL, refund_requested_paise = 0,
  refunded_paise = 0, refunded_at = NULL`

describe("the migrations' backfill of cancelled tickets and refunds", () => {
  it('makes on SQLite the rows the projection folded', () => {
    const folded = sqliteRows(sqlite, 'orders')
    expect(folded.filter((r) => r.cancelled_by === 'event')).toHaveLength(1)
    expect(folded.filter((r) => r.cancelled_by === 'holder')).toHaveLength(3)
    expect(folded.filter((r) => r.refunded_at !== null)).toHaveLength(5)
    sqlite.exec('SAVEPOINT backfill')
    try {
      sqlite.exec(forgetEndings)
      sqlite.exec(backfillOf(join(migrationsFolder, '0019_cancelled_tickets.sql')))
      expect(sqliteRows(sqlite, 'orders')).toEqual(folded)
    } finally {
      sqlite.exec('ROLLBACK TO backfill')
      sqlite.exec('RELEASE backfill')
    }
  })

  it('makes on PostgreSQL the rows the projection folded', async () => {
    const folded = await pgRows(postgres.pool, 'orders')
    const client = await postgres.pool.connect()
    try {
      await client.query('BEGIN')
      await client.query(forgetEndings)
      await client.query(backfillOf(join(pgMigrationsFolder, '0010_cancelled_tickets.sql')))
      const { rows } = await client.query('SELECT * FROM orders')
      expect(normalised(rows)).toEqual(folded)
    } finally {
      await client.query('ROLLBACK')
      client.release()
    }
  })
})

describe('a hold decided on PostgreSQL', () => {
  it('reads the seats left in its own transaction, exactly', async () => {
    const vip = ticketTypeOf(events[4] as EventView, 'VIP')
    const ledger = new PgLedger(postgres.pool, [
      onPostgres(analyticsProjection, (_x, tx) => pgOrderSummaries(tx)),
      onPostgres(bookingProjection),
    ])
    const seats = { id: vip._id, quantity: 3 }
    const before = await bookingQueries(pgSql(poolQueryable(postgres.pool))).available(seats)
    const inside = await ledger.transaction(async (tx) => {
      const [held] = facts.filter((f) => f.type === 'TicketsHeld')
      const data = {
        ...(held?.data as Record<string, unknown>),
        orderId: 'pg-hold',
        providerOrderId: 'pg-hold',
        ticketTypeId: vip._id,
        quantity: 1,
      }
      await tx.append('order-pg-hold', 0, [{ type: 'TicketsHeld', data }])
      return bookingQueries(pgSql(tx)).available(seats)
    })
    expect(inside).toBe(before - 1)
    expect(await bookingQueries(pgSql(poolQueryable(postgres.pool))).available(seats)).toBe(before - 1)
  })
})
