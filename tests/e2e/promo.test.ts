// Promo codes (issue 17) in Chromium: the organizer makes a code on the event's page; a buyer applies
// it on the booking screen, sees the discount before checkout (and why another code does not
// apply), pays the discounted amount, and the organizer's list counts the use as paid.
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { EventView } from '../../contracts/catalog.ts'
import { PROMO_UNKNOWN } from '../../server/booking/promo.ts'
import { adminSession, organizerSession, type Session, signUp } from '../support/accounts.ts'
import { launchBrowser, signedInPages } from '../support/browser.ts'
import { approvedEvent } from '../support/sales.ts'
import { startServer, type TestServer } from '../support/server.ts'

let server: TestServer
let browser: Browser
let organizer: Session
let buyer: Session
let event: EventView

beforeAll(async () => {
  server = await startServer({ RATE_LIMITS: 'off' })
  const admin = await adminSession(server.app)
  organizer = await organizerSession(server.app, 'Promoter')
  buyer = await signUp(server.app, 'Bargain')
  event = await approvedEvent(server.app, organizer, admin, { title: `Promo Night ${Date.now()}` }, [
    { type: 'General Admission', price: 500, quantity: 100 },
    { type: 'VIP', price: 1500, quantity: 20 },
  ])
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

describe('a promo code, from the organizer to the checkout', () => {
  it('is made on the event page, applied before checkout, paid at its price and counted', async () => {
    const organizerPage = await signedInPage(organizer)
    await organizerPage.goto(`/organizers/events/${event._id}?section=promo-codes`)
    const codes = organizerPage.getByRole('region', { name: 'Promo codes' })
    await codes.getByText('No promo codes yet.').waitFor()
    await codes.getByLabel('Code').fill('vip-friends')
    await codes.getByLabel('Value').fill('20')
    await codes.getByLabel('Uses (blank: unlimited)').fill('5')
    await codes.getByRole('button', { name: 'Create code' }).click()
    const row = codes.getByRole('row', { name: /VIP-FRIENDS/ })
    await row.waitFor()
    expect(await row.textContent()).toContain('20% off')
    expect(await row.textContent()).toContain('0 paid of 5')

    const page = await signedInPage(buyer)
    await page.goto(`/booking/${event._id}`)
    await page.getByLabel('Ticket Type').selectOption('VIP')
    await page.getByLabel('Quantity').fill('2')
    // a code that does not exist says so, applied by keyboard: the focus goes from the field (off
    // once applied) to Remove, which becomes Apply again when pressed; the message tied to the field
    await page.getByLabel('Promo code').fill('NOT-A-CODE')
    await page.getByLabel('Promo code').press('Enter')
    await page.getByRole('alert').filter({ hasText: PROMO_UNKNOWN }).waitFor()
    const focused = () => page.evaluate(() => document.activeElement?.textContent)
    await expect.poll(focused).toBe('Remove')
    expect(await page.getByLabel('Promo code').getAttribute('aria-describedby')).toBeTruthy()
    await page.keyboard.press('Enter')
    await expect.poll(focused).toBe('Apply')
    // the organizer's code, typed in lower case: 20 % off ₹3,000
    await page.getByLabel('Promo code').fill('vip-friends')
    await page.getByRole('button', { name: 'Apply' }).click()
    await page.getByText('Promo code VIP-FRIENDS: −₹600 · Total: ₹2,400').waitFor()
    // one seat fewer: asked again
    await page.getByLabel('Quantity').fill('1')
    await page.getByText('Promo code VIP-FRIENDS: −₹300 · Total: ₹1,200').waitFor()

    await page.getByRole('button', { name: 'Confirm Booking' }).click()
    const checkout = page.getByRole('dialog', { name: event.title })
    await checkout.getByText('₹1,200').waitFor()
    await checkout.getByRole('button', { name: 'Pay', exact: true }).click()
    await page.getByText('Booking Successful!').waitFor()

    // the organizer's list counts the use as it happens, without a reload
    await codes
      .getByRole('row', { name: /VIP-FRIENDS/ })
      .getByText('1 paid of 5')
      .waitFor()
  }, 90_000)
})
