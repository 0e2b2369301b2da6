// Reserved seating (issue 40) on the real app and store: an organizer saves a seat map (a seated
// ticket type's capacity becomes its seats for sale), buyers hold chosen seats or the best ones,
// a seat is never held twice (one at a time, or many buyers at once), a single seat is not left
// stranded, a paid seat is sold and a cancelled one free again, a plan may not move a taken seat,
// everyone watching the map hears each change, promo codes and waiting lists work for seats, each row's record of its seats (what a hold of the
// best seats reads) stays as its seats are, and the read models equal a rebuild from the ledger.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import Database from 'better-sqlite3'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { CreateOrderReply, TicketView } from '../../contracts/booking.ts'
import type { EventView } from '../../contracts/catalog.ts'
import {
  CHOOSE_SEATS,
  MAX_SEATS_PER_ORDER,
  NO_SEATMAP,
  PLAN_MOVES_TAKEN_SEATS,
  SEATS_TAKEN,
  type SeatChanges,
  type SeatLabel,
  type SeatMapBody,
  type SeatMapView,
  SINGLE_SEAT_LEFT,
} from '../../contracts/seating.ts'
import { PROMO_USED_UP } from '../../server/booking/promo.ts'
import {
  EVENT_CANCELLED,
  type EventState,
  eventDecider,
  SEAT_MAP_NEEDS_SEATS,
  soldWithoutSeats,
} from '../../server/catalog/decide.ts'
import type { CatalogFact } from '../../server/catalog/facts.ts'
import { openDatabase } from '../../server/db/connection.ts'
import { streams } from '../../server/ids.ts'
import { fold } from '../../server/ledger/decider.ts'
import type { StoredFact } from '../../server/ledger/ledger.ts'
import { adminSession, bearer, organizerSession, type Session, signUp } from '../support/accounts.ts'
import {
  afterBackfill,
  dbRow,
  dbRows,
  dbRun,
  dbValue,
  ledgerFacts,
  rebuildStore,
  snapshotsDisagreeing,
  testStore,
} from '../support/db.ts'
import { lapseHold } from '../support/events.ts'
import { open, sockets, watch } from '../support/live-sockets.ts'
import { parsedMail, readOutbox } from '../support/outbox.ts'
import {
  approvedEvent,
  type Checkout,
  cancel,
  confirm,
  get,
  orderRow,
  pay,
  submitEvent,
  until,
} from '../support/sales.ts'
import { gridSection } from '../support/seat-plans.ts'
import { seatRowsDisagreeing } from '../support/seat-rows.ts'
import { startServer, type TestServer } from '../support/server.ts'

let server: TestServer
const app = () => server.app
let admin: Session
let organizer: Session

beforeAll(async () => {
  // an order may name as many seats as a seat map allows (MAX_SEATS_PER_ORDER), more than one
  // statement sets in a row's record
  server = await startServer({
    RATE_LIMITS: 'off',
    LOG_LEVEL: 'error',
    MAX_TICKETS_PER_ORDER: String(MAX_SEATS_PER_ORDER),
  })
  admin = await adminSession(app())
  organizer = await organizerSession(app(), 'Theatre')
}, 60_000)

afterAll(async () => {
  for (const socket of sockets) socket.disconnect()
  await server?.close()
})

/** a section of `rows` rows (A, B, …) of `seats` seats, x the seat's index, y the row's */
const grid = gridSection

const theatre = (): SeatMapBody => ({
  stage: { x: 0, y: -3, w: 10, h: 2 },
  sections: [grid('Stalls', 'Stalls', 3, 10), grid('Balcony', 'Balcony', 2, 10, 5)],
})

const seatedEvent = () =>
  approvedEvent(app(), organizer, admin, { title: 'Seated Night' }, [
    { type: 'Stalls', price: 1500, quantity: 1 },
    { type: 'Balcony', price: 800, quantity: 1 },
    { type: 'General Admission', price: 300, quantity: 50 },
  ])

const putMap = (event: Pick<EventView, '_id'>, body: unknown, who: Session = organizer) =>
  app().inject({
    method: 'PUT',
    url: `/api/v1/event/${event._id}/seatmap`,
    headers: bearer(who.token),
    payload: body as object,
  })

const mapOf = async (event: Pick<EventView, '_id'>): Promise<SeatMapView> => {
  const res = await get(app(), `/api/v1/event/${event._id}/seatmap`)
  expect(res.statusCode, res.body).toBe(200)
  return res.json() as SeatMapView
}

/** the id of the seat of a section, row and number, as the map gives it */
const seat = (map: SeatMapView, section: string, row: string, number: number) => {
  const found = map.sections
    .find((s) => s.name === section)
    ?.rows.find((r) => r.label === row)
    ?.seats.find((s) => s.number === number)
  if (!found) throw new Error(`no seat ${section} ${row}${number}`)
  return found
}

const order = (buyer: Session, body: Record<string, unknown>) =>
  app().inject({
    method: 'POST',
    url: '/api/v1/ticket/create',
    headers: bearer(buyer.token),
    payload: body,
  })

const statusOf = async (event: Pick<EventView, '_id'>, section: string, row: string, number: number) =>
  seat(await mapOf(event), section, row, number).status

/** a ticket type of the event as the catalog's read model has it (what a checkout hands the hold) */
const typeRow = async (event: Pick<EventView, '_id'>, type: string) => {
  const row = (await app().platform.store.queries.catalog.ticketTypesOf([event._id]))
    .get(event._id)
    ?.find((t) => t.type === type)
  if (!row) throw new Error(`no ${type}`)
  return row
}

let lateHolds = 0
/**
 * The hold as a checkout that read the event before a change would ask it, straight to the
 * commands: one of `type` by count, or the seats named.
 */
const lateHold = (
  event: Pick<EventView, '_id'>,
  buyer: Session,
  type: { id: string; type: string; pricePaise: number },
  seats?: SeatLabel[],
) => {
  const orderId = `late-${Date.now()}-${++lateHolds}`
  const asked = {
    orderId,
    eventId: event._id,
    organizerId: organizer.id,
    ticketTypeId: type.id,
    ticketType: type.type,
    buyerId: buyer.id,
    quantity: seats?.length ?? 1,
    unitPricePaise: type.pricePaise,
    amountPaise: type.pricePaise * (seats?.length ?? 1),
    provider: 'local',
    providerOrderId: `order_${orderId}`,
    heldUntil: new Date(Date.now() + 600_000).toISOString(),
    ...(seats ? { seats } : {}),
  }
  const limits = {
    salesCloseAt: '9999-12-31T00:00:00.000Z',
    maxHeldFromAddress: 100,
    maxTicketsPerAccount: 100,
  }
  const held = app().services.bookingCommands.hold(
    asked as never,
    type as never,
    { actor: buyer.id } as never,
    limits,
  )
  return { orderId, held }
}

describe('PUT /event/{id}/seatmap', () => {
  it('saves the plan: seats with the server’s ids, free, and each seated type’s capacity its seats', async () => {
    const event = await seatedEvent()
    const missing = await get(app(), `/api/v1/event/${event._id}/seatmap`)
    expect([missing.statusCode, missing.json().message]).toEqual([404, NO_SEATMAP])
    const body = theatre()
    body.sections[0]?.rows[0]?.seats.splice(0, 1, { number: 1, x: 0, y: 0, blocked: true })
    const saved = await putMap(event, body)
    expect(saved.statusCode, saved.body).toBe(200)
    expect(saved.json().message).toBe('Seat map saved.')
    const map = await mapOf(event)
    expect(map).toMatchObject({ eventId: event._id, version: 1, stage: { x: 0, y: -3, w: 10, h: 2 } })
    expect(map.sections.map((s) => [s.name, s.ticketType, s.price, s.rows.length])).toEqual([
      ['Stalls', 'Stalls', 1500, 3],
      ['Balcony', 'Balcony', 800, 2],
    ])
    expect(seat(map, 'Stalls', 'A', 1).status).toBe('blocked')
    expect(seat(map, 'Stalls', 'A', 2)).toMatchObject({ status: 'free', accessible: false, x: 1, y: 0 })
    const ids = map.sections.flatMap((s) => s.rows.flatMap((r) => r.seats.map((x) => x.id)))
    expect(new Set(ids).size).toBe(50)
    // capacity: 29 seats for sale in the stalls (one blocked), 20 in the balcony; GA untouched
    const shown = (await get(app(), `/api/v1/event/${event._id}`)).json() as EventView
    expect(shown.ticketTypes.map((t) => [t.type, t.capacity, t.available])).toEqual([
      ['Stalls', 29, 29],
      ['Balcony', 20, 20],
      ['General Admission', 50, 50],
    ])
    // saved again as it is: the same ids, a new version
    expect((await putMap(event, body)).statusCode).toBe(200)
    const again = await mapOf(event)
    expect(again.version).toBe(2)
    expect(again.sections.flatMap((s) => s.rows.flatMap((r) => r.seats.map((x) => x.id)))).toEqual(ids)
  })

  it('saves a name or a label holding a lone surrogate (no character) with U+FFFD in its place', async () => {
    const event = await seatedEvent()
    const body = theatre()
    const stalls = body.sections[0] as (typeof body.sections)[number]
    stalls.name = 'Stalls \ud800'
    ;(stalls.rows[0] as (typeof stalls.rows)[number]).label = 'A\udc00'
    // sent as JSON.stringify writes it: the surrogate escaped, `"Stalls \ud800"`
    const saved = await putMap(event, body)
    expect(saved.statusCode, saved.body).toBe(200)
    const map = await mapOf(event)
    expect(map.sections[0]?.name).toBe('Stalls \uFFFD')
    expect(map.sections[0]?.rows[0]?.label).toBe('A\uFFFD')
    // a pair is one character, kept as it is
    stalls.name = 'Stalls \ud83c\udfad'
    expect((await putMap(event, body)).statusCode).toBe(200)
    expect((await mapOf(event)).sections[0]?.name).toBe('Stalls 🎭')
  })

  it('is the organizer’s alone, and a plan that does not fit the event is refused with its reasons', async () => {
    const event = await seatedEvent()
    const other = await organizerSession(app(), 'OtherHall')
    expect((await putMap(event, theatre(), other)).statusCode).toBe(403)
    const buyer = await signUp(app())
    expect((await putMap(event, theatre(), buyer)).statusCode).toBe(403)
    const wrongType = await putMap(event, { sections: [grid('Pit', 'Standing', 1, 5)] })
    expect(wrongType.statusCode).toBe(400)
    expect(wrongType.json().issues[0]).toMatchObject({ field: 'sections.0.ticketType' })
    const half = await putMap(event, {
      sections: [{ name: 'Stalls', ticketType: 'Stalls', rows: [{ label: 'A', seats: [{ number: 1.5 }] }] }],
    })
    expect([half.statusCode, half.json().issues]).toEqual([
      400,
      [
        {
          field: 'sections.0.rows.0.seats.0.number',
          message: 'A seat number must be a whole number or up to 8 letters and digits.',
        },
      ],
    ])
    const twice = await putMap(event, {
      sections: [
        {
          name: 'Stalls',
          ticketType: 'Stalls',
          rows: [{ label: 'A', seats: [{ number: 1 }, { number: 1 }] }],
        },
      ],
    })
    expect(twice.statusCode).toBe(400)
    const empty = await putMap(event, { sections: [] })
    expect(empty.statusCode).toBe(400)
    const flatStage = await putMap(event, { ...theatre(), stage: { x: 0, y: -3, w: -10, h: 2 } })
    expect([flatStage.statusCode, flatStage.json().message]).toEqual([400, 'w must be more than 0.'])
    expect((await get(app(), `/api/v1/event/${event._id}/seatmap`)).statusCode).toBe(404)
  })
})

describe('GET /event/{id}/seatmap before approval', () => {
  // the editor's "Copy a plan from another event" reads the organizer's own plans this way
  it('is read by its organizer and admins, not by another organizer or the public', async () => {
    const submitted = await submitEvent(app(), organizer, { title: 'Matinee' }, [
      { type: 'Stalls', price: 900, quantity: 1 },
      { type: 'Balcony', price: 600, quantity: 1 },
    ])
    expect((await putMap(submitted, theatre())).statusCode).toBe(200)
    const url = `/api/v1/event/${submitted._id}/seatmap`
    const own = await get(app(), url, organizer)
    expect(own.statusCode, own.body).toBe(200)
    expect((own.json() as SeatMapView).sections.map((s) => s.name)).toEqual(['Stalls', 'Balcony'])
    expect((await get(app(), url, admin)).statusCode).toBe(200)
    const other = await organizerSession(app(), 'RivalHall')
    expect((await get(app(), url, other)).statusCode).toBe(404)
    expect((await get(app(), url)).statusCode).toBe(404)
  })
})

describe('seats held, sold and freed', () => {
  it('holds the seats chosen, never for two buyers, and sells and frees them with their order', async () => {
    const event = await seatedEvent()
    expect((await putMap(event, theatre())).statusCode).toBe(200)
    const map = await mapOf(event)
    const [a, b] = [await signUp(app()), await signUp(app())]
    const chosen = [seat(map, 'Stalls', 'B', 4).id, seat(map, 'Stalls', 'B', 5).id]
    // a quantity beside the seats must count them
    const miscounted = await order(a, { eventId: event._id, seats: chosen, quantity: 5 })
    expect([miscounted.statusCode, miscounted.json().message]).toEqual([
      400,
      'Quantity must be the number of seats chosen (2), or left out.',
    ])
    const held = await order(a, { eventId: event._id, seats: chosen, quantity: 2 })
    expect(held.statusCode, held.body).toBe(200)
    const placed = held.json() as CreateOrderReply
    expect(placed.amount).toBe(2 * 150_000)
    expect(placed.seats).toEqual([
      { id: chosen[0], section: 'Stalls', row: 'B', number: 4 },
      { id: chosen[1], section: 'Stalls', row: 'B', number: 5 },
    ])
    expect(await statusOf(event, 'Stalls', 'B', 4)).toBe('held')
    // the same seat for another buyer: refused, naming it
    const refused = await order(b, { eventId: event._id, seats: [chosen[1], seat(map, 'Stalls', 'B', 6).id] })
    expect(refused.statusCode).toBe(409)
    expect(refused.json()).toEqual({ message: SEATS_TAKEN, seats: [chosen[1]] })
    // unpaid, its passes are void and each names its seat already
    const unpaid = (await get(app(), `/api/v1/ticket/${placed.ticketId}/passes`, a)).json() as Array<{
      status: string
      seat?: unknown
    }>
    expect(unpaid.map((p) => [p.status, p.seat])).toEqual([
      ['void', placed.seats?.[0]],
      ['void', placed.seats?.[1]],
    ])
    // paid: sold, and the ticket names its seats
    const paid = await pay(app(), a, placed)
    expect((await confirm(app(), a, paid.json() as Checkout)).statusCode).toBe(200)
    expect(await statusOf(event, 'Stalls', 'B', 5)).toBe('sold')
    const ticket = (
      await get(app(), `/api/v1/ticket/getTicketbyId/${placed.ticketId}`, a)
    ).json() as TicketView
    expect(ticket).toMatchObject({ ticketType: 'Stalls', quantity: 2, seats: placed.seats })
    // an order written without its seats (by the version before them, during an upgrade) names
    // those it holds
    const kept = await dbValue(app(), 'SELECT seats_held FROM orders WHERE id = ?', placed.ticketId)
    expect(await dbRun(app(), 'UPDATE orders SET seats_held = NULL WHERE id = ?', placed.ticketId)).toBe(1)
    const unknown = await get(app(), `/api/v1/ticket/getTicketbyId/${placed.ticketId}`, a)
    expect(unknown.json().seats).toEqual(placed.seats)
    await dbRun(app(), 'UPDATE orders SET seats_held = ? WHERE id = ?', kept, placed.ticketId)
    const registrations = (await get(app(), '/api/v1/ticket/registrations', a)).json() as Array<{
      seats?: unknown
    }>
    expect(registrations[0]?.seats).toEqual(placed.seats)
    // each pass is one seat, and the confirmation mail names them
    const passes = (await get(app(), `/api/v1/ticket/${placed.ticketId}/passes`, a)).json() as Array<{
      admission: number
      seat?: unknown
    }>
    expect(passes.map((p) => [p.admission, p.seat])).toEqual([
      [1, placed.seats?.[0]],
      [2, placed.seats?.[1]],
    ])
    await until(() =>
      readOutbox(server.config.outboxDir).some(
        (m) =>
          m.to.includes(a.email) && m.text.includes('Seats: Stalls, Row B, Seat 4; Stalls, Row B, Seat 5'),
      ),
    )
    // each pass's image in the mail names its seat, as the door does
    const confirmation = readOutbox(server.config.outboxDir).find(
      (m) => m.to.includes(a.email) && m.text.includes('Seats: Stalls, Row B, Seat 4'),
    )
    if (!confirmation) throw new Error('no confirmation mail')
    const html = (await parsedMail(server.config.outboxDir, confirmation)).html || ''
    expect(html).toContain('Admission 1 · Stalls, Row B, Seat 4</p>')
    expect(html).toContain('Admission 2 · Stalls, Row B, Seat 5</p>')
    // the organizer sees who has a seat, seat by seat; nobody else does
    const holder = await get(app(), `/api/v1/event/${event._id}/seats/${chosen[0]}`, organizer)
    expect(holder.statusCode, holder.body).toBe(200)
    expect(holder.json()).toEqual({
      seat: placed.seats?.[0],
      status: 'sold',
      ticketId: placed.ticketId,
      holder: { _id: a.id, username: a.username, email: a.email },
    })
    expect((await get(app(), `/api/v1/event/${event._id}/seats/${chosen[0]}`, b)).statusCode).toBe(403)
    const other = await organizerSession(app(), 'NextDoor')
    expect((await get(app(), `/api/v1/event/${event._id}/seats/${chosen[0]}`, other)).statusCode).toBe(404)
    // cancelled: free again
    await cancel(app(), a, placed.ticketId)
    expect(await statusOf(event, 'Stalls', 'B', 4)).toBe('free')
    expect((await order(b, { eventId: event._id, seats: chosen })).statusCode).toBe(200)
    // the cancelled ticket and its passes still name the seats it was sold with, now another's
    const cancelled = (await get(app(), `/api/v1/ticket/getTicketbyId/${placed.ticketId}`, a)).json()
    expect(cancelled).toMatchObject({ paymentStatus: 'Cancelled', seats: placed.seats })
    const listed = (await get(app(), '/api/v1/ticket/registrations?include=cancelled', a)).json() as Array<{
      _id: string
      seats?: unknown
    }>
    expect(listed.find((t) => t._id === placed.ticketId)?.seats).toEqual(placed.seats)
    const voided = (await get(app(), `/api/v1/ticket/${placed.ticketId}/passes`, a)).json() as Array<{
      seat?: unknown
    }>
    expect(voided.map((p) => p.seat)).toEqual(placed.seats)
    // the cancellation mail names the seats the ticket had, freed (and held by another) since
    const cancelledMail = () =>
      readOutbox(server.config.outboxDir).find(
        (m) => m.to.includes(a.email) && m.subject === 'Your ticket for Seated Night is cancelled',
      )
    await until(() => cancelledMail() !== undefined)
    expect(cancelledMail()?.text).toContain('Seats: Stalls, Row B, Seat 4; Stalls, Row B, Seat 5')
  })

  it('refuses a choice that strands a single seat, unless nothing else is left', async () => {
    const event = await seatedEvent()
    expect((await putMap(event, theatre())).statusCode).toBe(200)
    const map = await mapOf(event)
    const buyer = await signUp(app())
    // A2 and A3 leave A1 alone at the row's end
    const stranding = await order(buyer, {
      eventId: event._id,
      seats: [seat(map, 'Stalls', 'A', 2).id, seat(map, 'Stalls', 'A', 3).id],
    })
    expect([stranding.statusCode, stranding.json().message]).toEqual([409, SINGLE_SEAT_LEFT])
    const fine = await order(buyer, {
      eventId: event._id,
      seats: [seat(map, 'Stalls', 'A', 1).id, seat(map, 'Stalls', 'A', 2).id],
    })
    expect(fine.statusCode, fine.body).toBe(200)
    // once the event is called off, that is what a choice is told, stranding or not
    const called = await app().inject({
      method: 'POST',
      url: `/api/v1/event/${event._id}/cancel`,
      headers: bearer(organizer.token),
      payload: { reason: 'The roof leaks' },
    })
    expect(called.statusCode, called.body).toBe(200)
    const late = await order(await signUp(app()), {
      eventId: event._id,
      seats: [seat(map, 'Stalls', 'B', 2).id, seat(map, 'Stalls', 'B', 3).id],
    })
    expect([late.statusCode, late.json().message]).toEqual([409, 'This event has been cancelled.'])
  })

  it('finds a choice without a single seat further back: short rows in front, a long one behind', async () => {
    const event = await seatedEvent()
    // rows A to D of 3 seats (two of three always leave one), row E of 6
    const short = gridSection('Stalls', 'Stalls', 4, 3)
    const long = gridSection('Stalls', 'Stalls', 5, 6).rows[4]
    if (!long) throw new Error('no row E')
    const plan = { stage: { x: 0, y: -3, w: 6, h: 2 }, sections: [{ ...short, rows: [...short.rows, long] }] }
    expect((await putMap(event, plan)).statusCode).toBe(200)
    const map = await mapOf(event)
    const buyer = await signUp(app())
    const stranding = await order(buyer, {
      eventId: event._id,
      seats: [1, 2].map((n) => seat(map, 'Stalls', 'A', n).id),
    })
    expect([stranding.statusCode, stranding.json().message]).toEqual([409, SINGLE_SEAT_LEFT])
    const fine = await order(buyer, {
      eventId: event._id,
      seats: [1, 2].map((n) => seat(map, 'Stalls', 'E', n).id),
    })
    expect(fine.statusCode, fine.body).toBe(200)
  })

  it('finds a choice without a single seat past rows whose free seats are all apart', async () => {
    const event = await seatedEvent()
    // rows A to D of 7 seats with 2, 4 and 6 blocked: four free seats each, none beside another;
    // row E of 3 seats (two of three leave one); row F of 7, all free, the one row with a choice
    const front = gridSection('Stalls', 'Stalls', 4, 7)
    const apart = front.rows.map((row) => ({
      ...row,
      seats: row.seats.map((s) => ({ ...s, blocked: s.number % 2 === 0 })),
    }))
    const e = gridSection('Stalls', 'Stalls', 5, 3).rows[4]
    const f = gridSection('Stalls', 'Stalls', 6, 7).rows[5]
    if (!e || !f) throw new Error('no rows E and F')
    const plan = { stage: { x: 0, y: -3, w: 7, h: 2 }, sections: [{ ...front, rows: [...apart, e, f] }] }
    expect((await putMap(event, plan)).statusCode).toBe(200)
    const map = await mapOf(event)
    const buyer = await signUp(app())
    // E2 and E3 leave E1 alone, and F has a choice of two that leaves nobody alone
    const stranding = await order(buyer, {
      eventId: event._id,
      seats: [2, 3].map((n) => seat(map, 'Stalls', 'E', n).id),
    })
    expect([stranding.statusCode, stranding.json().message]).toEqual([409, SINGLE_SEAT_LEFT])
    // the seats apart are each alone already: taking one strands nobody new
    const apartOne = await order(buyer, { eventId: event._id, seats: [seat(map, 'Stalls', 'A', 3).id] })
    expect(apartOne.statusCode, apartOne.body).toBe(200)
    const fine = await order(buyer, {
      eventId: event._id,
      seats: [1, 2].map((n) => seat(map, 'Stalls', 'F', n).id),
    })
    expect(fine.statusCode, fine.body).toBe(200)
  })

  it('refuses a new choice that strands a seat once the buyer’s own hold gives its seats back, and keeps that hold', async () => {
    const event = await seatedEvent()
    // row A of five seats; row B of two, a choice of two that leaves nobody alone
    const a = { label: 'A', seats: [0, 1, 2, 3, 4].map((x, i) => ({ number: i + 1, x, y: 0 })) }
    const b = { label: 'B', seats: [0, 1].map((x, i) => ({ number: i + 1, x, y: 1 })) }
    const plan = {
      stage: { x: 0, y: -3, w: 5, h: 2 },
      sections: [{ name: 'Stalls', ticketType: 'Stalls', rows: [a, b] }],
    }
    expect((await putMap(event, plan)).statusCode).toBe(200)
    const map = await mapOf(event)
    const buyer = await signUp(app())
    const ids = (numbers: number[]) => numbers.map((n) => seat(map, 'Stalls', 'A', n).id)
    const first = await order(buyer, { eventId: event._id, seats: ids([1, 2]) })
    expect(first.statusCode, first.body).toBe(200)
    // A2 and A3, with the buyer's A1 and A2 given back, leave A1 alone
    const stranding = await order(buyer, { eventId: event._id, seats: ids([2, 3]) })
    expect([stranding.statusCode, stranding.json().message]).toEqual([409, SINGLE_SEAT_LEFT])
    expect(await statusOf(event, 'Stalls', 'A', 1)).toBe('held')
    expect(await statusOf(event, 'Stalls', 'A', 3)).toBe('free')
    // A1 to A3 leave two together
    const moved = await order(buyer, { eventId: event._id, seats: ids([1, 2, 3]) })
    expect(moved.statusCode, moved.body).toBe(200)
    expect(await statusOf(event, 'Stalls', 'A', 3)).toBe('held')
  })

  it('finds a choice without a single seat past more than four rows whose runs an aisle splits', async () => {
    const event = await seatedEvent()
    // rows A to E: a seat, an aisle, three seats (four free in the rows' record, but two of the
    // three leave one); row F: two seats, the one choice of two leaving nobody alone; row G: three
    const split = (label: string, y: number) => ({
      label,
      seats: [0, 2, 3, 4].map((x, i) => ({ number: i + 1, x, y })),
    })
    const rows = [
      ...['A', 'B', 'C', 'D', 'E'].map((label, y) => split(label, y)),
      { label: 'F', seats: [0, 1].map((x, i) => ({ number: i + 1, x, y: 5 })) },
      { label: 'G', seats: [0, 1, 2].map((x, i) => ({ number: i + 1, x, y: 6 })) },
    ]
    const plan = {
      stage: { x: 0, y: -3, w: 5, h: 2 },
      sections: [{ name: 'Stalls', ticketType: 'Stalls', rows }],
    }
    expect((await putMap(event, plan)).statusCode).toBe(200)
    const map = await mapOf(event)
    const buyer = await signUp(app())
    // G1 and G2 leave G3 alone, and F1 and F2 leave nobody alone
    const stranding = await order(buyer, {
      eventId: event._id,
      seats: [1, 2].map((n) => seat(map, 'Stalls', 'G', n).id),
    })
    expect([stranding.statusCode, stranding.json().message]).toEqual([409, SINGLE_SEAT_LEFT])
    const fine = await order(buyer, {
      eventId: event._id,
      seats: [1, 2].map((n) => seat(map, 'Stalls', 'F', n).id),
    })
    expect(fine.statusCode, fine.body).toBe(200)
  })

  it('finds a choice without a single seat that an aisle bounds', async () => {
    const event = await seatedEvent()
    // row A: seats 1 to 3, an aisle, seat 4 (three together beside the aisle); row B: four in a row
    const a = { label: 'A', seats: [0, 1, 2, 4].map((x, i) => ({ number: i + 1, x, y: 0 })) }
    const b = { label: 'B', seats: [0, 1, 2, 3].map((x, i) => ({ number: i + 1, x, y: 1 })) }
    const plan = {
      stage: { x: 0, y: -3, w: 5, h: 2 },
      sections: [{ name: 'Stalls', ticketType: 'Stalls', rows: [a, b] }],
    }
    expect((await putMap(event, plan)).statusCode).toBe(200)
    const map = await mapOf(event)
    const buyer = await signUp(app())
    // B1 to B3 leave B4 alone, and A1 to A3 leave nobody alone
    const stranding = await order(buyer, {
      eventId: event._id,
      seats: [1, 2, 3].map((n) => seat(map, 'Stalls', 'B', n).id),
    })
    expect([stranding.statusCode, stranding.json().message]).toEqual([409, SINGLE_SEAT_LEFT])
    const fine = await order(buyer, {
      eventId: event._id,
      seats: [1, 2, 3].map((n) => seat(map, 'Stalls', 'A', n).id),
    })
    expect(fine.statusCode, fine.body).toBe(200)
  })

  it('gives a lapsed hold’s seats, not yet released, to the next buyer who names them', async () => {
    const event = await seatedEvent()
    expect((await putMap(event, theatre())).statusCode).toBe(200)
    const map = await mapOf(event)
    const [first, next] = [await signUp(app()), await signUp(app())]
    const seats = [1, 2].map((n) => seat(map, 'Stalls', 'C', n).id)
    const held = await order(first, { eventId: event._id, seats })
    expect(held.statusCode, held.body).toBe(200)
    // before its deadline the seats are taken
    const early = await order(next, { eventId: event._id, seats })
    expect(early.statusCode).toBe(409)
    expect(early.json().seats).toEqual(seats)
    // past it (its expire job still minutes away), the next buyer gets them: the hold is released first
    await lapseHold(app(), (held.json() as CreateOrderReply).ticketId)
    expect(await statusOf(event, 'Stalls', 'C', 1)).toBe('held')
    const taken = await order(next, { eventId: event._id, seats })
    expect(taken.statusCode, taken.body).toBe(200)
    const seatsOf = (reply: CreateOrderReply) => (reply.seats ?? []).map((s) => s.id)
    expect(seatsOf(taken.json() as CreateOrderReply)).toEqual(seats)
  })

  it('decides the single seat rule under the lock: two choices fine alone, made at once, cannot strand one between them', async () => {
    const event = await seatedEvent()
    expect((await putMap(event, theatre())).statusCode).toBe(200)
    const map = await mapOf(event)
    for (const row of ['A', 'B', 'C']) {
      const [left, right] = [await signUp(app()), await signUp(app())]
      // 1-2 and 4-5 of a row: each leaves no single seat alone, both would leave seat 3
      const replies = await Promise.all([
        order(left, { eventId: event._id, seats: [1, 2].map((n) => seat(map, 'Stalls', row, n).id) }),
        order(right, { eventId: event._id, seats: [4, 5].map((n) => seat(map, 'Stalls', row, n).id) }),
      ])
      const outcomes = replies.map((r) =>
        r.statusCode === 200 ? 200 : `${r.statusCode} ${r.json().message}`,
      )
      expect(outcomes.sort(), `row ${row}`).toEqual([200, `409 ${SINGLE_SEAT_LEFT}`].sort())
    }
  })

  it('gives the best seats for a quantity: together, in the front row, by the centre', async () => {
    const event = await seatedEvent()
    expect((await putMap(event, theatre())).statusCode).toBe(200)
    const buyer = await signUp(app())
    const best = await order(buyer, { eventId: event._id, ticketType: 'Stalls', quantity: 3 })
    expect(best.statusCode, best.body).toBe(200)
    const seats = (best.json() as CreateOrderReply).seats ?? []
    // the stage is 10 wide from x 0: its centre line at x 5, so seats 5 to 7 (x 4 to 6) of the front row
    expect(seats.map((s) => `${s.row}${s.number}`)).toEqual(['A5', 'A6', 'A7'])
    // general admission on the same event stays a count
    const counted = await order(buyer, { eventId: event._id, ticketType: 'General Admission', quantity: 2 })
    expect(counted.statusCode, counted.body).toBe(200)
    expect((counted.json() as CreateOrderReply).seats).toBeUndefined()
  })

  it('splits the best seats over rows when no row has room for them all, in the plan’s order', async () => {
    const event = await seatedEvent()
    // rows A to C of two seats: three seats are the front row's two and, of the second row's, the one
    // nearest them and the stage's centre line (x 1)
    const plan = { stage: { x: 0, y: -3, w: 2, h: 2 }, sections: [grid('Stalls', 'Stalls', 3, 2)] }
    expect((await putMap(event, plan)).statusCode).toBe(200)
    const buyer = await signUp(app())
    const split = await order(buyer, { eventId: event._id, ticketType: 'Stalls', quantity: 3 })
    expect(split.statusCode, split.body).toBe(200)
    const seats = (split.json() as CreateOrderReply).seats ?? []
    expect(seats.map((s) => `${s.row}${s.number}`)).toEqual(['A1', 'A2', 'B2'])
    expect(seats.every((s) => s.section === 'Stalls' && typeof s.id === 'string')).toBe(true)
  })

  it('holds a seat for one buyer of many asking at once', async () => {
    const event = await seatedEvent()
    expect((await putMap(event, theatre())).statusCode).toBe(200)
    const map = await mapOf(event)
    const target = seat(map, 'Balcony', 'A', 1).id
    const buyers = await Promise.all(Array.from({ length: 12 }, () => signUp(app())))
    const answers = await Promise.all(buyers.map((b) => order(b, { eventId: event._id, seats: [target] })))
    expect(answers.map((r) => r.statusCode).sort()).toEqual([200, ...Array(11).fill(409)])
    const rows = await dbRows(
      app(),
      'SELECT status, order_id FROM seats WHERE event_id = ? AND seat_id = ?',
      event._id,
      target,
    )
    expect(rows).toEqual([
      {
        status: 'held',
        order_id: (answers.find((r) => r.statusCode === 200)?.json() as CreateOrderReply | undefined)
          ?.ticketId,
      },
    ])
  })
})

describe('a reader holding the map', () => {
  it('is told whether it changed since (ETag, If-None-Match): unchanged while no seat of it moved', async () => {
    const [event, other] = [await seatedEvent(), await seatedEvent()]
    for (const e of [event, other]) expect((await putMap(e, theatre())).statusCode).toBe(200)
    const read = (e: Pick<EventView, '_id'>, headers: Record<string, string> = {}) =>
      app().inject({ method: 'GET', url: `/api/v1/event/${e._id}/seatmap`, headers })
    const first = await read(event)
    const tag = first.headers.etag as string
    expect(tag).toMatch(/^"[\w-]+"$/)
    // it varies by encoding and, as every reply, by Origin (CORS): a shared cache keeps them apart
    expect(String(first.headers.vary)).toMatch(/\bOrigin\b/)
    expect(String(first.headers.vary)).toMatch(/\bAccept-Encoding\b/)
    expect((await read(event, { 'accept-encoding': 'gzip' })).headers.etag).toBe(tag)
    const same = await read(event, { 'if-none-match': tag })
    expect(same.statusCode).toBe(304)
    expect(same.body).toBe('')
    expect(same.headers.etag).toBe(tag)
    // another event's seats moved (the ledger did): this map is the same
    const [a, b] = [await signUp(app()), await signUp(app())]
    const elsewhere = await order(a, {
      eventId: other._id,
      seats: [seat(await mapOf(other), 'Stalls', 'A', 1).id],
    })
    expect(elsewhere.statusCode, elsewhere.body).toBe(200)
    expect((await read(event, { 'if-none-match': tag })).statusCode).toBe(304)
    // one of its seats held: read whole, with another tag
    const held = await order(b, { eventId: event._id, seats: [seat(first.json(), 'Stalls', 'C', 3).id] })
    expect(held.statusCode, held.body).toBe(200)
    const changed = await read(event, { 'if-none-match': tag })
    expect(changed.statusCode).toBe(200)
    expect(changed.headers.etag).not.toBe(tag)
    expect(seat(changed.json(), 'Stalls', 'C', 3).status).toBe('held')
    expect((await read(event, { 'if-none-match': changed.headers.etag as string })).statusCode).toBe(304)
  })
})

describe('a seated type’s waiting list', () => {
  it('offers the seats that came back to the first in line, who picks them; nobody else can', async () => {
    const event = await approvedEvent(app(), organizer, admin, { title: 'Box Night' }, [
      { type: 'Box', price: 2500, quantity: 1 },
      { type: 'General Admission', price: 300, quantity: 50 },
    ])
    expect((await putMap(event, { sections: [grid('Box', 'Box', 1, 4)] })).statusCode).toBe(200)
    const map = await mapOf(event)
    const [first, second, waiting, outsider] = await Promise.all(
      ['First', 'Second', 'Waiting', 'Outsider'].map((name) => signUp(app(), name)),
    )
    const front = [seat(map, 'Box', 'A', 1).id, seat(map, 'Box', 'A', 2).id]
    const back = [seat(map, 'Box', 'A', 3).id, seat(map, 'Box', 'A', 4).id]
    const bought: string[] = []
    for (const [buyer, seats] of [
      [first, front],
      [second, back],
    ] as const) {
      const held = await order(buyer as Session, { eventId: event._id, seats })
      expect(held.statusCode, held.body).toBe(200)
      const paid = await pay(app(), buyer as Session, held.json() as CreateOrderReply)
      expect((await confirm(app(), buyer as Session, paid.json() as Checkout)).statusCode).toBe(200)
      bought.push((held.json() as CreateOrderReply).ticketId)
    }
    // sold out: the list is open for the seated type
    const joined = await app().inject({
      method: 'POST',
      url: `/api/v1/event/${event._id}/waitlist`,
      headers: bearer((waiting as Session).token),
      payload: { ticketType: 'Box', quantity: 2 },
    })
    expect(joined.statusCode, joined.body).toBe(201)
    // the first buyer cancels: their two seats come back, offered to the first in line
    await cancel(app(), first as Session, bought[0] as string)
    await until(async () => {
      const mine = (await get(app(), '/api/v1/waitlist/mine', waiting as Session)).json() as Array<{
        eventId: string
        status: string
      }>
      return mine.some((e) => e.eventId === event._id && e.status === 'offered')
    })
    expect(seat(await mapOf(event), 'Box', 'A', 1).status).toBe('free')
    // free on the map, but held for the one offered them: another buyer naming them is refused, told
    // why, with the seats named as any seat not free is
    const refused = await order(outsider as Session, { eventId: event._id, seats: [front[0]] })
    expect(refused.statusCode).toBe(409)
    expect(refused.json()).toEqual({
      message: 'The free seats of Box are kept for its waiting list: join it to be offered seats.',
      seats: [front[0]],
    })
    // the one offered picks them
    const picked = await order(waiting as Session, { eventId: event._id, seats: front })
    expect(picked.statusCode, picked.body).toBe(200)
    expect((picked.json() as CreateOrderReply).seats?.map((s) => `${s.row}${s.number}`)).toEqual(['A1', 'A2'])
    expect(await statusOf(event, 'Box', 'A', 2)).toBe('held')
  })
})

describe('promo codes and waiting lists on a seated type', () => {
  it('prices chosen seats with a promo code, counting its use with the order', async () => {
    const event = await seatedEvent()
    expect((await putMap(event, theatre())).statusCode).toBe(200)
    const made = await app().inject({
      method: 'POST',
      url: `/api/v1/event/${event._id}/promo-codes`,
      headers: bearer(organizer.token),
      payload: { code: 'STALLS20', percentOff: 20, ticketTypes: ['Stalls'], maxUses: 1 },
    })
    expect(made.statusCode, made.body).toBe(201)
    const map = await mapOf(event)
    const [a, b] = [await signUp(app()), await signUp(app())]
    const chosen = [seat(map, 'Stalls', 'C', 4).id, seat(map, 'Stalls', 'C', 5).id]
    const held = await order(a, { eventId: event._id, seats: chosen, promoCode: 'stalls20' })
    expect(held.statusCode, held.body).toBe(200)
    const placed = held.json() as CreateOrderReply
    // ₹1,500 × 2 less 20%
    expect(placed.amount).toBe(240_000)
    const paid = await pay(app(), a, placed)
    expect((await confirm(app(), a, paid.json() as Checkout)).statusCode).toBe(200)
    expect(await statusOf(event, 'Stalls', 'C', 5)).toBe('sold')
    // its one use is taken: another buyer's seats at the code are refused, and nothing held
    const again = await order(b, {
      eventId: event._id,
      seats: [seat(map, 'Stalls', 'A', 4).id, seat(map, 'Stalls', 'A', 5).id],
      promoCode: 'STALLS20',
    })
    expect([again.statusCode, again.json().message]).toEqual([400, PROMO_USED_UP])
    expect(await statusOf(event, 'Stalls', 'A', 4)).toBe('free')
  })

  it('keeps a seat that comes back for the one the waiting list offers it to, who may name it', async () => {
    const event = await approvedEvent(app(), organizer, admin, { title: 'Two Seats' }, [
      { type: 'Stalls', price: 900, quantity: 1 },
    ])
    expect(
      (await putMap(event, { stage: null, sections: [grid('Stalls', 'Stalls', 1, 2)] })).statusCode,
    ).toBe(200)
    const map = await mapOf(event)
    const [first, second] = [seat(map, 'Stalls', 'A', 1).id, seat(map, 'Stalls', 'A', 2).id]
    const [holder, waiter, outsider] = [await signUp(app()), await signUp(app()), await signUp(app())]
    const held = await order(holder, { eventId: event._id, seats: [first, second] })
    expect(held.statusCode, held.body).toBe(200)
    const placed = held.json() as CreateOrderReply
    const paid = await pay(app(), holder, placed)
    expect((await confirm(app(), holder, paid.json() as Checkout)).statusCode).toBe(200)
    const joined = await app().inject({
      method: 'POST',
      url: `/api/v1/event/${event._id}/waitlist`,
      headers: bearer(waiter.token),
      payload: { ticketType: 'Stalls', quantity: 2 },
    })
    expect(joined.statusCode, joined.body).toBe(201)
    await cancel(app(), holder, placed.ticketId)
    await until(async () =>
      ((await get(app(), '/api/v1/waitlist/mine', waiter)).json() as Array<{ status: string }>).some(
        (entry) => entry.status === 'offered',
      ),
    )
    // both seats are free on the map, and not on sale to anyone else
    expect(await statusOf(event, 'Stalls', 'A', 1)).toBe('free')
    const refused = await order(outsider, { eventId: event._id, seats: [first] })
    expect(refused.statusCode).toBe(409)
    expect(refused.json()).toEqual({
      message: 'The free seats of Stalls are kept for its waiting list: join it to be offered seats.',
      seats: [first],
    })
    expect(await statusOf(event, 'Stalls', 'A', 1)).toBe('free')
    // the buyer offered them names them, and holds them
    const taken = await order(waiter, { eventId: event._id, seats: [second, first] })
    expect(taken.statusCode, taken.body).toBe(200)
    expect([await statusOf(event, 'Stalls', 'A', 1), await statusOf(event, 'Stalls', 'A', 2)]).toEqual([
      'held',
      'held',
    ])
  })
})

describe('a plan changed after seats are sold', () => {
  it('may not move or remove a held or sold seat, and may change the rest', async () => {
    const event = await seatedEvent()
    expect((await putMap(event, theatre())).statusCode).toBe(200)
    const map = await mapOf(event)
    const buyer = await signUp(app())
    const taken = seat(map, 'Balcony', 'B', 9).id
    expect(
      (await order(buyer, { eventId: event._id, seats: [taken, seat(map, 'Balcony', 'B', 10).id] }))
        .statusCode,
    ).toBe(200)
    const smaller = theatre()
    smaller.sections[1] = grid('Balcony', 'Balcony', 2, 8, 5)
    const refused = await putMap(event, smaller)
    expect(refused.statusCode).toBe(409)
    expect(refused.json().message).toBe(PLAN_MOVES_TAKEN_SEATS)
    expect(refused.json().seats).toContain(taken)
    const moved = theatre()
    const row = moved.sections[1]?.rows[1]
    if (row) row.seats[8] = { number: 9, x: 20, y: 6 }
    expect((await putMap(event, moved)).json().seats).toEqual([taken])
    // the stalls shrink, the balcony stays: saved
    const fewerStalls = theatre()
    fewerStalls.sections[0] = grid('Stalls', 'Stalls', 2, 10)
    expect((await putMap(event, fewerStalls)).statusCode).toBe(200)
    const after = await mapOf(event)
    expect(after.sections[0]?.rows.length).toBe(2)
    expect(seat(after, 'Balcony', 'B', 9).status).toBe('held')
    const shown = (await get(app(), `/api/v1/event/${event._id}`)).json() as EventView
    expect(shown.ticketTypes.find((t) => t.type === 'Stalls')?.capacity).toBe(20)
  })

  it('lets a plan drawn by nobody (no x, no y) lose a free row above a held seat: the seat is the same, drawn higher', async () => {
    const event = await seatedEvent()
    /** the balcony's seat 2 has a place of its own unless `unplacedTwo` */
    const plan = (rows: string[], unplacedTwo = false) => ({
      sections: [
        {
          name: 'Stalls',
          ticketType: 'Stalls',
          rows: rows.map((label) => ({ label, seats: [{ number: 1 }, { number: 2 }, { number: 3 }] })),
        },
        {
          name: 'Balcony',
          ticketType: 'Balcony',
          rows: [
            { label: 'A', seats: [{ number: 1 }, unplacedTwo ? { number: 2 } : { number: 2, x: 30, y: 30 }] },
          ],
        },
      ],
    })
    expect((await putMap(event, plan(['A', 'B']))).statusCode).toBe(200)
    const before = await mapOf(event)
    const [one, two] = [seat(before, 'Balcony', 'A', 1), seat(before, 'Balcony', 'A', 2)]
    const buyer = await signUp(app())
    expect((await order(buyer, { eventId: event._id, seats: [one.id, two.id] })).statusCode).toBe(200)
    // the stalls lose their free row B: the balcony's laid-out seat is drawn a row higher, still held
    const saved = await putMap(event, plan(['A']))
    expect(saved.statusCode, saved.body).toBe(200)
    const after = await mapOf(event)
    const moved = seat(after, 'Balcony', 'A', 1)
    expect([moved.id, moved.status, moved.y < one.y]).toEqual([one.id, 'held', true])
    expect([seat(after, 'Balcony', 'A', 2).x, seat(after, 'Balcony', 'A', 2).y]).toEqual([30, 30])
    // a place of its own is held to: given another, or left to the layout, the seat is refused, named
    const elsewhere = plan(['A'])
    const row = elsewhere.sections[1]?.rows[0]
    if (row) row.seats[0] = { number: 1, x: 40, y: 40 } as never
    const refused = await putMap(event, elsewhere)
    expect([refused.statusCode, refused.json().seats]).toEqual([409, [one.id]])
    const unplaced = await putMap(event, plan(['A'], true))
    expect([unplaced.statusCode, unplaced.json().seats]).toEqual([409, [two.id]])
  })
})

describe('an event’s decisions after its plans', () => {
  const stateKept = async (eventId: string) => {
    const row = await dbRow<{ kind: string; version: number; state: string }>(
      app(),
      'SELECT kind, version, state FROM stream_snapshots WHERE stream = ?',
      streams.event(eventId),
    )
    if (!row) throw new Error(`no snapshot of event ${eventId}`)
    return { ...row, state: JSON.parse(row.state) as EventState }
  }
  const factsOf = async (eventId: string) =>
    (await ledgerFacts(app())).filter((f) => f.stream === streams.event(eventId)) as StoredFact<CatalogFact>[]

  it('read the state kept after the last plan, not every plan again, and a kept state of another kind not at all', async () => {
    const event = await seatedEvent()
    expect((await putMap(event, theatre())).statusCode).toBe(200)
    const fewerStalls = theatre()
    fewerStalls.sections[0] = grid('Stalls', 'Stalls', 2, 10)
    expect((await putMap(event, fewerStalls)).statusCode).toBe(200)
    // kept with the last plan: the state every fact of the stream folds to, as of its last version
    const facts = await factsOf(event._id)
    const kept = await stateKept(event._id)
    expect(kept.kind).toBe(eventDecider.snapshot?.kind)
    expect(kept.version).toBe(facts.length)
    expect(kept.state).toEqual(JSON.parse(JSON.stringify(fold(eventDecider, facts))))
    expect(kept.state.seatMap?.sections[0]?.rows.length).toBe(2)
    // a decision reads what was kept: told the event is called off, it refuses
    const told = { ...kept.state, cancelled: true }
    await dbRun(
      app(),
      'UPDATE stream_snapshots SET state = ? WHERE stream = ?',
      JSON.stringify(told),
      streams.event(event._id),
    )
    expect(await snapshotsDisagreeing(app())).toEqual([
      `${streams.event(event._id)} (not the state its facts fold to)`,
    ])
    const refused = await putMap(event, theatre())
    expect(refused.statusCode).toBe(409)
    expect(refused.json().message).toBe(EVENT_CANCELLED)
    // a kept state of another kind is not read: the whole stream is, and the state is kept again
    await dbRun(
      app(),
      "UPDATE stream_snapshots SET kind = 'event-0' WHERE stream = ?",
      streams.event(event._id),
    )
    expect((await putMap(event, theatre())).statusCode).toBe(200)
    const again = await stateKept(event._id)
    expect(again.kind).toBe(eventDecider.snapshot?.kind)
    expect(again.version).toBe(facts.length + 1)
    expect(again.state.cancelled).toBe(false)
    expect(again.state.seatMap?.sections[0]?.rows.length).toBe(3)
    expect(await snapshotsDisagreeing(app())).toEqual([])
    // a decision on the facts after it: a held seat may not move, as the plan kept says
    const buyer = await signUp(app())
    const map = await mapOf(event)
    const taken = seat(map, 'Stalls', 'C', 5).id
    expect((await order(buyer, { eventId: event._id, seats: [taken] })).statusCode).toBe(200)
    const moved = await putMap(event, fewerStalls)
    expect(moved.statusCode).toBe(409)
    expect(moved.json().seats).toEqual([taken])
  })
})

describe('a plan over tickets sold by count', () => {
  it('makes no section of a type with tickets sold or held without seats; a type without any may be one', async () => {
    const event = await seatedEvent()
    const buyer = await signUp(app())
    const byCount = await order(buyer, { eventId: event._id, ticketType: 'Stalls', quantity: 1 })
    expect(byCount.statusCode, byCount.body).toBe(200)
    const refused = await putMap(event, theatre())
    expect(refused.statusCode).toBe(409)
    expect(refused.json().message).toBe(soldWithoutSeats('Stalls'))
    expect((await get(app(), `/api/v1/event/${event._id}/seatmap`)).statusCode).toBe(404)
    const shown = (await get(app(), `/api/v1/event/${event._id}`)).json() as EventView
    expect(shown.ticketTypes.find((t) => t.type === 'Stalls')).toMatchObject({ capacity: 1, available: 0 })
    // the balcony alone sold nothing: it may be seated
    const balcony = await putMap(event, { sections: [grid('Balcony', 'Balcony', 2, 10, 5)] })
    expect(balcony.statusCode, balcony.body).toBe(200)
  })

  it('refunds a late payment by count of a type made seated since its hold was released', async () => {
    const event = await seatedEvent()
    const late = await signUp(app())
    const placed = (
      await order(late, { eventId: event._id, ticketType: 'Stalls', quantity: 1 })
    ).json() as CreateOrderReply
    // the hold lapses and is released: nothing of Stalls is held or sold, so it may become seated
    await lapseHold(app(), placed.ticketId)
    await app().services.bookingCommands.releaseLapsedHolds()
    expect((await putMap(event, theatre())).statusCode).toBe(200)
    const paid = await pay(app(), late, placed)
    const res = await confirm(app(), late, paid.json() as Checkout)
    expect(res.statusCode, res.body).toBe(409)
    await until(async () => (await orderRow(app(), placed.ticketId))?.refund === 'refunded')
    expect(await orderRow(app(), placed.ticketId)).toMatchObject({ status: 'expired', ownerId: null })
    const shown = (await get(app(), `/api/v1/event/${event._id}`)).json() as EventView
    expect(shown.ticketTypes.find((t) => t.type === 'Stalls')).toMatchObject({ capacity: 30, available: 30 })
  })

  it('refuses a hold by count decided before its type became seated, under the lock', async () => {
    const event = await seatedEvent()
    const buyer = await signUp(app())
    expect((await putMap(event, theatre())).statusCode).toBe(200)
    // as a checkout that looked before the map was saved would ask the hold: by count
    const late = lateHold(event, buyer, await typeRow(event, 'Stalls'))
    await expect(late.held).rejects.toMatchObject({ message: CHOOSE_SEATS })
    expect(await orderRow(app(), late.orderId)).toBeUndefined()
  })

  it('refuses named seats whose section a new plan gave another ticket type since the checkout read them, under the lock', async () => {
    const event = await seatedEvent()
    const buyer = await signUp(app())
    expect((await putMap(event, theatre())).statusCode).toBe(200)
    const before = await mapOf(event)
    const chosen = seat(before, 'Stalls', 'A', 4)
    // the sections change ticket types: Stalls' seats are Balcony's now, and Balcony's row A is Stalls'
    const swapped = theatre()
    const [front, back] = swapped.sections as [SeatMapBody['sections'][0], SeatMapBody['sections'][0]]
    swapped.sections = [
      { ...front, ticketType: 'Balcony' },
      { ...back, ticketType: 'Stalls' },
    ]
    const saved = await putMap(event, swapped)
    expect(saved.statusCode, saved.body).toBe(200)
    // as a checkout that read the seat before the new plan would ask the hold: Stalls' row A, A4
    const late = lateHold(event, buyer, await typeRow(event, 'Stalls'), [
      { id: chosen.id, section: 'Stalls', row: 'A', number: 4 },
    ])
    await expect(late.held).rejects.toMatchObject({ message: SEATS_TAKEN, details: { seats: [chosen.id] } })
    expect(await orderRow(app(), late.orderId)).toBeUndefined()
    expect(await statusOf(event, 'Stalls', 'A', 4)).toBe('free')
    // the same seat named now is of Balcony, and held at Balcony's price (₹800)
    const now = await order(buyer, { eventId: event._id, seats: [chosen.id] })
    expect(now.statusCode, now.body).toBe(200)
    expect((now.json() as CreateOrderReply).amount).toBe(80_000)
    expect(await statusOf(event, 'Stalls', 'A', 4)).toBe('held')
  })

  it('refuses a section with no seat for sale, naming it', async () => {
    const event = await seatedEvent()
    const allBlocked = await putMap(event, {
      sections: [
        grid('Stalls', 'Stalls', 1, 4),
        {
          name: 'Balcony',
          ticketType: 'Balcony',
          rows: [{ label: 'A', seats: [1, 2, 3].map((number) => ({ number, blocked: true })) }],
        },
      ],
    })
    expect(allBlocked.statusCode).toBe(400)
    expect(allBlocked.json()).toMatchObject({
      message: SEAT_MAP_NEEDS_SEATS,
      issues: [{ field: 'sections.1', message: SEAT_MAP_NEEDS_SEATS }],
    })
  })
})

describe('the live room seats-<eventId>', () => {
  it('says on joining that an event has no map yet (a page that read none need not ask again)', async () => {
    const event = await seatedEvent()
    const watcher = await open(server.url)
    expect(await watch(watcher, `seats-${event._id}`)).toEqual({
      ok: true,
      room: `seats-${event._id}`,
      seatMap: null,
    })
    // a map placed once joined is pushed to the room with its version
    const heard: SeatChanges[] = []
    watcher.on('seats', (message: SeatChanges) => heard.push(message))
    expect((await putMap(event, theatre())).statusCode).toBe(200)
    await until(() => heard.some((m) => m.version === 1))
  })

  it('tells everyone watching the map of each seat that changes, as it changes', async () => {
    const event = await seatedEvent()
    expect((await putMap(event, theatre())).statusCode).toBe(200)
    const map = await mapOf(event)
    const watcher = await open(server.url)
    // the join says which version of the map the event has once joined
    expect(await watch(watcher, `seats-${event._id}`)).toEqual({
      ok: true,
      room: `seats-${event._id}`,
      seatMap: map.version,
    })
    const heard: SeatChanges[] = []
    watcher.on('seats', (message: SeatChanges) => heard.push(message))
    const buyer = await signUp(app())
    const chosen = seat(map, 'Stalls', 'C', 1).id
    const placed = (
      await order(buyer, { eventId: event._id, seats: [chosen, seat(map, 'Stalls', 'C', 2).id] })
    ).json() as CreateOrderReply
    await until(() => heard.some((m) => m.changes.some((c) => c.id === chosen && c.status === 'held')))
    // a new checkout for the event replaces the unpaid one: its seats come back
    const other = await order(buyer, { eventId: event._id, ticketType: 'General Admission', quantity: 1 })
    expect(other.statusCode, other.body).toBe(200)
    await until(() => heard.some((m) => m.changes.some((c) => c.id === chosen && c.status === 'free')))
    // the public room names seats, never an order
    expect(JSON.stringify(heard)).not.toContain(placed.ticketId)
    // a new plan: the seats it blocks, frees and adds, and those it removes, with its version
    const next = theatre()
    const stalls = next.sections[0]
    if (!stalls?.rows[0] || !stalls.rows[1]) throw new Error('no stalls')
    stalls.rows[0].seats = stalls.rows[0].seats.map((s) => (s.number === 5 ? { ...s, blocked: true } : s))
    stalls.rows[1].seats = stalls.rows[1].seats.filter((s) => s.number !== 10)
    stalls.rows[1].seats.push({ number: 11, x: 12, y: 1 })
    const saved = await putMap(event, next)
    expect(saved.statusCode, saved.body).toBe(200)
    const plan = saved.json().seatmap as SeatMapView
    const added = seat(plan, 'Stalls', 'B', 11).id
    const blocked = seat(map, 'Stalls', 'A', 5).id
    await until(() => heard.some((m) => m.version === plan.version))
    const told = heard.find((m) => m.version === plan.version)
    expect(told?.changes).toEqual([
      { id: blocked, status: 'blocked' },
      { id: added, status: 'free' },
    ])
    expect(told?.removed).toEqual([seat(map, 'Stalls', 'B', 10).id])
    // unblocked again: freed
    const again = await putMap(event, {
      ...next,
      sections: [
        { ...stalls, rows: [theatre().sections[0]?.rows[0], ...stalls.rows.slice(1)] },
        ...next.sections.slice(1),
      ],
    })
    expect(again.statusCode, again.body).toBe(200)
    const version = (again.json().seatmap as SeatMapView).version
    await until(() => heard.some((m) => m.version === version))
    expect(heard.find((m) => m.version === version)?.changes).toEqual([{ id: blocked, status: 'free' }])
    expect(heard.find((m) => m.version === version)).not.toHaveProperty('removed')
  })

  it('is not open to the public before the event is approved', async () => {
    const submitted = await submitEvent(app(), organizer, { title: 'Not yet' }, [
      { type: 'Stalls', price: 100, quantity: 1 },
    ])
    const visitor = await open(server.url)
    expect((await watch(visitor, `seats-${submitted._id}`)).ok).toBe(false)
  })
})

describe('each row’s record of its seats', () => {
  /** every row's record and free count as its seats are now */
  const agree = async (after: string) => expect(await seatRowsDisagreeing(app()), after).toEqual([])

  it('stays as its seats are through holds, a replaced hold, sales, releases and a new plan', async () => {
    const event = await seatedEvent()
    const body = theatre()
    body.sections[0]?.rows[0]?.seats.splice(0, 1, { number: 1, x: 0, y: 0, blocked: true })
    expect((await putMap(event, body)).statusCode).toBe(200)
    await agree('the plan saved')
    const map = await mapOf(event)
    const [a, b, c, d] = [
      await signUp(app(), 'Asha'),
      await signUp(app(), 'Bala'),
      await signUp(app(), 'Chitra'),
      await signUp(app(), 'Dev'),
    ]
    const best = await order(a, { eventId: event._id, ticketType: 'Stalls', quantity: 3 })
    expect(best.statusCode, best.body).toBe(200)
    await agree('the best seats held')
    const named = await order(b, {
      eventId: event._id,
      seats: [seat(map, 'Stalls', 'B', 4).id, seat(map, 'Stalls', 'B', 5).id],
    })
    expect(named.statusCode, named.body).toBe(200)
    await agree('seats chosen held')
    // a new checkout of the same buyer gives the last one's seats back, then holds the best again
    const replacing = await order(a, { eventId: event._id, ticketType: 'Stalls', quantity: 2 })
    expect(replacing.statusCode, replacing.body).toBe(200)
    expect(await statusOf(event, 'Stalls', 'A', 7)).toBe('free')
    await agree('a hold replaced')
    const sold = named.json() as CreateOrderReply
    expect((await confirm(app(), b, (await pay(app(), b, sold)).json() as Checkout)).statusCode).toBe(200)
    expect(await statusOf(event, 'Stalls', 'B', 4)).toBe('sold')
    await agree('seats sold')
    // a hold that lapses is released; paid for after, its seats (still there) are sold again
    const lapsing = (
      await order(c, {
        eventId: event._id,
        seats: [seat(map, 'Stalls', 'C', 1).id, seat(map, 'Stalls', 'C', 2).id],
      })
    ).json() as CreateOrderReply
    await agree('more seats held')
    await lapseHold(app(), lapsing.ticketId)
    await app().services.bookingCommands.releaseLapsedHolds()
    expect(await statusOf(event, 'Stalls', 'C', 1)).toBe('free')
    await agree('a lapsed hold released')
    expect(
      (await confirm(app(), c, (await pay(app(), c, lapsing)).json() as Checkout)).statusCode,
    ).toBeLessThan(300)
    await until(async () => (await statusOf(event, 'Stalls', 'C', 2)) === 'sold')
    await agree('seats sold after their hold lapsed')
    await cancel(app(), b, sold.ticketId)
    expect(await statusOf(event, 'Stalls', 'B', 5)).toBe('free')
    await agree('a ticket cancelled')
    // the plan saved again with seats held and sold: they keep their sale, others are blocked or go
    const again = theatre()
    again.sections[0]?.rows[1]?.seats.splice(9, 1, { number: 10, x: 9, y: 1, blocked: true })
    again.sections[1] = grid('Balcony', 'Balcony', 2, 8, 5)
    expect((await putMap(event, again)).statusCode).toBe(200)
    await agree('the plan saved again')
    // the best seats of the new plan, read from the records: none of those taken
    const taken = new Set(
      [...((replacing.json() as CreateOrderReply).seats ?? []), ...(lapsing.seats ?? [])].map((s) => s.id),
    )
    const after = await order(d, { eventId: event._id, ticketType: 'Stalls', quantity: 4 })
    expect(after.statusCode, after.body).toBe(200)
    expect((after.json() as CreateOrderReply).seats?.filter((s) => taken.has(s.id))).toEqual([])
    await agree('the best seats of the new plan held')
  })

  it('stays as its seats are when an order holds and gives back more of a row than one statement sets', async () => {
    const event = await seatedEvent()
    expect((await putMap(event, { sections: [grid('Stalls', 'Stalls', 1, 20)] })).statusCode).toBe(200)
    const map = await mapOf(event)
    const buyer = await signUp(app(), 'Ela')
    const eighteen = Array.from({ length: 18 }, (_, i) => seat(map, 'Stalls', 'A', i + 1).id)
    const held = await order(buyer, { eventId: event._id, seats: eighteen })
    expect(held.statusCode, held.body).toBe(200)
    await agree('18 seats of a row held')
    // the buyer's next checkout gives all 18 back
    expect((await order(buyer, { eventId: event._id, ticketType: 'Stalls', quantity: 2 })).statusCode).toBe(
      200,
    )
    expect(await statusOf(event, 'Stalls', 'A', 1)).toBe('free')
    await agree('18 seats of a row given back')
  })
})

describe('the rows’ records on SQLite', () => {
  // they are kept by a trigger written by hand (migration 0035), which a table made again would lose
  it.skipIf(testStore !== 'sqlite')('are kept by a trigger, without which the app refuses to start', () => {
    const dir = mkdtempSync(join(tmpdir(), 'seat-trigger-'))
    try {
      const file = join(dir, 'app.db')
      openDatabase(file).close()
      const raw = new Database(file)
      raw.exec('DROP TRIGGER seats_row_record')
      raw.close()
      expect(() => openDatabase(file)).toThrow(/seats_row_record/)
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})

describe('the seats’ read models', () => {
  it('equal a rebuild from the ledger', async () => {
    const before = await dbRows(app(), 'SELECT * FROM seats ORDER BY event_id, seat_id')
    const maps = await dbRows(app(), 'SELECT * FROM seat_maps ORDER BY event_id')
    const rows = await dbRows(app(), 'SELECT * FROM seat_rows ORDER BY event_id, ticket_type_id, row_label')
    expect(before.length).toBeGreaterThan(0)
    // a row's free seats: its seats free and not blocked, as they are now
    for (const row of rows) {
      const free = before.filter(
        (s) =>
          s.event_id === row.event_id &&
          s.ticket_type_id === row.ticket_type_id &&
          s.row_label === row.row_label &&
          s.status === 'free' &&
          !s.blocked,
      ).length
      expect(Number(row.free), `row ${row.row_label}`).toBe(free)
    }
    expect(await seatRowsDisagreeing(app())).toEqual([])
    await rebuildStore(app())
    expect(await dbRows(app(), 'SELECT * FROM seats ORDER BY event_id, seat_id')).toEqual(before)
    expect(await dbRows(app(), 'SELECT * FROM seat_maps ORDER BY event_id')).toEqual(maps)
    expect(
      await dbRows(app(), 'SELECT * FROM seat_rows ORDER BY event_id, ticket_type_id, row_label'),
    ).toEqual(rows)
  })

  it('are what the migration that added the rows’ records makes of the seats a database had', async () => {
    const seatsNow = 'SELECT * FROM seats ORDER BY event_id, seat_id'
    const rowsNow = 'SELECT * FROM seat_rows ORDER BY event_id, ticket_type_id, row_label'
    const [before, rows] = [await dbRows(app(), seatsNow), await dbRows(app(), rowsNow)]
    expect(rows.some((r) => String(r.taken).includes('x'))).toBe(true)
    // as the columns were added, with their defaults, then the migration's backfill
    const forget = "UPDATE seats SET slot = 0; UPDATE seat_rows SET taken = ''"
    const migration = { sqlite: '0027_seat_rows_taken.sql', postgres: '0019_seat_rows_taken.sql' }
    expect(await afterBackfill(app(), migration, forget, [seatsNow, rowsNow])).toEqual([before, rows])
  })

  it('are named on their orders as the migration that kept them there makes them', async () => {
    const ordersNow = 'SELECT id, seats_held FROM orders ORDER BY id'
    // the same seats, whatever the spacing of the fact's text they came from
    const parsed = (rows: Array<Record<string, unknown>>) =>
      rows.map((o) => ({ id: o.id, seats: o.seats_held === null ? null : JSON.parse(String(o.seats_held)) }))
    const before = parsed(await dbRows(app(), ordersNow))
    expect(before.some((o) => Array.isArray(o.seats) && o.seats.length > 0)).toBe(true)
    expect(before.some((o) => o.seats === null)).toBe(true)
    const migration = { sqlite: '0032_order_seats.sql', postgres: '0024_order_seats.sql' }
    const forget = 'UPDATE orders SET seats_held = NULL'
    const [after] = await afterBackfill(app(), migration, forget, [ordersNow])
    expect(parsed(after ?? [])).toEqual(before)
  })
})
