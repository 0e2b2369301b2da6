// The buyer's ticket cards in Chromium: a cancel held behind one Undo (the toast's), then the ticket
// kept on the dashboard as cancelled by its holder with its refund; and every time of an event on a
// card, on the event page and on the confirmation page written in the event's zone and labelled,
// seen from a browser in New York.
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { EventView } from '../../contracts/catalog.ts'
import { adminSession, organizerSession, type Session, signUp } from '../support/accounts.ts'
import { launchBrowser } from '../support/browser.ts'
import { approvedEvent, buy, get } from '../support/sales.ts'
import { startServer, type TestServer } from '../support/server.ts'

let server: TestServer
let browser: Browser
const contexts: BrowserContext[] = []
let event: EventView
let buyer: Session

beforeAll(async () => {
  server = await startServer({ RATE_LIMITS: 'off' })
  const { app } = server
  const [organizer, admin] = await Promise.all([organizerSession(app, 'Cardmaker'), adminSession(app)])
  buyer = await signUp(app, 'Cardholder')
  event = await approvedEvent(
    app,
    organizer,
    admin,
    { title: `River Ragas ${Date.now()}`, date: '2030-06-15', time: '19:30' },
    [{ type: 'VIP', price: 1500, quantity: 20 }],
  )
  browser = await launchBrowser()
}, 60_000)

afterAll(async () => {
  for (const context of contexts.splice(0)) await context.close()
  await browser?.close()
  await server?.close()
})

/** a page of a browser signed in as `account`, in a time zone of its own when given */
async function signedInPage(account: Session, timezoneId?: string): Promise<Page> {
  const context = await browser.newContext({
    baseURL: server.url,
    viewport: { width: 1280, height: 800 },
    ...(timezoneId ? { timezoneId } : {}),
  })
  contexts.push(context)
  await context.addInitScript((token) => localStorage.setItem('token', token), account.token)
  return context.newPage()
}

const paymentStatus = async (ticketId: string) =>
  (
    (await get(server.app, `/api/v1/ticket/getTicketbyId/${ticketId}`, buyer)).json() as {
      paymentStatus: string
    }
  ).paymentStatus

/** a day as the page writes it, in this browser's own zone */
const dayShown = (page: Page, iso: string) =>
  page.evaluate(
    (at) =>
      new Intl.DateTimeFormat('en-IN', { day: 'numeric', month: 'short', year: 'numeric' }).format(
        new Date(at),
      ),
    iso,
  )

describe("a buyer's ticket cards", () => {
  it("writes every time of the event in the event's zone, labelled, in a browser in New York", async () => {
    const ticketId = await buy(server.app, buyer, event, 'VIP', 1)
    const page = await signedInPage(buyer, 'America/New_York')
    await page.goto('/dashboard')
    const card = page.locator(`#ticket-${ticketId}`)
    await card.getByRole('heading', { name: event.title }).waitFor()
    // 19:30 in Asia/Kolkata; the cutoff 24 hours before it, also in Asia/Kolkata (not 10:00 am New York)
    await card.getByText('15 Jun 2030, 7:30 pm IST', { exact: true }).waitFor()
    await card.getByText('Cancellable until 14 Jun 2030, 7:30 pm IST', { exact: true }).waitFor()
    expect(await card.getByText(/\d am|GMT/).count()).toBe(0)

    await page.goto(`/event/${event._id}`)
    await page.getByRole('heading', { name: event.title, level: 1 }).waitFor()
    await page.getByText('7:30 pm IST', { exact: true }).waitFor()

    await page.goto(`/booking/${event._id}`)
    await page.getByRole('heading', { name: event.title }).waitFor()
    await page.getByText('7:30 pm IST', { exact: true }).waitFor()
  })

  it('offers one Undo while a cancel is held, then keeps the ticket as cancelled by its holder, refunded', async () => {
    const ticketId = await buy(server.app, buyer, event, 'VIP', 2)
    const page = await signedInPage(buyer)
    await page.goto('/dashboard')
    await page.locator('[data-live="connected"]').waitFor()
    const card = page.locator(`#ticket-${ticketId}`)
    await card.getByRole('button', { name: 'Cancel' }).click()
    await card.getByText('Being cancelled…').waitFor()
    const toast = page.getByRole('alert').filter({ hasText: `Cancelling your ticket for ${event.title}` })
    await toast.getByRole('button', { name: 'Undo' }).waitFor()
    // one way to take it back: the toast's (the card says what is happening)
    expect(await page.getByRole('button', { name: 'Undo' }).count()).toBe(1)

    await page.getByText('Ticket canceled successfully.').waitFor()
    expect(await paymentStatus(ticketId)).toBe('Cancelled')
    // still on the dashboard, among the cancelled tickets, with how it ended and its refund
    const cancelled = page.getByRole('region', { name: 'Cancelled tickets' })
    const ended = cancelled.locator(`#ticket-${ticketId}`)
    await ended.getByRole('heading', { name: event.title }).waitFor()
    await ended.getByText('₹3,000', { exact: true }).waitFor()
    const today = await dayShown(page, new Date().toISOString())
    await ended.getByText(`Cancelled by you on ${today}.`, { exact: true }).waitFor()
    await ended.getByText(`Refunded ₹3,000 on ${today}.`, { exact: true }).waitFor({ timeout: 20_000 })
    expect(await ended.getByRole('button', { name: 'Cancel' }).count()).toBe(0)
    expect(await ended.getByRole('link', { name: 'Transfer' }).count()).toBe(0)
    // the ticket of the first test is still live above it
    expect(await page.locator('.ticket-list').first().getByRole('button', { name: 'Cancel' }).count()).toBe(1)

    // and after a reload, as the server has it; on a 390 px phone too, without sideways scrolling
    await page.setViewportSize({ width: 390, height: 844 })
    await page.reload()
    await cancelled.locator(`#ticket-${ticketId}`).getByText(`Refunded ₹3,000 on ${today}.`).waitFor()
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390)
  })
})
