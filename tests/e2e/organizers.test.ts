// Organizer tools in the browser (SPEC §2 Organizer attendee list, Event analytics panel, Add
// session form, Event Schedule, Admin dashboard): an organizer watches its dashboard while tickets
// are bought in another browser and through the API, and sees attendees, figures and charts follow
// without a reload; exports the attendees as CSV; adds a session with two speakers that a visitor's
// calendar shows at once; the admin's dashboard counts the attendees live. Against the real server,
// its workers and the built web app.
import { readFile } from 'node:fs/promises'
import type { FastifyInstance } from 'fastify'
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { CreateOrderReply } from '../../contracts/booking.ts'
import { adminSession, bearer, organizerSession, type Session, signUp } from '../support/accounts.ts'
import { launchBrowser } from '../support/browser.ts'
import {
  approvedEvent as approvedEventOf,
  type Checkout,
  confirm,
  hold,
  pay,
  review,
  signUpAll,
  submitEvent,
} from '../support/sales.ts'
import { startServer, type TestServer } from '../support/server.ts'

let server: TestServer
let browser: Browser
const contexts: BrowserContext[] = []

const TITLE = `Kabini Jazz Weekend ${Date.now()}`
const OTHER_TITLE = `Quiet Reading Hour ${Date.now()}`
let organizer: Session
let admin: Session
let eventId: string
let buyer: Session
let secondBuyer: Session
let organizerPage: Page

/** Submits an event through the API (multipart, as the event form sends it) and approves it. */
async function approvedEvent(app: FastifyInstance, title: string): Promise<string> {
  const form = new FormData()
  const fields = {
    title,
    description: 'Two days of jazz by the river.',
    date: '2030-03-15',
    time: '18:00',
    location: 'Kabini, Karnataka',
    category: 'Music',
    ticketTypes: JSON.stringify([
      { type: 'General Admission', price: 500, quantity: 100 },
      { type: 'VIP', price: 1500, quantity: 20 },
    ]),
  }
  for (const [name, value] of Object.entries(fields)) form.append(name, value)
  const multipart = new Request('http://x/', { method: 'POST', body: form })
  const created = await app.inject({
    method: 'POST',
    url: '/api/v1/event/create',
    headers: { ...bearer(organizer.token), 'content-type': multipart.headers.get('content-type') ?? '' },
    payload: Buffer.from(await multipart.arrayBuffer()),
  })
  if (created.statusCode !== 201) throw new Error(`event create: ${created.statusCode} ${created.body}`)
  const id: string = created.json().event._id
  const reviewed = await app.inject({
    method: 'PUT',
    url: `/api/v1/admin/events/${id}/status`,
    headers: bearer(admin.token),
    payload: { status: 'Approved' },
  })
  if (reviewed.statusCode !== 200) throw new Error(`approve: ${reviewed.statusCode} ${reviewed.body}`)
  return id
}

/** An order through the API and the local gateway's checkout, paid (and confirmed) or failed. */
async function purchase(
  owner: Session,
  ticketType: string,
  quantity: number,
  outcome: 'success' | 'failure' = 'success',
): Promise<void> {
  const { app } = server
  const order = await app.inject({
    method: 'POST',
    url: '/api/v1/ticket/create',
    headers: bearer(owner.token),
    payload: { eventId, ticketType, quantity },
  })
  if (order.statusCode !== 200) throw new Error(`order: ${order.statusCode} ${order.body}`)
  const pay = await app.inject({
    method: 'POST',
    url: '/api/v1/payments/local/pay',
    headers: bearer(owner.token),
    payload: { orderId: order.json().orderId, outcome },
  })
  if (outcome === 'failure') {
    if (pay.statusCode !== 402) throw new Error(`failed pay: ${pay.statusCode} ${pay.body}`)
    return
  }
  const checkout = pay.json()
  const confirmed = await app.inject({
    method: 'POST',
    url: '/api/v1/ticket/handlePaymentSuccess',
    headers: bearer(owner.token),
    payload: {
      paymentId: checkout.razorpay_payment_id,
      orderId: checkout.razorpay_order_id,
      signature: checkout.razorpay_signature,
      event: eventId,
    },
  })
  if (confirmed.statusCode !== 200) throw new Error(`confirm: ${confirmed.statusCode} ${confirmed.body}`)
}

async function openPage(): Promise<Page> {
  const context = await browser.newContext({
    baseURL: server.url,
    viewport: { width: 1280, height: 900 },
    acceptDownloads: true,
  })
  contexts.push(context)
  return context.newPage()
}

/** a page whose stored token belongs to this account, as after an earlier login */
async function signedInPage(account: Session): Promise<Page> {
  const page = await openPage()
  await page.goto('/')
  await page.evaluate((token) => localStorage.setItem('token', token), account.token)
  return page
}

const at = (page: Page, path: string) => page.waitForURL((url) => url.pathname === path)

/** set on the page once: still there later means no reload happened */
const markPage = (page: Page) =>
  page.evaluate(() => {
    ;(window as unknown as { stillHere: boolean }).stillHere = true
  })
const notReloaded = async (page: Page) =>
  expect(await page.evaluate(() => (window as unknown as { stillHere?: boolean }).stillHere)).toBe(true)

const analyticsOf = (scope: Page | Locator, title: string) =>
  scope.getByRole('region', { name: `Event Analytics for ${title}` })

/** a labelled figure of the panel (an <output>: role status, named by its label) */
const figure = (panel: Locator, label: string) => panel.getByRole('status', { name: label, exact: true })

const seesFigure = (panel: Locator, label: string, value: string) =>
  expect.poll(() => figure(panel, label).textContent(), { timeout: 20_000 }).toBe(value)

/** what the chart instance behind a figure holds: one data list per series */
const chartSeries = async (panel: Locator, caption: string): Promise<unknown> => {
  const chart = panel.getByRole('figure', { name: caption })
  if ((await chart.count()) === 0) return null
  const series = await chart.getAttribute('data-series')
  return series ? JSON.parse(series) : null
}

/** the revenue bars, by ticket type, in the order of the event's ticket types */
const seesRevenueBars = (panel: Locator, bars: number[]) =>
  expect.poll(() => chartSeries(panel, 'Revenue by Ticket Type'), { timeout: 20_000 }).toEqual([bars])

/** a local datetime-local value, `days` from today at the given hour */
function localDateTime(days: number, hour: number, minute = 0): string {
  const day = new Date()
  day.setDate(day.getDate() + days)
  const pad = (n: number) => String(n).padStart(2, '0')
  return `${day.getFullYear()}-${pad(day.getMonth() + 1)}-${pad(day.getDate())}T${pad(hour)}:${pad(minute)}`
}

beforeAll(async () => {
  server = await startServer({ RATE_LIMITS: 'off', MAX_HELD_SEATS_PER_ADDRESS: '1000' })
  browser = await launchBrowser()
  admin = await adminSession(server.app)
  organizer = await organizerSession(server.app, 'kabini')
  eventId = await approvedEvent(server.app, TITLE)
  await approvedEvent(server.app, OTHER_TITLE)
  buyer = await signUp(server.app, 'meera')
  secondBuyer = await signUp(server.app, 'arjun')
  organizerPage = await signedInPage(organizer)
})

afterAll(async () => {
  await Promise.all(contexts.splice(0).map((context) => context.close()))
  await browser?.close()
  await server?.close()
})

describe('organizer dashboard', () => {
  it('sends an account of role user to the landing page', async () => {
    const page = await signedInPage(buyer)
    await page.goto('/organizers/dashboard')
    await at(page, '/')
  })

  it("lists the organizer's events with no attendees yet and empty analytics", async () => {
    await organizerPage.goto('/organizers/dashboard')
    await organizerPage.locator('[data-live="connected"]').waitFor()
    await organizerPage.getByRole('heading', { name: 'Attendees by Event' }).waitFor()

    const card = organizerPage.getByRole('article', { name: TITLE })
    await card.getByText('No attendees found for this event.').waitFor()
    await card.getByText('Music').waitFor()
    await card.getByText('Kabini, Karnataka').waitFor()
    expect(await card.getByRole('link', { name: 'Add Schedule' }).getAttribute('href')).toBe(
      `/schedule/${eventId}`,
    )
    await organizerPage.getByRole('article', { name: OTHER_TITLE }).waitFor()

    const panel = analyticsOf(card, TITLE)
    await seesFigure(panel, 'Tickets Sold', '0')
    await seesFigure(panel, 'Total Revenue', '₹0')
    await seesFigure(panel, 'Pending', '0')
    await seesFigure(panel, 'Completed', '0')
    await seesFigure(panel, 'Failed', '0')
    await seesFigure(panel, 'General Admission', '0')
    await seesFigure(panel, 'VIP', '0')
    // No sales: no chart.
    expect(await panel.getByRole('figure').count()).toBe(0)
  })

  it('follows a purchase made in another browser: attendee, totals and chart change without reload', async () => {
    await markPage(organizerPage)
    const card = organizerPage.getByRole('article', { name: TITLE })
    const panel = analyticsOf(card, TITLE)

    // The buyer books 2 VIP in their own browser through the local checkout.
    const buyerPage = await signedInPage(buyer)
    await buyerPage.goto(`/booking/${eventId}`)
    await buyerPage.locator('[data-live="connected"]').waitFor()
    await buyerPage.getByLabel('Ticket Type').selectOption('VIP')
    await buyerPage.getByLabel('Quantity').fill('2')
    await buyerPage.getByRole('button', { name: 'Confirm Booking' }).click()
    // While the checkout is open the seats are held: a pending payment.
    await seesFigure(panel, 'Pending', '1')
    await buyerPage
      .getByRole('dialog', { name: TITLE })
      .getByRole('button', { name: 'Pay', exact: true })
      .click()
    await buyerPage.getByText('Booking Successful!').waitFor()

    await seesFigure(panel, 'Tickets Sold', '2')
    await seesFigure(panel, 'Total Revenue', '₹3,000')
    await seesFigure(panel, 'Pending', '0')
    await seesFigure(panel, 'Completed', '1')
    await seesFigure(panel, 'VIP', '2')
    await seesRevenueBars(panel, [0, 3000])
    const attendees = card.getByRole('table', { name: `Attendees of ${TITLE}` })
    await attendees.getByRole('row', { name: `${buyer.username} ${buyer.email}` }).waitFor()
    // The sales-over-time chart has this hour's sale.
    await expect
      .poll(
        async () => ((await chartSeries(panel, 'Sales over Time')) as unknown[][] | null)?.[0]?.length ?? 0,
      )
      .toBe(1)
    await notReloaded(organizerPage)
  })

  it('follows purchases and a failed payment made through the API', async () => {
    const card = organizerPage.getByRole('article', { name: TITLE })
    const panel = analyticsOf(card, TITLE)

    await purchase(secondBuyer, 'General Admission', 3)
    await seesFigure(panel, 'Tickets Sold', '5')
    await seesFigure(panel, 'Total Revenue', '₹4,500')
    await seesFigure(panel, 'General Admission', '3')
    await seesRevenueBars(panel, [1500, 3000])
    await card
      .getByRole('table', { name: `Attendees of ${TITLE}` })
      .getByRole('row', { name: `${secondBuyer.username} ${secondBuyer.email}` })
      .waitFor()

    await purchase(secondBuyer, 'VIP', 1, 'failure')
    await seesFigure(panel, 'Failed', '1')
    await seesFigure(panel, 'Completed', '2')
    await seesFigure(panel, 'Tickets Sold', '5')

    // The other event's panel did not move.
    await seesFigure(analyticsOf(organizerPage, OTHER_TITLE), 'Tickets Sold', '0')
    await notReloaded(organizerPage)
  })

  it("shows each event's review status, and follows the admin's decisions without reload", async () => {
    await markPage(organizerPage)
    const status = (title: string) =>
      organizerPage.getByRole('article', { name: title }).locator('[data-status]')
    const seesStatus = (title: string, value: string) =>
      expect.poll(() => status(title).textContent(), { timeout: 20_000 }).toBe(value)
    await seesStatus(TITLE, 'Approved')
    await organizerPage
      .getByRole('article', { name: TITLE })
      .getByText('Public: visitors can find and book it.')
      .waitFor()

    const title = `Coorg Coffee Walk ${Date.now()}`
    const submitted = await submitEvent(server.app, organizer, { title })
    await seesStatus(title, 'Pending')
    await organizerPage
      .getByRole('article', { name: title })
      .getByText("Waiting for an admin's review: not public yet.")
      .waitFor()
    await review(server.app, admin, submitted._id, 'Rejected')
    await seesStatus(title, 'Rejected')
    await organizerPage
      .getByRole('article', { name: title })
      .getByText('Not public: an admin rejected it.')
      .waitFor()
    await review(server.app, admin, submitted._id, 'Approved')
    await seesStatus(title, 'Approved')
    await notReloaded(organizerPage)
  })

  it('exports every attendee as attendees_by_events.csv', async () => {
    const [download] = await Promise.all([
      organizerPage.waitForEvent('download'),
      organizerPage.getByRole('button', { name: 'Export All as CSV' }).click(),
    ])
    expect(download.suggestedFilename()).toBe('attendees_by_events.csv')
    const path = await download.path()
    const lines = (await readFile(path, 'utf8')).trim().split(/\r?\n/)
    expect(lines[0]).toBe(
      'eventName,eventCategory,username,email,phone,paymentStatus,ticketType,quantity,amount,orderId,admission,seat',
    )
    // a row per admission: the buyer's two VIP seats, the second buyer's three General Admission
    const rows = lines.slice(1).map((row) => row.replace(/,[^,]+,(\d of \d),$/, ',<order>,$1'))
    expect(rows.sort()).toEqual(
      [
        `${TITLE},Music,${buyer.username},${buyer.email},,Completed,VIP,1,1500.00,<order>,1 of 2`,
        `${TITLE},Music,${buyer.username},${buyer.email},,Completed,VIP,1,1500.00,<order>,2 of 2`,
        ...[1, 2, 3].map(
          (n) =>
            `${TITLE},Music,${secondBuyer.username},${secondBuyer.email},,Completed,General Admission,1,500.00,<order>,${n} of 3`,
        ),
      ].sort(),
    )
  })
})

describe('schedule', () => {
  const SESSION = 'Sunset Quartet'
  const start = localDateTime(1, 10, 0)
  const end = localDateTime(1, 11, 30)

  it('adds a session with two speakers, which a visitor sees on the calendar without reload', async () => {
    // A visitor has the calendar open on today's day view.
    const visitor = await openPage()
    await visitor.goto('/schedule')
    await visitor.getByRole('heading', { name: 'Event Schedule' }).waitFor()
    await visitor.locator('[data-live="connected"]').waitFor()
    await visitor.getByRole('button', { name: 'Day', exact: true }).waitFor()
    await markPage(visitor)

    await organizerPage.goto('/organizers/dashboard')
    await organizerPage
      .getByRole('article', { name: TITLE })
      .getByRole('link', { name: 'Add Schedule' })
      .click()
    await at(organizerPage, `/schedule/${eventId}`)
    const form = organizerPage.locator('form')
    await form.getByRole('heading', { name: 'Add Session' }).waitFor()
    await form.getByText(TITLE).waitFor()

    // A speaker needs both a name and a bio.
    await form.getByLabel('Speaker Name').fill('Asha Rao')
    await form.getByRole('button', { name: 'Add Speaker' }).click()
    await organizerPage.getByText('Please provide both name and bio for the speaker.').waitFor()
    await form.getByLabel('Speaker Bio').fill('Saxophonist from Bengaluru.')
    await form.getByRole('button', { name: 'Add Speaker' }).click()
    await form.getByLabel('Speaker Name').fill('Karthik Iyer')
    await form.getByLabel('Speaker Bio').fill('Double bass, Chennai.')
    await form.getByRole('button', { name: 'Add Speaker' }).click()
    const speakers = form.getByRole('list', { name: 'Speakers' })
    expect(await speakers.getByRole('listitem').count()).toBe(2)
    await speakers.getByText('Asha Rao').waitFor()
    await speakers.getByText('Karthik Iyer').waitFor()
    expect(await form.getByLabel('Speaker Name').inputValue()).toBe('')

    await form.getByLabel('Session Title').fill(SESSION)
    await form.getByLabel('Description').fill('Standards as the sun goes down.')
    await form.getByLabel('Location').fill('River Deck')
    // An end before the start is refused, with the message next to the end time.
    await form.getByLabel('Start Time').fill(start)
    await form.getByLabel('End Time').fill(localDateTime(1, 9, 0))
    await form.getByRole('button', { name: 'Create Session' }).click()
    await form.getByText('The end time must be after the start time.').waitFor()
    expect(await form.getByLabel('End Time').getAttribute('aria-invalid')).toBe('true')

    await form.getByLabel('End Time').fill(end)
    await form.getByRole('button', { name: 'Create Session' }).click()
    await organizerPage.getByText('Session created successfully').waitFor()
    await at(organizerPage, '/')

    // The session is stored with both speakers, and the attendees are notified after it.
    const stored = await server.app.inject({ method: 'GET', url: `/api/v1/schedule?eventId=${eventId}` })
    const sessions = stored.json() as { sessionTitle: string; speakers: { name: string; bio: string }[] }[]
    expect(sessions).toHaveLength(1)
    expect(sessions[0]?.speakers).toEqual([
      { name: 'Asha Rao', bio: 'Saxophonist from Bengaluru.' },
      { name: 'Karthik Iyer', bio: 'Double bass, Chennai.' },
    ])
    await expect
      .poll(
        async () =>
          (await server.app.platform.ledger.readFrom(0, 1_000_000)).filter(
            (fact) =>
              fact.type === 'ScheduleNoticePosted' &&
              (fact.data as { eventId?: string; startTime?: string }).eventId === eventId &&
              (fact.data as { startTime?: string }).startTime === start,
          ).length,
        { timeout: 10_000 },
      )
      .toBe(1)

    // The visitor's calendar opened on today; the session is tomorrow: one step ahead.
    await visitor.getByRole('button', { name: /^next day$/i }).click()
    const entry = visitor.locator('.fc-event', { hasText: SESSION })
    await entry.waitFor({ timeout: 20_000 })
    expect(await entry.textContent()).toMatch(/10(:00)?.*11:30/)
    await notReloaded(visitor)

    // The week view shows it too; the month view lists it on its day.
    await visitor.getByRole('button', { name: 'Week', exact: true }).click()
    await visitor.locator('.fc-timeGridWeek-view .fc-event', { hasText: SESSION }).waitFor()
    await visitor.getByRole('button', { name: 'Month', exact: true }).click()
    await visitor.locator('.fc-dayGridMonth-view .fc-event', { hasText: SESSION }).waitFor()
  })

  it('shows the calendar with its toolbar and the session after a fresh visit', async () => {
    const visitor = await openPage()
    await visitor.goto('/schedule')
    await visitor.getByRole('heading', { name: 'Event Schedule' }).waitFor()
    for (const name of ['Today', 'Month', 'Week', 'Day'])
      await visitor.getByRole('button', { name, exact: true }).waitFor()
    // The arrows are named by their hints (FullCalendar's 'Previous $0' with the view's button text).
    await visitor.getByRole('button', { name: /^previous day$/i }).waitFor()
    await visitor.getByRole('button', { name: /^next day$/i }).waitFor()
    // Opens on the day view, on the day of the next session (tomorrow's), not on today.
    await visitor.locator('.fc-timeGridDay-view .fc-event', { hasText: SESSION }).waitFor()
    expect(await visitor.locator('.fc-timeGridDay-view .fc-day').first().getAttribute('data-date')).toBe(
      start.slice(0, 10),
    )
    await visitor.getByRole('button', { name: 'Week', exact: true }).click()
    await visitor.locator('.fc-timeGridWeek-view .fc-event', { hasText: SESSION }).waitFor()
  })

  it("opens a session's details from the calendar, in a dialog closed by Escape or its button", async () => {
    const visitor = await openPage()
    await visitor.goto('/schedule')
    // named by what it shows (time, title, place), then its day and times in full
    const entry = visitor.getByRole('button', { name: new RegExp(`${SESSION}.*, \\d+ \\w+ \\d{4}, `) })
    await entry.waitFor()
    // the entry is readable: its time, title and (in the day view) location
    expect(await entry.textContent()).toMatch(/10(:00)?.*11:30.*Sunset Quartet.*River Deck/)
    await entry.click()
    const dialog = visitor.getByRole('dialog', { name: SESSION })
    await dialog.waitFor()
    await dialog.getByText('10:00 am – 11:30 am', { exact: false }).waitFor()
    await dialog.getByText('River Deck').waitFor()
    await dialog.getByText('Standards as the sun goes down.').waitFor()
    await dialog.getByText('Asha Rao').waitFor()
    await dialog.getByText('Saxophonist from Bengaluru.').waitFor()
    await dialog.getByText('Karthik Iyer').waitFor()
    await dialog.getByText('Double bass, Chennai.').waitFor()
    await visitor.keyboard.press('Escape')
    await dialog.waitFor({ state: 'hidden' })

    // From the keyboard too; the Close button closes it. The calendar may draw its entries anew
    // meanwhile (a refetch once the live connection is up replaces the element, and the focus with
    // it): Enter is pressed on the entry as it is then, again if it was replaced before it landed.
    for (let tries = 1; ; tries++) {
      await entry.press('Enter')
      const opened = await dialog
        .waitFor({ timeout: 3000 })
        .then(() => true)
        .catch(() => false)
      if (opened) break
      if (tries === 5) await dialog.waitFor({ timeout: 1 })
    }
    await dialog.getByRole('button', { name: 'Close' }).click()
    await dialog.waitFor({ state: 'hidden' })
  })

  it("lists the event's sessions on its page, and a new one appears there live", async () => {
    const visitor = await openPage()
    await visitor.goto(`/event/${eventId}`)
    const sessions = visitor.getByRole('region', { name: 'Sessions' })
    await sessions.waitFor()
    await visitor.locator('[data-live="connected"]').waitFor()
    await markPage(visitor)
    const first = sessions.getByRole('listitem', { name: SESSION })
    await first.getByText('10:00 am – 11:30 am', { exact: false }).waitFor()
    await first.getByText('River Deck').waitFor()
    await first.getByRole('button', { name: SESSION }).click()
    const dialog = visitor.getByRole('dialog', { name: SESSION })
    await dialog.getByText('Asha Rao').waitFor()
    await visitor.keyboard.press('Escape')
    await dialog.waitFor({ state: 'hidden' })

    const LATER = 'Morning Raga by the River'
    const created = await server.app.inject({
      method: 'POST',
      url: '/api/v1/schedule',
      headers: bearer(organizer.token),
      payload: {
        eventId,
        sessionTitle: LATER,
        description: 'Early light, slow ragas.',
        startTime: localDateTime(2, 7, 30),
        endTime: localDateTime(2, 8, 45),
        speakers: [{ name: 'Leela Menon', bio: 'Veena, Thrissur.' }],
        location: 'Boat Jetty',
      },
    })
    expect(created.statusCode).toBe(201)
    const later = sessions.getByRole('listitem', { name: LATER })
    await later.getByText('7:30 am – 8:45 am', { exact: false }).waitFor({ timeout: 15_000 })
    await later.getByText('Boat Jetty').waitFor()
    expect(await sessions.getByRole('listitem').allTextContents()).toEqual([
      expect.stringContaining(SESSION),
      expect.stringContaining(LATER),
    ])
    await notReloaded(visitor)
  })
})

describe('admin dashboard', () => {
  it('shows the attendee count and analytics of an approved event, live', async () => {
    const page = await signedInPage(admin)
    await page.goto('/admin/dashboard')
    await page.locator('[data-live="connected"]').waitFor()
    await markPage(page)
    const card = page.getByRole('listitem', { name: TITLE })
    const panel = analyticsOf(card, TITLE)
    await seesFigure(panel, 'Attendees', '2')
    await seesFigure(panel, 'Tickets Sold', '5')
    await seesFigure(panel, 'Total Revenue', '₹4,500')
    await seesRevenueBars(panel, [1500, 3000])

    const third = await signUp(server.app, 'divya')
    await purchase(third, 'VIP', 1)
    await seesFigure(panel, 'Attendees', '3')
    await seesFigure(panel, 'Tickets Sold', '6')
    await seesFigure(panel, 'Total Revenue', '₹6,000')
    await seesRevenueBars(panel, [1500, 4500])
    await notReloaded(page)
  })
})

describe('dashboards mid-sale', () => {
  it("keeps the organizer's and the admin's dashboards up while 60 orders are paid, 50 at a time", async () => {
    const title = `Hampi Utsav Rush ${Date.now()}`
    const event = await approvedEventOf(server.app, organizer, admin, { title }, [
      { type: 'General Admission', price: 500, quantity: 200 },
      { type: 'VIP', price: 1500, quantity: 20 },
    ])
    const buyers = await signUpAll(
      server.app,
      Array.from({ length: 60 }, (_, i) => `rush${i}`),
    )
    const crashes: string[] = []
    const watch = async (page: Page, path: string, panelScope: (page: Page) => Locator) => {
      page.on('pageerror', (error) => crashes.push(`${path}: ${error.message}`))
      // a slower machine than the test's: renders fall between the pushes as on a busy laptop
      const cdp = await page.context().newCDPSession(page)
      await cdp.send('Emulation.setCPUThrottlingRate', { rate: 6 })
      await page.goto(path)
      await page.locator('[data-live="connected"]').waitFor()
      const panel = analyticsOf(panelScope(page), title)
      await seesFigure(panel, 'Tickets Sold', '0')
      await markPage(page)
      return panel
    }
    const organizerView = await signedInPage(organizer)
    const adminView = await signedInPage(admin)
    const organizerPanel = await watch(organizerView, '/organizers/dashboard', (page) =>
      page.getByRole('article', { name: title }),
    )
    const adminPanel = await watch(adminView, '/admin/dashboard', (page) =>
      page.getByRole('listitem', { name: title }),
    )

    // 60 orders placed, then paid 50 at a time
    const placed = await Promise.all(
      buyers.map((buyer) => hold(server.app, buyer, event, 'General Admission', 1)),
    )
    for (let start = 0; start < buyers.length; start += 50)
      await Promise.all(
        buyers.slice(start, start + 50).map(async (buyer, i) => {
          const paid = await pay(server.app, buyer, placed[start + i] as CreateOrderReply)
          expect(paid.statusCode, paid.body).toBe(200)
          const confirmed = await confirm(server.app, buyer, paid.json() as Checkout)
          expect(confirmed.statusCode, confirmed.body).toBe(200)
        }),
      )

    for (const [page, panel] of [
      [organizerView, organizerPanel],
      [adminView, adminPanel],
    ] as const) {
      await seesFigure(panel, 'Tickets Sold', '60')
      await seesFigure(panel, 'Total Revenue', '₹30,000')
      await seesRevenueBars(panel, [30000, 0])
      expect(await page.getByText('Something went wrong!').count()).toBe(0)
      await notReloaded(page)
    }
    expect(crashes).toEqual([])
  })
})
