// Reserved seating (issue 40) in Chromium: two buyers in browsers of their own watch one event's seat
// map; A picks two seats by clicking and a third with the keyboard, books them through the booking
// page and the local checkout, and B's map shows them taken without a reload, where B cannot pick
// them; A's ticket card names the seats; a choice stranding a single seat is refused with the
// server's reason; an organizer draws a section with the editor, blocks a seat on its preview and
// saves it; copies the plan of another of their events (at the same venue) and saves it as this
// one's; and chooses a sold seat on the map to see who bought it.
import type { Browser, Locator, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { EventView } from '../../contracts/catalog.ts'
import { type SeatMapBody, type SeatMapView, SINGLE_SEAT_LEFT } from '../../contracts/seating.ts'
import { planBox } from '../../web/src/screens/seating/plan-layout.ts'
import { adminSession, bearer, organizerSession, type Session, signUp } from '../support/accounts.ts'
import { launchBrowser, signedInPages } from '../support/browser.ts'
import { approvedEvent, buy, cancel, get, submitEvent, until } from '../support/sales.ts'
import { gridSection } from '../support/seat-plans.ts'
import { startServer, type TestServer } from '../support/server.ts'

let server: TestServer
let browser: Browser
let admin: Session
let organizer: Session
let buyerA: Session
let buyerB: Session
/** the event with a seat map given through the API: Stalls, rows A to C of 10 seats */
let event: EventView

/** seats 10 units apart, as the editor draws them (a seat's circle is 8 across) */
const PITCH = 10

/** a section of `rows` rows (A, B, …) of `seats` seats, PITCH apart in rows PITCH apart */
const grid = (name: string, ticketType: string, rows: number, seats: number, top = 0) =>
  gridSection(name, ticketType, rows, seats, top, PITCH)

const putMap = (eventId: string, body: SeatMapBody) =>
  server.app.inject({
    method: 'PUT',
    url: `/api/v1/event/${eventId}/seatmap`,
    headers: bearer(organizer.token),
    payload: body,
  })

const mapOf = async (eventId: string): Promise<SeatMapView> => {
  const res = await get(server.app, `/api/v1/event/${eventId}/seatmap`)
  expect(res.statusCode, res.body).toBe(200)
  return res.json() as SeatMapView
}

/** a map as its organizer reads it (an event not approved yet is theirs alone to see) */
const getAs = async (account: Session, url: string): Promise<SeatMapView> => {
  const res = await get(server.app, url, account)
  expect(res.statusCode, res.body).toBe(200)
  return res.json() as SeatMapView
}

const seatCount = (map: SeatMapView) =>
  map.sections.reduce((sum, section) => sum + section.rows.reduce((n, row) => n + row.seats.length, 0), 0)

beforeAll(async () => {
  server = await startServer({ RATE_LIMITS: 'off' })
  admin = await adminSession(server.app)
  organizer = await organizerSession(server.app, 'Theatre')
  buyerA = await signUp(server.app, 'Asha')
  buyerB = await signUp(server.app, 'Bilal')
  event = await approvedEvent(server.app, organizer, admin, { title: `Seated Night ${Date.now()}` }, [
    { type: 'Stalls', price: 1500, quantity: 30 },
    { type: 'General Admission', price: 500, quantity: 100 },
  ])
  const saved = await putMap(event._id, {
    stage: { x: 0, y: -3 * PITCH, w: 10 * PITCH, h: 2 * PITCH },
    sections: [grid('Stalls', 'Stalls', 3, 10)],
  })
  expect(saved.statusCode, saved.body).toBe(200)
  browser = await launchBrowser()
}, 60_000)

afterAll(async () => {
  await pages.closeAll()
  await browser?.close()
  await server?.close()
})

const pages = signedInPages(
  () => browser,
  () => server.url,
)
const signedInPage = (account: Session): Promise<Page> => pages.open(account.token)

/** the event page, signed in, with its live connection up and its seat map drawn */
async function openEventPage(page: Page) {
  await page.goto(`/event/${event._id}`)
  await page.getByRole('heading', { name: event.title }).waitFor()
  await page.locator('[data-live="connected"]').waitFor()
  await seatMap(page).getByRole('gridcell').first().waitFor()
}

const seatMap = (page: Page) => page.getByRole('grid', { name: 'Seat map' })
/** a seat of the map, by its row and number (its name's status word changes with the seat) */
const seatAt = (page: Page, row: string, number: number): Locator =>
  seatMap(page).getByRole('gridcell', { name: new RegExp(`^Row ${row}, seat ${number}, `) })
const nameOf = async (seat: Locator) => (await seat.getAttribute('aria-label')) ?? ''
const focusedName = (page: Page) =>
  page.evaluate(() => document.activeElement?.getAttribute('aria-label') ?? '')
const yourSeats = (page: Page) => page.getByRole('region', { name: 'Your seats' })

/** set on the page once: still there later means no reload happened */
const markPage = (page: Page) =>
  page.evaluate(() => {
    ;(window as unknown as { stillHere: boolean }).stillHere = true
  })
const notReloaded = async (page: Page) =>
  expect(await page.evaluate(() => (window as unknown as { stillHere?: boolean }).stillHere)).toBe(true)

describe('reserved seating in the browser', () => {
  let pageA: Page
  let pageB: Page
  /** A's ticket, read from its confirmation page's address */
  let ticketOfA: string

  it("books A's seats, two clicked and one chosen by keyboard, while B's map shows them taken live", async () => {
    pageB = await signedInPage(buyerB)
    await openEventPage(pageB)
    await markPage(pageB)
    expect(await nameOf(seatAt(pageB, 'A', 1))).toBe('Row A, seat 1, ₹1,500, free')

    pageA = await signedInPage(buyerA)
    await openEventPage(pageA)
    await yourSeats(pageA)
      .getByText('No seats chosen yet: choose free seats on the map, or ask for the best available.')
      .waitFor()
    await seatAt(pageA, 'A', 1).click()
    await seatAt(pageA, 'A', 2).click()
    expect(await seatAt(pageA, 'A', 1).getAttribute('aria-selected')).toBe('true')
    expect(await seatAt(pageA, 'A', 2).getAttribute('aria-selected')).toBe('true')

    // the keyboard goes on from the seat last clicked, which has the focus: the grid's focus moves
    // along the row with the arrows, Space chooses
    await expect.poll(() => focusedName(pageA)).toMatch(/^Row A, seat 2, ₹1,500, /)
    await pageA.keyboard.press('ArrowRight')
    await expect.poll(() => focusedName(pageA)).toBe('Row A, seat 3, ₹1,500, free')
    await pageA.keyboard.press('Space')
    await expect.poll(() => seatAt(pageA, 'A', 3).getAttribute('aria-selected')).toBe('true')
    // one down and back up again lands on the same seat across
    await pageA.keyboard.press('ArrowDown')
    await expect.poll(() => focusedName(pageA)).toBe('Row B, seat 3, ₹1,500, free')
    await pageA.keyboard.press('ArrowUp')
    await expect.poll(() => focusedName(pageA)).toBe('Row A, seat 3, ₹1,500, free')

    const choice = yourSeats(pageA)
    for (const number of [1, 2, 3])
      await choice.getByText(`Stalls, Row A, Seat ${number} · ₹1,500`, { exact: true }).waitFor()
    await choice.getByText('3 seats · Total: ₹4,500').waitFor()

    await choice.getByRole('button', { name: 'Book seats' }).click()
    await pageA.waitForURL((url) => url.pathname === `/booking/${event._id}`)
    await pageA.getByText('Your 3 seats').waitFor()
    for (const number of [1, 2, 3])
      await pageA.getByText(`Stalls, Row A, Seat ${number} · ₹1,500`, { exact: true }).waitFor()
    await pageA.getByRole('button', { name: 'Confirm Booking' }).click()

    const checkout = pageA.getByRole('dialog', { name: event.title })
    await checkout.getByText('₹4,500').waitFor()
    // held for A while A pays: B's map says so already
    for (const number of [1, 2, 3])
      await expect
        .poll(() => nameOf(seatAt(pageB, 'A', number)), { timeout: 20_000 })
        .toBe(`Row A, seat ${number}, ₹1,500, held`)
    // A's own hold is not taken for someone else's on A's page (its room heard it too)
    expect(await pageA.getByText(/just been taken by someone else/).count()).toBe(0)
    expect(await pageA.getByText('(taken)').count()).toBe(0)
    await checkout.getByRole('button', { name: 'Pay', exact: true }).click()
    await pageA.getByText('Booking Successful!').waitFor()
    await pageA.waitForURL((url) => url.pathname.startsWith(`/booking/${event._id}/confirmed/`))
    ticketOfA = new URL(pageA.url()).pathname.split('/').at(-1) ?? ''

    // B's map, never reloaded, shows A's seats taken (held, then sold once paid), and the rest free
    for (const number of [1, 2, 3])
      await expect
        .poll(() => nameOf(seatAt(pageB, 'A', number)), { timeout: 20_000 })
        .toBe(`Row A, seat ${number}, ₹1,500, sold`)
    expect(await nameOf(seatAt(pageB, 'A', 4))).toBe('Row A, seat 4, ₹1,500, free')
    expect(await seatAt(pageB, 'A', 1).getAttribute('aria-disabled')).toBe('true')
    await notReloaded(pageB)

    // B clicking a taken seat does not choose it (the click reaches the seat: force skips the wait
    // for an enabled element, aria-disabled being what a screen reader hears)
    await seatAt(pageB, 'A', 2).click({ force: true })
    await pageB
      .getByRole('region', { name: 'Choose your seats' })
      .getByRole('status')
      .filter({ hasText: 'This seat is not available.' })
      .waitFor()
    expect(await seatAt(pageB, 'A', 2).getAttribute('aria-selected')).not.toBe('true')
    await yourSeats(pageB)
      .getByText('No seats chosen yet: choose free seats on the map, or ask for the best available.')
      .waitFor()

    // the server agrees
    const map = await mapOf(event._id)
    const rowA = map.sections[0]?.rows.find((row) => row.label === 'A')
    expect(rowA?.seats.filter((seat) => seat.status === 'sold').map((seat) => seat.number)).toEqual([1, 2, 3])
  })

  it("shows the seats on A's ticket card on the dashboard", async () => {
    await pageA.goto('/dashboard')
    const card = pageA.locator(`#ticket-${ticketOfA}`)
    await card.getByRole('heading', { name: event.title }).waitFor()
    await card.getByText('Seats:', { exact: true }).waitFor()
    const lines = card.getByRole('listitem').filter({ hasText: /^Stalls, Row / })
    await lines.first().waitFor()
    expect(await lines.allTextContents()).toEqual([
      'Stalls, Row A, Seat 1',
      'Stalls, Row A, Seat 2',
      'Stalls, Row A, Seat 3',
    ])
  })

  it("refuses a choice that would strand a single seat, with the server's reason", async () => {
    // Row C is free: seat 2 alone leaves seat 1 on its own at the row's end
    await seatAt(pageB, 'C', 2).click()
    expect(await seatAt(pageB, 'C', 2).getAttribute('aria-selected')).toBe('true')
    await yourSeats(pageB).getByRole('button', { name: 'Book seats' }).click()
    await pageB.waitForURL((url) => url.pathname === `/booking/${event._id}`)
    await pageB.getByText('Your seat', { exact: true }).waitFor()
    await pageB.getByText('Stalls, Row C, Seat 2 · ₹1,500', { exact: true }).waitFor()
    await pageB.getByRole('button', { name: 'Confirm Booking' }).click()
    await pageB.getByRole('alert').filter({ hasText: SINGLE_SEAT_LEFT }).waitFor()
    expect(await pageB.getByRole('dialog', { name: event.title }).count()).toBe(0)
    // nothing was held
    const rowC = (await mapOf(event._id)).sections[0]?.rows.find((row) => row.label === 'C')
    expect(rowC?.seats.every((seat) => seat.status === 'free')).toBe(true)
  })

  it('marks a chosen seat taken on the booking page as someone else takes it, and offers no booking of it', async () => {
    await openEventPage(pageB)
    await seatAt(pageB, 'B', 1).click()
    await seatAt(pageB, 'B', 2).click()
    await yourSeats(pageB).getByRole('button', { name: 'Book seats' }).click()
    await pageB.waitForURL((url) => url.pathname === `/booking/${event._id}`)
    await pageB.getByText('Your 2 seats').waitFor()
    const confirm = pageB.getByRole('button', { name: 'Confirm Booking' })
    await expect.poll(() => confirm.isDisabled()).toBe(false)
    await markPage(pageB)

    // A takes B1 meanwhile (by the API): B's booking page, never reloaded, says so at once
    const rowB = (await mapOf(event._id)).sections[0]?.rows.find((row) => row.label === 'B')
    const b1 = rowB?.seats.find((seat) => seat.number === 1)?.id ?? ''
    const held = await server.app.inject({
      method: 'POST',
      url: '/api/v1/ticket/create',
      headers: bearer(buyerA.token),
      payload: { eventId: event._id, seats: [b1] },
    })
    expect(held.statusCode, held.body).toBe(200)
    await pageB
      .getByRole('alert')
      .filter({ hasText: 'A seat you chose has just been taken by someone else.' })
      .waitFor({ timeout: 10_000 })
    await pageB.getByText('Stalls, Row B, Seat 1 · ₹1,500 (taken)', { exact: true }).waitFor()
    expect(await confirm.isDisabled()).toBe(true)
    await notReloaded(pageB)

    // seats no longer on the map: said so, and nothing to confirm
    await pageB.goto(`/booking/${event._id}?seats=${encodeURIComponent(JSON.stringify(['bogus1']))}`)
    await pageB
      .getByRole('alert')
      .filter({ hasText: 'The seats you chose are no longer on the seat map.' })
      .waitFor()
    expect(await pageB.getByRole('button', { name: 'Confirm Booking' }).isDisabled()).toBe(true)
  })

  it('keeps the seats that came back for the waiting list: an outsider is told, the buyer offered them picks them', async () => {
    const small = await approvedEvent(server.app, organizer, admin, { title: `Small Room ${Date.now()}` }, [
      { type: 'Stalls', price: 700, quantity: 2 },
    ])
    const placed = await putMap(small._id, { stage: null, sections: [grid('Stalls', 'Stalls', 1, 2)] })
    expect(placed.statusCode, placed.body).toBe(200)
    const [first, waiter, outsider] = [
      await signUp(server.app, 'Farida'),
      await signUp(server.app, 'Gopal'),
      await signUp(server.app, 'Hema'),
    ]
    const sold = await buy(server.app, first, small, 'Stalls', 2)
    const joined = await server.app.inject({
      method: 'POST',
      url: `/api/v1/event/${small._id}/waitlist`,
      headers: bearer(waiter.token),
      payload: { ticketType: 'Stalls', quantity: 2 },
    })
    expect(joined.statusCode, joined.body).toBe(201)
    await cancel(server.app, first, sold)
    await until(async () => {
      const mine = (await get(server.app, '/api/v1/waitlist/mine', waiter)).json() as Array<{
        status: string
      }>
      return mine.some((entry) => entry.status === 'offered')
    })

    const open = async (account: Session) => {
      const page = await signedInPage(account)
      await page.goto(`/event/${small._id}`)
      await page.locator('[data-live="connected"]').waitFor()
      await seatMap(page).getByRole('gridcell').first().waitFor()
      return page
    }
    // the outsider: both seats free on the map, none on sale to them
    const theirs = await open(outsider)
    const prices = theirs.getByRole('table', { name: 'Prices by section' })
    await prices
      .getByRole('row', { name: /Stalls/ })
      .getByText('(2 kept for the waiting list)')
      .waitFor()
    expect(await nameOf(seatAt(theirs, 'A', 1))).toMatch(/, free$/)
    await seatAt(theirs, 'A', 1).click()
    await theirs
      .getByText('The free seats of Stalls are kept for its waiting list: join it to be offered seats.')
      .first()
      .waitFor()
    expect(await seatAt(theirs, 'A', 1).getAttribute('aria-selected')).not.toBe('true')

    // the buyer the list offers them to picks both and holds them
    const offered = await open(waiter)
    await seatAt(offered, 'A', 1).click()
    await seatAt(offered, 'A', 2).click()
    await yourSeats(offered).getByRole('button', { name: 'Book seats' }).click()
    await offered.waitForURL((url) => url.pathname === `/booking/${small._id}`)
    await offered.getByRole('button', { name: 'Confirm Booking' }).click()
    await offered.getByRole('dialog', { name: small.title }).waitFor()
    const taken = (await mapOf(small._id)).sections[0]?.rows[0]?.seats.map((seat) => seat.status)
    expect(taken).toEqual(['held', 'held'])
  })

  it("saves a section drawn with the organizer's editor, a seat blocked and one moved on its preview, with the server's message", async () => {
    const fresh = await approvedEvent(server.app, organizer, admin, { title: `Comedy Room ${Date.now()}` }, [
      { type: 'Balcony', price: 800, quantity: 10 },
    ])
    const page = await signedInPage(organizer)
    await page.goto(`/organizers/events/${fresh._id}?section=seat-map`)
    const section = page.getByRole('region', { name: 'Seat map' })
    await section
      .getByText(
        'This event has no seat map yet: its tickets are sold by count. Draw one below to sell seats.',
      )
      .waitFor()

    const add = section.getByRole('group', { name: 'Add a section' })
    await add.getByLabel('Section name').fill('Balcony')
    await add.getByLabel('Ticket type').selectOption('Balcony')
    await add.getByLabel('Rows').fill('4')
    await add.getByLabel('Seats per row').fill('12')
    await add.getByLabel('First row label').fill('A')
    await add.getByRole('button', { name: 'Add section' }).click()
    await section.getByText('48 seats in all.').waitFor()
    // a click on the preview blocks a seat (the tool the editor starts with)
    const preview = section.getByRole('grid', { name: 'Seat map preview' })
    const cornerSeat = preview.getByRole('gridcell', { name: /^Row A, seat 1, / })
    expect(await nameOf(cornerSeat)).toBe('Row A, seat 1, ₹800, free')
    await cornerSeat.click()
    await expect.poll(() => nameOf(cornerSeat)).toBe('Row A, seat 1, ₹800, not for sale')
    // the move tool: a click chooses a seat, the arrows move it (half a seat's pitch a press)
    await section.getByLabel('Chooses it to move with the arrows').check()
    const moveRight = section.getByRole('button', { name: 'Move the seat right' })
    expect(await moveRight.isDisabled()).toBe(true)
    await preview.getByRole('gridcell', { name: /^Row D, seat 12, / }).click()
    await section.getByRole('group', { name: 'Move Balcony, Row D, Seat 12' }).waitFor()
    await moveRight.click()
    await moveRight.click()
    // the stage: its width emptied and typed again as a person does (the field may be empty meanwhile)
    await section.getByRole('button', { name: 'Place stage above the sections' }).click()
    const width = section.getByLabel('Stage width')
    await width.click()
    await width.press('ControlOrMeta+a')
    await width.press('Backspace')
    expect(await width.inputValue()).toBe('')
    await width.pressSequentially('120')
    expect(await width.inputValue()).toBe('120')
    const top = section.getByLabel('Stage top')
    await top.press('ControlOrMeta+a')
    await top.pressSequentially('-40')
    expect(await top.inputValue()).toBe('-40')

    await section.getByRole('button', { name: 'Save seat map' }).click()
    await section.getByRole('status').filter({ hasText: 'Seat map saved.' }).waitFor()

    const map = await mapOf(fresh._id)
    expect(map.stage).toMatchObject({ y: -40, w: 120 })
    expect(map.sections.map((each) => each.name)).toEqual(['Balcony'])
    expect(seatCount(map)).toBe(48)
    expect(map.sections[0]?.rows.map((row) => row.label)).toEqual(['A', 'B', 'C', 'D'])
    const seats = map.sections[0]?.rows.flatMap((row) =>
      row.seats.map((seat) => ({ row: row.label, ...seat })),
    )
    expect(seats?.filter((seat) => seat.status === 'blocked').map((seat) => [seat.row, seat.number])).toEqual(
      [['A', 1]],
    )
    expect(seats?.filter((seat) => seat.status === 'free')).toHaveLength(47)
    // seat D12 moved right twice by half a seat: a whole seat further than the others' spacing puts it
    const x = (row: string, number: number) =>
      seats?.find((seat) => seat.row === row && seat.number === number)?.x ?? Number.NaN
    expect(x('D', 12) - x('D', 11)).toBe(2 * (x('C', 12) - x('C', 11)))
  })

  it('says a refused plan’s one reason once', async () => {
    const fresh = await approvedEvent(server.app, organizer, admin, { title: `Two Rooms ${Date.now()}` }, [
      { type: 'Balcony', price: 800, quantity: 10 },
    ])
    const page = await signedInPage(organizer)
    await page.goto(`/organizers/events/${fresh._id}?section=seat-map`)
    const section = page.getByRole('region', { name: 'Seat map' })
    const add = section.getByRole('group', { name: 'Add a section' })
    // two sections of one ticket type: the server refuses, with one reason
    for (const name of ['Balcony', 'Gallery']) {
      await add.getByLabel('Section name').fill(name)
      await add.getByLabel('Ticket type').selectOption('Balcony')
      await add.getByLabel('Rows').fill('2')
      await add.getByLabel('Seats per row').fill('5')
      await add.getByLabel('First row label').fill(name === 'Balcony' ? 'A' : 'M')
      await add.getByRole('button', { name: 'Add section' }).click()
    }
    await section.getByText('20 seats in all.').waitFor()
    await section.getByRole('button', { name: 'Save seat map' }).click()
    const alert = section.getByRole('alert')
    await alert.waitFor()
    const texts = (await alert.locator('p').allTextContents()).filter((text) => text.trim() !== '')
    expect(texts).toHaveLength(1)
    expect(texts[0]).toMatch(/Gallery/)
  })

  it("copies another event's plan at the same venue into the editor, a type chosen for the section no type matched, and saves it", async () => {
    const venue = 'Ranga Shankara, Bengaluru'
    // the source is not approved yet: its organizer may still read its plan
    const source = await submitEvent(
      server.app,
      organizer,
      { title: `Matinee ${Date.now()}`, location: venue },
      [
        { type: 'Stalls', price: 900, quantity: 12 },
        { type: 'Circle', price: 600, quantity: 4 },
      ],
    )
    const stalls = grid('Stalls', 'Stalls', 2, 6)
    const circle = grid('Circle', 'Circle', 1, 4, 4)
    const firstSeat = stalls.rows[0]?.seats[0]
    const wheelchair = stalls.rows[1]?.seats[1]
    if (!firstSeat || !wheelchair) throw new Error('the grid has no seats')
    Object.assign(firstSeat, { blocked: true })
    Object.assign(wheelchair, { accessible: 'wheelchair' })
    const stage = { x: 5, y: -3 * PITCH, w: 40, h: 2 * PITCH }
    expect((await putMap(source._id, { stage, sections: [stalls, circle] })).statusCode).toBe(200)
    const target = await submitEvent(
      server.app,
      organizer,
      { title: `Evening Show ${Date.now()}`, location: venue },
      [
        { type: 'Stalls', price: 1200, quantity: 12 },
        { type: 'Balcony', price: 700, quantity: 4 },
      ],
    )

    const page = await signedInPage(organizer)
    await page.goto(`/organizers/events/${target._id}?section=seat-map`)
    const section = page.getByRole('region', { name: 'Seat map' })
    await section
      .getByText(
        'This event has no seat map yet: its tickets are sold by count. Draw one below to sell seats.',
      )
      .waitFor()
    const copy = section.getByRole('group', { name: 'Copy a plan from another event' })
    const from = copy.getByLabel('Event')
    // each of the organizer's other events is offered with its venue
    await expect
      .poll(() => from.locator(`option[value="${source._id}"]`).textContent())
      .toContain(`${source.title} · ${venue}`)
    expect(await from.locator(`option[value="${target._id}"]`).count()).toBe(0)
    await from.selectOption(source._id)
    await copy.getByRole('button', { name: 'Copy plan' }).click()
    await section
      .getByRole('status')
      .filter({ hasText: `Copied the plan of ${source.title}: 2 sections. Choose a ticket type for Circle.` })
      .waitFor()
    await section.getByText('16 seats in all.').waitFor()
    expect(await section.getByLabel('Ticket type of Stalls').inputValue()).toBe('Stalls')
    expect(await section.getByLabel('Ticket type of Circle').inputValue()).toBe('')
    // the preview shows the copied marks, priced as this event's types
    const preview = section.getByRole('grid', { name: 'Seat map preview' })
    expect(await nameOf(preview.getByRole('gridcell', { name: /^Row A, seat 1, / }).first())).toBe(
      'Row A, seat 1, ₹1,200, not for sale',
    )

    // not saved while a section has no type
    await section.getByRole('button', { name: 'Save seat map' }).click()
    await section.getByRole('alert').filter({ hasText: 'Choose a ticket type for Circle.' }).waitFor()
    await section.getByLabel('Ticket type of Circle').selectOption('Balcony')
    await section.getByRole('button', { name: 'Save seat map' }).click()
    await section.getByRole('status').filter({ hasText: 'Seat map saved.' }).waitFor()

    // the saved plan is the source's: the same seats in the same places, marks and stage
    const [theirs, ours] = await Promise.all([
      getAs(organizer, `/api/v1/event/${source._id}/seatmap`),
      getAs(organizer, `/api/v1/event/${target._id}/seatmap`),
    ])
    const layout = (map: SeatMapView) =>
      map.sections.map((each) => ({
        name: each.name,
        rows: each.rows.map((row) => ({
          label: row.label,
          seats: row.seats.map(({ number, x, y, status, accessible }) => ({
            number,
            x,
            y,
            status,
            accessible,
          })),
        })),
      }))
    expect(layout(ours)).toEqual(layout(theirs))
    expect(ours.stage).toEqual(stage)
    expect(ours.sections.map((each) => [each.name, each.ticketType, each.price])).toEqual([
      ['Stalls', 'Stalls', 1200],
      ['Circle', 'Balcony', 700],
    ])
    expect(ours.sections[0]?.rows[0]?.seats[0]?.status).toBe('blocked')
    expect(ours.sections[0]?.rows[1]?.seats[1]?.accessible).toBe('wheelchair')
  })

  it("asks for the map and the page's code before the app's code has come, then only whether the map changed: a seat held meanwhile shows held", async () => {
    const small = await approvedEvent(server.app, organizer, admin, { title: `Early Night ${Date.now()}` }, [
      { type: 'Stalls', price: 700, quantity: 10 },
    ])
    const saved = await putMap(small._id, { stage: null, sections: [grid('Stalls', 'Stalls', 1, 10)] })
    expect(saved.statusCode, saved.body).toBe(200)
    const target = (await mapOf(small._id)).sections[0]?.rows[0]?.seats[4]
    if (!target) throw new Error('no seat A5')
    /** opens the page with the app's code held back until `meanwhile` has run; the map's replies' statuses */
    const open = async (meanwhile: () => Promise<void>) => {
      const page = await signedInPage(buyerA)
      const statuses: number[] = []
      page.on('response', (response) => {
        if (new URL(response.url()).pathname.endsWith('/seatmap')) statuses.push(response.status())
      })
      /** how many times each of the app's files was asked for */
      const files = new Map<string, number>()
      page.on('request', (request) => {
        const path = new URL(request.url()).pathname
        if (path.startsWith('/assets/')) files.set(path, (files.get(path) ?? 0) + 1)
      })
      /** the app's files asked for that are not there */
      const missing: string[] = []
      page.on('response', (response) => {
        const path = new URL(response.url()).pathname
        if (path.startsWith('/assets/') && response.status() >= 400)
          missing.push(`${path}: ${response.status()}`)
      })
      let letThrough = () => {}
      const held = new Promise<void>((resolve) => {
        letThrough = resolve
      })
      await page.route(/\/assets\/index-[\w-]+\.js$/, async (route) => {
        await held
        await route.continue()
      })
      const early = page.waitForResponse((r) => new URL(r.url()).pathname.endsWith('/seatmap'))
      await page.goto(`/event/${small._id}`, { waitUntil: 'commit' })
      expect((await early).status()).toBe(200)
      // the picker's code too is asked for while the app's is still held back
      const pickerCode = () => [...files.keys()].filter((path) => /\/use-seat-room-[\w-]+\.js$/.test(path))
      await expect.poll(() => pickerCode().length, { timeout: 10_000 }).toBe(1)
      await meanwhile()
      letThrough()
      await page.locator('[data-live="connected"]').waitFor()
      await seatMap(page).getByRole('gridcell').first().waitFor()
      await expect.poll(() => statuses.length, { timeout: 10_000 }).toBe(2)
      // and once: the app's loader took what was asked for early, asking for no file again
      expect([...files].filter(([, times]) => times > 1)).toEqual([])
      expect(missing).toEqual([])
      expect(files.size).toBeGreaterThan(10)
      return { page, statuses }
    }
    // nothing moved between the early read and the room's join: the map is kept (304)
    const quiet = await open(async () => {})
    expect(quiet.statuses).toEqual([200, 304])
    expect(await nameOf(seatAt(quiet.page, 'A', 5))).toBe('Row A, seat 5, ₹700, free')
    await quiet.page.close()
    // a seat held in between: the map is read again, and shows it held
    const busy = await open(async () => {
      const held = await server.app.inject({
        method: 'POST',
        url: '/api/v1/ticket/create',
        headers: bearer(buyerB.token),
        payload: { eventId: small._id, seats: [target.id] },
      })
      expect(held.statusCode, held.body).toBe(200)
    })
    expect(busy.statuses).toEqual([200, 200])
    // the reply has come; the page shows it once its body is read and painted
    await expect
      .poll(() => nameOf(seatAt(busy.page, 'A', 5)), { timeout: 5_000 })
      .toBe('Row A, seat 5, ₹700, held')
    await busy.page.close()
  })

  it("paints a stadium's seats on a canvas, a seat another buyer holds turns held live, a zoom paints it sharper, and the keyboard walks its grid", async () => {
    // 60 rows of 100 seats: past the plan size the picker paints on a canvas (6,000 seats)
    const rows = 60
    const perRow = 100
    const arena = await approvedEvent(server.app, organizer, admin, { title: `Arena Night ${Date.now()}` }, [
      { type: 'Arena', price: 900, quantity: rows * perRow },
    ])
    const saved = await putMap(arena._id, {
      stage: { x: 0, y: -3 * PITCH, w: perRow * PITCH, h: 2 * PITCH },
      sections: [
        {
          name: 'Arena',
          ticketType: 'Arena',
          rows: Array.from({ length: rows }, (_, r) => ({
            label: `R${r + 1}`,
            seats: Array.from({ length: perRow }, (_, n) => ({ number: n + 1, x: n * PITCH, y: r * PITCH })),
          })),
        },
      ],
    })
    expect(saved.statusCode, saved.body).toBe(200)
    const map = await mapOf(arena._id)
    const box = planBox(map)
    const target = map.sections[0]?.rows[30]?.seats[50]
    if (!target) throw new Error('no seat R31-51')

    const page = await signedInPage(buyerA)
    await page.goto(`/event/${arena._id}`)
    await page.locator('[data-live="connected"]').waitFor()
    await page.locator('svg[data-drawn="all"]').waitFor()
    const canvas = page.locator('canvas.seat-plan-canvas')
    /** the colour of the canvas at a point of the plan: a seat's, a little above its centre (clear
     * of the marks through its middle: a held seat's stroke, a sold one's cross) */
    const colourAt = (point: { x: number; y: number }) =>
      canvas.evaluate(
        (element, { point, box }) => {
          const c = element as HTMLCanvasElement
          const scale = c.width / box.w
          const x = Math.round((point.x - box.x) * scale)
          const y = Math.round((point.y - 2.5 - box.y) * scale)
          const [r, g, b, a] = c.getContext('2d')?.getImageData(x, y, 1, 1).data ?? []
          return { r, g, b, a, width: c.width }
        },
        { point, box },
      )
    const near = (colour: { r?: number; g?: number; b?: number }, hex: string) =>
      [1, 3, 5].every(
        (at, i) =>
          Math.abs(Number.parseInt(hex.slice(at, at + 2), 16) - ([colour.r, colour.g, colour.b][i] ?? -99)) <=
          4,
      )
    const free = await colourAt(target)
    expect(near(free, '#4caf7d'), JSON.stringify(free)).toBe(true)
    // between two seats nothing is painted
    expect((await colourAt({ x: target.x + PITCH / 2, y: target.y + 2.5 })).a).toBe(0)

    // another buyer holds it: the seat turns held on the open map, no reload
    const held = await server.app.inject({
      method: 'POST',
      url: '/api/v1/ticket/create',
      headers: bearer(buyerB.token),
      payload: { eventId: arena._id, seats: [target.id], amount: 1 },
    })
    expect(held.statusCode, held.body).toBe(200)
    await expect.poll(async () => near(await colourAt(target), '#e7c27d'), { timeout: 10_000 }).toBe(true)

    // zoomed in three steps (3.4 times), the canvas is painted again with more pixels, the seat
    // still held
    const before = free.width
    const zoomIn = page.getByRole('button', { name: 'Zoom in' })
    for (let i = 0; i < 3; i++) await zoomIn.click()
    await expect
      .poll(async () => (await colourAt(target)).width, { timeout: 10_000 })
      .toBeGreaterThan(before * 2)
    expect(near(await colourAt(target), '#e7c27d')).toBe(true)
    expect(near(await colourAt(map.sections[0]?.rows[30]?.seats[49] ?? target), '#4caf7d')).toBe(true)

    // the keyboard: the grid says its 60 rows and keeps the tab stop's row, at its place; the
    // arrows move the stop down and along, each row the stop comes to taking its place
    const grid = page.getByRole('grid', { name: 'Seat map' })
    expect(await grid.getAttribute('aria-rowcount')).toBe(String(rows))
    const stop = grid.locator('[data-seat][tabindex="0"]')
    expect(await nameOf(stop)).toBe('Row R1, seat 1, ₹900, free')
    expect(await grid.getByRole('row', { name: 'Row R1' }).getAttribute('aria-rowindex')).toBe('1')
    await stop.focus()
    await page.keyboard.press('ArrowDown')
    await page.keyboard.press('ArrowDown')
    await page.keyboard.press('ArrowRight')
    await expect.poll(() => focusedName(page)).toBe('Row R3, seat 2, ₹900, free')
    expect(await grid.getByRole('row', { name: 'Row R3' }).getAttribute('aria-rowindex')).toBe('3')
    await page.close()
  })

  it("shows a sold seat's buyer on the organizer's map when the seat is clicked, and a free one's by keyboard", async () => {
    const page = await signedInPage(organizer)
    await page.goto(`/organizers/events/${event._id}?section=seat-map`)
    const section = page.getByRole('region', { name: 'Seat map' })
    const now = section.getByRole('grid', { name: 'Seats now' })
    const holder = section.getByRole('region', { name: 'Seat holder' })
    const cell = (row: string, number: number) =>
      now.getByRole('gridcell', { name: new RegExp(`^Row ${row}, seat ${number}, `) })

    // A's seats, bought in the first test
    expect(await nameOf(cell('A', 1))).toBe('Row A, seat 1, ₹1,500, sold')
    await cell('A', 1).click()
    await holder.getByText('Stalls, Row A, Seat 1', { exact: true }).waitFor()
    await holder.getByText(buyerA.username, { exact: true }).waitFor()
    await holder.getByText(buyerA.email, { exact: true }).waitFor()
    await holder.getByText('Sold', { exact: true }).waitFor()
    // the ticket by the number its buyer's card shows
    await holder.getByText(ticketOfA.slice(-8).toUpperCase(), { exact: true }).waitFor()

    // Enter on a free seat, reached with the arrows
    await cell('A', 1).focus()
    await page.keyboard.press('ArrowDown')
    await page.keyboard.press('ArrowDown')
    await expect.poll(() => focusedName(page)).toBe('Row C, seat 1, ₹1,500, free')
    await page.keyboard.press('Enter')
    await holder.getByText('Stalls, Row C, Seat 1', { exact: true }).waitFor()
    await holder.getByText('This seat is free.').waitFor()
    expect(await holder.getByText(buyerA.username).count()).toBe(0)
  })
})
