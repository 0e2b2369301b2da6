// Organizer tools over HTTP (API.md /ticket/analytics, SPEC §2 organizer attendee list and
// analytics panel): sales figures folded from booking's facts, attendee lists that follow
// transfers and cancellations, and the attendee CSV export (RFC 4180, formulas neutralised,
// streamed page by page).
import { setFlagsFromString } from 'node:v8'
import { runInNewContext } from 'node:vm'
import { getTableName } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { AnalyticsReply, AttendeesByEvent } from '../../contracts/analytics.ts'
import type { EventView } from '../../contracts/catalog.ts'
import type { SeatMapView } from '../../contracts/seating.ts'
import type { AccountRegistered } from '../../server/accounts/facts.ts'
import {
  attendance,
  eventSales,
  salesByHour,
  salesByTicketType,
  salesTotals,
} from '../../server/analytics/tables.ts'
import type { TicketsHeld, TicketsIssued } from '../../server/booking/facts.ts'
import { heldByClient, inventory, orders, promoCodes } from '../../server/booking/tables.ts'
import { passes } from '../../server/checkin/tables.ts'
import { openDatabase } from '../../server/db/connection.ts'
import { openPostgres } from '../../server/db/pg-connection.ts'
import { newId, streams } from '../../server/ids.ts'
import { rebuildReadModels } from '../../server/ledger/rebuild.ts'
import { pgAppLedger } from '../../server/pg-projections.ts'
import { appLedger } from '../../server/projections.ts'
import { adminSession, bearer, organizerSession, type Session, signUp } from '../support/accounts.ts'
import { sameStore, startApp, type TestApp } from '../support/app.ts'
import { dbRows, numberedPlaceholders, rebuildStore, testStore } from '../support/db.ts'
import {
  approvedEvent,
  buy,
  cancel,
  confirm,
  failToPay,
  get,
  hold,
  orderRow,
  pay,
  post,
  signUpAll,
  submitEvent,
  transfer,
  until,
} from '../support/sales.ts'
import { gridSection } from '../support/seat-plans.ts'
import { startServer, type TestServer } from '../support/server.ts'

let t: TestApp
let admin: Session
beforeAll(async () => {
  t = await startApp({ RATE_LIMITS: 'off' })
  admin = await adminSession(t.app)
})
afterAll(async () => {
  await t.close()
})

const analyticsOf = (eventId: string, as?: Session | null) =>
  get(t.app, `/api/v1/ticket/analytics/${eventId}`, as)

async function figures(eventId: string, as: Session): Promise<AnalyticsReply> {
  const res = await analyticsOf(eventId, as)
  expect(res.statusCode, res.body).toBe(200)
  return res.json() as AnalyticsReply
}

type Row = { type: string; sold: number; revenue: number; Pending: number; Completed: number; Failed: number }
const row = ({ type, sold, revenue, Pending, Completed, Failed }: Row) => ({
  ticketType: type,
  totalRevenue: revenue,
  totalTicketsSold: sold,
  paymentStatus: [{ Pending, Completed, Failed }],
})
const zeros = (type: string) => row({ type, sold: 0, revenue: 0, Pending: 0, Completed: 0, Failed: 0 })

/** A user with a phone number, signed up and logged in through the API. */
async function signUpWith(username: string, phone?: string): Promise<Session> {
  const email = `${newId()}@example.com`
  const password = 'password-1'
  const res = await post(t.app, '/api/v1/auth/register', null, { username, email, password, phone })
  expect(res.statusCode, res.body).toBe(200)
  const login = await post(t.app, '/api/v1/auth/login', null, { email, password })
  const token = login.json().token as string
  const profile = await get(t.app, '/api/v1/auth/profile', { token } as Session)
  return { id: profile.json().user._id, email, password, username, token }
}

describe('GET /api/v1/ticket/analytics/:eventId', () => {
  it("answers the event's organizer and the admin; hides the event from another organizer; refuses users and visitors", async () => {
    const organizer = await organizerSession(t.app)
    const event = await approvedEvent(t.app, organizer, admin, { title: 'Whose Figures' })

    const own = await analyticsOf(event._id, organizer)
    expect(own.statusCode, own.body).toBe(200)
    expect(own.json().event).toEqual({
      _id: event._id,
      title: 'Whose Figures',
      date: event.date,
      location: event.location,
      category: event.category,
      approvalStatus: 'Approved',
    })
    const asAdmin = await analyticsOf(event._id, admin)
    expect(asAdmin.statusCode).toBe(200)
    expect(asAdmin.json()).toEqual(own.json())

    const other = await analyticsOf(event._id, await organizerSession(t.app))
    expect(other.statusCode).toBe(404)
    expect(other.json()).toEqual({ message: 'Event not found.' })
    const user = await analyticsOf(event._id, await signUp(t.app))
    expect(user.statusCode).toBe(403)
    expect(user.json()).toEqual({ message: 'You are not allowed to do this.' })
    const visitor = await analyticsOf(event._id, null)
    expect(visitor.statusCode).toBe(401)
    expect(visitor.json()).toEqual({ message: 'Please log in to continue.' })
    expect((await analyticsOf(newId(), admin)).statusCode).toBe(404)
  })

  it('has a row of zeros for every ticket type, sold or not, and empty totals and timeline', async () => {
    const organizer = await organizerSession(t.app)
    const event = await approvedEvent(t.app, organizer, admin)
    expect(await figures(event._id, organizer)).toMatchObject({
      analytics: [zeros('General Admission'), zeros('VIP')],
      totals: { ticketsSold: 0, revenue: 0, attendees: 0, Pending: 0, Completed: 0, Failed: 0 },
      timeline: [],
    })
    const buyer = await signUp(t.app)
    await buy(t.app, buyer, event, 'VIP', 2)
    const after = await figures(event._id, organizer)
    expect(after.analytics).toEqual([
      zeros('General Admission'),
      row({ type: 'VIP', sold: 2, revenue: 3000, Pending: 0, Completed: 1, Failed: 0 }),
    ])
  })

  it('follows a scripted sequence of holds, captures, a failed payment, an expired hold, a cancel and a transfer', async () => {
    const organizer = await organizerSession(t.app)
    const event = await approvedEvent(t.app, organizer, admin, { title: 'Scripted Sales' }, [
      { type: 'General Admission', price: 500, quantity: 50 },
      { type: 'VIP', price: 1500, quantity: 20 },
    ])
    const [asha, bala, chitra, dev, esha, farah, gopal, hari, ivan] = await signUpAll(t.app, [
      'Asha',
      'Bala',
      'Chitra',
      'Dev',
      'Esha',
      'Farah',
      'Gopal',
      'Hari',
      'Ivan',
    ])
    const now = async () => (await figures(event._id, organizer)).analytics

    // Holds left pending: counted as Pending, nothing sold.
    await hold(t.app, asha, event, 'VIP', 2)
    await hold(t.app, bala, event, 'General Admission', 1)
    expect(await now()).toEqual([
      row({ type: 'General Admission', sold: 0, revenue: 0, Pending: 1, Completed: 0, Failed: 0 }),
      row({ type: 'VIP', sold: 0, revenue: 0, Pending: 1, Completed: 0, Failed: 0 }),
    ])

    // Captures: Completed orders, their tickets and their money.
    const chitrasTicket = await buy(t.app, chitra, event, 'VIP', 1)
    const devsTicket = await buy(t.app, dev, event, 'VIP', 3)
    await buy(t.app, esha, event, 'General Admission', 4)
    expect(await now()).toEqual([
      row({ type: 'General Admission', sold: 4, revenue: 2000, Pending: 1, Completed: 1, Failed: 0 }),
      row({ type: 'VIP', sold: 4, revenue: 6000, Pending: 1, Completed: 2, Failed: 0 }),
    ])

    // A failed payment: Failed, no money.
    await failToPay(t.app, gopal, event, 'VIP', 1)
    expect((await now())[1]).toEqual(
      row({ type: 'VIP', sold: 4, revenue: 6000, Pending: 1, Completed: 2, Failed: 1 }),
    )

    // An expired hold: out of Pending, and no failed payment (no payment was tried).
    const lapsing = await hold(t.app, hari, event, 'General Admission', 2)
    expect((await now())[0]).toMatchObject({ paymentStatus: [{ Pending: 2, Completed: 1, Failed: 0 }] })
    const later = new Date(Date.now() + 11 * 60_000).toISOString()
    expect((await t.app.services.bookingCommands.expire(lapsing.ticketId, later)).map((f) => f.type)).toEqual(
      ['HoldExpired'],
    )
    expect((await now())[0]).toEqual(
      row({ type: 'General Admission', sold: 4, revenue: 2000, Pending: 1, Completed: 1, Failed: 0 }),
    )

    // A cancel takes its order, tickets and revenue back out of the Completed figures.
    await cancel(t.app, chitra, chitrasTicket)
    expect((await now())[1]).toEqual(
      row({ type: 'VIP', sold: 3, revenue: 4500, Pending: 1, Completed: 1, Failed: 1 }),
    )

    // A transfer changes who attends, not what was sold.
    await transfer(t.app, dev, devsTicket, farah)

    // A hold that lapsed and is paid afterwards (the gateway's webhook) is honoured: Completed.
    const paidLate = await hold(t.app, ivan, event, 'General Admission', 1)
    await t.app.services.bookingCommands.expire(paidLate.ticketId, later)
    expect((await pay(t.app, ivan, paidLate)).statusCode).toBe(200)
    await until(async () => (await orderRow(t.app, paidLate.ticketId))?.status === 'issued')

    const final = await figures(event._id, organizer)
    expect(final.analytics).toEqual([
      row({ type: 'General Admission', sold: 5, revenue: 2500, Pending: 1, Completed: 2, Failed: 0 }),
      row({ type: 'VIP', sold: 3, revenue: 4500, Pending: 1, Completed: 1, Failed: 1 }),
    ])
    expect(final.totals).toEqual({
      ticketsSold: 8,
      revenue: 7000,
      attendees: 3, // Esha, Farah (Dev's ticket), Ivan
      Pending: 2,
      Completed: 3,
      Failed: 1,
    })

    // The timeline: net tickets and revenue per hour, as the issue and cancel facts say.
    const expected = new Map<string, { tickets: number; revenue: number }>()
    const unit: Record<string, number> = { 'General Admission': 500, VIP: 1500 }
    for (const fact of await t.app.platform.ledger.readFrom(0, 100_000)) {
      const data = fact.data as { eventId?: string; quantity?: number; orderId?: string }
      if (data.eventId !== event._id) continue
      const sign = fact.type === 'TicketsIssued' ? 1 : fact.type === 'TicketCancelled' ? -1 : 0
      if (sign === 0) continue
      const order = await orderRow(t.app, data.orderId as string)
      const hour = `${fact.at.slice(0, 13)}:00:00.000Z`
      const sum = expected.get(hour) ?? { tickets: 0, revenue: 0 }
      sum.tickets += sign * (data.quantity ?? 0)
      sum.revenue += sign * (data.quantity ?? 0) * (unit[order?.ticketType ?? ''] ?? Number.NaN)
      expected.set(hour, sum)
    }
    expect(final.timeline).toEqual([...expected.entries()].sort().map(([at, sum]) => ({ at, ...sum })))
    expect(final.timeline.reduce((n, e) => n + e.tickets, 0)).toBe(8)
    expect(final.timeline.reduce((n, e) => n + e.revenue, 0)).toBe(7000)

    // The admin sees the same figures.
    expect(await figures(event._id, admin)).toEqual(final)
  })

  it('gives the same sales_* tables, row for row, after a rebuild from the ledger', async () => {
    const organizer = await organizerSession(t.app)
    const event = await approvedEvent(t.app, organizer, admin, { title: 'Rebuilt' })
    const other = await approvedEvent(t.app, organizer, admin, { title: 'Rebuilt too' })
    const [a, b, c, d] = [await signUp(t.app), await signUp(t.app), await signUp(t.app), await signUp(t.app)]
    const cancelled = await buy(t.app, a, event, 'VIP', 2)
    await failToPay(t.app, c, event, 'VIP', 1)
    // an unpaid hold that stays, while more sales move its address's count after it
    await hold(t.app, c, event, 'General Admission', 1)
    const given = await buy(t.app, b, event, 'General Admission', 3)
    await buy(t.app, b, event, 'VIP', 1)
    await cancel(t.app, a, cancelled)
    await buy(t.app, d, other, 'VIP', 1)
    await transfer(t.app, b, given, d)
    // a promo code used by a paid order and by one left unpaid
    const code = await t.app.inject({
      method: 'POST',
      url: `/api/v1/event/${other._id}/promo-codes`,
      headers: bearer(organizer.token),
      payload: { code: 'REBUILT', percentOff: 10 },
    })
    expect(code.statusCode, code.body).toBe(201)
    for (const who of [a, c]) {
      const placed = await t.app.inject({
        method: 'POST',
        url: '/api/v1/ticket/create',
        headers: bearer(who.token),
        payload: { eventId: other._id, ticketType: 'VIP', quantity: 1, amount: 1, promoCode: 'REBUILT' },
      })
      expect(placed.statusCode, placed.body).toBe(200)
      if (who !== a) continue
      const paid = await pay(t.app, who, placed.json())
      expect(paid.statusCode, paid.body).toBe(200)
      expect((await confirm(t.app, who, paid.json())).statusCode).toBe(200)
    }

    // every table of the analytics projection (attendance and the per-event row included),
    // booking's orders and counts of seats (per ticket type, and unpaid per client address), the
    // uses of promo codes and the door's passes: all read orders during the replay, which booking
    // holds in memory then
    const tables = [
      salesByTicketType,
      salesByHour,
      eventSales,
      attendance,
      salesTotals,
      passes,
      orders,
      inventory,
      heldByClient,
      promoCodes,
    ].map((t) => getTableName(t.sqlite))
    const dump = async () =>
      Object.fromEntries(
        await Promise.all(
          tables.map(
            async (name) => [name, await dbRows(t.app, `SELECT * FROM "${name}" ORDER BY 1, 2`)] as const,
          ),
        ),
      )
    const before = await dump()
    const reply = await figures(event._id, organizer)
    expect(before.sales_by_ticket_type?.length).toBeGreaterThanOrEqual(2)
    expect(before.attendance?.length).toBeGreaterThanOrEqual(4)
    expect(before.held_by_client?.length).toBeGreaterThanOrEqual(1)
    expect(before.orders?.length).toBeGreaterThanOrEqual(8)
    expect(before.passes?.length).toBeGreaterThanOrEqual(8)
    expect(before.promo_codes).toEqual([expect.objectContaining({ held: 1, paid: 1 })])

    const rebuilt = await rebuildStore(t.app)

    expect(rebuilt.tables).toEqual(expect.arrayContaining(tables))
    expect(await dump()).toEqual(before)
    expect(await figures(event._id, organizer)).toEqual(reply)

    // The replay folds the figures in memory; with room for only two rows it writes them out and
    // reads them back again and again, and must still end where the sales left them.
    const sqlite = t.app.platform.store.sqlite
    if (sqlite) {
      rebuildReadModels(sqlite.ledger, 5000, 2)
      expect(await dump()).toEqual(before)
    }
  })
})

describe('GET /api/v1/organizers/attendees', () => {
  it("lists the caller's events, each with who holds its tickets now (after transfers and cancellations)", async () => {
    const organizer = await organizerSession(t.app)
    const rival = await organizerSession(t.app)
    const busy = await approvedEvent(t.app, organizer, admin, { title: 'Busy', date: '2030-01-10' })
    const quiet = await submitEvent(t.app, organizer, { title: 'Quiet', date: '2030-01-20' })
    const theirs = await approvedEvent(t.app, rival, admin, { title: 'Theirs' })
    const keeper = await signUpWith('Keeper', '+91 98450 12345')
    const giver = await signUp(t.app, 'Giver')
    const taker = await signUp(t.app, 'Taker')
    const quitter = await signUp(t.app, 'Quitter')
    const waiter = await signUp(t.app, 'Waiter')
    const failer = await signUp(t.app, 'Failer')
    const kept = await buy(t.app, keeper, busy, 'VIP', 2)
    const given = await buy(t.app, giver, busy, 'General Admission', 1)
    await transfer(t.app, giver, given, taker)
    await cancel(t.app, quitter, await buy(t.app, quitter, busy, 'VIP', 1))
    await hold(t.app, waiter, busy, 'VIP', 1)
    await failToPay(t.app, failer, busy, 'VIP', 1)
    await buy(t.app, await signUp(t.app, 'Elsewhere'), theirs, 'VIP', 1)

    const res = await get(t.app, '/api/v1/organizers/attendees', organizer)

    expect(res.statusCode, res.body).toBe(200)
    const list = res.json() as AttendeesByEvent
    expect(list.map((e) => e.title)).toEqual(['Busy', 'Quiet'])
    expect(list[0]).toMatchObject({
      _id: busy._id,
      category: 'Music',
      location: busy.location,
      date: '2030-01-10',
      time: busy.time,
      approvalStatus: 'Approved',
    })
    const attendees = [...(list[0]?.attendees ?? [])].sort((x, y) => x.username.localeCompare(y.username))
    expect(attendees).toEqual([
      {
        _id: keeper.id,
        ticketId: kept,
        username: 'Keeper',
        email: keeper.email,
        phone: '+91 98450 12345',
        ticketType: 'VIP',
        quantity: 2,
        paymentStatus: 'Completed',
      },
      {
        _id: taker.id,
        ticketId: given,
        username: 'Taker',
        email: taker.email,
        phone: null,
        ticketType: 'General Admission',
        quantity: 1,
        paymentStatus: 'Completed',
      },
    ])
    expect(list[1]).toMatchObject({ _id: quiet._id, approvalStatus: 'Pending', attendees: [] })

    // The same people through the organizer's other views: candidates and the attendee lookup.
    const mine = (await get(t.app, '/api/v1/ticket/getorgid', organizer)).json() as EventView[]
    expect(mine.find((e) => e._id === busy._id)?.candidates.sort()).toEqual([keeper.id, taker.id].sort())
    const lookup = (userid: string) => post(t.app, '/api/v1/auth/getbyid', organizer, { userid })
    expect((await lookup(taker.id)).statusCode).toBe(200)
    for (const gone of [giver, quitter, waiter, failer]) expect((await lookup(gone.id)).statusCode).toBe(404)
  })

  it('shows the admin every event; refuses users (403) and visitors (401)', async () => {
    const organizer = await organizerSession(t.app)
    const event = await approvedEvent(t.app, organizer, admin, { title: 'Seen By Admin' })
    const buyer = await signUp(t.app, 'AdminSees')
    await buy(t.app, buyer, event, 'VIP', 1)

    const res = await get(t.app, '/api/v1/organizers/attendees', admin)
    expect(res.statusCode).toBe(200)
    const list = res.json() as AttendeesByEvent
    const all = (await get(t.app, '/api/v1/admin/events', admin)).json() as EventView[]
    expect(list.map((e) => e._id).sort()).toEqual(all.map((e) => e._id).sort())
    expect(list.find((e) => e._id === event._id)?.attendees.map((a) => a._id)).toEqual([buyer.id])

    const user = await get(t.app, '/api/v1/organizers/attendees', buyer)
    expect(user.statusCode).toBe(403)
    expect(user.json()).toEqual({ message: 'You are not allowed to do this.' })
    expect((await get(t.app, '/api/v1/organizers/attendees', null)).statusCode).toBe(401)
  })
})

/** RFC 4180: fields separated by commas, records by CRLF; a quoted field may hold , " (as "") CR LF. */
function parseCsv(text: string): string[][] {
  const records: string[][] = []
  let record: string[] = []
  let field = ''
  let i = 0
  let quoted = false
  while (i < text.length) {
    const ch = text[i] as string
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        field += '"'
        i += 2
      } else if (ch === '"') {
        quoted = false
        i++
      } else {
        field += ch
        i++
      }
    } else if (ch === '"') {
      if (field !== '') throw new Error(`a quote inside an unquoted field at ${i}`)
      quoted = true
      i++
    } else if (ch === ',') {
      record.push(field)
      field = ''
      i++
    } else if (ch === '\r' && text[i + 1] === '\n') {
      record.push(field)
      records.push(record)
      record = []
      field = ''
      i += 2
    } else if (ch === '\n' || ch === '\r') {
      throw new Error(`a bare line break outside quotes at ${i}`)
    } else {
      field += ch
      i++
    }
  }
  if (quoted) throw new Error('an unterminated quoted field')
  if (field !== '' || record.length > 0) throw new Error('the last record does not end with CRLF')
  return records
}

const header = [
  'eventName',
  'eventCategory',
  'username',
  'email',
  'phone',
  'paymentStatus',
  'ticketType',
  'quantity',
  'amount',
  'orderId',
  'admission',
  'seat',
]
const headerLine = header.join(',')

/** Holds `quantity` seats with a promo code, pays and confirms: the issued ticket's id. */
async function buyWithCode(
  buyer: Session,
  event: EventView,
  ticketType: string,
  quantity: number,
  promoCode: string,
) {
  const placed = await post(t.app, '/api/v1/ticket/create', buyer, {
    eventId: event._id,
    ticketType,
    quantity,
    amount: 1,
    promoCode,
  })
  expect(placed.statusCode, placed.body).toBe(200)
  const paid = await pay(t.app, buyer, placed.json())
  expect(paid.statusCode, paid.body).toBe(200)
  expect((await confirm(t.app, buyer, paid.json())).statusCode).toBe(200)
  return placed.json().ticketId as string
}

describe('GET /api/v1/organizers/attendees.csv', () => {
  it('downloads attendees_by_events.csv: the exact header, a row per admission, RFC 4180 quoting, formulas neutralised', async () => {
    const organizer = await organizerSession(t.app)
    const tricky = await approvedEvent(t.app, organizer, admin, {
      title: 'Rock, "Roll"\nand more',
      category: 'Music, Live',
    })
    const formula = await approvedEvent(t.app, organizer, admin, {
      title: '=HYPERLINK("http://evil.example","x")',
      category: '@Risky',
    })
    const comma = await signUpWith('Doe, Jane', '+91 98450 12345')
    const quote = await signUpWith('Say "Hi"')
    const lines = await signUpWith('First\nSecond')
    const equals = await signUpWith('=SUM(A1:A9)')
    const plus = await signUpWith('+cmd|calc')
    const minus = await signUpWith('-2+3', '-123456')
    const at = await signUpWith('@SUM(1,2)')
    const plain = await signUpWith('Plain Person')
    const ids = new Map<Session, string>()
    for (const s of [comma, quote, lines]) ids.set(s, await buy(t.app, s, tricky, 'VIP', 1))
    for (const s of [equals, plus, minus, at])
      ids.set(s, await buy(t.app, s, formula, 'General Admission', 1))
    // Gone from the list: a cancelled ticket, a hold and a failed payment; a transfer shows the new owner.
    const leaver = await signUpWith('Leaver')
    await cancel(t.app, leaver, await buy(t.app, leaver, tricky, 'VIP', 1))
    await hold(t.app, await signUpWith('Holder'), tricky, 'VIP', 1)
    await failToPay(t.app, await signUpWith('Failer'), tricky, 'VIP', 1)
    const giver = await signUpWith('Giver')
    const given = await buy(t.app, giver, formula, 'VIP', 1)
    await transfer(t.app, giver, given, plain)
    // A ticket of three admissions is three rows, each with its share of what was paid: 3 × ₹10.01
    // less 17 % is 2,492 paise, shared 831 + 831 + 830; amounts in rupees with their paise.
    const trio = await approvedEvent(t.app, organizer, admin, { title: 'Trio Night', category: 'Jazz' }, [
      { type: 'General Admission', price: 10.01, quantity: 10 },
    ])
    expect(
      (
        await post(t.app, `/api/v1/event/${trio._id}/promo-codes`, organizer, {
          code: 'SEVENTEEN',
          percentOff: 17,
        })
      ).statusCode,
    ).toBe(201)
    const threesome = await signUpWith('Three Seats')
    const three = await buyWithCode(threesome, trio, 'General Admission', 3, 'SEVENTEEN')
    // Someone else's event and attendee stay out of this organizer's file.
    const rival = await organizerSession(t.app)
    const theirs = await approvedEvent(t.app, rival, admin, { title: 'Not Yours' })
    const outsider = await signUpWith('Outsider')
    await buy(t.app, outsider, theirs, 'VIP', 1)

    const res = await get(t.app, '/api/v1/organizers/attendees.csv', organizer)

    expect(res.statusCode).toBe(200)
    expect(res.headers['content-type']).toMatch(/^text\/csv\b/)
    expect(res.headers['content-disposition']).toBe('attachment; filename="attendees_by_events.csv"')
    // SPEC's columns first, in its order; then what the ticket is
    expect(res.body.split('\r\n')[0]).toBe(
      'eventName,eventCategory,username,email,phone,paymentStatus,ticketType,quantity,amount,orderId,admission,seat',
    )
    const records = parseCsv(res.body)
    expect(records[0]).toEqual(header)
    // (multipart text fields carry line breaks as CRLF, as browsers send them)
    const t1 = tricky.title
    expect(t1).toBe('Rock, "Roll"\r\nand more')
    const t2 = '\'=HYPERLINK("http://evil.example","x")'
    const one = (s: Session, type: string, amount: string) => [
      type,
      '1',
      amount,
      ids.get(s) ?? given,
      '1 of 1',
      '',
    ]
    const expected = [
      [
        t1,
        'Music, Live',
        'Doe, Jane',
        comma.email,
        "'+91 98450 12345",
        'Completed',
        ...one(comma, 'VIP', '1500.00'),
      ],
      [t1, 'Music, Live', 'Say "Hi"', quote.email, '', 'Completed', ...one(quote, 'VIP', '1500.00')],
      [t1, 'Music, Live', 'First\nSecond', lines.email, '', 'Completed', ...one(lines, 'VIP', '1500.00')],
      [
        t2,
        "'@Risky",
        "'=SUM(A1:A9)",
        equals.email,
        '',
        'Completed',
        ...one(equals, 'General Admission', '500.00'),
      ],
      [t2, "'@Risky", "'+cmd|calc", plus.email, '', 'Completed', ...one(plus, 'General Admission', '500.00')],
      [
        t2,
        "'@Risky",
        "'-2+3",
        minus.email,
        "'-123456",
        'Completed',
        ...one(minus, 'General Admission', '500.00'),
      ],
      [t2, "'@Risky", "'@SUM(1,2)", at.email, '', 'Completed', ...one(at, 'General Admission', '500.00')],
      [t2, "'@Risky", 'Plain Person', plain.email, '', 'Completed', ...one(plain, 'VIP', '1500.00')],
      ...[
        ['8.31', '1 of 3'],
        ['8.31', '2 of 3'],
        ['8.30', '3 of 3'],
      ].map(([amount = '', admission = '']) => [
        'Trio Night',
        'Jazz',
        'Three Seats',
        threesome.email,
        '',
        'Completed',
        'General Admission',
        '1',
        amount,
        three,
        admission,
        '',
      ]),
    ]
    const byText = (x: string[], y: string[]) => x.join('|').localeCompare(y.join('|'))
    expect(records.slice(1).sort(byText)).toEqual(expected.sort(byText))
    // a ticket's admissions are next to each other, in order
    const trioRows = records.flatMap((r, i) => (r[9] === three ? [i] : []))
    expect(trioRows).toEqual([trioRows[0], (trioRows[0] ?? 0) + 1, (trioRows[0] ?? 0) + 2])
    expect(trioRows.map((i) => records[i]?.[10])).toEqual(['1 of 3', '2 of 3', '3 of 3'])
    // The encoding itself, as a spreadsheet reads it.
    expect(res.body).toContain('"Rock, ""Roll""\r\nand more","Music, Live","Doe, Jane"')
    expect(res.body).toContain(`"'=HYPERLINK(""http://evil.example"",""x"")",'@Risky,'=SUM(A1:A9),`)
    expect(res.body).toContain(
      `"'@SUM(1,2)",${at.email},,Completed,General Admission,1,500.00,${ids.get(at)},1 of 1,\r\n`,
    )
    expect(res.body).not.toContain('Outsider')

    // The admin's file holds every event's attendees, the rival's included.
    const all = await get(t.app, '/api/v1/organizers/attendees.csv', admin)
    expect(all.statusCode).toBe(200)
    const emails = parseCsv(all.body).map((r) => r[3])
    expect(emails).toEqual(expect.arrayContaining([outsider.email, plain.email, comma.email]))
    expect(emails).not.toContain(leaver.email)
  })

  it('gives each admission of a seated ticket its seat, as its pass names it', async () => {
    const organizer = await organizerSession(t.app)
    const admin = await adminSession(t.app)
    const event = await approvedEvent(t.app, organizer, admin, { title: 'Seated Evening' }, [
      { type: 'Stalls', price: 800, quantity: 12 },
    ])
    const map = await t.app.inject({
      method: 'PUT',
      url: `/api/v1/event/${event._id}/seatmap`,
      headers: bearer(organizer.token),
      payload: { sections: [gridSection('Stalls', 'Stalls', 2, 6)] },
    })
    expect(map.statusCode, map.body).toBe(200)
    const read = await get(t.app, `/api/v1/event/${event._id}/seatmap`, organizer)
    const rowA = (read.json() as SeatMapView).sections[0]?.rows[0]?.seats ?? []
    const buyer = await signUp(t.app)
    const placed = await post(t.app, '/api/v1/ticket/create', buyer, {
      eventId: event._id,
      seats: [rowA[2]?.id, rowA[3]?.id],
    })
    expect(placed.statusCode, placed.body).toBe(200)
    const paid = await pay(t.app, buyer, placed.json())
    expect(paid.statusCode, paid.body).toBe(200)
    expect((await confirm(t.app, buyer, paid.json())).statusCode).toBe(200)

    const res = await get(t.app, '/api/v1/organizers/attendees.csv', organizer)
    expect(res.statusCode).toBe(200)
    const rows = parseCsv(res.body).slice(1)
    expect(rows.map((r) => [r[10], r[11]])).toEqual([
      ['1 of 2', 'Stalls, Row A, Seat 3'],
      ['2 of 2', 'Stalls, Row A, Seat 4'],
    ])
  })

  it('refuses users (403) and visitors (401)', async () => {
    const user = await get(t.app, '/api/v1/organizers/attendees.csv', await signUp(t.app))
    expect(user.statusCode).toBe(403)
    expect(user.json()).toEqual({ message: 'You are not allowed to do this.' })
    const visitor = await get(t.app, '/api/v1/organizers/attendees.csv', null)
    expect(visitor.statusCode).toBe(401)
  })

  it('gives an organizer without events just the header line', async () => {
    const res = await get(t.app, '/api/v1/organizers/attendees.csv', await organizerSession(t.app))
    expect(res.statusCode).toBe(200)
    expect(res.body).toBe(`${headerLine}\r\n`)
  })
})

/** 50,000 on SQLite; on PostgreSQL, whose history alone took 4 minutes of the suite at 50,000 (about
 * 4 ms an attendee), 20,000: the export streams them by the same code, and the checks below are
 * relative to the rows (the heap's, see there) */
const ROWS = testStore === 'postgres' ? 20_000 : 50_000

describe(`GET /api/v1/organizers/attendees.csv with ${ROWS.toLocaleString('en')} attendees`, () => {
  /** how long writing the history may take: PostgreSQL appends each fact and runs its projections a
   * round trip at a time, minutes (about 4 ms an attendee) where SQLite takes seconds */
  const HISTORY_MS = testStore === 'postgres' ? 600_000 : 120_000
  let first: TestServer | undefined
  let server: TestServer
  let organizer: Session
  let event: EventView

  beforeAll(async () => {
    // The event is made through the API; its sales are history, appended to the ledger
    // (with their projections) while the server is down, the way a restored database holds them.
    // The job dispatcher's checkpoint is moved past them (their mails went out long ago); the
    // live pusher starts at the head anyway.
    first = await startServer({ RATE_LIMITS: 'off' })
    const boss = await adminSession(first.app)
    organizer = await organizerSession(first.app)
    event = await approvedEvent(
      first.app,
      organizer,
      boss,
      { title: `Stadium ${'Night '.repeat(20).trim()}` },
      [{ type: 'General Admission', price: 499, quantity: 100_000 }],
    )
    await first.stop()

    const ticketType = event.ticketTypes[0] as EventView['ticketTypes'][number]
    const started = performance.now()
    const heldUntil = new Date(Date.now() + 3_600_000).toISOString()
    /** the i-th attendee's sign-up and paid order */
    const history = (i: number) => {
      const accountId = newId()
      const orderId = newId()
      const registered: AccountRegistered = {
        type: 'AccountRegistered',
        data: {
          accountId,
          username: `Attendee number ${i} with a rather long display name`,
          email: `attendee-${i}-${accountId}@bulk.example.com`,
          passwordHash: 'not-a-real-hash',
          role: 'user',
          phone: `98450${String(i).padStart(5, '0')}`,
          createdBy: null,
        },
      }
      const held: TicketsHeld = {
        type: 'TicketsHeld',
        data: {
          orderId,
          buyerId: accountId,
          eventId: event._id,
          organizerId: organizer.id,
          ticketTypeId: ticketType._id,
          ticketType: 'General Admission',
          quantity: 1,
          unitPricePaise: 49900,
          amountPaise: 49900,
          provider: 'local',
          providerOrderId: `order_bulk_${orderId}`,
          heldUntil,
        },
      }
      const issued: TicketsIssued = {
        type: 'TicketsIssued',
        data: {
          orderId,
          ownerId: accountId,
          eventId: event._id,
          ticketTypeId: ticketType._id,
          quantity: 1,
          amountPaise: 49900,
          afterExpiry: false,
        },
      }
      return { accountId, orderId, registered, held, issued }
    }
    const checkpoint =
      "INSERT INTO checkpoints (name, position, at) VALUES ('jobs', ?, ?) ON CONFLICT (name) DO UPDATE SET position = excluded.position, at = excluded.at"
    // ...and they went out untracked, like mails sent before sent_mails existed.
    const untracked = "UPDATE sent_mails SET sent_at = ? WHERE job_id = '~recorded-since'"
    // (a moment after the last of them: taken once they are appended)
    const recordedSince = () => new Date(Date.now() + 1000).toISOString()
    const { databaseUrl } = first.config
    if (databaseUrl) {
      const connection = await openPostgres(databaseUrl, 2)
      try {
        // In transactions of 500 attendees: one transaction of them all would update the same
        // few rows (inventory, the event's sales) 50,000 times, and PostgreSQL keeps every version
        // of a row a transaction updates until it ends, each update stepping over the ones before.
        const ledger = pgAppLedger(connection.pool)
        for (let from = 0; from < ROWS; from += 500) {
          await ledger.transaction(async (tx) => {
            for (let i = from; i < Math.min(ROWS, from + 500); i++) {
              const { accountId, orderId, registered, held, issued } = history(i)
              await tx.append(streams.account(accountId), 0, [registered], { actor: 'system' })
              await tx.append(streams.order(orderId), 0, [held, issued], { actor: accountId })
            }
          })
        }
        await ledger.transaction(async (tx) => {
          const [top] = await tx.query<{ head: number }>('SELECT max(position) AS head FROM ledger')
          await tx.query(numberedPlaceholders(checkpoint), [top?.head, new Date().toISOString()])
          await tx.query(numberedPlaceholders(untracked), [recordedSince()])
        })
      } finally {
        await connection.close()
      }
    } else {
      const connection = openDatabase(first.config.databaseFile)
      const ledger = appLedger(connection)
      ledger.transaction(() => {
        for (let i = 0; i < ROWS; i++) {
          const { accountId, orderId, registered, held, issued } = history(i)
          ledger.append(streams.account(accountId), 0, [registered], { actor: 'system' })
          ledger.append(streams.order(orderId), 0, [held, issued], { actor: accountId })
        }
        ledger.sqlite.prepare(checkpoint).run(ledger.head(), new Date().toISOString())
        ledger.sqlite.prepare(untracked).run(recordedSince())
      })
      connection.close()
    }
    console.info(
      `${ROWS} attendees (${ROWS * 3} facts) appended in ${(performance.now() - started).toFixed(0)} ms`,
    )
    server = await startServer({
      RATE_LIMITS: 'off',
      DATA_DIR: first.config.dataDir,
      ...sameStore(first.config),
    })
  }, HISTORY_MS)

  afterAll(async () => {
    await server?.close()
    await first?.release()
  })

  it('streams a line per attendee and a header: the first bytes arrive long before the last, and the heap never holds all rows', async () => {
    setFlagsFromString('--expose-gc')
    const gc = runInNewContext('gc') as () => void
    gc()
    const baseline = process.memoryUsage().heapUsed
    let peak = 0
    const sample = () => {
      gc()
      peak = Math.max(peak, process.memoryUsage().heapUsed - baseline)
    }
    const sampler = setInterval(sample, 100)

    const started = performance.now()
    const res = await fetch(`${server.url}/api/v1/organizers/attendees.csv`, {
      headers: bearer(organizer.token),
    })
    expect(res.status).toBe(200)
    expect(res.headers.get('content-disposition')).toBe('attachment; filename="attendees_by_events.csv"')
    expect(res.headers.get('content-length')).toBeNull()
    const reader = (res.body as ReadableStream<Uint8Array>).getReader()
    const decoder = new TextDecoder()
    let firstChunkAt = 0
    let firstChunkBytes = 0
    let chunks = 0
    let bytes = 0
    let lines = 0
    let head = ''
    let tail = ''
    let healthAnsweredAt = Number.POSITIVE_INFINITY
    let health: Promise<void> = Promise.resolve()
    for (;;) {
      const { done, value } = await reader.read()
      if (done) break
      chunks++
      bytes += value.byteLength
      if (chunks === 1) {
        firstChunkAt = performance.now() - started
        firstChunkBytes = value.byteLength
        // Other requests are answered while the export runs.
        health = fetch(`${server.url}/api/v1/health/live`).then(async (r) => {
          expect(r.status).toBe(200)
          await r.text()
          healthAnsweredAt = performance.now() - started
        })
      }
      const text = decoder.decode(value, { stream: true })
      if (head.length < 2000) head += text
      tail = (tail + text).slice(-2000)
      for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) lines++
      if (chunks % 50 === 0) sample()
    }
    const total = performance.now() - started
    clearInterval(sampler)
    sample()
    await health

    console.info(
      `export: ${lines} lines, ${(bytes / 1e6).toFixed(1)} MB in ${chunks} chunks; first chunk (${firstChunkBytes} B) after ${firstChunkAt.toFixed(0)} ms, whole body after ${total.toFixed(0)} ms; another request answered at ${healthAnsweredAt.toFixed(0)} ms; peak retained heap growth ${(peak / 1e6).toFixed(1)} MB`,
    )
    expect(lines).toBe(ROWS + 1)
    expect(head.startsWith(`${headerLine}\r\n`)).toBe(true)
    const firstRow = parseCsv(head.slice(0, head.indexOf('\r\n', head.indexOf('\r\n') + 2) + 2))[1]
    expect(firstRow).toEqual([
      event.title,
      'Music',
      expect.stringMatching(/^Attendee number \d+ with a rather long display name$/),
      expect.stringMatching(/@bulk\.example\.com$/),
      expect.stringMatching(/^98450\d{5}$/),
      'Completed',
      'General Admission',
      '1',
      '499.00',
      expect.any(String),
      '1 of 1',
      '',
    ])
    expect(tail).toMatch(/,Completed,General Admission,1,499.00,[^,]+,1 of 1,\r\n$/)
    // Streamed: many chunks, the first a small part of the body and well before the end.
    expect(chunks).toBeGreaterThan(10)
    expect(firstChunkBytes).toBeLessThan(bytes / 10)
    expect(firstChunkAt).toBeLessThan(total / 2)
    expect(healthAnsweredAt).toBeLessThan(total)
    // The rows as text alone are `bytes` long (twice that as JS strings); the server never kept
    // anything near that alive at once.
    // On PostgreSQL the driver's own buffers add about 3 MB whatever the rows, which at its 20,000
    // rows is near half their text: there the bound is the text itself, still half of what the rows
    // take as JS strings.
    console.info(`heap peak ${peak} bytes for ${bytes} bytes of rows`)
    expect(peak).toBeLessThan(testStore === 'postgres' ? bytes : bytes / 2)

    // Once more without the heap sampling (its forced collections slow everything down): the time.
    const again = performance.now()
    const plain = await fetch(`${server.url}/api/v1/organizers/attendees.csv`, {
      headers: bearer(organizer.token),
    })
    let plainBytes = 0
    for await (const chunk of plain.body as unknown as AsyncIterable<Uint8Array>)
      plainBytes += chunk.byteLength
    const plainMs = performance.now() - again
    console.info(
      `export without heap sampling: ${(plainBytes / 1e6).toFixed(1)} MB in ${plainMs.toFixed(0)} ms`,
    )
    expect(plainBytes).toBe(bytes)
  }, 60_000)
})
