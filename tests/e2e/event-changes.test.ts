// Editing and cancelling an event (issue 17) in Chromium: the organizer, on the event's page, changes
// its title and location (a VIP capacity below the seats sold is refused with the server's words)
// while the public event page, open in another browser, follows without reload; then calls another
// event off with a reason, confirmed on the page itself (no native dialog), while its ticket holder's
// dashboard and its public page are open: the holder is told at once and sees the ticket cancelled
// with its event and then refunded, the public page stops offering Book Now, and the holder's order
// is cancelled and refunded on the server.
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { EventView, TicketTypeInput } from '../../contracts/catalog.ts'
import { adminSession, organizerSession, type Session, signUp } from '../support/accounts.ts'
import { launchBrowser, signedInPages } from '../support/browser.ts'
import { approvedEvent, buy, factsOfType, get, orderRow, until } from '../support/sales.ts'
import { startServer, type TestServer } from '../support/server.ts'

let server: TestServer
let browser: Browser
let admin: Session
let organizer: Session
let buyer: Session
let holder: Session

const ticketTypes: TicketTypeInput[] = [
  { type: 'General Admission', price: 500, quantity: 100 },
  { type: 'VIP', price: 1500, quantity: 20 },
]

beforeAll(async () => {
  server = await startServer({ RATE_LIMITS: 'off' })
  admin = await adminSession(server.app)
  organizer = await organizerSession(server.app, 'Changer')
  buyer = await signUp(server.app, 'Early')
  holder = await signUp(server.app, 'Holder')
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

/** a page of a browser context nobody is signed in to */
const visitorPage = (): Promise<Page> => pages.open(null)

/** the public event page, open and listening to the event's pushes */
async function openPublicPage(page: Page, event: EventView) {
  await page.goto(`/event/${event._id}`)
  await page.getByRole('heading', { name: event.title, level: 1 }).waitFor()
  await page.locator('[data-live="connected"]').waitFor()
}

/** marks the document, so that a later check can tell it was never reloaded */
const markDocument = (page: Page) =>
  page.evaluate(() => {
    ;(window as unknown as { stillHere: boolean }).stillHere = true
  })
const notReloaded = async (page: Page) =>
  expect(await page.evaluate(() => (window as unknown as { stillHere?: boolean }).stillHere)).toBe(true)

const toast = (page: Page, text: string) => page.locator('.Toastify__toast', { hasText: text })

/** the organizer's page of the event, its changes section found by its "Edit event" summary */
async function openChanges(page: Page, event: EventView) {
  await page.goto(`/organizers/events/${event._id}`)
  await page.getByRole('heading', { name: event.title, level: 1 }).waitFor()
  const changes = page.getByRole('region', { name: 'Edit event' })
  await changes.waitFor()
  return changes
}

const shownOnServer = async (event: EventView) =>
  (await get(server.app, `/api/v1/event/${event._id}`)).json() as EventView

describe('an event changed by its organizer', () => {
  it('refuses a VIP capacity below the seats sold, then saves a new title and location seen live', async () => {
    const event = await approvedEvent(
      server.app,
      organizer,
      admin,
      { title: `Harbour Gig ${Date.now()}`, location: 'Old Pier, Kochi' },
      ticketTypes,
    )
    await buy(server.app, buyer, event, 'VIP', 3)
    const newTitle = `Harbour Gig Moved ${Date.now()}`
    const newLocation = 'Durbar Hall Grounds, Kochi'

    const publicPage = await visitorPage()
    await openPublicPage(publicPage, event)
    await publicPage.getByText('Old Pier, Kochi', { exact: true }).waitFor()
    await markDocument(publicPage)

    const page = await signedInPage(organizer)
    const changes = await openChanges(page, event)
    await changes.getByText('Edit event', { exact: true }).click()
    expect(await changes.getByLabel('Title', { exact: true }).inputValue()).toBe(event.title)
    expect(await changes.getByLabel('Location', { exact: true }).inputValue()).toBe('Old Pier, Kochi')
    const vip = changes.getByRole('group', { name: 'VIP' })
    expect(await vip.getByLabel('Capacity').inputValue()).toBe('20')
    expect(await vip.getByLabel('Price (₹)').inputValue()).toBe('1500')

    await changes.getByLabel('Title', { exact: true }).fill(newTitle)
    await changes.getByLabel('Location', { exact: true }).fill(newLocation)
    await vip.getByLabel('Capacity').fill('2')
    await changes.getByRole('button', { name: 'Save changes' }).click()
    await changes
      .getByRole('alert')
      .filter({ hasText: 'VIP cannot have fewer than 3 seats: that many are sold or held.' })
      .waitFor()
    // nothing of the refused change was kept
    expect(await shownOnServer(event)).toMatchObject({ title: event.title, location: 'Old Pier, Kochi' })
    expect((await shownOnServer(event)).ticketTypes.find((t) => t.type === 'VIP')?.capacity).toBe(20)
    expect(await toast(page, 'Event updated successfully').count()).toBe(0)

    // the capacity put back, the title and location go through
    await vip.getByLabel('Capacity').fill('20')
    await changes.getByRole('button', { name: 'Save changes' }).click()
    await toast(page, 'Event updated successfully').waitFor()
    await page.getByRole('heading', { name: newTitle, level: 1 }).waitFor()
    expect(await changes.getByRole('alert').count()).toBe(0)
    expect(await shownOnServer(event)).toMatchObject({ title: newTitle, location: newLocation })
    expect((await shownOnServer(event)).ticketTypes.find((t) => t.type === 'VIP')?.capacity).toBe(20)

    // the public page, open all along, shows the new title and place without a reload
    await publicPage.getByRole('heading', { name: newTitle, level: 1 }).waitFor()
    await publicPage.getByText(newLocation, { exact: true }).waitFor()
    expect(await publicPage.getByText('Old Pier, Kochi', { exact: true }).count()).toBe(0)
    await notReloaded(publicPage)
  }, 90_000)

  it('is cancelled with a reason: its holder is told live, its page stops selling, the order is refunded', async () => {
    const event = await approvedEvent(
      server.app,
      organizer,
      admin,
      { title: `Monsoon Fest ${Date.now()}` },
      ticketTypes,
    )
    const ticketId = await buy(server.app, holder, event, 'General Admission', 2)
    const reason = 'The venue is flooded after the storm.'

    const holderPage = await signedInPage(holder)
    await holderPage.goto('/dashboard')
    await holderPage.getByRole('article', { name: event.title }).waitFor()
    await holderPage.locator('[data-live="connected"]').waitFor()
    await markDocument(holderPage)

    const publicPage = await visitorPage()
    await openPublicPage(publicPage, event)
    const bookNow = publicPage.getByRole('link', { name: 'Book Now' })
    await bookNow.waitFor()
    await markDocument(publicPage)

    const page = await signedInPage(organizer)
    const changes = await openChanges(page, event)
    await changes.getByText('Cancel event', { exact: true }).click()
    await changes.getByLabel('Reason (shown to ticket holders)').fill(reason)
    // the confirmation is the page's own: a browser that answers no native dialog can finish it
    const dialogs: string[] = []
    page.on('dialog', (dialog) => {
      dialogs.push(dialog.message())
      void dialog.dismiss()
    })
    await changes.getByRole('button', { name: 'Cancel this event' }).click()
    const confirmation = page.getByRole('alertdialog', { name: 'Cancel this event?' })
    await confirmation
      .getByText('Its sales stop and every paid order is refunded. This cannot be undone.')
      .waitFor()
    // kept, the first time: nothing is sent
    await confirmation.getByRole('button', { name: 'Keep the event' }).click()
    await confirmation.waitFor({ state: 'detached' })
    expect((await shownOnServer(event)).cancelledAt ?? null).toBeNull()
    await changes.getByRole('button', { name: 'Cancel this event' }).click()
    await confirmation.getByRole('button', { name: 'Yes, cancel the event' }).click()
    await toast(page, 'Event cancelled. Every paid order will be refunded.').waitFor()
    expect(dialogs).toEqual([])
    await page
      .getByRole('status')
      .filter({ hasText: `This event has been cancelled. ${reason}` })
      .waitFor()

    // the holder, on their dashboard, is told with the reason
    const told = toast(holderPage, `${event.title} has been cancelled`)
    await told.waitFor()
    expect(await told.textContent()).toContain(reason)
    // and the ticket stays there, cancelled with its event, then refunded, as it happens
    const ended = holderPage.getByRole('region', { name: 'Cancelled tickets' }).locator(`#ticket-${ticketId}`)
    await ended.getByText(`Cancelled because the event was cancelled: ${reason}`).waitFor()
    await ended.getByText(/^Refunded ₹1,000 on \d{1,2} [A-Z][a-z]{2,3} \d{4}\.$/).waitFor({ timeout: 20_000 })
    await holderPage.getByText('No ticket data available.').waitFor()
    await notReloaded(holderPage)

    // the public page says so, with the reason, and offers no booking
    const notice = publicPage.getByRole('status').filter({ hasText: 'This event has been cancelled.' })
    await notice.waitFor()
    expect(await notice.textContent()).toContain(reason)
    expect(await bookNow.count()).toBe(0)
    await notReloaded(publicPage)

    // on the server: the ticket is cancelled and its payment refunded
    await until(async () => (await orderRow(server.app, ticketId))?.status === 'cancelled', 20_000)
    await until(
      async () =>
        (await factsOfType(server.app, 'PaymentRefunded')).some(
          (f) => (f.data as { orderId: string }).orderId === ticketId,
        ),
      20_000,
    )
    const refunds = (await factsOfType(server.app, 'PaymentRefunded')).filter(
      (f) => (f.data as { orderId: string }).orderId === ticketId,
    )
    expect(refunds.map((f) => (f.data as { amountPaise: number }).amountPaise)).toEqual([2 * 50_000])
  }, 90_000)
})
