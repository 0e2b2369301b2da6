// Editing and cancelling an event (issue 17) on the real app and its store: the organizer edits
// details, media and ticket types (a capacity never below the seats sold and held, a new price for
// seats not yet sold); a move of an approved event mails its holders; cancelling stops sales at
// once, releases the holds and refunds every paid order exactly once through the payment workers,
// a payment that arrives afterwards included; refused once started, twice, or by someone else.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { EventView } from '../../contracts/catalog.ts'
import { holdsProcessor } from '../../workers/holds.ts'
import { adminSession, bearer, crowd, organizerSession, type Session, signUp } from '../support/accounts.ts'
import { wallClockIn } from '../support/clock.ts'
import { readOutbox } from '../support/outbox.ts'
import {
  approvedEvent,
  buy,
  type Checkout,
  confirm,
  factsOfType,
  get,
  hold,
  orderRow,
  pay,
  post,
  until,
} from '../support/sales.ts'
import { startServer, type TestServer } from '../support/server.ts'

let server: TestServer
const app = () => server.app
let admin: Session
let organizer: Session
let rival: Session

const types = [
  { type: 'General Admission' as const, price: 500, quantity: 100 },
  { type: 'VIP' as const, price: 1500, quantity: 10 },
]

beforeAll(async () => {
  server = await startServer({ RATE_LIMITS: 'off', LOG_LEVEL: 'error' })
  admin = await adminSession(app())
  organizer = await organizerSession(app(), 'Editor')
  rival = await organizerSession(app(), 'Other')
}, 60_000)

afterAll(async () => {
  await server?.close()
})

const put = (url: string, who: Session, payload: Record<string, unknown>) =>
  app().inject({ method: 'PUT', url, headers: bearer(who.token), payload })
const edit = (event: EventView, payload: Record<string, unknown>, who = organizer) =>
  put(`/api/v1/event/${event._id}`, who, payload)
const cancelEvent = (event: EventView, reason: string, who: Session = organizer) =>
  post(app(), `/api/v1/event/${event._id}/cancel`, who, { reason })
const shown = async (event: EventView) => (await get(app(), `/api/v1/event/${event._id}`)).json() as EventView
const typeOf = (event: EventView, name: string) => event.ticketTypes.find((t) => t.type === name)
const answer = (res: { statusCode: number; json(): { message: string } }) => [
  res.statusCode,
  res.json().message,
]

describe('editing an event', () => {
  it('changes its details for everyone, and only its organizer may', async () => {
    const event = await approvedEvent(app(), organizer, admin, { title: 'Typo Nite' }, types)
    const res = await edit(event, { title: 'Typo Night', description: 'Fixed at last.' })
    expect(res.statusCode, res.body).toBe(200)
    expect(res.json()).toMatchObject({
      message: 'Event updated successfully',
      event: { title: 'Typo Night', description: 'Fixed at last.', location: event.location },
    })
    expect((await shown(event)).title).toBe('Typo Night')
    // the search finds it by its new words, not its old ones
    const found = async (words: string) =>
      ((await get(app(), `/api/v1/event/filter?search=${words}`)).json() as EventView[]).map((e) => e._id)
    expect(await found('night')).toContain(event._id)
    expect(await found('nite')).not.toContain(event._id)

    expect(answer(await edit(event, { title: 'Mine now' }, rival))).toEqual([
      403,
      'You can only change your own events.',
    ])
    expect((await edit(event, { title: 'Mine now' }, admin)).statusCode).toBe(403)
    expect((await edit(event, { date: '2001-01-01' })).statusCode).toBe(400)
    expect((await edit(event, { title: '' })).json().message).toBe('Title is required.')
    expect((await shown(event)).title).toBe('Typo Night')
  })

  it('refuses to move it to a start gone by, naming the field: an earlier time today, or a day before today', async () => {
    const event = await approvedEvent(app(), organizer, admin, { title: 'Time Travel' }, types)
    const zone = server.config.timeZone
    const gone = wallClockIn(zone, -2)
    const today = wallClockIn(zone, 0).date
    const yesterday = new Date(Date.parse(today) - 86_400_000).toISOString().slice(0, 10)

    const earlierToday = await edit(event, { date: gone.date, time: gone.time })
    const dayBefore = await edit(event, { date: yesterday })
    const laterToday = wallClockIn(zone, 120)
    const ahead = await edit(event, { date: laterToday.date, time: laterToday.time })

    const field = gone.date === today ? 'time' : 'date'
    const message = field === 'time' ? 'The time cannot be in the past.' : 'The date cannot be in the past.'
    expect(earlierToday.statusCode).toBe(400)
    expect(earlierToday.json()).toEqual({ message, issues: [{ field, message }] })
    expect(dayBefore.statusCode).toBe(400)
    expect(dayBefore.json()).toEqual({
      message: 'The date cannot be in the past.',
      issues: [{ field: 'date', message: 'The date cannot be in the past.' }],
    })
    expect(ahead.statusCode, ahead.body).toBe(200)
    expect(await shown(event)).toMatchObject({ date: laterToday.date, time: laterToday.time })
  })

  it('changes it only as seen when If-Match is sent: a stale version is a 409 and changes nothing', async () => {
    const event = await approvedEvent(app(), organizer, admin, { title: 'Two Tabs' }, types)
    const seen = (await shown(event)).version
    const withVersion = (version: string, title: string) =>
      app().inject({
        method: 'PUT',
        url: `/api/v1/event/${event._id}`,
        headers: { ...bearer(organizer.token), 'if-match': version },
        payload: { title },
      })

    const first = await withVersion(`"${seen}"`, 'First Tab')
    const stale = await withVersion(`"${seen}"`, 'Second Tab')
    const garbled = await withVersion('garbage', 'Third Tab')

    expect(first.statusCode, first.body).toBe(200)
    expect(answer(stale)).toEqual([409, 'Someone else changed this at the same moment. Please try again.'])
    expect(answer(garbled)).toEqual([400, 'If-Match must be the event version, such as "2".'])
    expect((await shown(event)).title).toBe('First Tab')
    const current = await withVersion(`"${(await shown(event)).version}"`, 'Last Tab')
    expect(current.statusCode, current.body).toBe(200)
  })

  it('says what it wants of a body that is not a JSON object, in its own words', async () => {
    const event = await approvedEvent(app(), organizer, admin, { title: 'Odd Bodies' }, types)
    for (const [payload, type] of [
      ['[]', 'application/json'],
      ['', 'application/json'],
      ['hi', 'text/plain'],
    ]) {
      const res = await app().inject({
        method: 'PUT',
        url: `/api/v1/event/${event._id}`,
        headers: { ...bearer(organizer.token), 'content-type': type as string },
        payload,
      })
      expect([res.statusCode, res.json().message], `${type} ${payload}`).toEqual([
        400,
        'Send the changes as a JSON object or as multipart/form-data.',
      ])
    }
  })

  it('keeps a capacity at or above the seats sold and held, and prices new sales only', async () => {
    const event = await approvedEvent(app(), organizer, admin, { title: 'Capacity Night' }, types)
    const buyers = await Promise.all([signUp(app()), signUp(app()), signUp(app())])
    const sold = await buy(app(), buyers[0] as Session, event, 'VIP', 3)
    await hold(app(), buyers[1] as Session, event, 'VIP', 2)

    const vip = (quantity: number, price = 1500) => ({
      ticketTypes: [
        { type: 'General Admission', price: 500, quantity: 100 },
        { type: 'VIP', price, quantity },
      ],
    })
    expect(answer(await edit(event, vip(4)))).toEqual([
      409,
      'VIP cannot have fewer than 5 seats: that many are sold or held.',
    ])
    expect(typeOf(await shown(event), 'VIP')).toMatchObject({ capacity: 10, available: 5 })

    const raised = await edit(event, vip(20, 2000))
    expect(raised.statusCode, raised.body).toBe(200)
    expect(typeOf(raised.json().event, 'VIP')).toMatchObject({ capacity: 20, available: 15, price: 2000 })
    // the ticket sold before keeps its price; a new order pays the new one
    expect((await orderRow(app(), sold))?.amountPaise).toBe(3 * 150_000)
    const placed = await hold(app(), buyers[2] as Session, event, 'VIP', 1)
    expect((await orderRow(app(), placed.ticketId))?.amountPaise).toBe(200_000)

    // the type with sales cannot go; an unsold one can, and a new one can be added
    expect(
      answer(await edit(event, { ticketTypes: [{ type: 'General Admission', price: 500, quantity: 100 }] })),
    ).toEqual([409, 'VIP has seats sold or held, so it cannot be removed.'])
    const other = await approvedEvent(app(), organizer, admin, { title: 'Swap Night' }, [
      types[0] as (typeof types)[0],
    ])
    const swapped = await edit(other, { ticketTypes: [{ type: 'VIP', price: 900, quantity: 5 }] })
    expect(swapped.statusCode, swapped.body).toBe(200)
    expect(swapped.json().event.ticketTypes).toEqual([
      expect.objectContaining({ type: 'VIP', price: 900, capacity: 5, available: 5 }),
    ])
  })

  it('lowered to exactly the seats taken, sells nothing more, under any number of orders at once', async () => {
    const event = await approvedEvent(app(), organizer, admin, { title: 'Shrink Night' }, types)
    const people = await crowd(app(), 30, `shrink${Date.now()}`)
    // 30 orders race an edit that takes General Admission down to what is taken at that moment
    const orders = people.map((p) =>
      app().inject({
        method: 'POST',
        url: '/api/v1/ticket/create',
        headers: bearer(p.token),
        payload: { eventId: event._id, ticketType: 'General Admission', quantity: 1, amount: 1 },
      }),
    )
    const shrink = (async () => {
      for (;;) {
        const taken = 100 - (typeOf(await shown(event), 'General Admission')?.available ?? 0)
        const res = await edit(event, {
          ticketTypes: [
            { type: 'General Admission', price: 500, quantity: Math.max(taken, 1) },
            { type: 'VIP', price: 1500, quantity: 10 },
          ],
        })
        if (res.statusCode === 200) return
        expect(res.statusCode, res.body).toBe(409)
      }
    })()
    await Promise.all([...orders, shrink])
    const after = typeOf(await shown(event), 'General Admission')
    const held = (await factsOfType(app(), 'TicketsHeld')).filter(
      (f) => (f.data as { eventId: string }).eventId === event._id,
    ).length
    expect(after?.available).toBeGreaterThanOrEqual(0)
    expect(held).toBeLessThanOrEqual(after?.capacity ?? 0)
  })

  it('mails each holder when an approved event moves, with its new date, time and place', async () => {
    const event = await approvedEvent(app(), organizer, admin, { title: 'Moving Night' }, types)
    const holder = await signUp(app(), 'Mover')
    await buy(app(), holder, event, 'General Admission', 1)
    const res = await edit(event, { location: 'The Big Hall', time: '21:15' })
    expect(res.statusCode, res.body).toBe(200)
    await until(() =>
      readOutbox(server.config.outboxDir).some(
        (m) => m.to.includes(holder.email) && m.subject === 'Moving Night has changed',
      ),
    )
    const mail = readOutbox(server.config.outboxDir).find(
      (m) => m.to.includes(holder.email) && m.subject === 'Moving Night has changed',
    )
    expect(mail?.text).toContain('Where: The Big Hall')
    expect(mail?.text).toContain('at 21:15')
    expect(mail?.text).toContain(`Where: ${event.location}`)
  })
})

describe('cancelling an event', () => {
  it('stops its sales, releases its holds and refunds each of 50 paid orders exactly once', async () => {
    const event = await approvedEvent(app(), organizer, admin, { title: 'Called Off' }, types)
    const people = await crowd(app(), 52, `off${Date.now()}`)
    const sessions = people.map((p) => ({ ...p, email: '', password: '', username: '' }))
    const paid: string[] = []
    for (const person of sessions.slice(0, 50))
      paid.push(await buy(app(), person, event, 'General Admission', 1))
    const open = await hold(app(), sessions[50] as Session, event, 'VIP', 2)
    // a hold whose payment the provider takes after the cancellation
    const late = await hold(app(), sessions[51] as Session, event, 'VIP', 1)

    expect(answer(await cancelEvent(event, 'Stop', rival))).toEqual([
      403,
      'You can only change your own events.',
    ])
    const res = await cancelEvent(event, 'The venue flooded.')
    expect(res.statusCode, res.body).toBe(200)
    expect(res.json()).toMatchObject({
      message: 'Event cancelled. Every paid order will be refunded.',
      event: { cancelReason: 'The venue flooded.' },
    })
    expect(res.json().event.cancelledAt).toEqual(expect.any(String))
    expect(typeOf(res.json().event, 'VIP')?.available).toBe(0)
    // sales stop at once, and it cannot be cancelled twice
    const refused = await post(app(), '/api/v1/ticket/create', await signUp(app()), {
      eventId: event._id,
      ticketType: 'General Admission',
      quantity: 1,
      amount: 1,
    })
    expect(answer(refused)).toEqual([409, 'This event has been cancelled.'])
    expect(answer(await cancelEvent(event, 'Again'))).toEqual([409, 'This event is already cancelled.'])
    expect((await edit(event, { title: 'Back on' })).statusCode).toBe(409)

    const settledPayment = await pay(app(), sessions[51] as Session, late)
    expect(settledPayment.statusCode, settledPayment.body).toBe(200)
    await confirm(app(), sessions[51] as Session, settledPayment.json() as Checkout)

    const mine = (f: { data: unknown }) =>
      [...paid, late.ticketId].includes((f.data as { orderId: string }).orderId)
    await until(async () => (await factsOfType(app(), 'PaymentRefunded')).filter(mine).length >= 51, 30_000)
    const requested = (await factsOfType(app(), 'RefundRequested')).filter(mine)
    const refunded = (await factsOfType(app(), 'PaymentRefunded')).filter(mine)
    expect(requested).toHaveLength(51)
    expect(new Set(requested.map((f) => (f.data as { orderId: string }).orderId)).size).toBe(51)
    expect(requested.every((f) => (f.data as { reason: string }).reason === 'event cancelled')).toBe(true)
    expect(refunded).toHaveLength(51)
    for (const id of paid) expect((await orderRow(app(), id))?.status).toBe('cancelled')
    expect((await orderRow(app(), open.ticketId))?.status).toBe('failed')
    expect(typeOf(await shown(event), 'General Admission')?.available).toBe(0)
    // the job run again (a retry, a repair) changes nothing
    const again = await holdsProcessor({
      booking: app().services.booking,
      commands: app().services.bookingCommands,
      confirm: app().services.confirm,
      events: app().platform.store.queries.catalog,
      waitlist: app().services.waitlist,
      queue: app().services.queueCommands,
    })({ id: 'again', name: 'cancel-event', data: { eventId: event._id }, attemptsMade: 0 } as never)
    expect(again).toEqual({ orders: 0 })
    expect((await factsOfType(app(), 'RefundRequested')).filter(mine)).toHaveLength(51)
  }, 90_000)

  it('mails each holder that the event is cancelled, with the reason and the refund', async () => {
    const event = await approvedEvent(app(), organizer, admin, { title: 'Rain Night' }, types)
    const holder = await signUp(app(), 'Holder')
    await buy(app(), holder, event, 'VIP', 2)
    expect((await cancelEvent(event, 'Storm warning.', admin)).statusCode).toBe(200)
    const subject = 'Rain Night is cancelled'
    await until(() =>
      readOutbox(server.config.outboxDir).some((m) => m.to.includes(holder.email) && m.subject === subject),
    )
    const mail = readOutbox(server.config.outboxDir).find(
      (m) => m.to.includes(holder.email) && m.subject === subject,
    )
    expect(mail?.text).toContain('The reason given: Storm warning.')
    expect(mail?.text).toContain('A full refund of ₹3,000')
  })

  it('is refused once the event has started', async () => {
    const today = new Intl.DateTimeFormat('en-CA', { timeZone: server.config.timeZone }).format(new Date())
    const event = await approvedEvent(
      app(),
      organizer,
      admin,
      { title: 'Started', date: today, time: '00:00' },
      types,
    )
    expect(answer(await cancelEvent(event, 'Too late'))).toEqual([
      409,
      'This event has started, so it can no longer be cancelled.',
    ])
    expect((await shown(event)).cancelledAt).toBeNull()
  })
})
