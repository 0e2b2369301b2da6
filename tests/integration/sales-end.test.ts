import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { EventView } from '../../contracts/catalog.ts'
import { events } from '../../server/catalog/tables.ts'
import { adminSession, bearer, organizerSession, type Session, signUp } from '../support/accounts.ts'
import { startApp, type TestApp } from '../support/app.ts'
import { wallClockIn } from '../support/clock.ts'
import { dbCount, dbExec, rebuildStore } from '../support/db.ts'
import { createApprovedEvent, inventoryRow, order, ticketTypeOf } from '../support/events.ts'

// New York, not the default Asia/Kolkata: the same wall clock there is about ten hours earlier.
const zone = 'America/New_York'

const tickets = [{ type: 'General Admission' as const, price: 300, quantity: 50 }]
const CLOSED = { message: 'Booking for this event has closed.' }
const AFTER_START = 'Sales must end before the event starts.'

/** POST /event/create with the given fields over a complete, valid event: the raw response. */
async function submit(app: FastifyInstance, organizer: Session, fields: Record<string, string>) {
  const form = new FormData()
  const all: Record<string, string> = {
    title: 'Last Call Jazz',
    description: 'Tickets on sale until the doors are set.',
    date: wallClockIn(zone, 3 * 24 * 60).date,
    time: '19:30',
    location: 'Bengaluru',
    category: 'Music',
    ticketTypes: JSON.stringify(tickets),
    ...fields,
  }
  for (const [name, value] of Object.entries(all)) form.append(name, value)
  const request = new Request('http://x/', { method: 'POST', body: form })
  return app.inject({
    method: 'POST',
    url: '/api/v1/event/create',
    payload: Buffer.from(await request.arrayBuffer()),
    headers: { 'content-type': request.headers.get('content-type') ?? '', ...bearer(organizer.token) },
  })
}

describe('POST /event/create with a sales end (TIMEZONE America/New_York)', () => {
  let t: TestApp
  let app: FastifyInstance
  let organizer: Session
  let admin: Session
  beforeAll(async () => {
    t = await startApp({ TIMEZONE: zone })
    app = t.app
    organizer = await organizerSession(app)
    admin = await adminSession(app)
  })
  afterAll(async () => {
    await t?.close()
  })

  const eventSelling = (salesEnd: string, startsIn = 3 * 24 * 60) =>
    createApprovedEvent(app, organizer, admin, tickets, { ...wallClockIn(zone, startsIn), salesEnd })

  it('closes booking at a sales end that has passed, before the start: 409 and nothing stored', async () => {
    const event = await eventSelling(wallClockIn(zone, -40).dateTime)
    const buyer = await signUp(app, 'TooLate')
    const before = await app.platform.ledger.head()

    const res = await order(app, buyer, { eventId: event._id, ticketType: 'General Admission', quantity: 1 })

    expect(res.statusCode).toBe(409)
    expect(res.json()).toEqual(CLOSED)
    expect(await app.platform.ledger.head()).toBe(before)
    expect((await inventoryRow(app, ticketTypeOf(event, 'General Admission')._id))?.held ?? 0).toBe(0)
  })

  it('sells until the sales end in the event’s zone: 40 minutes ahead in New York is still on sale', async () => {
    const event = await eventSelling(wallClockIn(zone, 40).dateTime)
    const buyer = await signUp(app, 'InTime')

    const res = await order(app, buyer, { eventId: event._id, ticketType: 'General Admission', quantity: 1 })

    expect(res.statusCode, res.body).toBe(200)
  })

  it('still closes at the start when that comes first (a sales end equal to the start is allowed)', async () => {
    const start = wallClockIn(zone, 0)
    const started = await createApprovedEvent(app, organizer, admin, tickets, {
      date: start.date,
      time: '00:00',
      salesEnd: `${start.date}T00:00`,
    })
    const buyer = await signUp(app, 'AtTheDoor')

    const res = await order(app, buyer, {
      eventId: started._id,
      ticketType: 'General Admission',
      quantity: 1,
    })

    expect(res.statusCode).toBe(409)
    expect(res.json()).toEqual(CLOSED)
  })

  it('refuses a sales end after the event starts with 400 on salesEnd, storing nothing', async () => {
    const date = wallClockIn(zone, 3 * 24 * 60).date
    const before = await app.platform.ledger.head()
    const rows = await dbCount(app, events.name)

    for (const salesEnd of [`${date}T19:31`, `${date}T23:59`, '2999-01-01T00:00']) {
      const res = await submit(app, organizer, { date, time: '19:30', salesEnd })
      expect(res.statusCode, salesEnd).toBe(400)
      expect(res.json()).toEqual({
        message: AFTER_START,
        issues: [{ field: 'salesEnd', message: AFTER_START }],
      })
    }
    expect(await app.platform.ledger.head()).toBe(before)
    expect(await dbCount(app, events.name)).toBe(rows)
  })

  it('refuses a sales end that is not a real date and time with 400 on salesEnd', async () => {
    const before = await app.platform.ledger.head()
    for (const salesEnd of [
      'tomorrow',
      '2027-02-30T10:00',
      '2027-03-01T24:00',
      '2027-03-01 10:00',
      '2027-03-01',
    ]) {
      const res = await submit(app, organizer, { salesEnd })
      expect(res.statusCode, salesEnd).toBe(400)
      expect(res.json().issues).toEqual([
        { field: 'salesEnd', message: expect.stringMatching(/^Sales end /) },
      ])
    }
    expect(await app.platform.ledger.head()).toBe(before)
  })

  it('carries the sales end in every view of the event, as entered; none is null', async () => {
    const date = wallClockIn(zone, 3 * 24 * 60).date
    const created = await submit(app, organizer, { date, time: '19:30', salesEnd: ` ${date}T18:00 ` })
    expect(created.statusCode, created.body).toBe(201)
    const event = created.json().event as EventView
    expect(event.salesEnd).toBe(`${date}T18:00`)
    expect((await app.platform.ledger.readStream(`event-${event._id}`))[0]?.data).toMatchObject({
      salesEnd: `${date}T18:00`,
    })

    const approved = await app.inject({
      method: 'PUT',
      url: `/api/v1/admin/events/${event._id}/status`,
      headers: bearer(admin.token),
      payload: { status: 'Approved' },
    })
    expect(approved.json().event.salesEnd).toBe(`${date}T18:00`)
    const detail = await app.inject({ method: 'GET', url: `/api/v1/event/${event._id}` })
    expect(detail.json().salesEnd).toBe(`${date}T18:00`)
    const listing = (await app.inject({ method: 'GET', url: '/api/v1/event' })).json() as EventView[]
    expect(listing.find((e) => e._id === event._id)?.salesEnd).toBe(`${date}T18:00`)
    const own = await app.inject({
      method: 'GET',
      url: '/api/v1/ticket/getorgid',
      headers: bearer(organizer.token),
    })
    expect((own.json() as EventView[]).find((e) => e._id === event._id)?.salesEnd).toBe(`${date}T18:00`)

    // An empty field (a datetime-local left blank) is no sales end, and its fact says nothing of one.
    const plain = await submit(app, organizer, { salesEnd: '' })
    expect(plain.statusCode, plain.body).toBe(201)
    const none = plain.json().event as EventView
    expect(none.salesEnd).toBeNull()
    expect((await app.platform.ledger.readStream(`event-${none._id}`))[0]?.data).not.toHaveProperty(
      'salesEnd',
    )
  })

  it('keeps sales ends through a rebuild of the read models (and facts without one stay null)', async () => {
    const { catalog } = app.platform.store.queries
    const byId = (a: { id: string }, b: { id: string }) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)
    const allEvents = async () => (await catalog.all()).sort(byId)
    const date = wallClockIn(zone, 3 * 24 * 60).date
    const withEnd = (await submit(app, organizer, { date, time: '19:30', salesEnd: `${date}T12:00` })).json()
      .event as EventView
    const without = (await submit(app, organizer, {})).json().event as EventView
    const live = await allEvents()
    expect(live.find((e) => e.id === withEnd._id)?.salesEnd).toBe(`${date}T12:00`)
    expect(live.find((e) => e.id === without._id)?.salesEnd).toBeNull()

    await dbExec(app, 'DELETE FROM events')
    await rebuildStore(app)

    expect(await allEvents()).toEqual(live)
    expect((await catalog.byId(withEnd._id))?.salesEnd).toBe(`${date}T12:00`)
    // …and booking still closes at it after the rebuild.
    const closing = await eventSelling(wallClockIn(zone, -40).dateTime)
    await rebuildStore(app)
    const res = await order(app, await signUp(app, 'AfterRebuild'), {
      eventId: closing._id,
      ticketType: 'General Admission',
      quantity: 1,
    })
    expect(res.statusCode).toBe(409)
    expect(res.json()).toEqual(CLOSED)
  })
})
