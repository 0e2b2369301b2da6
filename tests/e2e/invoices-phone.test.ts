// The organizer's invoices table on a phone (issue 42's Invoices screen): at 390×844 its ten columns
// are wider than the screen, and the box that scrolls them sideways says so: a line above it, a fade
// on the edge with more beyond it, and a labelled region in the tab order that the keyboard scrolls.
// At a desktop's width the table fits, lakhs of rupees and a long buyer's name included, and none of
// it shows.
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { adminSession, bearer, organizerSession, type Session, signUp } from '../support/accounts.ts'
import { launchBrowser } from '../support/browser.ts'
import { buy, submitEvent } from '../support/sales.ts'
import { startServer, type TestServer } from '../support/server.ts'

const PHONE = { width: 390, height: 844 }
const DESKTOP = { width: 1280, height: 800 }
const HINT = 'Scroll sideways for more columns'

let server: TestServer
let browser: Browser
const contexts: BrowserContext[] = []
let organizer: Session
let buyer: Session
/** the invoice's number, as its row names it */
let number: string

beforeAll(async () => {
  server = await startServer({ RATE_LIMITS: 'off' })
  browser = await launchBrowser()
  organizer = await organizerSession(server.app, 'tablaorganizer')
  const billing = await server.app.inject({
    method: 'PUT',
    url: '/api/v1/organizer/billing',
    headers: bearer(organizer.token),
    payload: {
      legalName: 'Tabla Taal LLP',
      gstin: '27AAPFU0939F1ZV',
      address: '4 Carter Road, Mumbai',
      state: '27',
      invoicePrefix: 'TTL',
    },
  })
  expect(billing.statusCode, billing.body).toBe(200)
  const event = await submitEvent(
    server.app,
    organizer,
    { title: `Tabla Morning ${Date.now()}`, state: '27', pricesIncludeTax: 'false' },
    [{ type: 'VIP', price: 99999, quantity: 20, taxRate: 18 }],
  )
  const admin = await adminSession(server.app)
  const reviewed = await server.app.inject({
    method: 'PUT',
    url: `/api/v1/admin/events/${event._id}/status`,
    headers: bearer(admin.token),
    payload: { status: 'Approved' },
  })
  expect(reviewed.statusCode, reviewed.body).toBe(200)
  buyer = await signUp(server.app, 'tablabuyeranantharaman')
  const ticketId = await buy(server.app, buyer, event, 'VIP', 10)
  const invoice = await server.app.inject({
    method: 'GET',
    url: `/api/v1/ticket/${ticketId}/invoice?format=json`,
    headers: bearer(organizer.token),
  })
  expect(invoice.statusCode, invoice.body).toBe(200)
  number = invoice.json().number
}, 60_000)

afterAll(async () => {
  await Promise.all(contexts.splice(0).map((context) => context.close()))
  await browser?.close()
  await server?.close()
})

/** the organizer's Invoices screen (or the buyer's) at `viewport`, its invoice's row shown */
async function invoicesAt(viewport: { width: number; height: number }, asBuyer = false): Promise<Page> {
  const context = await browser.newContext({ baseURL: server.url, viewport })
  contexts.push(context)
  const token = asBuyer ? buyer.token : organizer.token
  await context.addInitScript((token) => localStorage.setItem('token', token), token)
  const page = await context.newPage()
  await page.goto(asBuyer ? '/account/invoices' : '/organizer/invoices')
  await page.getByRole('heading', { name: asBuyer ? 'Your invoices' : 'Invoices' }).waitFor()
  await page.getByRole('row', { name: new RegExp(number) }).waitFor()
  return page
}

const box = (page: Page) => page.locator('.table-scroll')
const frame = (page: Page) => page.locator('.scroll-frame')
/** how opaque the fade on one edge of the box is (0: none) */
const fade = (page: Page, edge: '::before' | '::after') =>
  frame(page).evaluate((element, pseudo) => Number(getComputedStyle(element, pseudo).opacity), edge)

describe('the invoices table', () => {
  it('on a phone, says that it scrolls sideways, fades the edge with more, and scrolls by keyboard', async () => {
    const page = await invoicesAt(PHONE)
    const sizes = await box(page).evaluate((element) => ({
      scroll: element.scrollWidth,
      client: element.clientWidth,
    }))
    expect(sizes.scroll).toBeGreaterThan(sizes.client)
    // the page itself does not scroll sideways: the box does
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width)

    const hint = page.getByText(HINT, { exact: true })
    await hint.waitFor()
    expect(await hint.isVisible()).toBe(true)
    const region = page.getByRole('region', { name: /^Invoices and credit notes from / })
    await region.waitFor()
    expect(await region.getAttribute('tabindex')).toBe('0')
    expect(await region.getAttribute('aria-describedby')).toBe(await hint.getAttribute('id'))
    // more on the right only, at first
    await expect.poll(() => fade(page, '::after')).toBe(1)
    expect(await fade(page, '::before')).toBe(0)

    // the keyboard reaches the box and scrolls it; at its end, the fade moves to the left edge
    await region.focus()
    await page.keyboard.press('ArrowRight')
    await expect.poll(() => box(page).evaluate((element) => element.scrollLeft)).toBeGreaterThan(0)
    await expect.poll(() => fade(page, '::before')).toBe(1)
    await page.keyboard.press('End')
    await box(page).evaluate((element) => {
      element.scrollLeft = element.scrollWidth
    })
    await expect.poll(() => fade(page, '::after')).toBe(0)
    expect(await fade(page, '::before')).toBe(1)
    await hint.waitFor()
  })

  it('of a buyer, on a phone: the page stays the screen’s width, and its table says it scrolls sideways', async () => {
    const page = await invoicesAt(PHONE, true)
    await page.getByText(HINT, { exact: true }).waitFor()
    await page.getByRole('region', { name: 'Your invoices and credit notes' }).waitFor()
    // the table's hidden PDF header stays inside the box that scrolls
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width)
  })

  it('at a desktop width, fits and shows no cue', async () => {
    const page = await invoicesAt(DESKTOP)
    const sizes = await box(page).evaluate((element) => ({
      scroll: element.scrollWidth,
      client: element.clientWidth,
    }))
    expect(sizes.scroll).toBeLessThanOrEqual(sizes.client)
    // (wider than the page's column, not than the window)
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(DESKTOP.width)
    expect(await page.getByText(HINT).count()).toBe(0)
    expect(await page.getByRole('region', { name: /^Invoices and credit notes from / }).count()).toBe(0)
    expect(await box(page).getAttribute('tabindex')).toBeNull()
    expect(await fade(page, '::before')).toBe(0)
    expect(await fade(page, '::after')).toBe(0)
  })

  it('shows the cue once a desktop window is narrowed to a phone, and drops it when widened again', async () => {
    const page = await invoicesAt(DESKTOP)
    expect(await page.getByText(HINT).count()).toBe(0)
    await page.setViewportSize(PHONE)
    await page.getByText(HINT, { exact: true }).waitFor()
    await page.setViewportSize(DESKTOP)
    await page.getByText(HINT, { exact: true }).waitFor({ state: 'detached' })
  })
})
