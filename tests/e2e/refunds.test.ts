// A refund from the organizer's attendee list, in Chromium: a holder let in at the door can no longer
// cancel their ticket, so the organizer opens Refund on their row, chooses the ticket, reads the
// confirmation in the page (no browser dialog), gives a reason and confirms; the ticket is cancelled
// and refunded, and the attendee leaves the list without a reload.
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { EventView } from '../../contracts/catalog.ts'
import type { TicketPass } from '../../contracts/checkin.ts'
import { adminSession, organizerSession, type Session, signUp } from '../support/accounts.ts'
import { launchBrowser, signedInPages } from '../support/browser.ts'
import { wallClockIn } from '../support/clock.ts'
import { approvedEvent, buy, get, orderRow, post, until } from '../support/sales.ts'
import { startServer, type TestServer } from '../support/server.ts'

let server: TestServer
let browser: Browser
let organizer: Session
let holder: Session
let event: EventView

beforeAll(async () => {
  server = await startServer({ RATE_LIMITS: 'off' })
  const admin = await adminSession(server.app)
  organizer = await organizerSession(server.app, 'Refunder')
  holder = await signUp(server.app, 'Admitted')
  // in two hours: its door is open (it opens CHECKIN_OPENS_HOURS before the start)
  const { date, time } = wallClockIn(server.config.timeZone, 120)
  event = await approvedEvent(
    server.app,
    organizer,
    admin,
    { title: `Refund Night ${Date.now()}`, date, time },
    [
      { type: 'General Admission', price: 500, quantity: 100 },
      { type: 'VIP', price: 1500, quantity: 20 },
    ],
  )
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

describe("an organizer refunding a ticket from the event's attendee list", () => {
  it('cancels and refunds a ticket used at the door, after a confirmation in the page', async () => {
    const app = server.app
    const ticket = await buy(app, holder, event, 'VIP', 1)
    const passes = (await get(app, `/api/v1/ticket/${ticket}/passes`, holder)).json() as TicketPass[]
    const scanned = await post(app, `/api/v1/checkin/${event._id}/scans`, organizer, {
      scans: [{ code: passes[0]?.code, scannedAt: new Date().toISOString(), device: 'gate' }],
    })
    expect(scanned.json()[0].result).toBe('admitted')

    const page = await signedInPage(organizer)
    const dialogs: string[] = []
    page.on('dialog', (dialog) => {
      dialogs.push(dialog.message())
      void dialog.dismiss()
    })
    await page.goto(`/organizers/events/${event._id}?section=attendees`)
    const row = page.getByRole('row', { name: /Admitted/ })
    await row.waitFor()
    await row.getByRole('button', { name: 'Refund Admitted' }).click()
    const panel = page.getByRole('region', { name: 'Refund Admitted' })
    await panel.getByText('1 × VIP · ₹1,500').waitFor()
    await panel.getByRole('button', { name: 'Refund ₹1,500' }).click()
    await panel
      .getByText('Refund ₹1,500 to Admitted and cancel this ticket (1 × VIP)?', { exact: false })
      .waitFor()
    // changing one's mind keeps the ticket
    await panel.getByRole('button', { name: 'Keep ticket' }).click()
    await panel.getByRole('button', { name: 'Refund ₹1,500' }).click()
    await panel.getByLabel('Reason (optional, sent to the attendee)').fill('The show was cut short.')
    await panel.getByRole('button', { name: 'Yes, refund ₹1,500' }).click()

    await page.getByText('The ticket is cancelled and ₹1,500 will be refunded.').waitFor()
    await page.getByText('No attendees found for this event.').waitFor()
    expect(dialogs).toEqual([])
    await until(async () => (await orderRow(app, ticket))?.refund === 'refunded')
    expect(await orderRow(app, ticket)).toMatchObject({ status: 'cancelled' })
  }, 90_000)
})
