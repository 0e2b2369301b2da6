// Taxes and invoices in the browser (issue 42), against the real server and the built web app: an
// organizer saves a billing profile on its screen; a buyer sees the GST breakdown in the checkout
// before paying, pays, and downloads the invoice's PDF from the ticket card; the organizer finds
// it on the Invoices screen and downloads the CSV for the return; the buyer keeps the invoice on
// Your invoices after giving the ticket away; an admin sets the booking fee, which the next checkout
// shows.
import { readFileSync } from 'node:fs'
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { adminSession, bearer, organizerSession, type Session, signUp } from '../support/accounts.ts'
import { launchBrowser } from '../support/browser.ts'
import { buy, transfer } from '../support/sales.ts'
import { startServer, type TestServer } from '../support/server.ts'

let server: TestServer
let browser: Browser
const contexts: BrowserContext[] = []
let organizer: Session
let buyer: Session
let eventId: string
/** the ticket the buyer paid for in the browser */
let paidTicket: string
const TITLE = `Sitar Evening ${Date.now()}`

/** the financial year of today in Asia/Kolkata, as invoice numbers carry it */
const fy = (() => {
  const day = new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Kolkata' }).format(new Date())
  const [y, m] = day.split('-').map(Number) as [number, number]
  const start = m >= 4 ? y : y - 1
  return `${String(start % 100).padStart(2, '0')}${String((start + 1) % 100).padStart(2, '0')}`
})()

async function signedInPage(account: Session): Promise<Page> {
  const context = await browser.newContext({
    baseURL: server.url,
    viewport: { width: 1280, height: 800 },
    acceptDownloads: true,
  })
  contexts.push(context)
  const page = await context.newPage()
  await page.goto('/')
  await page.evaluate((token) => localStorage.setItem('token', token), account.token)
  return page
}

/** a taxed event of the organizer, made and approved through the API (prices without GST) */
async function taxedEvent(quantity = 50): Promise<string> {
  const form = new FormData()
  const fields = {
    title: TITLE,
    description: 'Ragas by the lake.',
    date: '2030-06-15',
    time: '19:30',
    location: 'Shanmukhananda Hall, Mumbai',
    category: 'Music',
    state: '27',
    pricesIncludeTax: 'false',
    ticketTypes: JSON.stringify([{ type: 'VIP', price: 1000, quantity, taxRate: 18 }]),
  }
  for (const [name, value] of Object.entries(fields)) form.append(name, value)
  const multipart = new Request('http://x/', { method: 'POST', body: form })
  const created = await server.app.inject({
    method: 'POST',
    url: '/api/v1/event/create',
    headers: { ...bearer(organizer.token), 'content-type': multipart.headers.get('content-type') ?? '' },
    payload: Buffer.from(await multipart.arrayBuffer()),
  })
  if (created.statusCode !== 201) throw new Error(`event create: ${created.statusCode} ${created.body}`)
  const id: string = created.json().event._id
  const admin = await adminSession(server.app)
  const reviewed = await server.app.inject({
    method: 'PUT',
    url: `/api/v1/admin/events/${id}/status`,
    headers: bearer(admin.token),
    payload: { status: 'Approved' },
  })
  if (reviewed.statusCode !== 200) throw new Error(`approve: ${reviewed.statusCode} ${reviewed.body}`)
  return id
}

beforeAll(async () => {
  server = await startServer({ RATE_LIMITS: 'off' })
  browser = await launchBrowser()
  organizer = await organizerSession(server.app, 'sitarorganizer')
  buyer = await signUp(server.app, 'sitarbuyer')
})

afterAll(async () => {
  await Promise.all(contexts.splice(0).map((context) => context.close()))
  await browser?.close()
  await server?.close()
})

describe('taxes and invoices in the browser', () => {
  it('saves the organizer’s billing profile, naming a wrong GSTIN first', async () => {
    const page = await signedInPage(organizer)
    await page.goto('/organizer/billing')
    await page.getByRole('heading', { name: 'Billing' }).waitFor()
    await page.getByLabel('Legal name').fill('Sitar Sangeet LLP')
    await page.getByLabel('GSTIN (optional)').fill('27AAPFU0939F1ZW')
    await page.getByLabel('Address').fill('12 Marine Drive, Mumbai')
    await page.getByLabel('State', { exact: true }).selectOption('27')
    await page.getByLabel('Invoice prefix').fill('SSL')
    await page.getByRole('button', { name: 'Save' }).click()
    await page.getByText('GSTIN 27AAPFU0939F1ZW has the wrong check character: it should end in V.').waitFor()
    await page.getByLabel('GSTIN (optional)').fill('27AAPFU0939F1ZV')
    await page.getByRole('button', { name: 'Save' }).click()
    await page.getByText('Billing profile saved.').waitFor()
    const saved = await server.app.inject({
      method: 'GET',
      url: '/api/v1/organizer/billing',
      headers: bearer(organizer.token),
    })
    expect(saved.json()).toEqual({
      legalName: 'Sitar Sangeet LLP',
      gstin: '27AAPFU0939F1ZV',
      address: '12 Marine Drive, Mumbai',
      state: '27',
      invoicePrefix: 'SSL',
    })
    eventId = await taxedEvent()
  })

  it('shows the GST breakdown before paying, then the invoice’s PDF on the ticket card', async () => {
    const page = await signedInPage(buyer)
    await page.goto(`/booking/${eventId}`)
    await page.locator('[data-live="connected"]').waitFor()
    await page.getByLabel('Ticket Type').selectOption('VIP')
    await page.getByLabel('Quantity').fill('2')
    await page.getByRole('button', { name: 'Confirm Booking' }).click()
    const checkout = page.getByRole('dialog', { name: TITLE })
    await checkout.waitFor()
    const summary = checkout.getByRole('definition')
    const rows = checkout.locator('dl.order-breakdown > div')
    await rows.first().waitFor()
    expect(await rows.allTextContents()).toEqual([
      'Price before GST₹2,000.00',
      'CGST₹180.00',
      'SGST₹180.00',
      'Total₹2,360.00',
    ])
    expect(await summary.count()).toBe(4)
    await checkout.getByRole('button', { name: 'Pay', exact: true }).click()
    await page.getByText('Booking Successful!').waitFor()
    const ticketId = new URL(page.url()).pathname.split('/').at(-1) ?? ''
    paidTicket = ticketId

    await page.goto('/dashboard')
    const card = page.locator(`#ticket-${ticketId}`)
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      card.getByRole('button', { name: 'Invoice' }).click(),
    ])
    expect(download.suggestedFilename()).toMatch(/\.pdf$/)
    const path = await download.path()
    expect(readFileSync(path).subarray(0, 5).toString()).toBe('%PDF-')
    const invoice = await server.app.inject({
      method: 'GET',
      url: `/api/v1/ticket/${ticketId}/invoice?format=json`,
      headers: bearer(buyer.token),
    })
    expect(invoice.json()).toMatchObject({ number: `SSL${fy}/000001`, totals: { total: 2360 } })
  })

  it('lists the invoice for the organizer and downloads the CSV', async () => {
    const page = await signedInPage(organizer)
    await page.goto('/organizer/invoices')
    await page.getByRole('heading', { name: 'Invoices' }).waitFor()
    const row = page.getByRole('row', { name: new RegExp(`SSL${fy}/000001`) })
    await row.waitFor()
    expect(await row.textContent()).toContain('2,360.00')
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Download CSV' }).click(),
    ])
    const csv = readFileSync(await download.path(), 'utf8')
    expect(csv.split('\r\n')[0]).toBe(
      'number,kind,date,ticket,buyer,email,placeOfSupply,taxableValue,cgst,sgst,igst,total,against',
    )
    expect(csv).toContain(`SSL${fy}/000001,tax-invoice,`)
  })

  it('shows admins the platform’s booking fee register, without the organizers’ invoices (the server refuses others: access.test.ts)', async () => {
    const page = await signedInPage(await adminSession(server.app))
    await page.goto('/admin/dashboard')
    await page.getByRole('link', { name: 'Booking fee invoices' }).click()
    await page.getByRole('heading', { name: 'Booking fee invoices' }).waitFor()
    // no fee is charged on this server: the register is empty, the organizer's invoice not in it
    await page.getByText('No invoices or credit notes in these dates.').waitFor()
    expect(await page.getByText(`SSL${fy}/000001`).count()).toBe(0)
  })

  it('keeps the invoice on the buyer’s Your invoices after the ticket is given away', async () => {
    await transfer(server.app, buyer, paidTicket, await signUp(server.app, 'sitarfriend'))
    const page = await signedInPage(buyer)
    await page.goto('/dashboard')
    await page.getByRole('link', { name: 'Your invoices' }).click()
    await page.getByRole('heading', { name: 'Your invoices' }).waitFor()
    const row = page.getByRole('row', { name: new RegExp(`SSL${fy}/000001`) })
    await row.waitFor()
    expect(await row.textContent()).toContain(TITLE)
    expect(await row.textContent()).toContain('2,360.00')
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      row.getByRole('button', { name: `Download SSL${fy}/000001 as PDF` }).click(),
    ])
    expect(
      readFileSync(await download.path())
        .subarray(0, 5)
        .toString(),
    ).toBe('%PDF-')
  })

  it('shows a buyer’s invoices fifty at a time, the rest on Show more invoices', async () => {
    const collector = await signUp(server.app, 'sitarcollector')
    const event = { _id: await taxedEvent(60) }
    for (let n = 0; n < 51; n++) await buy(server.app, collector, event, 'VIP', 1)
    const page = await signedInPage(collector)
    await page.goto('/account/invoices')
    await page.getByRole('heading', { name: 'Your invoices' }).waitFor()
    const rows = page.locator('tbody tr')
    await expect.poll(() => rows.count()).toBe(50)
    const more = page.getByRole('button', { name: 'Show more invoices' })
    await more.click()
    await expect.poll(() => rows.count()).toBe(51)
    await more.waitFor({ state: 'detached' })
    // every invoice once, in the server's order (newest first), the second page after the first
    const numbers = await page.locator('tbody tr th').allTextContents()
    expect(new Set(numbers).size).toBe(51)
    const listed = await server.app.inject({
      method: 'GET',
      url: '/api/v1/account/invoices',
      headers: bearer(collector.token),
    })
    expect(numbers).toEqual((listed.json() as Array<{ number: string }>).map((d) => d.number))
  })

  it('lets an admin set the booking fee, which the next checkout shows before paying', async () => {
    const page = await signedInPage(await adminSession(server.app))
    await page.goto('/admin/dashboard')
    await page.getByRole('link', { name: 'Booking fee', exact: true }).click()
    await page.getByRole('heading', { name: 'Booking fee' }).waitFor()
    await page.getByText("Charged now: none. From the deployment's settings.").waitFor()
    await page.getByLabel('Fee per ticket (₹)').fill('10.005')
    await page.getByRole('button', { name: 'Save' }).click()
    await page.getByText('Fee per ticket can have at most two decimals.').waitFor()
    await page.getByLabel('Fee per ticket (₹)').fill('15')
    await page.getByLabel('Percent of the price').fill('1')
    await page.getByLabel('GST rate on the fee').selectOption('18')
    await page.getByRole('button', { name: 'Save' }).click()
    await page.getByText('Booking fee saved.').waitFor()
    // the platform has no GSTIN here: no GST is charged on the fee, whatever its rate, and the
    // admin is told so rather than that 18% is
    await page
      .getByText(
        /^Charged now: ₹15 a ticket and 1% of the price, no GST on it \(the platform has no GSTIN: PLATFORM_GSTIN is not set\)\. Set by an admin on /,
      )
      .waitFor()

    // a buyer's checkout: ₹15 and 1% of the ₹1,000 price = ₹25; no GSTIN for the platform here, so
    // no GST on it
    const shopper = await signUp(server.app, 'feebuyer')
    const checkoutPage = await signedInPage(shopper)
    await checkoutPage.goto(`/booking/${eventId}`)
    await checkoutPage.locator('[data-live="connected"]').waitFor()
    await checkoutPage.getByLabel('Ticket Type').selectOption('VIP')
    await checkoutPage.getByLabel('Quantity').fill('1')
    // said before the buyer confirms: the price shown is not all they pay
    await checkoutPage
      .getByText(
        'GST, where the organizer charges it, and a booking fee are added at checkout: each is shown before you pay.',
      )
      .waitFor()
    await checkoutPage.getByRole('button', { name: 'Confirm Booking' }).click()
    const rows = checkoutPage.getByRole('dialog', { name: TITLE }).locator('dl.order-breakdown > div')
    await rows.first().waitFor()
    expect(await rows.allTextContents()).toEqual([
      'Price before GST₹1,000.00',
      'CGST₹90.00',
      'SGST₹90.00',
      'Booking fee₹25.00',
      'Total₹1,205.00',
    ])
  })
})
