// Each event's object is made once per change of that event and kept (server/catalog/fragments.ts):
// the listings and the event page must still show every change at once, whichever process made
// it. Two apps on one store: one sells, transfers and fails payments; the other, whose listings
// are already made, must show each change in its next answer.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { EventView } from '../../contracts/catalog.ts'
import { adminSession, organizerSession, type Session } from '../support/accounts.ts'
import { sameStore, startApp, type TestApp } from '../support/app.ts'
import { approvedEvent, buy, failToPay, get, hold, review, signUpAll, transfer } from '../support/sales.ts'

let seller: TestApp
let reader: TestApp
let admin: Session
let organizer: Session
let buyer: Session
let friend: Session
let other: Session
let event: EventView
let quiet: EventView

beforeAll(async () => {
  seller = await startApp({ RATE_LIMITS: 'off' })
  reader = await startApp({
    RATE_LIMITS: 'off',
    DATA_DIR: seller.config.dataDir,
    ...sameStore(seller.config),
  })
  admin = await adminSession(seller.app)
  organizer = await organizerSession(seller.app, 'fragorg')
  ;[buyer, friend, other] = await signUpAll(seller.app, ['frag-buyer', 'frag-friend', 'frag-other'] as const)
  event = await approvedEvent(seller.app, organizer, admin, { title: 'Fragment Fest' })
  quiet = await approvedEvent(seller.app, organizer, admin, { title: 'Quiet Evening' })
})
afterAll(async () => {
  await reader?.close()
  await seller?.close()
})

/** the event as each way of reading it shows it, on one app: listing, page, filter, its own page */
async function views(app: TestApp, eventId: string) {
  const listing = (await get(app.app, '/api/v1/event')).json() as EventView[]
  const page = (await get(app.app, '/api/v1/event?page=1&limit=50')).json() as EventView[]
  const filtered = (
    await get(app.app, '/api/v1/event/filter?filterType=category&search=Music')
  ).json() as EventView[]
  const own = await get(app.app, `/api/v1/event/${eventId}`)
  expect(own.statusCode, own.body).toBe(200)
  const all = [
    listing.find((e) => e._id === eventId),
    page.find((e) => e._id === eventId),
    filtered.find((e) => e._id === eventId),
    own.json() as EventView,
  ]
  // every way shows the same object
  for (const view of all) expect(view).toEqual(all[3])
  return all[3] as EventView
}

const vip = (view: EventView) => view.ticketTypes.find((t) => t.type === 'VIP')

describe('event objects kept between changes', () => {
  it('shows a sale, a transfer and a failed payment made by another app in the next answer', async () => {
    // both apps have made the objects already
    for (const app of [seller, reader]) {
      expect(vip(await views(app, event._id))?.quantity).toBe(20)
      await views(app, quiet._id)
    }

    const ticketId = await buy(seller.app, buyer, event)
    for (const app of [reader, seller]) {
      const view = await views(app, event._id)
      expect(vip(view)?.quantity).toBe(19)
      expect(view.candidates).toEqual([buyer.id])
    }

    // the seats do not move, only who holds them
    await transfer(seller.app, buyer, ticketId, friend)
    for (const app of [reader, seller]) {
      const view = await views(app, event._id)
      expect(vip(view)?.quantity).toBe(19)
      expect(view.candidates).toEqual([friend.id])
    }

    // a hold shows at once; its failed payment (a fact that does not name the event) gives it back
    const placed = await hold(seller.app, other, event)
    expect(vip(await views(reader, event._id))?.quantity).toBe(18)
    await failToPay(seller.app, other, event)
    expect(placed.ticketId).toBeTruthy()
    for (const app of [reader, seller]) expect(vip(await views(app, event._id))?.quantity).toBe(19)

    // the other event was never touched and reads as before
    expect(vip(await views(reader, quiet._id))?.quantity).toBe(20)
  })

  it('drops an event the admin rejects from the next listing, and shows its new status to its organizer', async () => {
    await review(seller.app, admin, quiet._id, 'Rejected')
    const listing = (await get(reader.app, '/api/v1/event')).json() as EventView[]
    expect(listing.map((e) => e._id)).not.toContain(quiet._id)
    expect((await get(reader.app, `/api/v1/event/${quiet._id}`)).statusCode).toBe(404)
    const own = await get(reader.app, `/api/v1/event/${quiet._id}`, organizer)
    expect(own.statusCode, own.body).toBe(200)
    expect((own.json() as EventView).approvalStatus).toBe('Rejected')
  })
})
