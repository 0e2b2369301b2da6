// The sale time's requests (GET /event/{id}/onsale, issue 41) in Chromium: each opening of an event's
// page asks for it once, with or without a seat map, to a visitor and to a buyer; an event without
// one answers 404, read as "none" (Book Now offered), not asked again by the live connection's
// first connect, so Chromium logs that 404 once. A buyer not in a waiting room's line is asked
// where they stand once too (its 404 likewise); the booking page asks once though two of its parts
// read the sale time. A sale time set while the page was away shows when it is opened again, one set
// or moved while it is open shows at once (the event's room hears it), on the booking page too, and
// a buyer in line sees the opening brought forward on the page as it stands. A seat map's picker
// offers its seats only once the sale has opened, and the organizer's Sale time section turns to
// "opened" as the time comes.
import type { Browser, ConsoleMessage, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { EventView } from '../../contracts/catalog.ts'
import { adminSession, bearer, organizerSession, type Session, signUp } from '../support/accounts.ts'
import { launchBrowser, signedInPages } from '../support/browser.ts'
import { approvedEvent } from '../support/sales.ts'
import { gridSection } from '../support/seat-plans.ts'
import { startServer, type TestServer } from '../support/server.ts'

let server: TestServer
let browser: Browser
let admin: Session
let organizer: Session
let buyer: Session

/** past the live connection's first connect and the seat map's handover: any late ask has been made */
const SETTLE_MS = 2500
const DAY_MS = 24 * 3600_000

beforeAll(async () => {
  // rooms move on every 200 ms, one checkout at a time
  server = await startServer({
    RATE_LIMITS: 'off',
    LOG_LEVEL: 'error',
    QUEUE_TICK_MS: '200',
    QUEUE_CHECKOUTS: '1',
  })
  admin = await adminSession(server.app)
  organizer = await organizerSession(server.app, 'Saletime')
  buyer = await signUp(server.app, 'Nisha')
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

const newEvent = (title: string) =>
  approvedEvent(server.app, organizer, admin, { title: `${title} ${Date.now()}` }, [
    { type: 'Stalls', price: 700, quantity: 16 },
  ])

const putMap = async (eventId: string) => {
  const res = await server.app.inject({
    method: 'PUT',
    url: `/api/v1/event/${eventId}/seatmap`,
    headers: bearer(organizer.token),
    payload: { stage: null, sections: [gridSection('Stalls', 'Stalls', 2, 8, 0, 10)] },
  })
  expect(res.statusCode, res.body).toBe(200)
}

const putSaleTime = async (eventId: string, opensAt: number, waitingRoom: boolean) => {
  const res = await server.app.inject({
    method: 'PUT',
    url: `/api/v1/event/${eventId}/onsale`,
    headers: bearer(organizer.token),
    payload: { opensAt: new Date(opensAt).toISOString(), waitingRoom },
  })
  expect(res.statusCode, res.body).toBe(200)
}

type ConsoleError = { text: string; path: string }
/** Chromium's own line for each response of 400 or more, wherever it was asked for */
const FAILED_LOAD = /^Failed to load resource: the server responded with a status of 4\d\d\b/
const pathOf = (url: string) => (url ? new URL(url).pathname : '')

/** a page (a visitor's when `account` is null) that records its API requests, answers and console errors */
async function watchedPage(account: Session | null) {
  const page = await pages.open(account?.token ?? null)
  const answers: { path: string; status: number }[] = []
  const asked: string[] = []
  const errors: ConsoleError[] = []
  page.on('request', (request) => {
    if (request.method() === 'GET' && pathOf(request.url()).startsWith('/api/'))
      asked.push(pathOf(request.url()))
  })
  page.on('response', (response) => {
    if (pathOf(response.url()).startsWith('/api/'))
      answers.push({ path: pathOf(response.url()), status: response.status() })
  })
  page.on('console', (message: ConsoleMessage) => {
    if (message.type() === 'error')
      errors.push({ text: message.text(), path: pathOf(message.location().url) })
  })
  page.on('pageerror', (error) => errors.push({ text: error.message, path: '' }))
  /** the GETs of the path ending so, and their answers' statuses */
  const of = (ending: string) => ({
    asked: asked.filter((path) => path.endsWith(ending)).length,
    statuses: answers.filter((answer) => answer.path.endsWith(ending)).map((answer) => answer.status),
  })
  return { page, errors, of }
}

async function openEventPage(page: Page, event: EventView) {
  await page.goto(`/event/${event._id}`)
  await page.getByRole('heading', { name: event.title }).waitFor()
  await page.locator('[data-live="connected"]').waitFor()
}

/** the console errors but Chromium's one line for each 404 that reads as "none" */
const besides404s = (errors: ConsoleError[], endings: string[]) =>
  errors.filter((e) => !(FAILED_LOAD.test(e.text) && endings.some((ending) => e.path.endsWith(ending))))

const failedLoads = (errors: ConsoleError[], ending: string) =>
  errors.filter((e) => FAILED_LOAD.test(e.text) && e.path.endsWith(ending)).length

describe('the event page asks for its sale time', () => {
  it('once for an event without one, with or without a seat map, to a visitor and to a buyer: its 404 is "none", logged once', async () => {
    const standing = await newEvent('No Sale Time')
    const seated = await newEvent('No Sale Time Seated')
    await putMap(seated._id)
    for (const event of [standing, seated]) {
      for (const account of [null, buyer]) {
        const { page, errors, of } = await watchedPage(account)
        await openEventPage(page, event)
        await page.getByRole('link', { name: 'Book Now' }).waitFor()
        await page.waitForTimeout(SETTLE_MS)
        const who = `${event.title}, ${account ? 'a buyer' : 'a visitor'}`
        expect(of('/onsale'), who).toEqual({ asked: 1, statuses: [404] })
        expect(failedLoads(errors, '/onsale'), who).toBe(1)
        // no line without a sale time: where the buyer stands is not asked
        expect(of('/queue/me').asked, who).toBe(0)
        // the map of the standing event is a 404 too, once (event-page-seatmap.test.ts)
        expect(besides404s(errors, ['/onsale', '/seatmap']), who).toEqual([])
        await page.close()
      }
    }
  })

  it('once for an event with a waiting room, and where a buyer not in line stands once (its 404 logged once)', async () => {
    const event = await newEvent('Room Tomorrow')
    await putSaleTime(event._id, Date.now() + DAY_MS, true)
    for (const account of [null, buyer]) {
      const { page, errors, of } = await watchedPage(account)
      await openEventPage(page, event)
      const room = page.getByRole('region', { name: 'Waiting room' })
      await room.getByText(/^On sale /).waitFor()
      if (account) await room.getByRole('button', { name: 'Join the line' }).waitFor()
      await page.waitForTimeout(SETTLE_MS)
      const who = account ? 'a buyer' : 'a visitor'
      expect(of('/onsale'), who).toEqual({ asked: 1, statuses: [200] })
      expect(of('/queue/me'), who).toEqual(
        account ? { asked: 1, statuses: [404] } : { asked: 0, statuses: [] },
      )
      expect(failedLoads(errors, '/queue/me'), who).toBe(account ? 1 : 0)
      expect(besides404s(errors, ['/seatmap', '/queue/me']), who).toEqual([])
      await page.close()
    }
  })

  it('on the booking page before the sale: says when it opens, and a time moved meanwhile', async () => {
    const event = await newEvent('Booking Says When')
    await putSaleTime(event._id, Date.now() + DAY_MS, false)
    const { page } = await watchedPage(buyer)
    await page.goto(`/booking/${event._id}`)
    await page.getByText('Tickets for this event are not on sale yet.').waitFor()
    const when = page.getByText(/^On sale /)
    await when.waitFor()
    const before = await when.textContent()
    await putSaleTime(event._id, Date.now() + 2 * DAY_MS, false)
    await expect.poll(() => page.getByText(/^On sale /).textContent(), { timeout: 10_000 }).not.toBe(before)
    await page.close()
  })

  it('once on the booking page, though its form reads it too', async () => {
    const plain = await newEvent('Booking Without Sale Time')
    const { page, errors, of } = await watchedPage(buyer)
    await page.goto(`/booking/${plain._id}`)
    await page.getByRole('button', { name: 'Confirm Booking' }).waitFor()
    await page.waitForTimeout(SETTLE_MS)
    expect(of('/onsale')).toEqual({ asked: 1, statuses: [404] })
    expect(besides404s(errors, ['/onsale'])).toEqual([])
    expect(failedLoads(errors, '/onsale')).toBe(1)
    await page.close()
  })

  it('once each time the page is opened from the listing: a sale time set while it was away shows on return', async () => {
    const event = await newEvent('Sale Time On Return')
    const { page, errors, of } = await watchedPage(buyer)
    const details = () =>
      page.locator('.event-card').filter({ hasText: event.title }).getByRole('link', { name: 'View Details' })
    await page.goto('/home')
    await details().click()
    await page.getByRole('heading', { name: event.title }).waitFor()
    await page.getByRole('link', { name: 'Book Now' }).waitFor()
    await page.locator('[data-live="connected"]').waitFor()
    await page.waitForTimeout(SETTLE_MS)
    expect(of('/onsale')).toEqual({ asked: 1, statuses: [404] })
    await page.goBack()
    await details().waitFor()
    await putSaleTime(event._id, Date.now() + DAY_MS, false)
    await details().click()
    await page.getByText(/^On sale /).waitFor()
    await page.waitForTimeout(SETTLE_MS)
    expect(of('/onsale')).toEqual({ asked: 2, statuses: [404, 200] })
    expect(await page.getByRole('link', { name: 'Book Now' }).count()).toBe(0)
    expect(besides404s(errors, ['/onsale', '/seatmap'])).toEqual([])
    await page.close()
  })

  it('shows a sale time set or moved while the page is open, on every page open, without a reload', async () => {
    const event = await newEvent('Sale Time Live')
    const [visitor, member] = [await watchedPage(null), await watchedPage(buyer)]
    for (const { page } of [visitor, member]) {
      await openEventPage(page, event)
      await page.getByRole('link', { name: 'Book Now' }).waitFor()
    }
    await putSaleTime(event._id, Date.now() + DAY_MS, false)
    for (const { page } of [visitor, member]) {
      await page.getByText(/^On sale /).waitFor({ timeout: 10_000 })
      expect(await page.getByRole('link', { name: 'Book Now' }).count()).toBe(0)
    }
    const before = await member.page.getByText(/^On sale /).textContent()
    // moved a day later: the new time replaces the old
    await putSaleTime(event._id, Date.now() + 2 * DAY_MS, false)
    await expect
      .poll(() => member.page.getByText(/^On sale /).textContent(), { timeout: 10_000 })
      .not.toBe(before)
    for (const { page, errors } of [visitor, member]) {
      expect(besides404s(errors, ['/onsale', '/seatmap', '/queue/me'])).toEqual([])
      await page.close()
    }
  })

  it('offers a seat map’s seats for booking only once the sale has opened, live', async () => {
    const event = await newEvent('Seats Not Yet')
    await putMap(event._id)
    await putSaleTime(event._id, Date.now() + DAY_MS, false)
    const { page } = await watchedPage(buyer)
    await openEventPage(page, event)
    await page.getByText(/^On sale /).waitFor()
    await page.getByRole('heading', { name: 'Choose your seats' }).waitFor()
    await page.waitForTimeout(1_000)
    expect(await page.getByRole('button', { name: 'Book seats' }).count()).toBe(0)
    expect(await page.getByRole('button', { name: 'Best available' }).count()).toBe(0)
    // brought forward to now: the sale opens, and the picker offers its seats without a reload
    await putSaleTime(event._id, Date.now() - 1_000, false)
    await page.getByRole('button', { name: 'Book seats' }).waitFor({ timeout: 10_000 })
    await page.getByRole('button', { name: 'Best available' }).first().waitFor()
    await page.close()
  })

  it('on the organizer’s Sale time section, turns to “opened” as the time comes, its time then fixed', async () => {
    const event = await newEvent('Opens Soon')
    await putSaleTime(event._id, Date.now() + 4_000, true)
    const page = await pages.open(organizer.token)
    await page.goto(`/organizers/events/${event._id}?section=sale-time`)
    const section = page.getByRole('region', { name: 'Sale time' })
    await section.getByText(/^The sale opens /).waitFor()
    expect(await section.getByLabel('Date of opening').isDisabled()).toBe(false)
    await section.getByText(/^The sale opened /).waitFor({ timeout: 10_000 })
    await expect.poll(() => section.getByLabel('Date of opening').isDisabled()).toBe(true)
    expect(await section.getByLabel('Time of opening').isDisabled()).toBe(true)
    await page.close()
  })

  it('reads it again for a buyer in line when the sale opens: an opening brought forward shows on the page as it stands', async () => {
    const event = await newEvent('Opening Brought Forward')
    await putSaleTime(event._id, Date.now() + DAY_MS, true)
    const { page, of } = await watchedPage(buyer)
    await openEventPage(page, event)
    const room = page.getByRole('region', { name: 'Waiting room' })
    await room.getByRole('button', { name: 'Join the line' }).click()
    await room.getByText(/^You are in the line\. When the sale opens at /).waitFor()
    await page.waitForTimeout(SETTLE_MS)
    expect(of('/onsale').asked).toBe(1)
    await putSaleTime(event._id, Date.now() - 1000, true)
    await room.getByText(/^It is your turn: you are admitted and may book now\./).waitFor({ timeout: 15_000 })
    // the time read again: no longer "On sale tomorrow" above the line
    await expect.poll(() => room.getByText(/^On sale /).count(), { timeout: 10_000 }).toBe(0)
    expect(of('/onsale').asked).toBeGreaterThanOrEqual(2)
    await page.close()
  })
})
