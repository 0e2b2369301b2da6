// The dashboards at scale (issue 14): pages of event rows with their figures, one event's
// figures, a page of its attendees, and the pushes that carry a row or an attendee as they change.
// Real app, real SQLite file, real Redis; figures are checked against what was sold.
import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { EventView } from '../../contracts/catalog.ts'
import type { AttendeesPage, DashboardEventsPage, EventFigures } from '../../contracts/dashboards.ts'
import { type FactPush, liveEvents, rooms } from '../../contracts/live.ts'
import { wait } from '../../server/db/store.ts'
import { adminSession, bearer, organizerSession, type Session, signUp } from '../support/accounts.ts'
import { sqliteOf, testStore } from '../support/db.ts'
import { open, sockets, watch } from '../support/live-sockets.ts'
import {
  approvedEvent,
  buy,
  cancel,
  get,
  hold,
  nextYear,
  review,
  signUpAll,
  submitEvent,
  transfer,
  until,
} from '../support/sales.ts'
import { startServer, type TestServer } from '../support/server.ts'

let server: TestServer
let admin: Session
let kabini: Session
let other: Session
/** kabini's approved events, the first with sales */
const events: EventView[] = []

const page = async (session: Session, query = '') => {
  const res = await get(server.app, `/api/v1/dashboard/events${query}`, session)
  expect(res.statusCode, res.body).toBe(200)
  return res.json() as DashboardEventsPage
}
const figuresOf = async (session: Session, eventId: string) => {
  const res = await get(server.app, `/api/v1/dashboard/events/${eventId}`, session)
  expect(res.statusCode, res.body).toBe(200)
  return res.json() as EventFigures
}
const attendeesOf = async (session: Session, eventId: string, query = '') => {
  const res = await get(server.app, `/api/v1/dashboard/events/${eventId}/attendees${query}`, session)
  expect(res.statusCode, res.body).toBe(200)
  return res.json() as AttendeesPage
}

beforeAll(async () => {
  server = await startServer({ RATE_LIMITS: 'off', MAX_HELD_SEATS_PER_ADDRESS: '1000' })
  admin = await adminSession(server.app)
  kabini = await organizerSession(server.app, 'kabini')
  other = await organizerSession(server.app, 'hampi')
  // 30 events of kabini's on 30 dates (three rejected, one left pending), 2 of another organizer's
  for (let i = 0; i < 30; i++) {
    const day = String((i % 28) + 1).padStart(2, '0')
    const fields = { title: `Kabini Night ${i}`, date: `${nextYear}-0${1 + Math.floor(i / 28)}-${day}` }
    if (i === 28) await submitEvent(server.app, kabini, fields)
    else if (i >= 26)
      await review(server.app, admin, (await submitEvent(server.app, kabini, fields))._id, 'Rejected')
    else events.push(await approvedEvent(server.app, kabini, admin, fields))
  }
  for (let i = 0; i < 2; i++) await approvedEvent(server.app, other, admin, { title: `Hampi Day ${i}` })
}, 120_000)

afterAll(async () => {
  for (const socket of sockets) socket.disconnect()
  await server?.close()
})

describe('GET /dashboard/events', () => {
  it("pages an organizer's own events, latest date first, with the account's totals", async () => {
    const first = await page(kabini, '?limit=25')
    expect(first.total).toBe(30)
    expect(first.events).toHaveLength(25)
    expect(first.totals.events).toBe(30)
    expect(first.events.every((e) => e.organizerId === kabini.id)).toBe(true)
    const dates = first.events.map((e) => e.date)
    expect([...dates].sort().reverse()).toEqual(dates)
    const second = await page(kabini, '?limit=25&page=2')
    expect(second.events).toHaveLength(5)
    const ids = new Set([...first.events, ...second.events].map((e) => e._id))
    expect(ids.size).toBe(30)
  })

  it('shows an admin every event, rejected first, then pending, then approved; filters and searches', async () => {
    const all = await page(admin, '?limit=100')
    expect(all.total).toBe(32)
    expect(all.events.map((e) => e.approvalStatus).slice(0, 5)).toEqual([
      'Rejected',
      'Rejected',
      'Rejected',
      'Pending',
      'Approved',
    ])
    expect((await page(admin, '?status=Pending')).events.map((e) => e.title)).toEqual(['Kabini Night 28'])
    const found = await page(admin, `?search=${encodeURIComponent('hampi DAY')}`)
    expect(found.events.map((e) => e.title).sort()).toEqual(['Hampi Day 0', 'Hampi Day 1'])
    // a LIKE wildcard in the search is taken literally
    expect((await page(admin, '?search=%25')).total).toBe(0)
  })

  it('refuses a bad page, limit or status with a message, and other roles', async () => {
    for (const query of ['?page=0', '?limit=101', '?limit=x', '?status=Sold']) {
      const res = await get(server.app, `/api/v1/dashboard/events${query}`, kabini)
      expect(res.statusCode, query).toBe(400)
      expect(typeof res.json().message).toBe('string')
    }
    const user = await signUp(server.app, 'nosy')
    expect((await get(server.app, '/api/v1/dashboard/events', user)).statusCode).toBe(403)
    expect((await get(server.app, '/api/v1/dashboard/events', null)).statusCode).toBe(401)
  })
})

describe("an event's figures and attendees", () => {
  it('follow holds, sales, cancels and transfers, and add up to the totals', async () => {
    const event = events[0] as EventView
    const before = await page(kabini)
    const buyers = await signUpAll(server.app, ['asha', 'bala', 'chitra', 'dev'] as const)
    const [asha, bala, chitra, dev] = buyers
    const ashas = await buy(server.app, asha, event, 'VIP', 2) // ₹3,000
    await buy(server.app, bala, event, 'General Admission', 1) // ₹500
    const chitras = await buy(server.app, chitra, event, 'General Admission', 3) // ₹1,500
    await hold(server.app, dev, event, 'VIP', 1) // held, unpaid

    let figures = await figuresOf(kabini, event._id)
    expect(figures).toMatchObject({
      sold: 6,
      revenue: 5000,
      attendees: 3,
      Pending: 1,
      Completed: 3,
      Failed: 0,
    })
    expect(figures.capacity).toBe(120)
    expect(figures.available).toBe(120 - 6 - 1)

    // a cancel takes the seats, the money and the person back out; a transfer moves the person
    await cancel(server.app, chitra, chitras)
    await transfer(server.app, asha, ashas, dev)
    figures = await figuresOf(kabini, event._id)
    expect(figures).toMatchObject({ sold: 3, revenue: 3500, attendees: 2, Completed: 2 })

    const people = await attendeesOf(kabini, event._id)
    expect(people.total).toBe(2)
    expect(people.attendees.map((a) => [a.username, a.tickets])).toEqual([
      ['bala', 1],
      ['dev', 2],
    ])
    expect(people.position).toBeGreaterThan(0)

    const after = await page(kabini)
    expect(after.totals.sold - before.totals.sold).toBe(3)
    expect(after.totals.revenue - before.totals.revenue).toBe(3500)
    const site = await page(admin)
    expect(site.totals.sold).toBeGreaterThanOrEqual(3)
    // another organizer's event is not found, to an organizer
    // the row says what the admin's card shows, and the version a review sends as If-Match
    const read = (await get(server.app, `/api/v1/event/${event._id}`, kabini)).json() as EventView
    expect(figures).toMatchObject({ description: read.description, version: read.version })
    const hampi = (await page(other)).events[0] as EventFigures
    expect((await get(server.app, `/api/v1/dashboard/events/${hampi._id}`, kabini)).statusCode).toBe(404)
    expect((await figuresOf(admin, hampi._id))._id).toBe(hampi._id)
  })

  // 120 buyers' purchases first: past 30 s on a busy machine
  it('pages and searches 120 attendees', { timeout: 120_000 }, async () => {
    const event = events[1] as EventView
    const buyers = await Promise.all(
      Array.from({ length: 120 }, (_, i) => signUp(server.app, `fan${String(i).padStart(3, '0')}`)),
    )
    for (let i = 0; i < buyers.length; i += 20)
      await Promise.all(
        buyers
          .slice(i, i + 20)
          .map((b) => buy(server.app, b, event, i < 100 ? 'General Admission' : 'VIP', 1)),
      )
    const first = await attendeesOf(kabini, event._id, '?limit=50')
    expect(first.total).toBe(120)
    expect(first.attendees).toHaveLength(50)
    expect(first.attendees[0]?.username).toBe('fan000')
    const third = await attendeesOf(kabini, event._id, '?limit=50&page=3')
    expect(third.attendees.map((a) => a.username)).toEqual(
      Array.from({ length: 20 }, (_, i) => `fan${String(100 + i).padStart(3, '0')}`),
    )
    const found = await attendeesOf(kabini, event._id, '?search=FAN11')
    expect(found.total).toBe(10)
    expect(found.attendees.every((a) => a.username.startsWith('fan11'))).toBe(true)
  })
})

// On PostgreSQL appends commit at once: a fact can commit below the head after the head was read.
// An answer's position must still cover only facts it shows, or a client drops the fact's push as
// one it already reflects.
describe.skipIf(testStore !== 'postgres')('the position an answer is as of (PostgreSQL)', () => {
  it('shows every fact at or below it, though one was still committing below the head', async () => {
    const pending = await submitEvent(server.app, kabini, { title: 'Approved below the head' })
    const ledger = server.app.platform.ledger
    let appended!: () => void
    const approvalAppended = new Promise<void>((resolve) => {
      appended = resolve
    })
    let release!: () => void
    const held = new Promise<void>((resolve) => {
      release = resolve
    })
    const approvalDone = ledger.transaction(function* (tx) {
      const stream = `event-${pending._id}`
      const facts = yield* wait(tx.readStream(stream))
      const [stored] = yield* wait(
        tx.append(stream, facts.length, [
          { type: 'EventApproved', data: { eventId: pending._id, organizerId: kabini.id, by: admin.id } },
        ]),
      )
      appended()
      yield* wait(held)
      return stored?.position ?? 0
    })
    await approvalAppended
    let answer: Promise<EventFigures>
    let head: number
    try {
      // a fact above the approval's position commits first
      await signUp(server.app, 'abovetheapproval')
      head = await ledger.head()
      answer = figuresOf(kabini, pending._id)
      await new Promise((resolve) => setTimeout(resolve, 200))
    } finally {
      release()
    }
    const approvedAt = await approvalDone
    expect(approvedAt).toBeLessThan(head)
    const figures = await answer
    // as of a position at or past the approval: the approval shows
    if (figures.position >= approvedAt) expect(figures.approvalStatus).toBe('Approved')
    else expect(figures.approvalStatus).toBe('Pending')
    expect(figures.position).toBeGreaterThanOrEqual(approvedAt)
  })
})

describe('pushes to the dashboards', () => {
  it("carry the event's row to the organizer and the admins, and each attendee to whoever has its list open", async () => {
    const event = events[2] as EventView
    const heard = {
      organizer: [] as FactPush[],
      admin: [] as FactPush[],
      other: [] as FactPush[],
      listOpen: [] as FactPush[],
    }
    const listen = async (session: Session, into: FactPush[]) => {
      const socket = await open(server.url, session.token)
      socket.on(liveEvents.push, (push: FactPush) => into.push(push))
      return socket
    }
    const organizerSocket = await listen(kabini, heard.organizer)
    await listen(admin, heard.admin)
    const otherSocket = await listen(other, heard.other)
    // The organizer's second tab has the event's attendee list open; the first only its rows.
    const listSocket = await listen(kabini, heard.listOpen)
    expect(await watch(listSocket, rooms.attendees(event._id))).toEqual({
      ok: true,
      room: rooms.attendees(event._id),
    })
    // Nobody else may watch that list: another organizer, a buyer, a visitor.
    const [ravi] = await signUpAll(server.app, ['ravi'] as const)
    const buyerSocket = await open(server.url, ravi.token)
    const visitorSocket = await open(server.url)
    for (const socket of [otherSocket, buyerSocket, visitorSocket])
      expect(await watch(socket, rooms.attendees(event._id))).toEqual({
        ok: false,
        message: 'No such event.',
      })
    await buy(server.app, ravi, event, 'VIP', 2)

    const rows = (pushes: FactPush[]) =>
      pushes.flatMap((p) => ('figures' in p.data && p.data.eventId === event._id ? [p] : []))
    await until(() => rows(heard.organizer).some((p) => p.type === 'TicketsIssued'))
    await until(() => rows(heard.admin).some((p) => p.type === 'TicketsIssued'))
    const issued = rows(heard.organizer).find((p) => p.type === 'TicketsIssued')
    expect(issued && 'figures' in issued.data && issued.data.figures).toMatchObject({
      _id: event._id,
      sold: 2,
      revenue: 3000,
      attendees: 1,
      Completed: 1,
      position: issued?.position,
    })
    await until(() => heard.listOpen.some((p) => 'attendees' in p.data))
    const attendees = heard.listOpen.find((p) => 'attendees' in p.data)
    expect(attendees?.data).toEqual({
      eventId: event._id,
      attendees: [{ _id: ravi.id, username: 'ravi', email: ravi.email, tickets: 2 }],
    })
    // the tab without the list, and the admin's, hear the rows but no attendee
    expect(heard.organizer.some((p) => 'attendees' in p.data)).toBe(false)
    expect(heard.admin.some((p) => 'attendees' in p.data)).toBe(false)
    expect(organizerSocket.connected).toBe(true)
    // positions only grow, and another organizer hears nothing of this event
    const positions = rows(heard.organizer).map((p) => p.position)
    expect([...positions].sort((a, b) => a - b)).toEqual(positions)
    expect(rows(heard.other)).toEqual([])
    // the row pushed last is the row the dashboard reads
    const last = rows(heard.organizer).at(-1)
    const { position: _, ...read } = await figuresOf(kabini, event._id)
    expect(last && 'figures' in last.data && { ...last.data.figures, position: 0 }).toEqual({
      ...read,
      position: 0,
    })
    // with each room's own totals, as its dashboard page carries them (the organizer's account,
    // the whole site for the admins), and marked as moved by sales only: a page without this
    // event needs no refetch for it (issue 14)
    const lastAdmin = rows(heard.admin).at(-1)
    const pageTotals = async (session: Session) =>
      (
        (
          await server.app.inject({
            method: 'GET',
            url: '/api/v1/dashboard/events?page=1&limit=1',
            headers: bearer(session.token),
          })
        ).json() as DashboardEventsPage
      ).totals
    expect(last?.data).toMatchObject({ salesOnly: true, totals: await pageTotals(kabini) })
    expect(lastAdmin?.data).toMatchObject({ salesOnly: true, totals: await pageTotals(admin) })
  })

  it('rooms: the organizer room and the admins room are the audiences', () => {
    expect(rooms.organizer(kabini.id)).toBe(`organizer-${kabini.id}`)
    expect(rooms.admins).toBe('admins')
  })
})

// SQLite's migrations (migrations/): PostgreSQL's (migrations-pg/) start with these tables, and
// have no backfill to check.
describe.skipIf(testStore === 'postgres')('migration 0012 (written by hand: the backfill)', () => {
  it('fills the new read models with what the projection folded, for a database that had sales', () => {
    const sqlite = sqliteOf(server.app)
    const tables = ['event_sales', 'attendance', 'sales_totals']
    const snapshot = () =>
      Object.fromEntries(
        tables.map((t) => [
          t,
          sqlite
            .prepare(`SELECT * FROM ${t} WHERE ${t === 'attendance' ? 'tickets > 0' : '1'} ORDER BY 1, 2`)
            .all(),
        ]),
      )
    const folded = snapshot()
    const sql = readFileSync(
      resolve(import.meta.dirname, '../../migrations/0012_dashboard_figures.sql'),
      'utf8',
    )
    const backfill = sql.slice(sql.indexOf('-- Backfill')).split('--> statement-breakpoint')
    sqlite.transaction(() => {
      for (const t of tables) sqlite.prepare(`DELETE FROM ${t}`).run()
      for (const statement of backfill) sqlite.exec(statement)
    })()
    expect(snapshot()).toEqual(folded)
  })
})
