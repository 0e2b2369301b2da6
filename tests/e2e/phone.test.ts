// No page scrolls sideways on a phone (issue 12, screen 2): every route of SPEC §2 at 390×844, as
// the role that may see it, with data on it (an approved event with a wide image and two ticket
// types, a paid ticket, a session, an inquiry). Each page must be no wider than the screen, and no
// element may reach past its right edge unless a scrolling box of its own holds it.
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { EventView } from '../../contracts/catalog.ts'
import { adminSession, bearer, organizerSession, type Session, signUp } from '../support/accounts.ts'
import { launchBrowser } from '../support/browser.ts'
import { multipartBody, pngImage } from '../support/media.ts'
import { buy, nextYear, review } from '../support/sales.ts'
import { startServer, type TestServer } from '../support/server.ts'

const PHONE = { width: 390, height: 844 }
const TITLE = 'Sunburn Arena ft. Martin Garrix: the Bengaluru winter edition'

let server: TestServer
let browser: Browser
const contexts: BrowserContext[] = []
let event: EventView
let ticketId: string
let user: Session
let organizer: Session
let admin: Session

beforeAll(async () => {
  server = await startServer()
  const { app } = server
  ;[user, organizer, admin] = await Promise.all([
    signUp(app, 'phoneuser'),
    organizerSession(app, 'phoneorganizer'),
    adminSession(app),
  ])
  // A photo wider than any phone, and an event with every field filled.
  const body = await multipartBody(
    {
      title: TITLE,
      description:
        'An evening of electronic music under the open sky, with food stalls and a silent-disco after-party.',
      date: `${nextYear}-12-20`,
      time: '19:30',
      location: 'Embassy International Riding School, Bengaluru',
      category: 'Music',
      ticketTypes: JSON.stringify([
        { type: 'General Admission', price: 1499, quantity: 500 },
        { type: 'VIP', price: 0, quantity: 50 },
      ]),
    },
    [
      {
        field: 'images',
        filename: 'stage.png',
        bytes: pngImage({ width: 1600, height: 500 }),
        contentType: 'image/png',
      },
    ],
  )
  const created = await app.inject({
    method: 'POST',
    url: '/api/v1/event/create',
    headers: { ...body.headers, ...bearer(organizer.token) },
    payload: body.payload,
  })
  expect(created.statusCode, created.body).toBe(201)
  event = await review(app, admin, created.json().event._id)
  ticketId = await buy(app, user, event, 'General Admission', 2)
  const session = await app.inject({
    method: 'POST',
    url: '/api/v1/schedule',
    headers: bearer(organizer.token),
    payload: {
      eventId: event._id,
      sessionTitle: 'Opening set',
      description: 'Warm-up with local DJs.',
      startTime: `${nextYear}-12-20T19:30`,
      endTime: `${nextYear}-12-20T21:00`,
      speakers: [{ name: 'Nucleya', bio: 'Bass music producer from Bengaluru.' }],
      location: 'Main stage',
    },
  })
  expect(session.statusCode, session.body).toBe(201)
  const inquiry = await app.inject({
    method: 'POST',
    url: '/api/v1/admin/support',
    headers: bearer(user.token),
    payload: { subject: 'Wheelchair access', inquiry: 'Is there step-free access to the main stage?' },
  })
  expect(inquiry.statusCode, inquiry.body).toBe(201)
  browser = await launchBrowser()
})

afterAll(async () => {
  for (const context of contexts) await context.close()
  await browser?.close()
  await server?.close()
})

/** A phone-sized page, signed in as this account (its token stored, as after a login) or not. */
async function phonePage(account: Session | null): Promise<Page> {
  const context = await browser.newContext({
    baseURL: server.url,
    viewport: PHONE,
    isMobile: true,
    hasTouch: true,
  })
  contexts.push(context)
  if (account) {
    await context.addInitScript((token) => {
      if (!localStorage.getItem('token')) localStorage.setItem('token', token)
    }, account.token)
  }
  return context.newPage()
}

/** The page's width, and every visible element whose box reaches past the screen's right edge
 * (or left of its left edge) without an ancestor that scrolls or clips it. */
const measure = (page: Page) =>
  page.evaluate(() => {
    const width = document.documentElement.clientWidth
    const held = (element: Element): boolean => {
      for (let up = element.parentElement; up && up !== document.body; up = up.parentElement) {
        const overflowX = getComputedStyle(up).overflowX
        if (overflowX !== 'visible') return true
      }
      return false
    }
    const wide: string[] = []
    for (const element of document.body.querySelectorAll('*')) {
      const box = element.getBoundingClientRect()
      if (box.width === 0 || box.height === 0) continue
      if (box.right <= width + 1 && box.left >= -1) continue
      if (getComputedStyle(element).visibility === 'hidden' || held(element)) continue
      const name = `${element.tagName.toLowerCase()}${element.id ? `#${element.id}` : ''}${
        typeof element.className === 'string' && element.className
          ? `.${element.className.trim().split(/\s+/).join('.')}`
          : ''
      }`
      wide.push(`${name} [${Math.round(box.left)}, ${Math.round(box.right)}]`)
    }
    return { width, scrollWidth: document.documentElement.scrollWidth, wide: wide.slice(0, 8) }
  })

/** Opens a route and waits for its content: no loading indicator left, images decoded. */
async function visit(page: Page, path: string, ready: (page: Page) => Promise<void>) {
  await page.goto(path)
  await page.getByRole('link', { name: 'Event Management' }).waitFor()
  await ready(page)
  // every loading indicator gone (a page may show two at once: its data's and a lazy part's)
  await page.waitForFunction(() => document.querySelector('.loading') === null)
  await page.waitForFunction(() => [...document.images].every((image) => image.complete))
  const { pathname, search } = new URL(page.url())
  expect(`${pathname}${search}`.toLowerCase(), `${path} was redirected`).toBe(path.toLowerCase())
}

const heading = (name: string | RegExp) => (page: Page) =>
  page.getByRole('heading', { name }).first().waitFor()
const text = (content: string | RegExp) => (page: Page) => page.getByText(content).first().waitFor()
const button = (name: string | RegExp) => (page: Page) => page.getByRole('button', { name }).first().waitFor()

type Route = { path: () => string; ready: (page: Page) => Promise<void> }
const routes: Record<'visitor' | 'user' | 'organizer' | 'admin', Route[]> = {
  visitor: [
    { path: () => '/', ready: text('Explore Events') },
    { path: () => '/home', ready: text('Date:') },
    { path: () => '/search', ready: heading('Events') },
    { path: () => '/schedule', ready: heading('Event Schedule') },
    { path: () => `/event/${event._id}`, ready: text('Book Now') },
    { path: () => '/login', ready: button('Login') },
    { path: () => '/signup', ready: button('Sign Up') },
    { path: () => '/forgot-password', ready: heading(/password/i) },
    { path: () => '/reset-password/not-a-real-token', ready: heading(/password/i) },
  ],
  user: [
    { path: () => '/profile', ready: button('Log Out') },
    { path: () => '/dashboard', ready: text('Wheelchair access') },
    { path: () => '/inquiryform', ready: heading('Support Inquiry') },
    { path: () => `/booking/${event._id}`, ready: button('Confirm Booking') },
    { path: () => '/registrations', ready: button('Cancel Ticket') },
    { path: () => `/ticket/transfer/${ticketId}`, ready: button('Transfer Ticket') },
    { path: () => `/cancelTicket/${ticketId}`, ready: (page) => page.locator('main > *').first().waitFor() },
  ],
  organizer: [
    { path: () => '/eventform', ready: button('Create Event') },
    { path: () => '/organizers/dashboard', ready: text(/Event Analytics for/) },
    { path: () => `/organizers/events/${event._id}`, ready: text('Category:') },
    ...(['attendees', 'analytics', 'promo-codes', 'check-in'] as const).map((section) => ({
      path: () => `/organizers/events/${event._id}?section=${section}`,
      ready: (page: Page) =>
        page.locator(`.organizer-event-section[data-section="${section}"] h3`).first().waitFor(),
    })),
    { path: () => `/schedule/${event._id}`, ready: (page) => page.getByLabel(/title/i).first().waitFor() },
    { path: () => '/profile', ready: button('Log Out') },
  ],
  admin: [
    { path: () => '/admin/dashboard', ready: text(TITLE) },
    { path: () => '/createorganizer', ready: button(/Create Organizer/) },
    { path: () => '/inquiryreplay', ready: text('Wheelchair access') },
    { path: () => '/useraccounts', ready: (page) => text(user.email)(page) },
  ],
}

const accountOf = (role: keyof typeof routes): Session | null =>
  role === 'visitor' ? null : { user, organizer, admin }[role]

describe.each(Object.keys(routes) as (keyof typeof routes)[])('at 390 px, as %s', (role) => {
  let page: Page
  beforeAll(async () => {
    page = await phonePage(accountOf(role))
  })

  const named = routes[role].map((route) => [route.path.toString().replace(/^\(\) => /, ''), route] as const)
  it.each(named)('%s does not scroll sideways', async (_, route) => {
    const path = route.path()
    await visit(page, path, route.ready)
    const { width, scrollWidth, wide } = await measure(page)
    expect(width).toBe(PHONE.width)
    expect({ path, scrollWidth, wide }).toEqual({ path, scrollWidth: PHONE.width, wide: [] })
  })

  it('the open menu fits too', async () => {
    await visit(page, '/home', text('Date:'))
    await page.getByRole('button', { name: /menu/i }).click()
    const { scrollWidth, wide } = await measure(page)
    expect({ scrollWidth, wide }).toEqual({ scrollWidth: PHONE.width, wide: [] })
  })
})
