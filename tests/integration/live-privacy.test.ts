// What the public hears: a visitor's socket watching an event, the listing and the schedule while
// other people hold, buy, fail to pay, cancel, transfer and wait for seats, and the organizer edits
// the event. The public rooms carry counts and the event's own news, never who: no order's id (nor
// its stream's name), no account's id, email or name, in any part of any message.
import type { Socket } from 'socket.io-client'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { EventView } from '../../contracts/catalog.ts'
import type { LivePush } from '../../contracts/live.ts'
import { adminSession, bearer, organizerSession, type Session, signUp } from '../support/accounts.ts'
import { open, sockets, watch } from '../support/live-sockets.ts'
import { approvedEvent, buy, cancel, failToPay, hold, transfer, until } from '../support/sales.ts'
import { startServer, type TestServer } from '../support/server.ts'

let server: TestServer
const app = () => server.app
let admin: Session
let organizer: Session

beforeAll(async () => {
  server = await startServer({ RATE_LIMITS: 'off', LOG_LEVEL: 'error' })
  admin = await adminSession(app())
  organizer = await organizerSession(app(), 'Hostwithaname')
}, 60_000)
afterAll(async () => {
  for (const socket of sockets) socket.disconnect()
  await server?.close()
})

/** every message a socket hears, as sent */
const heardBy = (socket: Socket) => {
  const heard: LivePush[] = []
  socket.on('fact', (push: LivePush) => heard.push(push))
  return heard
}

describe('a visitor watching an event while others buy', () => {
  it('hears the seats on sale and the event’s news, and no order, account, email or name', async () => {
    const event: EventView = await approvedEvent(app(), organizer, admin, { title: 'Open Air Night' }, [
      { type: 'General Admission', price: 500, quantity: 100 },
      { type: 'VIP', price: 1500, quantity: 2 },
    ])
    const [ananya, bharat, chitra, devika] = await Promise.all(
      ['Ananyabuyer', 'Bharatbuyer', 'Chitrareceiver', 'Devikawaiter'].map((name) => signUp(app(), name)),
    )
    const people = [ananya, bharat, chitra, devika, organizer, admin] as Session[]

    const visitor = await open(server.url)
    const heard = heardBy(visitor)
    for (const room of [`event-${event._id}`, 'events', 'schedule'])
      expect(await watch(visitor, room)).toMatchObject({ ok: true, room })
    // the people themselves, signed in, to see their own pushes do name their orders
    const own = heardBy(await open(server.url, (ananya as Session).token))

    const orders: string[] = []
    const providerOrders: string[] = []
    const held = await hold(app(), ananya as Session, event, 'General Admission', 2)
    orders.push(held.ticketId)
    providerOrders.push(held.orderId)
    const sold = await buy(app(), ananya as Session, event, 'VIP', 1)
    const other = await buy(app(), bharat as Session, event, 'VIP', 1)
    orders.push(sold, other)
    orders.push(await failToPay(app(), bharat as Session, event, 'General Admission', 3))
    // VIP sold out: a place in line, offered when a seat comes back
    const joined = await app().inject({
      method: 'POST',
      url: `/api/v1/event/${event._id}/waitlist`,
      headers: bearer((devika as Session).token),
      payload: { ticketType: 'VIP', quantity: 1 },
    })
    expect(joined.statusCode, joined.body).toBe(201)
    await transfer(app(), ananya as Session, sold, chitra as Session)
    await cancel(app(), bharat as Session, other)
    const edited = await app().inject({
      method: 'PUT',
      url: `/api/v1/event/${event._id}`,
      headers: bearer(organizer.token),
      payload: { description: 'Now with a second stage.' },
    })
    expect(edited.statusCode, edited.body).toBe(200)

    // everything the visitor may hear of it has arrived: the offer to the next in line, the edit
    await until(() => heard.some((p) => p.type === 'WaitlistOffered'))
    await until(() => heard.some((p) => p.type === 'EventEdited'))
    await until(() => own.some((p) => p.type === 'TicketTransferred'))
    await new Promise((r) => setTimeout(r, 2 * server.config.live.figuresEveryMs + 200))

    // the sale's counts reached the visitor (a room's figures are coalesced, at most one push per
    // ticket type an interval, so which facts carried them depends on timing: not each is heard)
    const sales = ['TicketsHeld', 'TicketsIssued', 'PaymentFailed', 'TicketCancelled', 'WaitlistJoined']
    expect(heard.filter((p) => sales.includes(p.type)).length).toBeGreaterThanOrEqual(2)
    // the seats on sale as they are now, without who took them
    expect(heard.filter((p) => 'available' in p.data).at(-1)?.data).toMatchObject({ eventId: event._id })

    const secrets = [
      ...orders,
      ...providerOrders,
      ...people.flatMap((person) => [person.id, person.email, person.username]),
    ]
    for (const push of heard) {
      const text = JSON.stringify(push)
      for (const secret of secrets)
        expect(text, `${push.type} told the public ${secret}`).not.toContain(secret)
      expect(text).not.toMatch(/order-|account-|user-/)
    }
    // a person's own room does name their order: the public's is what is kept bare
    expect(own.some((p) => JSON.stringify(p).includes(sold))).toBe(true)
  })
})
