// The waiting room (issue 41) in Chromium: an organizer sets a sale time with a waiting room on the
// event's Sale time section; a buyer arriving before it joins the line and is told the pre-queue;
// at the opening the room admits them (at most one checkout at a time here), and their page says so
// at once, with the time left, and offers booking; a second buyer arriving after the opening waits
// as number 1, offered no booking, until the first has bought, and is then admitted on the page as
// it stands, never reloaded; the organizer's figures follow every step live. A buyer's place is kept
// across a reload, and when the event sells out the room closes: the one still waiting is told at
// once and offered the waiting list.
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { EventView } from '../../contracts/catalog.ts'
import { type OnSaleView, type QueuePlace, ROOM_CLOSED } from '../../contracts/queue.ts'
import { adminSession, bearer, organizerSession, type Session, signUp } from '../support/accounts.ts'
import { launchBrowser, signedInPages } from '../support/browser.ts'
import { approvedEvent, buy, get, post, until } from '../support/sales.ts'
import { startServer, type TestServer } from '../support/server.ts'

let server: TestServer
let browser: Browser
let admin: Session
let organizer: Session
let buyerA: Session
let buyerB: Session
let event: EventView

beforeAll(async () => {
  // rooms move on every 200 ms; without a set rate, one checkout in progress at a time
  server = await startServer({
    RATE_LIMITS: 'off',
    LOG_LEVEL: 'error',
    QUEUE_TICK_MS: '200',
    QUEUE_CHECKOUTS: '1',
  })
  admin = await adminSession(server.app)
  organizer = await organizerSession(server.app, 'Promoter')
  buyerA = await signUp(server.app, 'Asha')
  buyerB = await signUp(server.app, 'Bilal')
  event = await approvedEvent(server.app, organizer, admin, { title: `Big Onsale ${Date.now()}` }, [
    { type: 'General Admission', price: 500, quantity: 50 },
  ])
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

const onsale = async (): Promise<OnSaleView> => {
  const res = await get(server.app, `/api/v1/event/${event._id}/onsale`)
  expect(res.statusCode, res.body).toBe(200)
  return res.json() as OnSaleView
}

/** set on the page once: still there later means no reload happened */
const markPage = (page: Page) =>
  page.evaluate(() => {
    ;(window as unknown as { stillHere: boolean }).stillHere = true
  })
const notReloaded = async (page: Page) =>
  expect(await page.evaluate(() => (window as unknown as { stillHere?: boolean }).stillHere)).toBe(true)

const room = (page: Page) => page.getByRole('region', { name: 'Waiting room' })
/** one of the line's figures on the organizer's Sale time section */
const figure = (page: Page, label: string) =>
  page.getByRole('region', { name: 'The line' }).getByLabel(label, { exact: true })

async function openEventPage(page: Page) {
  await page.goto(`/event/${event._id}`)
  await page.getByRole('heading', { name: event.title }).waitFor()
  await page.locator('[data-live="connected"]').waitFor()
}

describe('the waiting room in the browser', () => {
  let organizerPage: Page
  let pageA: Page
  let pageB: Page

  it('saves a sale time with a waiting room following capacity, with the server’s message', async () => {
    organizerPage = await pages.open(organizer.token)
    await organizerPage.goto(`/organizers/events/${event._id}?section=sale-time`)
    const section = organizerPage.getByRole('region', { name: 'Sale time' })
    await section
      .getByText('No sale time is set: tickets are on sale as soon as the event is approved.')
      .waitFor()
    const tomorrow = new Date(Date.now() + 24 * 3600_000).toISOString().slice(0, 10)
    await section.getByLabel('Date of opening').fill(tomorrow)
    await section.getByLabel('Time of opening').fill('10:00')
    await section.getByLabel('Waiting room', { exact: true }).check()
    await section.getByRole('radio', { name: 'Follow capacity' }).check()
    await section.getByRole('button', { name: 'Save sale time' }).click()
    await section.getByRole('status').filter({ hasText: 'The sale time is saved.' }).waitFor()

    const saved = await onsale()
    expect(saved.waitingRoom).toBe(true)
    expect(saved.admitPerMinute).toBeNull()
    expect(Date.parse(saved.opensAt)).toBeGreaterThan(Date.now())
    // the line's figures, before anyone has come
    await organizerPage.locator('[data-live="connected"]').waitFor()
    await expect.poll(() => figure(organizerPage, 'Waiting').textContent()).toBe('0')
    expect(await figure(organizerPage, 'Sold').textContent()).toBe('0')
    await markPage(organizerPage)
  })

  it('puts a buyer arriving before the sale in the pre-queue, offered no booking', async () => {
    pageA = await pages.open(buyerA.token)
    await openEventPage(pageA)
    await markPage(pageA)
    await room(pageA)
      .getByText(/^On sale /)
      .waitFor()
    expect(await pageA.getByRole('link', { name: 'Book Now' }).count()).toBe(0)
    await room(pageA).getByRole('button', { name: 'Join the line' }).click()
    await room(pageA)
      .getByText(
        /^You are in the line\. When the sale opens at .+, everyone who joined before then gets a random place\.$/,
      )
      .waitFor()
    expect(await pageA.getByRole('link', { name: 'Book Now' }).count()).toBe(0)
    // the organizer sees them come, live
    await expect.poll(() => figure(organizerPage, 'Waiting').textContent(), { timeout: 10_000 }).toBe('1')
  })

  it('admits the buyer at the opening and tells them at once, with the time left, offering booking', async () => {
    // the opening brought forward to now (allowed until the sale has opened)
    const moved = await server.app.inject({
      method: 'PUT',
      url: `/api/v1/event/${event._id}/onsale`,
      headers: bearer(organizer.token),
      payload: { opensAt: new Date(Date.now() - 1000).toISOString(), waitingRoom: true },
    })
    expect(moved.statusCode, moved.body).toBe(200)
    await room(pageA)
      .getByText(/^It is your turn: you are admitted and may book now\. Your admission lasts until /)
      .waitFor({ timeout: 15_000 })
    await room(pageA).getByRole('timer').waitFor()
    expect(await room(pageA).getByRole('timer').textContent()).toMatch(/^\d+:\d\d$/)
    await room(pageA).getByRole('link', { name: 'Book Now' }).waitFor()
    await notReloaded(pageA)
    await expect.poll(() => figure(organizerPage, 'Admitted').textContent(), { timeout: 10_000 }).toBe('1')
    expect(await figure(organizerPage, 'Waiting').textContent()).toBe('0')
  })

  it('keeps a later buyer waiting, told their place, until the first has bought, then admits them live', async () => {
    pageB = await pages.open(buyerB.token)
    await openEventPage(pageB)
    await markPage(pageB)
    await room(pageB).getByRole('button', { name: 'Join the line' }).click()
    await room(pageB).getByText('You are number 1 in line.').waitFor()
    await room(pageB).getByText('Nobody is ahead of you.').waitFor()
    await room(pageB)
      .getByText(/^Estimated wait: /)
      .waitFor()
    expect(await pageB.getByRole('link', { name: 'Book Now' }).count()).toBe(0)
    await expect.poll(() => figure(organizerPage, 'Waiting').textContent(), { timeout: 10_000 }).toBe('1')
    expect(await figure(organizerPage, 'In checkout').textContent()).toBe('1')

    // the organizer pauses the line: B is told so, live, keeping the place; then resumes it
    const line = async (action: 'pause' | 'resume') => {
      const res = await server.app.inject({
        method: 'POST',
        url: `/api/v1/event/${event._id}/queue/${action}`,
        headers: bearer(organizer.token),
      })
      expect(res.statusCode, res.body).toBe(200)
    }
    await line('pause')
    await room(pageB)
      .getByText('The organizer has paused admissions for now: you keep your place.')
      .waitFor({ timeout: 10_000 })
    await room(pageB).getByText('You are number 1 in line.').waitFor()
    await line('resume')
    await room(pageB)
      .getByText(/^Estimated wait: /)
      .waitFor({ timeout: 10_000 })
    await notReloaded(pageB)

    // B reaching the booking page by its address is not offered the form
    const probe = await pages.open(buyerB.token)
    await probe.goto(`/booking/${event._id}`)
    await probe
      .getByText(
        'This sale has a waiting room: join the line on the event page, and book once you are admitted.',
      )
      .waitFor()
    expect(await probe.getByRole('button', { name: 'Confirm Booking' }).count()).toBe(0)
    await probe.close()

    // A books
    await room(pageA).getByRole('link', { name: 'Book Now' }).click()
    await pageA.waitForURL((url) => url.pathname === `/booking/${event._id}`)
    await pageA.getByRole('button', { name: 'Confirm Booking' }).click()
    const checkout = pageA.getByRole('dialog', { name: event.title })
    await checkout.getByRole('button', { name: 'Pay', exact: true }).click()
    await pageA.getByText('Booking Successful!').waitFor()

    // B, never reloaded, is admitted at once
    await room(pageB)
      .getByText(/^It is your turn: you are admitted and may book now\./)
      .waitFor({ timeout: 15_000 })
    await room(pageB).getByRole('link', { name: 'Book Now' }).waitFor()
    await notReloaded(pageB)

    // and the organizer's figures followed, live
    await expect.poll(() => figure(organizerPage, 'Admitted').textContent(), { timeout: 10_000 }).toBe('2')
    expect(await figure(organizerPage, 'Sold').textContent()).toBe('1')
    expect(await figure(organizerPage, 'Waiting').textContent()).toBe('0')
    await notReloaded(organizerPage)
  })

  it('pauses and resumes the line from the organizer’s page', async () => {
    const section = organizerPage.getByRole('region', { name: 'Sale time' })
    await section.getByRole('button', { name: 'Pause' }).click()
    await section.getByRole('status').filter({ hasText: 'Admissions are paused.' }).waitFor()
    await section.getByRole('button', { name: 'Resume' }).click()
    await section.getByRole('button', { name: 'Pause' }).waitFor()
    const res = await get(server.app, `/api/v1/event/${event._id}/queue`, organizer)
    expect(res.statusCode, res.body).toBe(200)
    expect((res.json() as { paused: boolean }).paused).toBe(false)
  })

  it('sets a number of admissions a minute after the opening, showing the server’s reason for a bad one', async () => {
    // the page opened after the opening: the time and the room are kept as they are
    await organizerPage.reload()
    const section = organizerPage.getByRole('region', { name: 'Sale time' })
    await section.getByText('The sale has opened: only its admission rate can change now.').waitFor()
    expect(await section.getByLabel('Date of opening').isDisabled()).toBe(true)
    expect(await section.getByLabel('Waiting room', { exact: true }).isDisabled()).toBe(true)
    await section.getByRole('radio', { name: 'A number per minute' }).check()
    await section.getByLabel('People per minute').fill('0')
    await section.getByRole('button', { name: 'Save sale time' }).click()
    await section
      .getByRole('alert')
      .filter({ hasText: 'Admissions per minute must be at least 1.' })
      .waitFor()
    await section.getByLabel('People per minute').fill('30')
    await section.getByRole('button', { name: 'Save sale time' }).click()
    await section.getByRole('status').filter({ hasText: 'The sale time is saved.' }).waitFor()
    await expect.poll(() => figure(organizerPage, 'Rate per minute').textContent()).toBe('30')
    expect((await onsale()).admitPerMinute).toBe(30)
  })
})

describe('a room closed by a sell-out', () => {
  it('keeps a place across a reload, and tells the one still waiting at once, offering the waiting list', async () => {
    const lastSeat = await approvedEvent(server.app, organizer, admin, { title: `Last Seat ${Date.now()}` }, [
      { type: 'General Admission', price: 500, quantity: 1 },
    ])
    const set = await server.app.inject({
      method: 'PUT',
      url: `/api/v1/event/${lastSeat._id}/onsale`,
      headers: bearer(organizer.token),
      payload: { opensAt: new Date(Date.now() - 1000).toISOString(), waitingRoom: true },
    })
    expect(set.statusCode, set.body).toBe(200)
    // A is first in line and admitted (one checkout at a time)
    expect((await post(server.app, `/api/v1/event/${lastSeat._id}/queue`, buyerA)).statusCode).toBe(200)
    await until(async () => {
      const res = await get(server.app, `/api/v1/event/${lastSeat._id}/queue/me`, buyerA)
      return (res.json() as QueuePlace).state === 'admitted'
    })

    const page = await pages.open(buyerB.token)
    await page.goto(`/event/${lastSeat._id}`)
    await page.getByRole('heading', { name: lastSeat.title }).waitFor()
    await page.locator('[data-live="connected"]').waitFor()
    await room(page).getByRole('button', { name: 'Join the line' }).click()
    await room(page).getByText('You are number 1 in line.').waitFor()

    // a closed tab or a lost network keeps the place: the page reads it on load
    await page.reload()
    await page.locator('[data-live="connected"]').waitFor()
    await room(page).getByText('You are number 1 in line.').waitFor()
    expect(await room(page).getByRole('button', { name: 'Join the line' }).count()).toBe(0)
    await markPage(page)

    // A buys the last seat: the room closes, and B hears it at once
    await buy(server.app, buyerA, lastSeat, 'General Admission', 1)
    await room(page).getByText(ROOM_CLOSED).waitFor({ timeout: 15_000 })
    await page.getByRole('button', { name: 'Join the waiting list' }).waitFor()
    await notReloaded(page)
  })
})

describe('a ticket type on sale later than its event', () => {
  it('is given its own time on the Sale time section, shown on the event page, and not booked before it', async () => {
    const release = await approvedEvent(
      server.app,
      organizer,
      admin,
      { title: `Second Release ${Date.now()}` },
      [
        { type: 'Early Bird', price: 400, quantity: 20 },
        { type: 'Regular', price: 600, quantity: 20 },
      ],
    )
    const page = await pages.open(organizer.token)
    await page.goto(`/organizers/events/${release._id}?section=sale-time`)
    const section = page.getByRole('region', { name: 'Sale time' })
    const yesterday = new Date(Date.now() - 24 * 3600_000).toISOString().slice(0, 10)
    const inAWeek = new Date(Date.now() + 7 * 24 * 3600_000).toISOString().slice(0, 10)
    await section.getByLabel('Date of opening', { exact: true }).fill(yesterday)
    await section.getByLabel('Time of opening', { exact: true }).fill('10:00')
    const later = section.getByRole('group', { name: 'Ticket types on sale later' })
    await later.getByLabel('Regular goes on sale later').check()
    // ticked without its time: asked for it
    await section.getByRole('button', { name: 'Save sale time' }).click()
    await section
      .getByRole('alert')
      .filter({ hasText: 'Give the date and time Regular goes on sale.' })
      .waitFor()
    await later.getByLabel('Date Regular goes on sale').fill(inAWeek)
    await later.getByLabel('Time Regular goes on sale').fill('18:30')
    await section.getByRole('button', { name: 'Save sale time' }).click()
    await section.getByRole('status').filter({ hasText: 'The sale time is saved.' }).waitFor()
    const saved = (await get(server.app, `/api/v1/event/${release._id}/onsale`)).json() as OnSaleView
    expect(saved.ticketTypes.map((t) => t.ticketType)).toEqual(['Regular'])
    expect(Date.parse(saved.ticketTypes[0]?.opensAt ?? '')).toBeGreaterThan(Date.now() + 6 * 24 * 3600_000)
    // read back into the form as saved
    await page.reload()
    await expect
      .poll(() => section.getByLabel('Regular goes on sale later').isChecked(), { timeout: 10_000 })
      .toBe(true)
    expect(await section.getByLabel('Date Regular goes on sale').inputValue()).toBe(inAWeek)

    // the buyer sees when Regular comes, and may book the early bird but not Regular yet
    const buyer = await pages.open(buyerB.token)
    await buyer.goto(`/event/${release._id}`)
    await buyer.getByRole('heading', { name: release.title }).waitFor()
    const laterList = buyer.getByRole('list', { name: 'Ticket types on sale later' })
    await expect.poll(() => laterList.textContent()).toMatch(/^Regular: on sale /)
    const laterText = (await laterList.textContent()) ?? ''
    await buyer.goto(`/booking/${release._id}?ticketType=Regular`)
    await buyer.getByRole('alert').filter({ hasText: 'These tickets are not on sale yet.' }).waitFor()
    // and when they will be, as the event page says it
    await buyer.getByText(laterText, { exact: true }).waitFor()
    const confirm = buyer.getByRole('button', { name: 'Confirm Booking' })
    expect(await confirm.isDisabled()).toBe(true)
    await buyer.getByLabel('Ticket Type').selectOption('Early Bird')
    await expect.poll(() => confirm.isDisabled()).toBe(false)
    expect(
      await buyer.getByRole('alert').filter({ hasText: 'These tickets are not on sale yet.' }).count(),
    ).toBe(0)
  })
})
