// Waiting lists (issue 17) on the real app, its store and its workers: a sold-out ticket type's list
// is joined (refused while seats are on sale), served in the order joined as seats come back through
// a lapsed hold and a cancelled ticket, a group keeping its place while a later, smaller entry is
// offered the seat that fits; an offer holds its seats for that person alone, is booked with, or
// lapses and passes on; and many people joining at once get one place each.
import { Queue } from 'bullmq'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { EventView } from '../../contracts/catalog.ts'
import type { WaitlistEntryView } from '../../contracts/waitlist.ts'
import { streams } from '../../server/ids.ts'
import { jobIds } from '../../server/jobs/catalogue.ts'
import { ON_SALE, WAITLIST_BEFORE_SALE } from '../../server/waitlist/decide.ts'
import { adminSession, bearer, crowd, organizerSession, type Session, signUp } from '../support/accounts.ts'
import { dbRows, rebuildStore } from '../support/db.ts'
import { lapseHold } from '../support/events.ts'
import { sharedRedisUrl } from '../support/faults.ts'
import { readOutbox } from '../support/outbox.ts'
import { approvedEvent, buy, cancel, get, hold, post, until } from '../support/sales.ts'
import { startServer, type TestServer } from '../support/server.ts'

let server: TestServer
const app = () => server.app
let admin: Session
let organizer: Session

beforeAll(async () => {
  server = await startServer({ RATE_LIMITS: 'off', LOG_LEVEL: 'error' })
  admin = await adminSession(app())
  organizer = await organizerSession(app(), 'Lister')
}, 60_000)

let holds: Queue | undefined
/** the queue of the holds' jobs (serving a waiting list among them), on the server's prefix */
const holdsQueue = () => {
  holds ??= new Queue('holds', { connection: { url: sharedRedisUrl }, prefix: server.config.queuePrefix })
  return holds
}

afterAll(async () => {
  await holds?.close()
  await server?.close()
})

const vipOnly = (seats: number) => [
  { type: 'General Admission' as const, price: 500, quantity: 100 },
  { type: 'VIP' as const, price: 1500, quantity: seats },
]
const join = (event: EventView, who: Session | { token: string }, quantity: number, ticketType = 'VIP') =>
  app().inject({
    method: 'POST',
    url: `/api/v1/event/${event._id}/waitlist`,
    headers: bearer(who.token),
    payload: { ticketType, quantity },
  })
const mine = async (who: Session): Promise<WaitlistEntryView[]> => {
  const res = await get(app(), '/api/v1/waitlist/mine', who)
  expect(res.statusCode, res.body).toBe(200)
  return res.json() as WaitlistEntryView[]
}
const entryOf = async (who: Session, event: EventView) =>
  (await mine(who)).find((e) => e.eventId === event._id)
const vipOf = async (event: EventView) =>
  ((await get(app(), `/api/v1/event/${event._id}`)).json() as EventView).ticketTypes.find(
    (t) => t.type === 'VIP',
  )

describe('a waiting list', () => {
  it('is refused before the tickets go on sale, for the event or for the type alone', async () => {
    const event = await approvedEvent(app(), organizer, admin, { title: 'Not Yet' }, vipOnly(1))
    const saleTime = (body: object) =>
      app().inject({
        method: 'PUT',
        url: `/api/v1/event/${event._id}/onsale`,
        headers: bearer(organizer.token),
        payload: body,
      })
    const later = new Date(Date.now() + 3_600_000).toISOString()
    const someone = await signUp(app())
    expect((await saleTime({ opensAt: later, waitingRoom: false })).statusCode).toBe(200)
    const before = await join(event, someone, 1)
    expect([before.statusCode, before.json().message]).toEqual([409, WAITLIST_BEFORE_SALE])
    // the event on sale, VIP later: VIP's list is not open, General Admission's is on sale
    const now = new Date(Date.now() - 1_000).toISOString()
    const typeLater = await saleTime({
      opensAt: now,
      waitingRoom: false,
      ticketTypes: [{ ticketType: 'VIP', opensAt: later }],
    })
    expect(typeLater.statusCode, typeLater.body).toBe(200)
    const vip = await join(event, someone, 1)
    expect([vip.statusCode, vip.json().message]).toEqual([409, WAITLIST_BEFORE_SALE])
    const general = await join(event, someone, 1, 'General Admission')
    expect([general.statusCode, general.json().message]).toEqual([409, ON_SALE])
    expect(await entryOf(someone, event)).toBeUndefined()
  })

  it('is refused while seats are on sale, and joined once sold out', async () => {
    const event = await approvedEvent(app(), organizer, admin, { title: 'Small Room' }, vipOnly(1))
    const [early, late] = [await signUp(app()), await signUp(app())]
    const refused = await join(event, early, 1)
    expect([refused.statusCode, refused.json().message]).toEqual([409, ON_SALE])
    await buy(app(), early, event, 'VIP', 1)
    const joined = await join(event, late, 1)
    expect(joined.statusCode, joined.body).toBe(201)
    expect(joined.json()).toEqual({ position: 1 })
    expect((await join(event, late, 1)).statusCode).toBe(409)
    expect(await entryOf(late, event)).toMatchObject({
      ticketType: 'VIP',
      quantity: 1,
      position: 1,
      status: 'waiting',
    })
    // leaving, then leaving again
    const left = await app().inject({
      method: 'DELETE',
      url: `/api/v1/event/${event._id}/waitlist`,
      headers: bearer(late.token),
    })
    expect(left.statusCode, left.body).toBe(200)
    expect(await entryOf(late, event)).toBeUndefined()
    const again = await app().inject({
      method: 'DELETE',
      url: `/api/v1/event/${event._id}/waitlist`,
      headers: bearer(late.token),
    })
    expect(again.statusCode).toBe(404)
  })

  it('is served in order through a lapsed hold and a cancel, a group keeping its place', async () => {
    const event = await approvedEvent(app(), organizer, admin, { title: 'Group Night' }, vipOnly(3))
    const [owner, holder, group, single, another, outsider] = await Promise.all(
      ['Owner', 'Holder', 'Group', 'Single', 'Another', 'Outsider'].map((name) => signUp(app(), name)),
    )
    const ticket = await buy(app(), owner as Session, event, 'VIP', 2)
    const unpaid = await hold(app(), holder as Session, event, 'VIP', 1)
    expect((await vipOf(event))?.available).toBe(0)

    expect((await join(event, group as Session, 2)).json()).toEqual({ position: 1 })
    expect((await join(event, single as Session, 1)).json()).toEqual({ position: 2 })
    expect((await join(event, another as Session, 1)).json()).toEqual({ position: 3 })
    // only VIP is waited for: the other type stays on sale, here and in the listing
    const shown = (await get(app(), `/api/v1/event/${event._id}`)).json() as EventView
    expect(shown.ticketTypes.find((t) => t.type === 'General Admission')?.available).toBe(100)
    const listed = ((await get(app(), '/api/v1/event')).json() as EventView[]).find(
      (e) => e._id === event._id,
    )
    expect(listed?.ticketTypes.map((t) => t.available)).toEqual([100, 0])

    // the unpaid hold lapses: 1 seat back; the group of 2 does not fit, the single after it does
    await lapseHold(app(), unpaid.ticketId)
    await app().services.bookingCommands.expire(unpaid.ticketId)
    await until(async () => (await entryOf(single as Session, event))?.status === 'offered')
    expect(await entryOf(group as Session, event)).toMatchObject({ status: 'waiting', position: 1 })
    expect(await entryOf(another as Session, event)).toMatchObject({ status: 'waiting', position: 3 })
    // the offered seat is held for that person alone: nobody else can book it
    expect((await vipOf(event))?.available).toBe(0)
    const taken = await post(app(), '/api/v1/ticket/create', outsider as Session, {
      eventId: event._id,
      ticketType: 'VIP',
      quantity: 1,
      amount: 1,
    })
    expect(taken.statusCode).toBe(409)
    await until(() =>
      readOutbox(server.config.outboxDir).some(
        (m) =>
          m.to.includes((single as Session).email) &&
          m.subject === 'Tickets for Group Night are held for you',
      ),
    )

    // a ticket cancelled: 2 seats back, and the group, first in line, fits now
    await cancel(app(), owner as Session, ticket)
    await until(async () => (await entryOf(group as Session, event))?.status === 'offered')
    expect(await entryOf(another as Session, event)).toMatchObject({ status: 'waiting' })

    // the group books with its offer
    const booked = await hold(app(), group as Session, event, 'VIP', 2)
    expect(booked.amount).toBe(2 * 150_000)
    await until(async () => (await entryOf(group as Session, event)) === undefined)

    // the single's offer lapses unused (serving after its time): it passes on to the next in line
    const later = new Date(Date.now() + 31 * 60_000).toISOString()
    const vip = (await vipOf(event))?._id as string
    await app().services.waitlist.serve(vip, event._id, later)
    expect(await entryOf(single as Session, event)).toBeUndefined()
    expect(await entryOf(another as Session, event)).toMatchObject({ status: 'offered', position: 1 })
  }, 60_000)

  it('offers the seat a group ahead does not fit to a newcomer it fits, when they join', async () => {
    const event = await approvedEvent(app(), organizer, admin, { title: 'Late Door' }, vipOnly(2))
    const [owner, holder, group, newcomer] = await Promise.all(
      ['Owner', 'Holder', 'Group', 'Newcomer'].map((name) => signUp(app(), name)),
    )
    await buy(app(), owner as Session, event, 'VIP', 1)
    const unpaid = await hold(app(), holder as Session, event, 'VIP', 1)
    expect((await join(event, group as Session, 2)).json()).toEqual({ position: 1 })
    // a seat comes back; the group of 2 does not fit it, and nobody else waits: it is kept from sale
    await lapseHold(app(), unpaid.ticketId)
    await app().services.bookingCommands.expire(unpaid.ticketId)
    await until(
      async () => (await app().services.booking.freeSeats((await vipOf(event))?._id as string)) === 1,
    )
    // the list was served for that seat (and offered nothing) before the newcomer comes
    const lapsed = (await app().platform.ledger.readStream(streams.order(unpaid.ticketId))).at(-1)
    expect(lapsed?.type).toBe('HoldExpired')
    const served = jobIds.serveWaitlist((await vipOf(event))?._id as string, lapsed?.position ?? 0)
    await until(async () => (await holdsQueue().getJobState(served)) === 'completed')
    expect(await entryOf(group as Session, event)).toMatchObject({ status: 'waiting' })
    expect((await vipOf(event))?.available).toBe(0)

    const joined = await join(event, newcomer as Session, 1)

    expect(joined.json()).toEqual({ position: 2 })
    await until(async () => (await entryOf(newcomer as Session, event))?.status === 'offered')
    expect(await entryOf(group as Session, event)).toMatchObject({ status: 'waiting', position: 1 })
    const booked = await hold(app(), newcomer as Session, event, 'VIP', 1)
    expect(booked.amount).toBe(150_000)
  }, 60_000)

  it('offers the seats an offer was not booked with to the next in line at once', async () => {
    const event = await approvedEvent(app(), organizer, admin, { title: 'Half Booked' }, vipOnly(4))
    const [first, second, pair, single] = await Promise.all(
      ['First', 'Second', 'Pair', 'Single'].map((name) => signUp(app(), name)),
    )
    const ticket = await buy(app(), first as Session, event, 'VIP', 2)
    await buy(app(), second as Session, event, 'VIP', 2)
    expect((await join(event, pair as Session, 2)).json()).toEqual({ position: 1 })
    expect((await join(event, single as Session, 1)).json()).toEqual({ position: 2 })
    await cancel(app(), first as Session, ticket)
    await until(async () => (await entryOf(pair as Session, event))?.status === 'offered')
    expect(await entryOf(single as Session, event)).toMatchObject({ status: 'waiting' })

    // the pair books one of its two seats: the other goes to the next in line, not to nobody
    const booked = await hold(app(), pair as Session, event, 'VIP', 1)
    expect(booked.amount).toBe(150_000)
    await until(async () => (await entryOf(single as Session, event))?.status === 'offered')
    expect(await entryOf(pair as Session, event)).toBeUndefined()
    expect((await vipOf(event))?.available).toBe(0)
    const theirs = await hold(app(), single as Session, event, 'VIP', 1)
    expect(theirs.amount).toBe(150_000)
  }, 60_000)

  it('gives each of many people joining at once a place of their own', async () => {
    const event = await approvedEvent(app(), organizer, admin, { title: 'Rush' }, vipOnly(1))
    await buy(app(), await signUp(app()), event, 'VIP', 1)
    const people = await crowd(app(), 60, `rush${Date.now()}`)
    const answers = await Promise.all(
      people.map((p) => join(event, p, 1 + (Number(p.id.slice(-1)) % 2 ? 1 : 0))),
    )
    expect(answers.every((a) => a.statusCode === 201)).toBe(true)
    const positions = answers.map((a) => a.json().position as number).sort((a, b) => a - b)
    expect(positions).toEqual(Array.from({ length: 60 }, (_, i) => i + 1))
  })
})

describe('the waiting lists kept', () => {
  it('are rebuilt from the ledger row for row as they were kept live', async () => {
    const rows = () => dbRows<{ status: string }>(app(), 'SELECT * FROM waitlist_entries ORDER BY entry_id')
    const head = () => app().platform.ledger.head()
    let live: Array<{ status: string }> = []
    let rebuilt: Array<{ status: string }> = []
    // a fact a worker appends while the tables are rebuilt changes what was live: ask again
    for (let tries = 0; tries < 3; tries++) {
      const before = await head()
      live = await rows()
      await rebuildStore(app())
      rebuilt = await rows()
      if ((await head()) === before) break
    }
    expect(live.length).toBeGreaterThan(60)
    expect(new Set(live.map((r) => r.status))).toEqual(
      new Set(['waiting', 'offered', 'served', 'lapsed', 'left']),
    )
    expect(rebuilt).toEqual(live)
  })
})
