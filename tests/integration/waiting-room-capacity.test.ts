// A waiting room that follows capacity (no set rate) on the real app and store (both, by the suite's
// projects), with the regular tick a minute apart so that only what happens in the room can move
// it: the first in line are admitted as they join, and as soon as a checkout ends (a ticket bought)
// the next in line is admitted, well within a second, in line order, never more in checkout than
// QUEUE_CHECKOUTS and nobody twice. And a line moving many times a second tells each person their
// place at most about once a second (the latest, never going backwards), the admission itself at
// once, and the organizer its figures likewise.
import type { Socket } from 'socket.io-client'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { CreateOrderReply } from '../../contracts/booking.ts'
import type { EventView } from '../../contracts/catalog.ts'
import type { QueuePlace, QueuePush, QueueStats, QueueStatsPush } from '../../contracts/queue.ts'
import { adminSession, bearer, organizerSession, type Session, signUp } from '../support/accounts.ts'
import { open, sockets } from '../support/live-sockets.ts'
import {
  approvedEvent,
  type Checkout,
  confirm,
  factsOfType,
  get,
  pay,
  post,
  until,
} from '../support/sales.ts'
import { startServer, type TestServer } from '../support/server.ts'

const CHECKOUTS = 3

let server: TestServer
const app = () => server.app
let admin: Session
let organizer: Session

beforeAll(async () => {
  server = await startServer({
    RATE_LIMITS: 'off',
    LOG_LEVEL: 'error',
    // the regular tick never comes within the test: what moves the rooms is what happens in them
    QUEUE_TICK_MS: '60000',
    QUEUE_CHECKOUTS: String(CHECKOUTS),
  })
  admin = await adminSession(app())
  organizer = await organizerSession(app(), 'Capacity')
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

const setOnSale = (event: Pick<EventView, '_id'>, body: Record<string, unknown>) =>
  app().inject({
    method: 'PUT',
    url: `/api/v1/event/${event._id}/onsale`,
    headers: bearer(organizer.token),
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

const stats = async (event: Pick<EventView, '_id'>): Promise<QueueStats> => {
  const res = await get(app(), `/api/v1/event/${event._id}/queue`, organizer)
  expect(res.statusCode, res.body).toBe(200)
  return res.json() as QueueStats
}

/** holds, pays and confirms one ticket */
const buyOne = async (event: Pick<EventView, '_id'>, who: Session) => {
  const held = await post(app(), '/api/v1/ticket/create', who, {
    eventId: event._id,
    ticketType: 'General Admission',
    quantity: 1,
  })
  expect(held.statusCode, held.body).toBe(200)
  const paid = await pay(app(), who, held.json() as CreateOrderReply)
  expect(paid.statusCode, paid.body).toBe(200)
  const done = await confirm(app(), who, paid.json() as Checkout)
  expect(done.statusCode, done.body).toBe(200)
}

/** the room's admissions from the ledger, in order */
const admissions = async (event: Pick<EventView, '_id'>) =>
  (await factsOfType(app(), 'QueueAdmitted'))
    .map((f) => f.data as { eventId: string; from: number; through: number })
    .filter((d) => d.eventId === event._id)

const admittedOf = async (event: Pick<EventView, '_id'>) => (await stats(event)).admitted

describe('a room following capacity', () => {
  it('admits the next in line as soon as a checkout ends, in order, within its checkouts, nobody twice', async () => {
    const event = await showEvent('Capacity Now')
    expect((await setOnSale(event, { opensAt: at(Date.now() - 1000), waitingRoom: true })).statusCode).toBe(
      200,
    )
    const buyers = await Promise.all(Array.from({ length: 8 }, (_, i) => signUp(app(), `Cap${i}`)))
    // the highest number in checkout seen along the way
    let most = 0
    let watching = true
    const watcher = (async () => {
      while (watching) {
        most = Math.max(most, (await stats(event)).inCheckout)
        await new Promise((r) => setTimeout(r, 25))
      }
    })()
    for (const buyer of buyers) await join(event, buyer)

    // the first three are let in as they join, long before any tick
    await until(async () => (await admittedOf(event)) === CHECKOUTS, 2000)
    for (const [i, buyer] of buyers.entries())
      expect((await me(event, buyer)).state).toBe(i < CHECKOUTS ? 'admitted' : 'waiting')

    // the first buys: the fourth is admitted well within a second of it
    await buyOne(event, buyers[0] as Session)
    let from = Date.now()
    await until(async () => (await me(event, buyers[3] as Session)).state === 'admitted', 2000)
    const afterOne = Date.now() - from
    expect(afterOne).toBeLessThan(1000)
    expect((await me(event, buyers[4] as Session)).state).toBe('waiting')

    // two more buy at once: the fifth and sixth, and nobody more
    await Promise.all([buyOne(event, buyers[1] as Session), buyOne(event, buyers[2] as Session)])
    from = Date.now()
    await until(async () => (await admittedOf(event)) === 6, 2000)
    expect(Date.now() - from).toBeLessThan(1000)
    await new Promise((r) => setTimeout(r, 300))
    watching = false
    await watcher
    expect(await admittedOf(event)).toBe(6)
    for (const [i, buyer] of buyers.entries())
      expect((await me(event, buyer)).state).toBe(i < 6 ? 'admitted' : 'waiting')
    expect(await stats(event)).toMatchObject({ admitted: 6, inCheckout: CHECKOUTS, sold: 3, waiting: 2 })
    expect(most).toBeLessThanOrEqual(CHECKOUTS)

    // lines 1..6 admitted in order, each once, never more at once than a free checkout allows
    const facts = await admissions(event)
    let through = 0
    for (const fact of facts) {
      expect(fact.from).toBe(through + 1)
      expect(fact.through - fact.from + 1).toBeLessThanOrEqual(CHECKOUTS)
      through = fact.through
    }
    expect(through).toBe(6)
  })

  it('is moved on by its own checkouts only when it has no set rate', async () => {
    // a set rate's admissions are earned by time: a purchase in it admits nobody before the tick
    const event = await showEvent('Rate Stays')
    const opensAt = Date.now() - 1000
    expect(
      (await setOnSale(event, { opensAt: at(opensAt), waitingRoom: true, admitPerMinute: 60 })).statusCode,
    ).toBe(200)
    const buyers = await Promise.all(Array.from({ length: 3 }, (_, i) => signUp(app(), `Rate${i}`)))
    for (const buyer of buyers) await join(event, buyer)
    await new Promise((r) => setTimeout(r, 300))
    expect(await admittedOf(event)).toBe(0)
    const types = event.ticketTypes.map((t) => t._id)
    await app().services.queueCommands.tick(event._id, types, at(Date.now() + 2000))
    const admitted = await admittedOf(event)
    expect(admitted).toBeGreaterThan(0)
    await buyOne(event, buyers[0] as Session)
    await new Promise((r) => setTimeout(r, 300))
    expect(await admittedOf(event)).toBe(admitted)
  })
})

describe('the sale’s figures', () => {
  it('reach the organizer as a hold is made and paid, not only as the line moves', async () => {
    const event = await showEvent('Figures Follow')
    // a set rate, moved on by hand: nothing but the sale itself moves the room meanwhile
    const saved = await setOnSale(event, {
      opensAt: at(Date.now() - 1000),
      waitingRoom: true,
      admitPerMinute: 60,
    })
    expect(saved.statusCode, saved.body).toBe(200)
    const buyer = await signUp(app(), 'Figures')
    await join(event, buyer)
    const openedAt = Date.parse((await app().services.queue.room(event._id))?.openedAt ?? '')
    const types = event.ticketTypes.map((t) => t._id)
    await app().services.queueCommands.tick(event._id, types, at(openedAt + 1000))
    expect((await me(event, buyer)).state).toBe('admitted')
    // the line's own pushes over
    await new Promise((r) => setTimeout(r, 1300))
    const organizerSocket = await open(server.url, organizer.token)
    const heard: QueueStatsPush[] = []
    organizerSocket.on('queue-stats', (data: QueueStatsPush) => {
      if (data.eventId === event._id) heard.push(data)
    })
    await buyOne(event, buyer)
    // the hold (in checkout), then its payment (sold): the last figures say it is sold
    await until(() => heard.at(-1)?.sold === 1, 5000)
    expect(heard.at(-1)).toMatchObject({ sold: 1, inCheckout: 0 })
    expect(await stats(event)).toMatchObject({ sold: 1, inCheckout: 0 })
  })
})

describe('a line moving many times a second', () => {
  it('tells each person their place at most about once a second, the latest, and an admission at once', async () => {
    const event = await showEvent('Fast Line')
    // a set rate moved on by hand (a second of the rate's time each step), the tick a minute away
    expect(
      (await setOnSale(event, { opensAt: at(Date.now() - 1000), waitingRoom: true, admitPerMinute: 60 }))
        .statusCode,
    ).toBe(200)
    const buyers = await Promise.all(Array.from({ length: 15 }, (_, i) => signUp(app(), `Fast${i}`)))
    for (const buyer of buyers) await join(event, buyer)
    const last = buyers[14] as Session
    const tenth = buyers[9] as Session
    const listen = async (who: Session) => {
      const socket: Socket = await open(server.url, who.token)
      const heard: Array<QueuePush & { t: number }> = []
      socket.on('queue', (data: QueuePush) => {
        if (data.eventId === event._id) heard.push({ ...data, t: Date.now() })
      })
      return heard
    }
    const lastHeard = await listen(last)
    const tenthHeard = await listen(tenth)
    const organizerSocket = await open(server.url, organizer.token)
    const statsHeard: Array<QueueStatsPush & { t: number }> = []
    organizerSocket.on('queue-stats', (data: QueueStatsPush) => {
      if (data.eventId === event._id) statsHeard.push({ ...data, t: Date.now() })
    })
    // the joins' own interval over
    await new Promise((r) => setTimeout(r, 1300))
    const start = Date.now()
    const openedAt = Date.parse((await app().services.queue.room(event._id))?.openedAt ?? '')
    const types = event.ticketTypes.map((t) => t._id)
    // ten admissions of one person each, as fast as they come
    for (let i = 0; i < 10; i++) {
      const facts = await app().services.queueCommands.tick(event._id, types, at(openedAt + (i + 1) * 1000))
      expect(facts.map((f) => f.type)).toEqual(['QueueAdmitted'])
    }
    const ticked = Date.now() - start
    expect(ticked).toBeLessThan(1000)
    expect((await me(event, last)).position).toBe(5)

    // the tenth hears its admission at once, not at the interval's end
    await until(() => tenthHeard.some((m) => m.state === 'admitted'), 900)
    // the last in line: at most two places over the second (the first at once, the latest at its end)
    await until(() => lastHeard.some((m) => m.position === 5), 3000)
    await new Promise((r) => setTimeout(r, 1200))
    const places = lastHeard.filter((m) => m.t >= start)
    expect(places.length).toBeGreaterThanOrEqual(1)
    expect(places.length).toBeLessThanOrEqual(2)
    expect(places.at(-1)).toMatchObject({ state: 'waiting', position: 5, ahead: 4 })
    const positions = lastHeard.map((m) => m.position as number)
    expect(positions).toEqual([...positions].sort((a, b) => b - a))
    // the tenth: never told a place after its admission
    const admittedAt = tenthHeard.findIndex((m) => m.state === 'admitted')
    expect(tenthHeard.slice(admittedAt).every((m) => m.state === 'admitted')).toBe(true)
    expect(tenthHeard.filter((m) => m.t >= start && m.state === 'waiting').length).toBeLessThanOrEqual(2)
    // the organizer: the figures at most twice over the second too, the last one right
    const figures = statsHeard.filter((m) => m.t >= start)
    expect(figures.length).toBeGreaterThanOrEqual(1)
    expect(figures.length).toBeLessThanOrEqual(2)
    expect(figures.at(-1)).toMatchObject({ admitted: 10, waiting: 5 })
  })
})
