// The event page and its seat map's requests (issue 40) in Chromium: an event without a seat map is
// asked for its map at most once when its page opens (web/public/early.js's request, taken by the
// app), its "none" is kept (no retry, no second look once the map's room is joined), and the
// console stays free of errors; a map placed later appears live. A seated event still shows its map,
// asked for early and then only whether it changed, and follows its seats live.
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

/** seats 10 units apart, as the editor draws them */
const PITCH = 10
/** past the picker's wait for the room (1 s) and the boot's handover to it: any late ask has been made */
const SETTLE_MS = 2500

const putMap = (eventId: string, rows = 2) =>
  server.app.inject({
    method: 'PUT',
    url: `/api/v1/event/${eventId}/seatmap`,
    headers: bearer(organizer.token),
    payload: { stage: null, sections: [gridSection('Stalls', 'Stalls', rows, 8, 0, PITCH)] },
  })

beforeAll(async () => {
  server = await startServer({ RATE_LIMITS: 'off' })
  admin = await adminSession(server.app)
  organizer = await organizerSession(server.app, 'Mapless')
  buyer = await signUp(server.app, 'Meera')
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

type ConsoleError = { text: string; url: string }

/** Chromium's own line for each response of 400 or more, wherever it was asked for */
const FAILED_LOAD = /^Failed to load resource: the server responded with a status of 4\d\d\b/
const pathOf = (url: string) => (url ? new URL(url).pathname : '')
/** the console errors about seat maps (Chromium's lines for their 404s) */
const ofSeatMaps = (errors: ConsoleError[]) => errors.filter((e) => pathOf(e.url).endsWith('/seatmap'))
/**
 * Every other console error, but Chromium's lines for GET /event/{id}/onsale's 404: the waiting
 * room's sale time of an event without one, that query's own answer (web/src/api/queue.ts), not a
 * seat map's
 */
const besidesSeatMaps = (errors: ConsoleError[]) =>
  errors.filter(
    (e) =>
      !pathOf(e.url).endsWith('/seatmap') && !(FAILED_LOAD.test(e.text) && pathOf(e.url).endsWith('/onsale')),
  )

/** a page (a visitor's when `account` is null) that records its seat map requests and console errors */
async function watchedPage(account: Session | null) {
  const page = await pages.open(account?.token ?? null)
  const asked: string[] = []
  const answered: number[] = []
  const errors: ConsoleError[] = []
  page.on('request', (request) => {
    if (pathOf(request.url()).endsWith('/seatmap')) asked.push(request.method())
  })
  page.on('response', (response) => {
    if (pathOf(response.url()).endsWith('/seatmap')) answered.push(response.status())
  })
  page.on('console', (message: ConsoleMessage) => {
    if (message.type() === 'error') errors.push({ text: message.text(), url: message.location().url })
  })
  page.on('pageerror', (error) => errors.push({ text: error.message, url: '' }))
  return { page, asked, answered, errors }
}

const seatMap = (page: Page) => page.getByRole('grid', { name: 'Seat map' })

async function openEventPage(page: Page, event: EventView) {
  await page.goto(`/event/${event._id}`)
  await page.getByRole('heading', { name: event.title }).waitFor()
  await page.locator('[data-live="connected"]').waitFor()
}

describe('the event page asks for a seat map', () => {
  it("at most once for an event without one, to a visitor and to a buyer, with nothing on the console but Chromium's line for that 404", async () => {
    const event = await approvedEvent(
      server.app,
      organizer,
      admin,
      { title: `Standing Night ${Date.now()}` },
      [{ type: 'General Admission', price: 400, quantity: 50 }],
    )
    for (const account of [null, buyer]) {
      const { page, asked, answered, errors } = await watchedPage(account)
      await openEventPage(page, event)
      await page.getByText('General Admission').first().waitFor()
      await page.waitForTimeout(SETTLE_MS)
      expect(asked.length, `seat map requests: ${asked.join(', ')}`).toBeLessThanOrEqual(1)
      expect(answered.every((status) => status === 404)).toBe(true)
      // The event's JSON does not say whether it has a map, so the one request is made (early.js)
      // and Chromium logs its 404 as it logs any; nothing else about seat maps reaches the console.
      expect(ofSeatMaps(errors).map((e) => e.text)).toEqual(
        answered.map(() => expect.stringMatching(FAILED_LOAD)),
      )
      expect(besidesSeatMaps(errors)).toEqual([])
      expect(await seatMap(page).count()).toBe(0)
      await page.close()
    }
  })

  it('shows a map placed while the page is open, without a reload', async () => {
    const event = await approvedEvent(
      server.app,
      organizer,
      admin,
      { title: `Late Plan Night ${Date.now()}` },
      [{ type: 'Stalls', price: 900, quantity: 16 }],
    )
    const { page, asked } = await watchedPage(buyer)
    await openEventPage(page, event)
    await page.waitForTimeout(SETTLE_MS)
    expect(asked.length).toBeLessThanOrEqual(1)
    const saved = await putMap(event._id)
    expect(saved.statusCode, saved.body).toBe(200)
    await seatMap(page).getByRole('gridcell').first().waitFor({ timeout: 15_000 })
    expect(await seatMap(page).getByRole('gridcell').count()).toBe(16)
    await page.close()
  })

  it('once each time its page is opened from the listing: a map placed while the page was away shows on return', async () => {
    const event = await approvedEvent(server.app, organizer, admin, { title: `Return Night ${Date.now()}` }, [
      { type: 'Stalls', price: 800, quantity: 16 },
    ])
    const { page, asked, errors } = await watchedPage(buyer)
    const details = () =>
      page.locator('.event-card').filter({ hasText: event.title }).getByRole('link', { name: 'View Details' })
    await page.goto('/home')
    await details().click()
    await page.getByRole('heading', { name: event.title }).waitFor()
    await page.locator('[data-live="connected"]').waitFor()
    await page.waitForTimeout(SETTLE_MS)
    expect(asked.length).toBe(1)
    await page.goBack()
    await details().waitFor()
    // no page watches the map's room now: its "none" is asked for again by the next one
    const saved = await putMap(event._id)
    expect(saved.statusCode, saved.body).toBe(200)
    await details().click()
    await seatMap(page).getByRole('gridcell').first().waitFor()
    await page.waitForTimeout(SETTLE_MS)
    expect(asked.length).toBe(2)
    expect(besidesSeatMaps(errors)).toEqual([])
    await page.close()
  })

  it('for a seated event: shows its map, asked for early and then only whether it changed, and follows it live', async () => {
    const event = await approvedEvent(server.app, organizer, admin, { title: `Seated Night ${Date.now()}` }, [
      { type: 'Stalls', price: 1200, quantity: 16 },
    ])
    const saved = await putMap(event._id)
    expect(saved.statusCode, saved.body).toBe(200)
    const { page, answered, errors } = await watchedPage(buyer)
    await openEventPage(page, event)
    await seatMap(page).getByRole('gridcell').first().waitFor()
    const seat = seatMap(page).getByRole('gridcell', { name: /^Row A, seat 3, / })
    expect(await seat.getAttribute('aria-label')).toBe('Row A, seat 3, ₹1,200, free')
    // the early read, then a conditional one once the room is joined (nothing moved: 304)
    await expect.poll(() => answered.length, { timeout: 10_000 }).toBe(2)
    expect(answered).toEqual([200, 304])

    // a seat another buyer holds turns held on the page
    const map = (
      await server.app.inject({ method: 'GET', url: `/api/v1/event/${event._id}/seatmap` })
    ).json() as { sections: { rows: { label: string; seats: { id: string; number: number }[] }[] }[] }
    const target = map.sections[0]?.rows[0]?.seats[2]
    if (!target) throw new Error('no seat A3')
    const other = await signUp(server.app, 'Omar')
    const held = await server.app.inject({
      method: 'POST',
      url: '/api/v1/ticket/create',
      headers: bearer(other.token),
      payload: { eventId: event._id, seats: [target.id] },
    })
    expect(held.statusCode, held.body).toBe(200)
    await expect
      .poll(() => seat.getAttribute('aria-label'), { timeout: 20_000 })
      .toBe('Row A, seat 3, ₹1,200, held')
    expect(ofSeatMaps(errors)).toEqual([])
    expect(besidesSeatMaps(errors)).toEqual([])
    await page.close()
  })
})
