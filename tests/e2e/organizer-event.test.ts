// The organizer's page of one event in sections (Overview, Attendees, Analytics, Promo codes,
// Check-in), each at an address of its own (?section=), so a section can be linked, bookmarked,
// reloaded and gone back to; on a desktop and on a 390 px phone, where the section bar and every
// table fit or scroll within a region of their own, nothing cut off.
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { EventView } from '../../contracts/catalog.ts'
import type { TicketPass } from '../../contracts/checkin.ts'
import { adminSession, organizerSession, type Session, signUp } from '../support/accounts.ts'
import { launchBrowser } from '../support/browser.ts'
import { wallClockIn } from '../support/clock.ts'
import { approvedEvent, buy, get, post } from '../support/sales.ts'
import { startServer, type TestServer } from '../support/server.ts'

const PHONE = { width: 390, height: 844 }
const DESKTOP = { width: 1280, height: 900 }
const TITLE = `Malabar Monsoon Music Festival ${Date.now()}`
const SECTIONS = [
  'Overview',
  'Attendees',
  'Analytics',
  'Promo codes',
  'Check-in',
  'Seat map',
  'Sale time',
] as const

let server: TestServer
let browser: Browser
const contexts: BrowserContext[] = []
let organizer: Session
let buyer: Session
let event: EventView

beforeAll(async () => {
  server = await startServer({ RATE_LIMITS: 'off' })
  const { app } = server
  const admin = await adminSession(app)
  organizer = await organizerSession(app, 'malabar')
  buyer = await signUp(app, 'anjali')
  // starts within the day, so its door is open (it opens CHECKIN_OPENS_HOURS before)
  const { date, time } = wallClockIn(server.config.timeZone, 120)
  event = await approvedEvent(app, organizer, admin, { title: TITLE, category: 'Music', date, time })
  const ticketId = await buy(app, buyer, event, 'General Admission', 3)
  // promo codes with long names and every column filled
  for (const body of [
    {
      code: 'MONSOON-EARLY-BIRD-2030',
      percentOff: 15,
      maxUses: 250,
      ticketTypes: ['General Admission', 'VIP'],
    },
    { code: 'FRIENDS-OF-THE-FESTIVAL', amountOff: 200, maxUses: 40 },
  ]) {
    const made = await post(app, `/api/v1/event/${event._id}/promo-codes`, organizer, body)
    expect(made.statusCode, made.body).toBe(201)
  }
  // a pass let in at one gate, then shown again at another: a double entry
  const passes = (await get(app, `/api/v1/ticket/${ticketId}/passes`, buyer)).json() as TicketPass[]
  const code = passes[0]?.code ?? ''
  for (const device of ['north-gate-scanner-0001', 'south-gate-scanner-0002']) {
    const scanned = await post(app, `/api/v1/checkin/${event._id}/scans`, organizer, {
      scans: [{ code, scannedAt: new Date().toISOString(), device }],
    })
    expect(scanned.statusCode, scanned.body).toBe(200)
  }
  browser = await launchBrowser()
}, 60_000)

afterAll(async () => {
  for (const context of contexts) await context.close()
  await browser?.close()
  await server?.close()
})

async function organizerPage(viewport: typeof PHONE, phone = false): Promise<Page> {
  const context = await browser.newContext({
    baseURL: server.url,
    viewport,
    ...(phone ? { isMobile: true, hasTouch: true } : {}),
  })
  contexts.push(context)
  await context.addInitScript((token) => localStorage.setItem('token', token), organizer.token)
  return context.newPage()
}

const pagePath = () => `/organizers/events/${event._id}`
const sectionNav = (page: Page) => page.getByRole('navigation', { name: 'Event sections' })
const sectionLink = (page: Page, name: string) => sectionNav(page).getByRole('link', { name, exact: true })
const sectionOf = (page: Page) => new URL(page.url()).searchParams.get('section')

/** the section shown: its link is the current one, and only its content is on the page */
async function shows(page: Page, name: (typeof SECTIONS)[number]) {
  await page.getByRole('heading', { name: TITLE, level: 1 }).waitFor()
  await expect.poll(() => sectionLink(page, name).getAttribute('aria-current')).toBe('page')
  for (const other of SECTIONS)
    if (other !== name) expect(await sectionLink(page, other).getAttribute('aria-current')).toBeNull()
  const content = {
    Overview: page.getByRole('region', { name: 'Edit event' }),
    Attendees: page.getByRole('table', { name: `Attendees of ${TITLE}` }),
    Analytics: page.getByRole('region', { name: `Event Analytics for ${TITLE}` }),
    'Promo codes': page.getByRole('region', { name: 'Promo codes' }),
    'Check-in': page.getByRole('region', { name: 'Check-in' }),
    'Seat map': page.getByRole('region', { name: 'Seat map' }),
    'Sale time': page.getByRole('region', { name: 'Sale time' }),
  }
  await content[name].waitFor()
  for (const [other, locator] of Object.entries(content))
    if (other !== name) expect(await locator.count(), `${other} is shown with ${name}`).toBe(0)
}

describe("the organizer's event page", () => {
  it('opens on the overview and shows each section at its own address: a link, a reload and Back keep it', async () => {
    const page = await organizerPage(DESKTOP)
    await page.goto(pagePath())
    await shows(page, 'Overview')
    expect(await sectionNav(page).getByRole('link').allTextContents()).toEqual([...SECTIONS])
    // what the event is stays above every section
    await page.getByText('Category:').waitFor()
    expect(await page.getByRole('link', { name: 'Add Schedule' }).getAttribute('href')).toBe(
      `/schedule/${event._id}`,
    )

    await sectionLink(page, 'Attendees').click()
    await shows(page, 'Attendees')
    expect(sectionOf(page)).toBe('attendees')
    await page.getByRole('row', { name: `${buyer.username} ${buyer.email} 3` }).waitFor()
    expect(await page.getByRole('link', { name: 'Add Schedule' }).count()).toBe(1)

    await sectionLink(page, 'Analytics').click()
    await shows(page, 'Analytics')
    expect(sectionOf(page)).toBe('analytics')
    const analytics = page.getByRole('region', { name: `Event Analytics for ${TITLE}` })
    await expect
      .poll(() => analytics.getByRole('status', { name: 'Tickets Sold', exact: true }).textContent())
      .toBe('3')

    await sectionLink(page, 'Promo codes').click()
    await shows(page, 'Promo codes')
    expect(sectionOf(page)).toBe('promo-codes')
    await page.getByRole('row', { name: /MONSOON-EARLY-BIRD-2030/ }).waitFor()

    await sectionLink(page, 'Check-in').click()
    await shows(page, 'Check-in')
    expect(sectionOf(page)).toBe('check-in')
    const checkin = page.getByRole('region', { name: 'Check-in' })
    await expect
      .poll(() => checkin.getByRole('status', { name: 'Admitted', exact: true }).textContent())
      .toBe('1 / 3')
    await checkin.getByRole('table', { name: 'Double entries' }).waitFor()
    await checkin.getByRole('region', { name: 'Door staff' }).waitFor()

    // Back returns to the section before; a reload stays where it is
    await page.goBack()
    await shows(page, 'Promo codes')
    await page.reload()
    await shows(page, 'Promo codes')
    await sectionLink(page, 'Overview').click()
    await shows(page, 'Overview')
    expect(sectionOf(page)).toBeNull()

    // a link to a section opens it; an unknown section is the overview
    const linked = await organizerPage(DESKTOP)
    await linked.goto(`${pagePath()}?section=check-in`)
    await shows(linked, 'Check-in')
    await linked.goto(`${pagePath()}?section=nonsense`)
    await shows(linked, 'Overview')
  }, 90_000)
})

/** The page's width and what reaches past the screen; and for each element `selector` finds,
 * whether it fits the screen or (unless it must fit) scrolls within a box of its own that fits it,
 * nothing between clipping it, and that box's scrolling reaching its right edge. */
const layout = (page: Page, selector: string, mustFit: boolean) =>
  page.evaluate(
    ([selector, mustFit]) => {
      const width = document.documentElement.clientWidth
      const outside = (box: DOMRect) => box.left < -1 || box.right > width + 1
      const wide: string[] = []
      for (const element of document.body.querySelectorAll('*')) {
        const box = element.getBoundingClientRect()
        if (box.width === 0 || box.height === 0 || !outside(box)) continue
        let held = false
        for (let up = element.parentElement; up && up !== document.body; up = up.parentElement) {
          const overflow = getComputedStyle(up).overflowX
          if (overflow === 'auto' || overflow === 'scroll') {
            held = true
            break
          }
        }
        if (!held) wide.push(`${element.tagName.toLowerCase()}.${String(element.className)}`)
      }
      const cut: string[] = []
      for (const element of document.querySelectorAll(selector)) {
        const box = element.getBoundingClientRect()
        if (mustFit) {
          const wider = [element, ...element.querySelectorAll('*')].filter(
            // (a part 1 px wide is one hidden for screen readers, such as the column headers)
            (part) =>
              part.getBoundingClientRect().width > 1 &&
              part.scrollWidth > part.clientWidth + 1 &&
              getComputedStyle(part).overflowX !== 'visible',
          )
          if (outside(box)) cut.push(`${selector} does not fit the screen`)
          for (const part of wider) cut.push(`${selector}: ${part.tagName.toLowerCase()} scrolls sideways`)
          const frame = element.parentElement
          if (frame && frame.scrollWidth > frame.clientWidth + 1)
            cut.push(`${selector} is wider than its box`)
          continue
        }
        if (!outside(box)) continue
        let scroller: Element | null = null
        for (let up = element.parentElement; up && up !== document.body; up = up.parentElement) {
          const overflow = getComputedStyle(up).overflowX
          if (overflow === 'auto' || overflow === 'scroll') {
            scroller = up
            break
          }
          if (overflow !== 'visible') {
            cut.push(`${selector} clipped by ${up.tagName.toLowerCase()}.${String(up.className)}`)
            break
          }
        }
        if (!scroller) {
          if (!cut.length) cut.push(`${selector} reaches past the screen`)
          continue
        }
        const frame = scroller.getBoundingClientRect()
        if (outside(frame)) cut.push(`${selector}'s scrolling box reaches past the screen`)
        if (scroller.scrollWidth + 1 < element.getBoundingClientRect().width)
          cut.push(`${selector} is wider than its scrolling box scrolls`)
      }
      return { width, scrollWidth: document.documentElement.scrollWidth, wide: wide.slice(0, 8), cut }
    },
    [selector, mustFit] as const,
  )

describe("the organizer's event page at 390 px", () => {
  let page: Page
  beforeAll(async () => {
    page = await organizerPage(PHONE, true)
  })

  // the promo codes' and the double entries' tables fit whole (each row a block of lines); the
  // attendees' may scroll within their own region
  it.each([
    ['Overview', '', '.organizer-event-facts', true],
    ['Attendees', 'attendees', '.event-attendees table', false],
    ['Analytics', 'analytics', '.event-analytics', true],
    ['Promo codes', 'promo-codes', '.promo-codes table', true],
    ['Check-in', 'check-in', '.event-checkin table', true],
    ['Sale time', 'sale-time', '.sale-time-form', true],
  ] as const)(
    '%s fits the screen, its tables scrolling within their own region',
    async (name, section, part, mustFit) => {
      await page.goto(section ? `${pagePath()}?section=${section}` : pagePath())
      await shows(page, name)
      await page.locator(part).first().waitFor()
      await page.waitForFunction(() => document.querySelector('.loading') === null)
      const { width, scrollWidth, wide, cut } = await layout(page, part, mustFit)
      expect(width).toBe(PHONE.width)
      expect({ scrollWidth, wide, cut }).toEqual({ scrollWidth: PHONE.width, wide: [], cut: [] })
      // every section's link can be reached, within the bar's own region
      for (const other of SECTIONS) {
        const link = sectionLink(page, other)
        await link.scrollIntoViewIfNeeded()
        const box = (await link.boundingBox()) as NonNullable<Awaited<ReturnType<Locator['boundingBox']>>>
        expect(box.x, other).toBeGreaterThanOrEqual(0)
        expect(box.x + box.width, other).toBeLessThanOrEqual(PHONE.width)
      }
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBe(PHONE.width)
    },
  )
})
