// Waiting lists (issue 17) in Chromium, two people in browsers of their own: a VIP type sold out,
// B and then C join its list on the event page and see their places; the ticket cancelled, B's page
// shows the seat held for B, and a toast says so, without a reload, while C's page still shows C
// waiting; B follows Book Now, books the held seat through the local checkout, and holds the ticket.
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { TicketView } from '../../contracts/booking.ts'
import type { EventView } from '../../contracts/catalog.ts'
import { WAITLIST_RULE, type WaitlistEntryView } from '../../contracts/waitlist.ts'
import { adminSession, organizerSession, type Session, signUp } from '../support/accounts.ts'
import { launchBrowser, signedInPages } from '../support/browser.ts'
import { approvedEvent, buy, cancel, get } from '../support/sales.ts'
import { startServer, type TestServer } from '../support/server.ts'

let server: TestServer
let browser: Browser
let buyerA: Session
let personB: Session
let personC: Session
let event: EventView
/** A's ticket: the event's only VIP seat */
let ticketOfA: string

beforeAll(async () => {
  server = await startServer({ RATE_LIMITS: 'off' })
  const admin = await adminSession(server.app)
  const organizer = await organizerSession(server.app, 'Lister')
  buyerA = await signUp(server.app, 'Early')
  personB = await signUp(server.app, 'Bina')
  personC = await signUp(server.app, 'Chetan')
  event = await approvedEvent(server.app, organizer, admin, { title: `Small Room ${Date.now()}` }, [
    { type: 'General Admission', price: 500, quantity: 100 },
    { type: 'VIP', price: 1500, quantity: 1 },
  ])
  ticketOfA = await buy(server.app, buyerA, event, 'VIP', 1)
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
const signedInPage = (account: Session): Promise<Page> => pages.open(account.token)

/** the event page, signed in, with its live connection up (pushes reach it from here on) */
async function openEventPage(page: Page) {
  await page.goto(`/event/${event._id}`)
  await page.getByRole('heading', { name: event.title }).waitFor()
  await page.locator('[data-live="connected"]').waitFor()
}

const waitlists = (page: Page) => page.getByRole('region', { name: 'Waiting lists' })
const vipList = (page: Page) => waitlists(page).locator('[data-ticket-type="VIP"]')
const vipRow = (page: Page) => page.locator('.ticket-row').filter({ hasText: 'VIP' })

/** joins the VIP list for `seats` through the event page's form */
async function joinVip(page: Page, seats: number) {
  const list = vipList(page)
  await list.getByText('Sold out — join the waiting list').waitFor()
  await list.getByLabel('Seats').fill(String(seats))
  await list.getByRole('button', { name: 'Join the waiting list' }).click()
}

/** set on the page once: still there later means no reload happened */
const markPage = (page: Page) =>
  page.evaluate(() => {
    ;(window as unknown as { stillHere: boolean }).stillHere = true
  })
const notReloaded = async (page: Page) =>
  expect(await page.evaluate(() => (window as unknown as { stillHere?: boolean }).stillHere)).toBe(true)

const entryOf = async (who: Session): Promise<WaitlistEntryView | undefined> => {
  const res = await get(server.app, '/api/v1/waitlist/mine', who)
  expect(res.statusCode, res.body).toBe(200)
  return (res.json() as WaitlistEntryView[]).find((e) => e.eventId === event._id)
}

/** an instant as the page formats it (ui/format.ts formatInstant), in the browser's own zone */
const shownInstant = (page: Page, iso: string) =>
  page.evaluate(
    (at) =>
      new Intl.DateTimeFormat('en-IN', {
        day: 'numeric',
        month: 'short',
        year: 'numeric',
        hour: 'numeric',
        minute: '2-digit',
        hour12: true,
      }).format(new Date(at)),
    iso,
  )

describe('a waiting list, from sold out to a booked offer', () => {
  let pageB: Page
  let pageC: Page

  it('takes B and then C in order on the sold-out VIP type, each seeing their place and the rule', async () => {
    pageB = await signedInPage(personB)
    await openEventPage(pageB)
    await vipRow(pageB).getByText('Available: 0').waitFor()
    // only the sold-out type has a list; General Admission is on sale
    expect(await waitlists(pageB).locator('[data-ticket-type]').count()).toBe(1)
    await joinVip(pageB, 1)
    await vipList(pageB)
      .getByText('You are number 1 on the waiting list for 1 × VIP.', { exact: true })
      .waitFor()
    await waitlists(pageB).getByText(WAITLIST_RULE, { exact: true }).waitFor()
    await vipList(pageB).getByRole('button', { name: 'Leave the waiting list' }).waitFor()
    expect(await entryOf(personB)).toMatchObject({
      ticketType: 'VIP',
      quantity: 1,
      position: 1,
      status: 'waiting',
    })

    pageC = await signedInPage(personC)
    await openEventPage(pageC)
    await joinVip(pageC, 1)
    await vipList(pageC)
      .getByText('You are number 2 on the waiting list for 1 × VIP.', { exact: true })
      .waitFor()
    await waitlists(pageC).getByText(WAITLIST_RULE, { exact: true }).waitFor()
    expect(await entryOf(personC)).toMatchObject({ position: 2, status: 'waiting' })
    // C joining behind B leaves B first
    await vipList(pageB)
      .getByText('You are number 1 on the waiting list for 1 × VIP.', { exact: true })
      .waitFor()
  })

  it("offers A's cancelled seat to B live, with a toast, while C's page still shows C waiting", async () => {
    await markPage(pageB)
    await markPage(pageC)
    // the toast closes after 5 s: watched for from before the cancel
    const toast = pageB
      .getByRole('alert')
      .filter({ hasText: `1 × VIP for ${event.title} held for you until` })
    const toastText = toast.waitFor({ timeout: 20_000 }).then(() => toast.textContent())

    await cancel(server.app, buyerA, ticketOfA)

    const offer = waitlists(pageB).getByRole('status').filter({ hasText: 'held for you' })
    const [toasted] = await Promise.all([
      toastText,
      offer.getByText(/^1 × VIP held for you until .+\.$/).waitFor({ timeout: 20_000 }),
    ])
    expect(toasted).toMatch(/: book them now\.$/)
    // the time shown is the one the server holds the seat until
    const entryB = await entryOf(personB)
    expect(entryB).toMatchObject({ status: 'offered', quantity: 1 })
    const until = await shownInstant(pageB, entryB?.offerUntil ?? '')
    expect(await offer.textContent()).toContain(`1 × VIP held for you until ${until}.`)
    expect(toasted).toContain(`held for you until ${until}: book them now.`)
    await offer.getByRole('link', { name: 'Book Now' }).waitFor()
    expect(await offer.getByRole('link', { name: 'Book Now' }).getAttribute('href')).toBe(
      `/booking/${event._id}`,
    )
    // one way to book on the page: the offer's
    expect(await pageB.getByRole('link', { name: 'Book Now' }).count()).toBe(1)
    // the seat is B's alone: nobody else sees it on sale
    await vipRow(pageC).getByText('Available: 0').waitFor()
    await vipRow(pageB).getByText('Available: 0').waitFor()

    // C is the only one still waiting, behind B's offer: B's entry, offered, still counts before C
    expect(await entryOf(personC)).toMatchObject({ status: 'waiting', position: 2 })
    await vipList(pageC)
      .getByText('You are number 2 on the waiting list for 1 × VIP.', { exact: true })
      .waitFor()
    expect(await vipList(pageC).getByText('held for you').count()).toBe(0)
    expect(await pageC.getByRole('alert').filter({ hasText: 'held for you' }).count()).toBe(0)
    await notReloaded(pageB)
    await notReloaded(pageC)
  })

  it('lets B follow Book Now and book the held seat through the local checkout', async () => {
    await vipList(pageB).getByRole('link', { name: 'Book Now' }).click()
    await pageB.waitForURL((url) => url.pathname === `/booking/${event._id}`)
    await pageB.locator('[data-live="connected"]').waitFor()
    // the held seat counts as B's to book
    const ticketType = pageB.getByLabel('Ticket Type')
    await ticketType
      .locator('option', { hasText: 'VIP - ₹1,500 (1 available)' })
      .waitFor({ state: 'attached' })
    await ticketType.selectOption('VIP')
    await pageB.getByText('1 available for VIP.').waitFor()
    await pageB.getByLabel('Quantity').fill('1')
    await pageB.getByText('Price: ₹1,500').waitFor()
    await pageB.getByRole('button', { name: 'Confirm Booking' }).click()

    const checkout = pageB.getByRole('dialog', { name: event.title })
    await checkout.getByText('₹1,500').waitFor()
    await checkout.getByRole('button', { name: 'Pay', exact: true }).click()
    await pageB.getByText('Booking Successful!').waitFor()
    await pageB.waitForURL((url) => url.pathname.startsWith(`/booking/${event._id}/confirmed/`))
    const ticketId = new URL(pageB.url()).pathname.split('/').at(-1) ?? ''
    const confirmation = pageB.getByRole('article', { name: 'Booking confirmed' })
    await confirmation.getByRole('heading', { name: event.title }).waitFor()
    await confirmation.getByText('VIP', { exact: true }).waitFor()

    // through the API: B holds an issued VIP ticket, and is off the list
    const res = await get(server.app, `/api/v1/ticket/getTicketbyId/${ticketId}`, personB)
    expect(res.statusCode, res.body).toBe(200)
    expect(res.json() as TicketView).toMatchObject({
      eventId: event._id,
      userId: personB.id,
      ticketType: 'VIP',
      quantity: 1,
      paymentStatus: 'Completed',
    })
    expect(await entryOf(personB)).toBeUndefined()

    // C, still waiting, is first in line now, seen live
    await vipList(pageC)
      .getByText('You are number 1 on the waiting list for 1 × VIP.', { exact: true })
      .waitFor()
    expect(await entryOf(personC)).toMatchObject({ status: 'waiting', position: 1 })
    await vipRow(pageC).getByText('Available: 0').waitFor()
    await notReloaded(pageC)
  })

  it('says an event with every seat sold is sold out, with its waiting list and no Book Now', async () => {
    const full = await approvedEvent(
      server.app,
      await organizerSession(server.app, 'Fuller'),
      await adminSession(server.app),
      { title: `Full House ${Date.now()}` },
      [{ type: 'VIP', price: 900, quantity: 2 }],
    )
    await buy(server.app, buyerA, full, 'VIP', 2)
    const page = await signedInPage(personC)
    await page.goto(`/event/${full._id}`)
    await page.getByRole('heading', { name: full.title }).waitFor()
    await page.locator('.ticket-row').filter({ hasText: 'VIP' }).getByText('Available: 0').waitFor()
    await page.getByRole('status').filter({ hasText: 'Sold out' }).waitFor()
    expect(await page.getByRole('link', { name: 'Book Now' }).count()).toBe(0)
    const list = waitlists(page).locator('[data-ticket-type="VIP"]')
    await list.getByRole('button', { name: 'Join the waiting list' }).waitFor()

    // a visitor is shown the same, and how to join
    const visitor = await pages.open(null)
    await visitor.goto(`/event/${full._id}`)
    await visitor.getByRole('status').filter({ hasText: 'Sold out' }).waitFor()
    expect(await visitor.getByRole('link', { name: 'Book Now' }).count()).toBe(0)
    await waitlists(visitor).getByRole('link', { name: 'Log in to join the waiting list' }).waitFor()
  })
})
