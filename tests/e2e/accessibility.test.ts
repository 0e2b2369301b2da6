// Every screen through axe-core (Deque's rules: WCAG 2.x A and AA and their best practices), as
// the role that may see it and with data on it: the public pages, the user's, the organizer's
// (its event page's every section), the admin's and the door; on a desktop and on a 390 px phone
// (a table that scrolls there is a region a keyboard must reach), with the dialogs and the menu
// that open over them. Each must have no violation.
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { EventView } from '../../contracts/catalog.ts'
import type { TicketPass } from '../../contracts/checkin.ts'
import { adminSession, bearer, organizerSession, type Session, signUp } from '../support/accounts.ts'
import { launchBrowser } from '../support/browser.ts'
import { multipartBody, pngImage } from '../support/media.ts'
import { buy, get, nextYear, post, review } from '../support/sales.ts'
import { startServer, type TestServer } from '../support/server.ts'

/** axe-core's script, run in the page by the browser's devtools protocol (the page's own CSP
 * refuses an added script, as it should) */
const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8')
const DESKTOP = { width: 1280, height: 900 }
const PHONE = { width: 390, height: 844 }
const TITLE = 'Kochi Harbour Lights Festival'

let server: TestServer
let browser: Browser
const contexts: BrowserContext[] = []
let event: EventView
let ticketId: string
let user: Session
let organizer: Session
let admin: Session
let doorKeeper: Session

beforeAll(async () => {
  server = await startServer({ RATE_LIMITS: 'off' })
  const { app } = server
  ;[user, organizer, admin, doorKeeper] = await Promise.all([
    signUp(app, 'a11yuser'),
    organizerSession(app, 'a11yorganizer'),
    adminSession(app),
    signUp(app, 'a11ydoor'),
  ])
  const body = await multipartBody(
    {
      title: TITLE,
      description: 'Lanterns on the water, music on the quay and food stalls until late.',
      date: `${nextYear}-12-20`,
      time: '19:30',
      location: 'Marine Drive, Kochi',
      category: 'Festival',
      ticketTypes: JSON.stringify([
        { type: 'General Admission', price: 499, quantity: 500 },
        { type: 'VIP', price: 1500, quantity: 50 },
      ]),
    },
    [
      {
        field: 'images',
        filename: 'quay.png',
        bytes: pngImage({ width: 1200, height: 600 }),
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
  // a second event, still waiting for the admin's review
  const pending = await multipartBody(
    {
      title: 'Fort Kochi Heritage Walk',
      description: 'A morning walk through the old town.',
      date: `${nextYear}-11-02`,
      time: '07:00',
      location: 'Fort Kochi',
      category: 'Walks',
      ticketTypes: JSON.stringify([{ type: 'General Admission', price: 0, quantity: 30 }]),
    },
    [],
  )
  const second = await app.inject({
    method: 'POST',
    url: '/api/v1/event/create',
    headers: { ...pending.headers, ...bearer(organizer.token) },
    payload: pending.payload,
  })
  expect(second.statusCode, second.body).toBe(201)
  ticketId = await buy(app, user, event, 'General Admission', 2)
  const posted = await Promise.all([
    post(app, '/api/v1/schedule', organizer, {
      eventId: event._id,
      sessionTitle: 'Lantern parade',
      description: 'From the boat jetty to the quay.',
      startTime: new Date(Date.now() + 3_600_000).toISOString().slice(0, 16),
      endTime: new Date(Date.now() + 7_200_000).toISOString().slice(0, 16),
      speakers: [{ name: 'Meera Nair', bio: 'Festival director.' }],
      location: 'Boat jetty',
    }),
    post(app, '/api/v1/admin/support', user, {
      subject: 'Parking',
      inquiry: 'Is there parking near the quay?',
    }),
    post(app, `/api/v1/event/${event._id}/promo-codes`, organizer, {
      code: 'HARBOUR-FRIENDS',
      percentOff: 10,
    }),
    post(app, `/api/v1/checkin/${event._id}/door-staff`, organizer, { email: doorKeeper.email }),
  ])
  for (const res of posted) expect(res.statusCode, res.body).toBeLessThan(300)
  // one admission let in twice: the door's double entries have a row
  const passes = (await get(app, `/api/v1/ticket/${ticketId}/passes`, user)).json() as TicketPass[]
  for (const device of ['east-gate', 'west-gate']) {
    const scanned = await post(app, `/api/v1/checkin/${event._id}/scans`, organizer, {
      scans: [{ code: passes[0]?.code, scannedAt: new Date().toISOString(), device }],
    })
    expect(scanned.statusCode, scanned.body).toBe(200)
  }
  browser = await launchBrowser()
}, 90_000)

afterAll(async () => {
  for (const context of contexts) await context.close()
  await browser?.close()
  await server?.close()
})

type Role = 'visitor' | 'user' | 'organizer' | 'admin' | 'door'
const accountOf = (role: Role): Session | null =>
  role === 'visitor' ? null : { user, organizer, admin, door: doorKeeper }[role]

async function openPage(role: Role, viewport: typeof DESKTOP): Promise<Page> {
  const phone = viewport.width < 500
  const context = await browser.newContext({
    baseURL: server.url,
    viewport,
    ...(phone ? { isMobile: true, hasTouch: true } : {}),
  })
  contexts.push(context)
  const account = accountOf(role)
  if (account) {
    await context.addInitScript((token) => {
      if (!localStorage.getItem('token')) localStorage.setItem('token', token)
    }, account.token)
  }
  return context.newPage()
}

type Violation = { id: string; impact: string; help: string; nodes: { target: string[] }[] }

/** axe's violations on the page as it is now, each with the first few elements it names */
async function violations(page: Page): Promise<string[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(AXE)
  const found = await page.evaluate(async () => {
    const axe = (
      window as unknown as { axe: { run(context: Document): Promise<{ violations: Violation[] }> } }
    ).axe
    return (await axe.run(document)).violations
  })
  return found.map(
    (v) =>
      `${v.id} (${v.impact}): ${v.help} at ${v.nodes
        .slice(0, 3)
        .map((node) => node.target.join(' '))
        .join(', ')}${v.nodes.length > 3 ? ` and ${v.nodes.length - 3} more` : ''}`,
  )
}

const heading = (name: string | RegExp) => (page: Page) =>
  page.getByRole('heading', { name }).first().waitFor()
const text = (content: string | RegExp) => (page: Page) => page.getByText(content).first().waitFor()
const button = (name: string | RegExp) => (page: Page) => page.getByRole('button', { name }).first().waitFor()
const section = (name: string) => (page: Page) =>
  page.locator(`.organizer-event-section[data-section="${name}"] h3`).first().waitFor()

type Screen = {
  path: () => string
  ready: (page: Page) => Promise<void>
  /** something opened over it (a dialog, a menu) and checked too */
  over?: { name: string; open: (page: Page) => Promise<void> }
}

const screens: Record<Role, Screen[]> = {
  visitor: [
    { path: () => '/', ready: text('Explore Events') },
    { path: () => '/home', ready: text('Date:') },
    { path: () => '/search', ready: heading('Events') },
    {
      path: () => '/schedule',
      ready: heading('Event Schedule'),
      over: {
        name: "a session's dialog",
        open: async (page) => {
          await page.locator('.fc-event', { hasText: 'Lantern parade' }).first().click()
          await page.getByRole('dialog').waitFor()
        },
      },
    },
    { path: () => `/event/${event._id}`, ready: text('Book Now') },
    { path: () => '/login', ready: button('Login') },
    { path: () => '/signup', ready: button('Sign Up') },
    { path: () => '/forgot-password', ready: heading(/password/i) },
    { path: () => '/reset-password/not-a-real-token', ready: heading(/password/i) },
  ],
  user: [
    { path: () => '/profile', ready: button('Log Out') },
    { path: () => '/dashboard', ready: text('Parking') },
    { path: () => '/inquiryform', ready: heading('Support Inquiry') },
    {
      path: () => `/booking/${event._id}`,
      ready: button('Confirm Booking'),
      over: {
        name: 'the checkout',
        open: async (page) => {
          await page.getByRole('button', { name: 'Confirm Booking' }).click()
          await page.getByRole('dialog', { name: TITLE }).waitFor()
        },
      },
    },
    { path: () => '/registrations', ready: button('Cancel Ticket') },
    { path: () => `/ticket/${ticketId}`, ready: (page) => page.locator('main h1').first().waitFor() },
    {
      path: () => `/booking/${event._id}/confirmed/${ticketId}`,
      ready: (page) => page.locator('main h1').first().waitFor(),
    },
    { path: () => `/ticket/transfer/${ticketId}`, ready: button('Transfer Ticket') },
    { path: () => `/cancelTicket/${ticketId}`, ready: (page) => page.locator('main > *').first().waitFor() },
    { path: () => '/account/invoices', ready: heading('Your invoices') },
  ],
  organizer: [
    { path: () => '/eventform', ready: button('Create Event') },
    { path: () => '/organizers/dashboard', ready: text(/Event Analytics for/) },
    { path: () => `/organizers/events/${event._id}`, ready: text('Category:') },
    { path: () => `/organizers/events/${event._id}?section=attendees`, ready: section('attendees') },
    { path: () => `/organizers/events/${event._id}?section=analytics`, ready: section('analytics') },
    { path: () => `/organizers/events/${event._id}?section=promo-codes`, ready: section('promo-codes') },
    { path: () => `/organizers/events/${event._id}?section=check-in`, ready: text('Double entries') },
    { path: () => `/organizers/events/${event._id}?section=sale-time`, ready: text('Save sale time') },
    { path: () => `/schedule/${event._id}`, ready: (page) => page.getByLabel(/title/i).first().waitFor() },
    { path: () => '/organizer/billing', ready: button('Save') },
    { path: () => '/organizer/invoices', ready: button('Download CSV') },
    { path: () => '/account/tokens', ready: button('Create token') },
    { path: () => '/account/webhooks', ready: button('Add webhook') },
  ],
  admin: [
    { path: () => '/admin/dashboard', ready: text(TITLE) },
    { path: () => '/createorganizer', ready: button(/Create Organizer/) },
    {
      path: () => '/inquiryreplay',
      ready: text('Parking'),
      over: {
        name: 'the reply dialog',
        open: async (page) => {
          await page.getByRole('button', { name: 'Reply' }).first().click()
          await page.getByRole('dialog').waitFor()
        },
      },
    },
    { path: () => '/useraccounts', ready: (page) => text(user.email)(page) },
    { path: () => '/admin/booking-fee', ready: button('Save') },
    { path: () => '/admin/invoices', ready: button('Download CSV') },
  ],
  door: [{ path: () => `/checkin/${event._id}`, ready: (page) => page.getByLabel('Pass code').waitFor() }],
}

async function visit(page: Page, path: string, ready: (page: Page) => Promise<void>) {
  await page.goto(path)
  await ready(page)
  // every loading indicator gone, images decoded, the charts drawn
  await page.waitForFunction(() => document.querySelector('.loading') === null)
  await page.waitForFunction(() => [...document.images].every((image) => image.complete))
  await page.waitForTimeout(300)
}

describe.each([
  ['a desktop', DESKTOP],
  ['a 390 px phone', PHONE],
] as const)('axe on %s', (_, viewport) => {
  describe.each(Object.keys(screens) as Role[])('as %s', (role) => {
    let page: Page
    beforeAll(async () => {
      page = await openPage(role, viewport)
    })

    const named = screens[role].map(
      (screen) => [screen.path.toString().replace(/^\(\) => /, ''), screen] as const,
    )
    it.each(named)('%s has no violation', async (_, screen) => {
      const path = screen.path()
      await visit(page, path, screen.ready)
      expect({ path, violations: await violations(page) }).toEqual({ path, violations: [] })
      if (screen.over) {
        await screen.over.open(page)
        expect({ path, over: screen.over.name, violations: await violations(page) }).toEqual({
          path,
          over: screen.over.name,
          violations: [],
        })
      }
    })

    if (role === 'visitor' && viewport === PHONE)
      it('the open menu has none', async () => {
        await visit(page, '/home', text('Date:'))
        await page.getByRole('button', { name: /menu/i }).click()
        expect(await violations(page)).toEqual([])
      })
  })
})
