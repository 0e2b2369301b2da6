// The waiting room (issue 41) on the real app and store (both, by the suite's projects): the
// organizer sets a sale time and a room; buyers who come early wait in the pre-queue and take random
// places at the opening, later ones join at the back; one place per account however often it joins;
// admissions in line order at the set rate (none while paused, nobody twice, positions only ever
// forward) or to a number of checkouts; a checkout refused before the sale and without an
// admission; each place pushed live; the room closed when the event sells out; the read models
// equal a rebuild from the ledger.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { CreateOrderReply } from '../../contracts/booking.ts'
import type { EventView } from '../../contracts/catalog.ts'
import {
  ADMISSION_NEEDED,
  NO_WAITING_ROOM,
  NOT_IN_LINE,
  NOT_ON_SALE_YET,
  type QueuePlace,
  type QueuePush,
  type QueueStats,
  SALE_AFTER_BOOKING_CLOSES,
  SALE_OPENED,
  saleTimeTag,
  TYPE_NOT_ON_SALE_YET,
  TYPE_OPENS_BEFORE_SALE,
  TYPE_SALE_TIME_TWICE,
} from '../../contracts/queue.ts'
import { EVENT_CALLED_OFF } from '../../server/booking/decide.ts'
import { NOT_YOUR_LINE } from '../../server/queue/routes.ts'
import { adminSession, bearer, organizerSession, type Session, signUp } from '../support/accounts.ts'
import { wallClockIn } from '../support/clock.ts'
import { dbRows, rebuildStore } from '../support/db.ts'
import { open, sockets, watch } from '../support/live-sockets.ts'
import { approvedEvent, type Checkout, confirm, get, pay, post, until } from '../support/sales.ts'
import { startServer, type TestServer } from '../support/server.ts'

let server: TestServer
const app = () => server.app
let admin: Session
let organizer: Session

beforeAll(async () => {
  // each process moves its rooms on every 100 ms; at most 2 checkouts at once without a set rate
  server = await startServer({
    RATE_LIMITS: 'off',
    LOG_LEVEL: 'error',
    QUEUE_TICK_MS: '100',
    QUEUE_CHECKOUTS: '2',
  })
  admin = await adminSession(app())
  organizer = await organizerSession(app(), 'Promoter')
}, 60_000)

afterAll(async () => {
  for (const socket of sockets) socket.disconnect()
  await server?.close()
})

const at = (ms: number) => new Date(ms).toISOString()

const showEvent = (title: string, seats = 100) =>
  approvedEvent(app(), organizer, admin, { title }, [
    { type: 'General Admission', price: 500, quantity: seats },
  ])

const setOnSale = (event: Pick<EventView, '_id'>, body: Record<string, unknown>, who: Session = organizer) =>
  app().inject({
    method: 'PUT',
    url: `/api/v1/event/${event._id}/onsale`,
    headers: bearer(who.token),
    payload: body,
  })

const join = async (event: Pick<EventView, '_id'>, who: Session): Promise<QueuePlace> => {
  const res = await post(app(), `/api/v1/event/${event._id}/queue`, who)
  expect(res.statusCode, res.body).toBe(200)
  return res.json() as QueuePlace
}

const me = async (event: Pick<EventView, '_id'>, who: Session): Promise<QueuePlace> => {
  const res = await get(app(), `/api/v1/event/${event._id}/queue/me`, who)
  expect(res.statusCode, res.body).toBe(200)
  return res.json() as QueuePlace
}

const stats = async (event: Pick<EventView, '_id'>, who: Session = organizer): Promise<QueueStats> => {
  const res = await get(app(), `/api/v1/event/${event._id}/queue`, who)
  expect(res.statusCode, res.body).toBe(200)
  return res.json() as QueueStats
}

const book = (event: Pick<EventView, '_id'>, who: Session) =>
  post(app(), '/api/v1/ticket/create', who, {
    eventId: event._id,
    ticketType: 'General Admission',
    quantity: 1,
  })

/** the room moved on as its processes would at `now` */
const tick = (event: EventView, now: number) =>
  app().services.queueCommands.tick(
    event._id,
    event.ticketTypes.map((t) => t._id),
    at(now),
  )

describe('PUT /event/{id}/onsale', () => {
  it('is told to the event’s room, whose join says the sale time as it is then', async () => {
    const event = await showEvent('Onsale Told')
    const room = `event-${event._id}`
    const early = await open(server.url)
    expect(await watch(early, room)).toEqual({ ok: true, room, saleTime: null })
    const heard: Array<{ type: string; data: unknown }> = []
    early.on('fact', (push: { type: string; data: unknown }) => heard.push(push))
    const saved = await setOnSale(event, {
      opensAt: new Date(Date.now() + 3_600_000).toISOString(),
      waitingRoom: true,
      admitPerMinute: 30,
    })
    expect(saved.statusCode, saved.body).toBe(200)
    await until(() => heard.some((push) => push.type === 'OnSaleSet'))
    expect(heard.find((push) => push.type === 'OnSaleSet')?.data).toEqual({ eventId: event._id })
    // a page joining now is told the time saved, as its view gives it
    const late = await open(server.url)
    const tag = saleTimeTag(saved.json().onsale)
    expect(tag).not.toBeNull()
    expect(await watch(late, room)).toEqual({ ok: true, room, saleTime: tag })
  })

  it('is the organizer’s, checks what it is given, and after the opening changes only the rate', async () => {
    const event = await showEvent('Onsale Rules')
    const opensAt = Date.now() + 3_600_000
    const bad = await setOnSale(event, { opensAt: 'tomorrow', waitingRoom: true })
    expect(bad.statusCode).toBe(400)
    expect(bad.json().message).toMatch(/on-sale time/)
    // an offset without its minutes looks like a time and names none: refused, not a 500
    const hours = await setOnSale(event, { opensAt: '2030-01-01T10:00:00+05', waitingRoom: true })
    expect([hours.statusCode, hours.json().message]).toEqual([
      400,
      'The on-sale time must be a date and time (ISO 8601, e.g. 2026-12-24T10:00:00Z).',
    ])
    expect((await setOnSale(event, { opensAt: at(opensAt), waitingRoom: 'yes' })).statusCode).toBe(400)
    // a sale opening once booking has closed (the event's start) would sell nothing; nor a type's
    const late = await setOnSale(event, { opensAt: '2099-01-01T00:00:00Z', waitingRoom: true })
    expect([late.statusCode, late.json().message]).toEqual([400, SALE_AFTER_BOOKING_CLOSES])
    const lateType = await setOnSale(event, {
      opensAt: at(opensAt),
      waitingRoom: true,
      ticketTypes: [{ ticketType: 'General Admission', opensAt: '2099-01-01T00:00:00Z' }],
    })
    expect([lateType.statusCode, lateType.json().issues]).toEqual([
      400,
      [{ field: 'ticketTypes', message: SALE_AFTER_BOOKING_CLOSES }],
    ])
    expect(
      (await setOnSale(event, { opensAt: at(opensAt), waitingRoom: true, admitPerMinute: 0 })).statusCode,
    ).toBe(400)
    const buyer = await signUp(app())
    expect((await setOnSale(event, { opensAt: at(opensAt), waitingRoom: true }, buyer)).statusCode).toBe(403)
    const other = await organizerSession(app(), 'Rival')
    expect((await setOnSale(event, { opensAt: at(opensAt), waitingRoom: true }, other)).statusCode).toBe(403)
    // nor theirs to watch: a read refused as a read
    const watched = await get(app(), `/api/v1/event/${event._id}/queue`, other)
    expect([watched.statusCode, watched.json().message]).toEqual([403, NOT_YOUR_LINE])

    // the room's own reply says null for no set rate: given back, it means the same
    const following = await setOnSale(event, {
      opensAt: at(opensAt),
      waitingRoom: true,
      admitPerMinute: null,
    })
    expect(following.statusCode, following.body).toBe(200)
    expect(following.json().onsale).toMatchObject({ admitPerMinute: null })
    const saved = await setOnSale(event, { opensAt: at(opensAt), waitingRoom: true, admitPerMinute: 60 })
    expect(saved.statusCode, saved.body).toBe(200)
    expect(saved.json()).toEqual({
      message: expect.any(String),
      onsale: { opensAt: at(opensAt), waitingRoom: true, admitPerMinute: 60, ticketTypes: [] },
    })
    // nor may the event be edited to close booking at or before that sale time (its sales end
    // half an hour from now, the sale opening in an hour): refused, the event as it was
    const zone = app().platform.config.timeZone
    const edit = (fields: Record<string, unknown>) =>
      app().inject({
        method: 'PUT',
        url: `/api/v1/event/${event._id}`,
        headers: bearer(organizer.token),
        payload: fields,
      })
    const early = await edit({ salesEnd: wallClockIn(zone, 30).dateTime })
    expect([early.statusCode, early.json().issues]).toEqual([
      400,
      [{ field: 'salesEnd', message: SALE_AFTER_BOOKING_CLOSES }],
    ])
    expect((await get(app(), `/api/v1/event/${event._id}`)).json().salesEnd ?? null).toBeNull()
    const fine = await edit({ salesEnd: wallClockIn(zone, 90).dateTime })
    expect(fine.statusCode, fine.body).toBe(200)
    // opened (by its first tick): its time and room stay, its rate may change
    await tick(event, opensAt)
    const moved = await setOnSale(event, {
      opensAt: at(opensAt + 60_000),
      waitingRoom: true,
      admitPerMinute: 60,
    })
    expect([moved.statusCode, moved.json().message]).toEqual([409, SALE_OPENED])
    const faster = await setOnSale(event, { opensAt: at(opensAt), waitingRoom: true, admitPerMinute: 120 })
    expect(faster.json().onsale.admitPerMinute).toBe(120)
    // the event page reads it, as anyone
    const shown = await get(app(), `/api/v1/event/${event._id}/onsale`)
    expect(shown.json()).toEqual({
      opensAt: at(opensAt),
      waitingRoom: true,
      admitPerMinute: 120,
      ticketTypes: [],
    })
    expect(
      (await get(app(), `/api/v1/event/${(await showEvent('No Sale Time'))._id}/onsale`)).statusCode,
    ).toBe(404)
  })
})

describe('a ticket type’s own sale time', () => {
  it('keeps that type off sale until its time while the others sell, shown on the event page', async () => {
    const event = await approvedEvent(app(), organizer, admin, { title: 'Second Release' }, [
      { type: 'Early Bird', price: 400, quantity: 10 },
      { type: 'Regular', price: 600, quantity: 10 },
    ])
    const regular = event.ticketTypes.find((t) => t.type === 'Regular')
    if (!regular) throw new Error('no Regular type')
    const opensAt = Date.now() - 60_000
    const later = Date.now() + 3_600_000
    // named by its name in any case (or by its id), never before the event's own time
    const before = await setOnSale(event, {
      opensAt: at(opensAt),
      waitingRoom: false,
      ticketTypes: [{ ticketType: 'regular', opensAt: at(opensAt - 1000) }],
    })
    expect([before.statusCode, before.json().message]).toEqual([400, TYPE_OPENS_BEFORE_SALE])
    const unknown = await setOnSale(event, {
      opensAt: at(opensAt),
      waitingRoom: false,
      ticketTypes: [{ ticketType: 'Balcony', opensAt: at(later) }],
    })
    expect([unknown.statusCode, unknown.json().message]).toEqual([
      400,
      'This event has no ticket type “Balcony”.',
    ])
    const twice = await setOnSale(event, {
      opensAt: at(opensAt),
      waitingRoom: false,
      ticketTypes: [
        { ticketType: 'Regular', opensAt: at(later) },
        { ticketType: regular._id, opensAt: at(later) },
      ],
    })
    expect([twice.statusCode, twice.json().message]).toEqual([400, TYPE_SALE_TIME_TWICE])
    expect(
      (await setOnSale(event, { opensAt: at(opensAt), waitingRoom: false, ticketTypes: 'Regular' }))
        .statusCode,
    ).toBe(400)

    const saved = await setOnSale(event, {
      opensAt: at(opensAt),
      waitingRoom: false,
      ticketTypes: [{ ticketType: 'regular', opensAt: at(later) }],
    })
    expect(saved.statusCode, saved.body).toBe(200)
    const onsale = {
      opensAt: at(opensAt),
      waitingRoom: false,
      admitPerMinute: null,
      ticketTypes: [{ ticketType: 'Regular', ticketTypeId: regular._id, opensAt: at(later) }],
    }
    expect(saved.json().onsale).toEqual(onsale)
    expect((await get(app(), `/api/v1/event/${event._id}/onsale`)).json()).toEqual(onsale)

    // the early bird sells; the regular tickets not yet, with the reason, and nothing is held
    const buyer = await signUp(app())
    const order = (ticketType: string) =>
      post(app(), '/api/v1/ticket/create', buyer, { eventId: event._id, ticketType, quantity: 1 })
    expect((await order('Early Bird')).statusCode).toBe(200)
    const early = await order('Regular')
    expect([early.statusCode, early.json().message]).toEqual([409, TYPE_NOT_ON_SALE_YET])
    expect(await dbRows(app(), 'SELECT id FROM orders WHERE ticket_type_id = ?', regular._id)).toEqual([])

    // saved again without the list: the regular time is kept; an empty list puts it on sale with the event
    const kept = await setOnSale(event, { opensAt: at(opensAt), waitingRoom: false, admitPerMinute: 10 })
    expect(kept.json().onsale.ticketTypes).toEqual(onsale.ticketTypes)
    const cleared = await setOnSale(event, { opensAt: at(opensAt), waitingRoom: false, ticketTypes: [] })
    expect(cleared.json().onsale.ticketTypes).toEqual([])
    expect((await order('Regular')).statusCode).toBe(200)
  })
})

describe('the line', () => {
  it('gives the pre-queue random places at the opening, later arrivals the back, one place per account', async () => {
    const event = await showEvent('Big Onsale')
    const opensAt = Date.now() + 3_600_000
    expect(
      (await setOnSale(event, { opensAt: at(opensAt), waitingRoom: true, admitPerMinute: 60 })).statusCode,
    ).toBe(200)
    const early = await Promise.all(Array.from({ length: 6 }, (_, i) => signUp(app(), `Early${i}`)))
    for (const buyer of early) expect(await join(event, buyer)).toEqual({ state: 'pre-queue' })
    // another tab, another device, at once: the same place, and no second one
    const again = await Promise.all([join(event, early[0] as Session), join(event, early[0] as Session)])
    expect(again).toEqual([{ state: 'pre-queue' }, { state: 'pre-queue' }])
    expect(
      (await get(app(), `/api/v1/event/${event._id}/queue/me`, await signUp(app()))).json().message,
    ).toBe(NOT_IN_LINE)
    // before the sale time nothing is sold, to anyone: with the room on, a 403 as without an
    // admission (API.md), its reason the time
    const tooSoon = await book(event, early[0] as Session)
    expect([tooSoon.statusCode, tooSoon.json().message]).toEqual([403, NOT_ON_SALE_YET])

    // the opening: the six take places 1 to 6 in a random order; one who comes after is 7th
    await tick(event, opensAt)
    const places = await Promise.all(early.map((buyer) => me(event, buyer)))
    expect(places.map((p) => p.state)).toEqual(Array(6).fill('waiting'))
    expect(places.map((p) => p.position).sort()).toEqual([1, 2, 3, 4, 5, 6])
    for (const p of places) expect(p.ahead).toBe((p.position as number) - 1)
    const late = await signUp(app(), 'Late')
    await app().services.queueCommands.join(event._id, late.id, { actor: late.id }, at(opensAt + 500))
    expect(await me(event, late)).toMatchObject({ state: 'waiting', position: 7, ahead: 6, etaSeconds: 7 })
    const rows = await dbRows(
      app(),
      'SELECT account_id, line FROM queue_places WHERE event_id = ? ORDER BY line',
      event._id,
    )
    expect(rows.map((r) => Number(r.line))).toEqual([1, 2, 3, 4, 5, 6, 7])

    // 60 a minute: two seconds on, the first two are admitted, for ADMISSION_MINUTES (10)
    const firstAdmitted = await tick(event, opensAt + 2000)
    expect(firstAdmitted.map((f) => f.type)).toEqual(['QueueAdmitted'])
    expect(await tick(event, opensAt + 2000)).toEqual([])
    const after = await Promise.all(early.map((buyer) => me(event, buyer)))
    early.forEach((_, i) => {
      const before = places[i] as QueuePlace
      const now = after[i] as QueuePlace
      if ((before.position as number) <= 2) {
        expect(now).toEqual({ state: 'admitted', admissionExpiresAt: at(opensAt + 2000 + 10 * 60_000) })
      } else expect(now.position).toBe((before.position as number) - 2)
    })
    expect(await stats(event)).toEqual({
      waiting: 5,
      admitted: 2,
      // admitted, their admissions running, nothing bought yet
      inCheckout: 2,
      sold: 0,
      admitPerMinute: 60,
      paused: false,
    })
    // the admissions' facts are in the ledger, in line order
    expect((await get(app(), `/api/v1/event/${event._id}/queue`, admin)).statusCode).toBe(200)
    expect((await get(app(), `/api/v1/event/${event._id}/queue`, late)).statusCode).toBe(403)

    // paused: nobody is admitted, however long; resumed: the rate counts from the resumption
    expect((await post(app(), `/api/v1/event/${event._id}/queue/pause`, organizer)).statusCode).toBe(200)
    expect((await stats(event)).paused).toBe(true)
    expect(await tick(event, opensAt + 30_000)).toEqual([])
    const paused = await me(event, late)
    expect(paused).toEqual({ state: 'waiting', position: 5, ahead: 4, paused: true })
    await app().services.queueCommands.resume(
      event._id,
      organizer.id,
      { actor: organizer.id },
      at(opensAt + 30_000),
    )
    expect(await tick(event, opensAt + 30_500)).toEqual([])
    const next = await tick(event, opensAt + 31_000)
    expect(next.map((f) => [f.type, (f.data as { from: number; through: number }).through])).toEqual([
      ['QueueAdmitted', 3],
    ])
    const resumed = await me(event, late)
    expect(resumed.position).toBe(4)
    expect(resumed.paused).toBeUndefined()
  })

  it('takes joins arriving together (sharing commits) one at a time: a place each, one per account', async () => {
    const event = await showEvent('Joined At Once')
    const opensAt = Date.now() + 3_600_000
    await setOnSale(event, { opensAt: at(opensAt), waitingRoom: true, admitPerMinute: 60 })
    const buyers = await Promise.all(Array.from({ length: 12 }, (_, i) => signUp(app(), `AtOnce${i}`)))
    const joins = app().services.queueCommands
    // all in the same turn, each account twice: one place each
    const early = await Promise.all(
      [...buyers, ...buyers].map((b) => joins.join(event._id, b.id, { actor: b.id }, at(opensAt - 1000))),
    )
    expect(early.flat().filter((f) => f.type === 'QueueJoined')).toHaveLength(12)
    await tick(event, opensAt)
    // after the opening, at once: the back of the line in turn, no line given twice
    const late = await Promise.all(Array.from({ length: 8 }, (_, i) => signUp(app(), `AfterOpening${i}`)))
    await Promise.all(
      [...late, ...late].map((b) => joins.join(event._id, b.id, { actor: b.id }, at(opensAt + 500))),
    )
    const rows = await dbRows(
      app(),
      'SELECT line FROM queue_places WHERE event_id = ? ORDER BY line',
      event._id,
    )
    expect(rows.map((r) => Number(r.line))).toEqual(Array.from({ length: 20 }, (_, i) => i + 1))
    expect(await stats(event)).toMatchObject({ waiting: 20, admitted: 0 })
  })

  it('is only for events with a room, and refuses a checkout without an admission while the room is on', async () => {
    const plain = await showEvent('No Room')
    expect((await setOnSale(plain, { opensAt: at(Date.now() - 1000), waitingRoom: false })).statusCode).toBe(
      200,
    )
    const buyer = await signUp(app())
    const none = await post(app(), `/api/v1/event/${plain._id}/queue`, buyer)
    expect([none.statusCode, none.json().message]).toEqual([409, NO_WAITING_ROOM])
    expect((await book(plain, buyer)).statusCode).toBe(200)

    // a room that opened a moment ago, admitting while fewer than 2 checkouts are in progress
    const event = await showEvent('Capacity Room')
    expect((await setOnSale(event, { opensAt: at(Date.now() - 1000), waitingRoom: true })).statusCode).toBe(
      200,
    )
    const [a, b, c] = await Promise.all(['A', 'B', 'C'].map((name) => signUp(app(), `Queue${name}`)))
    const socket = await open(server.url, (c as Session).token)
    const heard: QueuePush[] = []
    socket.on('queue', (data: QueuePush) => heard.push(data))
    for (const buyer of [a, b, c]) await join(event, buyer as Session)
    await until(async () => (await me(event, b as Session)).state === 'admitted')
    expect(await me(event, a as Session)).toMatchObject({ state: 'admitted' })
    expect(await me(event, c as Session)).toMatchObject({ state: 'waiting', position: 1, ahead: 0 })
    await until(() => heard.some((m) => m.eventId === event._id && m.state === 'waiting' && m.position === 1))
    const refused = await book(event, c as Session)
    expect([refused.statusCode, refused.json().message]).toEqual([403, ADMISSION_NEEDED])

    // A buys: one checkout fewer in progress, so C is admitted, and hears it at once
    const held = await book(event, a as Session)
    expect(held.statusCode, held.body).toBe(200)
    const paid = await pay(app(), a as Session, held.json() as CreateOrderReply)
    expect((await confirm(app(), a as Session, paid.json() as Checkout)).statusCode).toBe(200)
    await until(() => heard.some((m) => m.eventId === event._id && m.state === 'admitted'))
    expect((await book(event, c as Session)).statusCode).toBe(200)
    expect(await stats(event)).toMatchObject({
      admitted: 3,
      sold: 1,
      waiting: 0,
      admitPerMinute: expect.any(Number),
    })
  })

  it('closes when the event sells out: whoever still waits is told at once, and may join the waiting list', async () => {
    const event = await showEvent('Tiny Room', 1)
    expect(
      (await setOnSale(event, { opensAt: at(Date.now() - 1000), waitingRoom: true, admitPerMinute: 60 }))
        .statusCode,
    ).toBe(200)
    const [first, second] = await Promise.all([signUp(app(), 'First'), signUp(app(), 'Second')])
    await join(event, first)
    await join(event, second)
    const socket = await open(server.url, second.token)
    const heard: QueuePush[] = []
    socket.on('queue', (data: QueuePush) => heard.push(data))
    await until(async () => (await me(event, first)).state === 'admitted', 5000)
    const held = await book(event, first)
    expect(held.statusCode, held.body).toBe(200)
    const paid = await pay(app(), first, held.json() as CreateOrderReply)
    expect((await confirm(app(), first, paid.json() as Checkout)).statusCode).toBe(200)
    await until(() => heard.some((m) => m.eventId === event._id && m.state === 'closed'))
    expect(await me(event, second)).toEqual({ state: 'closed' })
    expect(await stats(event)).toMatchObject({ waiting: 0, sold: 1 })
    const listed = await post(app(), `/api/v1/event/${event._id}/waitlist`, second, {
      ticketType: 'General Admission',
      quantity: 1,
    })
    expect(listed.statusCode, listed.body).toBe(201)
  })

  it('takes nobody into the line of an event called off, and tells those in it that it is closed', async () => {
    const event = await showEvent('Called Off Room')
    const opensAt = Date.now() + 3_600_000
    expect((await setOnSale(event, { opensAt: at(opensAt), waitingRoom: true })).statusCode).toBe(200)
    const [early, late] = await Promise.all(['OffEarly', 'OffLate'].map((name) => signUp(app(), name)))
    expect((await join(event, early as Session)).state).toBe('pre-queue')
    const off = await post(app(), `/api/v1/event/${event._id}/cancel`, organizer, {
      reason: 'The hall is flooded.',
    })
    expect(off.statusCode, off.body).toBe(200)
    const refused = await post(app(), `/api/v1/event/${event._id}/queue`, late as Session)
    expect([refused.statusCode, refused.json().message]).toEqual([409, EVENT_CALLED_OFF])
    const none = await get(app(), `/api/v1/event/${event._id}/queue/me`, late as Session)
    expect(none.statusCode).toBe(404)
    // the one in line: closed at once, not waiting for a sale that will not happen; the room
    // itself closes as the cancellation's job begins, before its opening, and no tick opens it
    expect(await me(event, early as Session)).toEqual({ state: 'closed' })
    await until(async () => (await app().services.queue.room(event._id))?.closedAt != null, 5000)
    expect(await tick(event, opensAt + 1000)).toEqual([])
    expect(await me(event, early as Session)).toEqual({ state: 'closed' })
  })

  it('closes an open line when its event is called off: everyone in it hears so, the admitted too', async () => {
    // no set rate: two checkouts at once (QUEUE_CHECKOUTS), so two are admitted and one waits
    const event = await showEvent('Called Off Open Room')
    expect((await setOnSale(event, { opensAt: at(Date.now() - 1000), waitingRoom: true })).statusCode).toBe(
      200,
    )
    const people = await Promise.all(['OffFirst', 'OffSecond', 'OffThird'].map((name) => signUp(app(), name)))
    for (const person of people) await join(event, person)
    await until(async () => (await me(event, people[1] as Session)).state === 'admitted', 5000)
    expect((await me(event, people[2] as Session)).state).toBe('waiting')
    const heard = new Map<number, QueuePush[]>()
    for (const i of [0, 2]) {
      const socket = await open(server.url, (people[i] as Session).token)
      heard.set(i, [])
      socket.on('queue', (data: QueuePush) => heard.get(i)?.push(data))
    }
    const off = await post(app(), `/api/v1/event/${event._id}/cancel`, organizer, { reason: 'Called off.' })
    expect(off.statusCode, off.body).toBe(200)
    // the admitted one and the one waiting each hear the line closed
    for (const i of [0, 2])
      await until(
        () => (heard.get(i) ?? []).some((m) => m.eventId === event._id && m.state === 'closed'),
        5000,
      )
    for (const person of people) expect(await me(event, person)).toEqual({ state: 'closed' })
  })

  it('stays on while its last seats are only held: one that comes back goes to whoever waits, not to anyone', async () => {
    const event = await showEvent('Held Room', 1)
    expect(
      (await setOnSale(event, { opensAt: at(Date.now() - 1000), waitingRoom: true, admitPerMinute: 60 }))
        .statusCode,
    ).toBe(200)
    const [first, second, outsider] = await Promise.all(
      ['HeldFirst', 'HeldSecond', 'HeldOutsider'].map((name) => signUp(app(), name)),
    )
    await join(event, first as Session)
    await join(event, second as Session)
    await until(async () => (await me(event, first as Session)).state === 'admitted', 5000)
    const held = await book(event, first as Session)
    expect(held.statusCode, held.body).toBe(200)
    // the one seat is held, not sold: after 1.5 s of ticks (one every 100 ms) the room is still on
    // and the second still waiting (nobody is admitted while nothing is on sale)
    await new Promise((resolve) => setTimeout(resolve, 1500))
    expect(await me(event, second as Session)).toMatchObject({ state: 'waiting', position: 1 })
    expect(await stats(event)).toMatchObject({ waiting: 1, admitted: 1, sold: 0 })
    // the first's payment fails: the seat comes back, and the second in line is admitted to it
    const failed = await pay(app(), first as Session, held.json() as CreateOrderReply, 'failure')
    expect(failed.statusCode, failed.body).toBe(402)
    await until(async () => (await me(event, second as Session)).state === 'admitted', 5000)
    const refused = await book(event, outsider as Session)
    expect([refused.statusCode, refused.json().message]).toEqual([403, ADMISSION_NEEDED])
    const bought = await book(event, second as Session)
    expect(bought.statusCode, bought.body).toBe(200)
  })
})

describe('an admission that runs out', () => {
  // the room moved on by the test alone (no admitter), admissions of a minute
  let own: TestServer
  beforeAll(async () => {
    own = await startServer({
      RATE_LIMITS: 'off',
      LOG_LEVEL: 'error',
      QUEUE_TICK_MS: '0',
      ADMISSION_MINUTES: '1',
    })
  }, 60_000)
  afterAll(async () => {
    await own?.close()
  })

  it('is told to its person when it ends, with no fact to tell it', async () => {
    const ownAdmin = await adminSession(own.app)
    const host = await organizerSession(own.app, 'ShortAdmissions')
    const event = await approvedEvent(own.app, host, ownAdmin, { title: 'Short Admissions' }, [
      { type: 'General Admission', price: 500, quantity: 10 },
    ])
    const opened = Date.now() - 70_000
    // (the time is past: a join through the API would open the room now)
    const onsale = await own.app.inject({
      method: 'PUT',
      url: `/api/v1/event/${event._id}/onsale`,
      headers: bearer(host.token),
      payload: { opensAt: at(opened), waitingRoom: true, admitPerMinute: 60 },
    })
    expect(onsale.statusCode, onsale.body).toBe(200)
    const buyer = await signUp(own.app, 'Brief')
    const socket = await open(own.url, buyer.token)
    const heard: QueuePush[] = []
    socket.on('queue', (data: QueuePush) => heard.push(data))
    // joined (which opens the room, its time past) and moved on as at moments a minute ago: the
    // admission's minute ends a second and a half from now
    await own.app.services.queueCommands.join(
      event._id,
      buyer.id,
      { actor: buyer.id },
      at(Date.now() - 61_000),
    )
    const moveOn = (ago: number) =>
      own.app.services.queueCommands.tick(
        event._id,
        event.ticketTypes.map((t) => t._id),
        at(Date.now() - ago),
      )
    expect((await moveOn(58_500)).map((f) => f.type)).toEqual(['QueueAdmitted'])
    await until(() => heard.some((m) => m.eventId === event._id && m.state === 'admitted'))
    const admitted = heard.find((m) => m.state === 'admitted')
    expect(Date.parse(admitted?.admissionExpiresAt ?? '') - Date.now()).toBeLessThan(2000)
    await until(() => heard.some((m) => m.eventId === event._id && m.state === 'expired'), 5000)
    expect(heard.at(-1)).toEqual({ eventId: event._id, state: 'expired' })
    const mine = await get(own.app, `/api/v1/event/${event._id}/queue/me`, buyer)
    expect(mine.json()).toEqual({ state: 'expired' })
  })
})

describe('the rooms’ read models', () => {
  it('equal a rebuild from the ledger', async () => {
    const read = async () => ({
      rooms: await dbRows(app(), 'SELECT * FROM queue_rooms ORDER BY event_id'),
      places: await dbRows(app(), 'SELECT * FROM queue_places ORDER BY event_id, account_id'),
    })
    const before = await read()
    expect(before.places.length).toBeGreaterThan(0)
    await rebuildStore(app())
    expect(await read()).toEqual(before)
  })
})
