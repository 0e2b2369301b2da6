// One format for dates, times and prices (issue 12, screen 11; ui/format.ts): en-IN days and
// times (20 Dec 2030, 7:30 pm), ₹ grouped the Indian way, and a price of 0 shown as Free — on the
// listing and search cards, the event page and the support screens, with SPEC's labels kept.
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { EventView } from '../../contracts/catalog.ts'
import { adminSession, bearer, organizerSession, type Session, signUp } from '../support/accounts.ts'
import { launchBrowser } from '../support/browser.ts'
import { approvedEvent, nextYear } from '../support/sales.ts'
import { startServer, type TestServer } from '../support/server.ts'

let server: TestServer
let browser: Browser
const contexts: BrowserContext[] = []
let free: EventView
let paid: EventView
let user: Session
let admin: Session

beforeAll(async () => {
  server = await startServer()
  const { app } = server
  const organizer = await organizerSession(app)
  admin = await adminSession(app)
  user = await signUp(app, 'formatuser')
  const fields = { date: `${nextYear}-12-20`, time: '19:30', location: 'NCPA, Mumbai' }
  free = await approvedEvent(app, organizer, admin, { ...fields, title: 'Open rehearsal' }, [
    { type: 'General Admission', price: 0, quantity: 100 },
    { type: 'VIP', price: 150000, quantity: 10 },
  ])
  paid = await approvedEvent(app, organizer, admin, { ...fields, title: 'Gala night', time: '09:05' }, [
    { type: 'VIP', price: 1499, quantity: 10 },
  ])
  const inquiry = await app.inject({
    method: 'POST',
    url: '/api/v1/admin/support',
    headers: bearer(user.token),
    payload: { subject: 'Parking', inquiry: 'Is there parking near the venue?' },
  })
  expect(inquiry.statusCode, inquiry.body).toBe(201)
  browser = await launchBrowser()
})

afterAll(async () => {
  for (const context of contexts) await context.close()
  await browser?.close()
  await server?.close()
})

async function newPage(account: Session | null): Promise<Page> {
  const context = await browser.newContext({
    baseURL: server.url,
    locale: 'en-US',
    timezoneId: 'Asia/Kolkata',
  })
  contexts.push(context)
  if (account) await context.addInitScript((token) => localStorage.setItem('token', token), account.token)
  return context.newPage()
}

const card = (page: Page, title: string) =>
  page.getByRole('listitem').filter({ has: page.getByRole('heading', { name: title }) })

/** 20 Dec 2030, 7:30 pm: an instant as the app shows it */
const INSTANT = /^\d{1,2} [A-Z][a-z]{2,3} \d{4}, \d{1,2}:\d{2} (am|pm)$/

describe('dates, times and prices in one format', () => {
  it('listing and search cards: Date: 20 Dec, Price: Free for a lowest price of 0, Price: ₹1,499', async () => {
    const page = await newPage(null)
    await page.goto('/home')
    for (const path of ['/home', '/search']) {
      if (path !== '/home') await page.getByRole('link', { name: 'Search' }).first().click()
      await card(page, 'Open rehearsal').getByText(`Date: 20 Dec ${nextYear}`, { exact: true }).waitFor()
      await card(page, 'Open rehearsal').getByText('Price: Free', { exact: true }).waitFor()
      await card(page, 'Gala night').getByText('Price: ₹1,499', { exact: true }).waitFor()
      await card(page, 'Gala night').getByText(`Date: 20 Dec ${nextYear}`, { exact: true }).waitFor()
    }
  })

  it('event page: the day, the time as 7:30 pm IST, each ticket at ₹1,50,000 or Free', async () => {
    const page = await newPage(null)
    await page.goto(`/event/${free._id}`)
    await page.getByText(`20 Dec ${nextYear}`, { exact: true }).waitFor()
    // in the event's zone, labelled (TIMEZONE: Asia/Kolkata)
    await page.getByText('7:30 pm IST', { exact: true }).waitFor()
    const tickets = page.locator('.ticket-list')
    await tickets.getByText('Free', { exact: true }).waitFor()
    await tickets.getByText('₹1,50,000', { exact: true }).waitFor()

    await page.goto(`/event/${paid._id}`)
    await page.getByText('9:05 am IST', { exact: true }).waitFor()
    await page.locator('.ticket-list').getByText('₹1,499', { exact: true }).waitFor()
  })

  it('support: when an inquiry was sent, as 20 Dec 2030, 7:30 pm', async () => {
    const adminPage = await newPage(admin)
    await adminPage.goto('/inquiryreplay')
    const row = adminPage.getByText('Parking').first()
    await row.waitFor()
    const moments = await adminPage.locator('time').allTextContents()
    expect(moments.length).toBeGreaterThan(0)
    for (const moment of moments) expect(moment).toMatch(INSTANT)
  })
})
