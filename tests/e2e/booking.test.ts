// Booking in the browser (SPEC §2, §4, §7; issue 12 screens 3, 4, 5, 8): two browsers on one
// event; a booking through the local checkout ending on its confirmation page, a failed payment,
// the per-order limit and the live count, a cancel held behind Undo, and a transfer, with
// availability seen live by the other browser — against the real server, its workers and the
// built web app.
import type { FastifyInstance } from 'fastify'
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { adminSession, bearer, organizerSession, type Session, signUp } from '../support/accounts.ts'
import { launchBrowser } from '../support/browser.ts'
import { startServer, type TestServer } from '../support/server.ts'

let server: TestServer
let browser: Browser
const contexts: BrowserContext[] = []

let eventId: string
const TITLE = `Jazz Night ${Date.now()}`
let buyer: Session
let watcher: Session
let friend: Session
/** the buyer's and the watcher's pages, kept open across the steps below */
let buyerPage: Page
let watcherPage: Page

/** Creates an event through the API (multipart, as the event form sends it) and approves it. */
async function approvedEvent(
  app: FastifyInstance,
  ticketTypes: { type: string; price: number; quantity: number }[],
  title = TITLE,
): Promise<string> {
  const organizer = await organizerSession(app)
  const form = new FormData()
  const fields = {
    title,
    description: 'An evening of live jazz.',
    date: '2030-06-15',
    time: '19:30',
    location: 'Blue Frog, Mumbai',
    category: 'Music',
    ticketTypes: JSON.stringify(ticketTypes),
  }
  for (const [name, value] of Object.entries(fields)) form.append(name, value)
  const multipart = new Request('http://x/', { method: 'POST', body: form })
  const created = await app.inject({
    method: 'POST',
    url: '/api/v1/event/create',
    headers: {
      ...bearer(organizer.token),
      'content-type': multipart.headers.get('content-type') ?? '',
    },
    payload: Buffer.from(await multipart.arrayBuffer()),
  })
  if (created.statusCode !== 201) throw new Error(`event create: ${created.statusCode} ${created.body}`)
  const id: string = created.json().event._id
  const admin = await adminSession(app)
  const reviewed = await app.inject({
    method: 'PUT',
    url: `/api/v1/admin/events/${id}/status`,
    headers: bearer(admin.token),
    payload: { status: 'Approved' },
  })
  if (reviewed.statusCode !== 200) throw new Error(`approve: ${reviewed.statusCode} ${reviewed.body}`)
  return id
}

/** A paid ticket bought through the API: order, the local gateway's payment, confirmation. */
async function boughtTicket(
  app: FastifyInstance,
  owner: Session,
  event: string,
  ticketType: string,
  quantity: number,
): Promise<string> {
  const order = await app.inject({
    method: 'POST',
    url: '/api/v1/ticket/create',
    headers: bearer(owner.token),
    payload: { eventId: event, ticketType, quantity },
  })
  if (order.statusCode !== 200) throw new Error(`order: ${order.statusCode} ${order.body}`)
  const { orderId, ticketId } = order.json()
  const pay = await app.inject({
    method: 'POST',
    url: '/api/v1/payments/local/pay',
    headers: bearer(owner.token),
    payload: { orderId, outcome: 'success' },
  })
  const checkout = pay.json()
  const confirmed = await app.inject({
    method: 'POST',
    url: '/api/v1/ticket/handlePaymentSuccess',
    headers: bearer(owner.token),
    payload: {
      paymentId: checkout.razorpay_payment_id,
      orderId: checkout.razorpay_order_id,
      signature: checkout.razorpay_signature,
      event,
    },
  })
  if (confirmed.statusCode !== 200) throw new Error(`confirm: ${confirmed.statusCode} ${confirmed.body}`)
  return ticketId
}

/** a page whose stored token belongs to this account, as after an earlier login */
async function signedInPage(account: Session): Promise<Page> {
  const context = await browser.newContext({ baseURL: server.url, viewport: { width: 1280, height: 800 } })
  contexts.push(context)
  const page = await context.newPage()
  await page.goto('/')
  await page.evaluate((token) => localStorage.setItem('token', token), account.token)
  return page
}

const at = (page: Page, path: string) => page.waitForURL((url) => url.pathname === path)

/** the ticket as the server has it (its paymentStatus says whether it was cancelled) */
async function ticketOnServer(owner: Session, ticketId: string): Promise<{ paymentStatus: string }> {
  const reply = await server.app.inject({
    method: 'GET',
    url: `/api/v1/ticket/getTicketbyId/${ticketId}`,
    headers: bearer(owner.token),
  })
  if (reply.statusCode !== 200) throw new Error(`ticket: ${reply.statusCode} ${reply.body}`)
  return reply.json()
}

/** the short number a card shows for a ticket */
const shortNumber = (ticketId: string) => ticketId.slice(-8).toUpperCase()

/** the ticket the buyer just paid for, read from its confirmation page's address */
let paidTicketId: string

async function openBooking(page: Page, event = eventId) {
  await page.goto(`/booking/${event}`)
  await page.locator('[data-live="connected"]').waitFor()
}

/** the live count in the Ticket Type select's option for this type */
async function available(page: Page, type: string): Promise<number> {
  const text = await page.getByLabel('Ticket Type').locator('option', { hasText: type }).textContent()
  const match = /(\d+) available/.exec(text ?? '')
  return match ? Number(match[1]) : 0
}

const seesAvailable = (page: Page, type: string, count: number) =>
  expect.poll(() => available(page, type), { timeout: 20_000 }).toBe(count)

/** set on the page once: still there later means no reload happened */
const markPage = (page: Page) =>
  page.evaluate(() => {
    ;(window as unknown as { stillHere: boolean }).stillHere = true
  })
const notReloaded = async (page: Page) =>
  expect(await page.evaluate(() => (window as unknown as { stillHere?: boolean }).stillHere)).toBe(true)

async function chooseAndConfirm(page: Page, type: string, quantity: number) {
  await page.getByLabel('Ticket Type').selectOption(type)
  await page.getByLabel('Quantity').fill(String(quantity))
  await page.getByRole('button', { name: 'Confirm Booking' }).click()
}

beforeAll(async () => {
  server = await startServer({ RATE_LIMITS: 'off' })
  browser = await launchBrowser()
  eventId = await approvedEvent(server.app, [
    { type: 'VIP', price: 1500, quantity: 50 },
    { type: 'General Admission', price: 500, quantity: 100 },
  ])
  buyer = await signUp(server.app, 'buyer')
  watcher = await signUp(server.app, 'watcher')
  friend = await signUp(server.app, 'friend')
  buyerPage = await signedInPage(buyer)
  watcherPage = await signedInPage(watcher)
})

afterAll(async () => {
  await Promise.all(contexts.splice(0).map((context) => context.close()))
  await browser?.close()
  await server?.close()
})

describe('booking in the browser', () => {
  it('books 2 VIP through the local checkout while the other browser sees VIP drop by 2', async () => {
    await openBooking(watcherPage)
    await markPage(watcherPage)
    expect(await available(watcherPage, 'VIP')).toBe(50)

    await openBooking(buyerPage)
    await buyerPage.getByRole('heading', { name: TITLE }).waitFor()
    // The price follows the chosen type.
    await buyerPage.getByLabel('Ticket Type').selectOption('General Admission')
    await buyerPage.getByText('Price: ₹500').waitFor()
    expect(await buyerPage.getByLabel('Quantity').inputValue()).toBe('1')
    await chooseAndConfirm(buyerPage, 'VIP', 2)
    await buyerPage.getByText('Price: ₹1,500').waitFor()

    const checkout = buyerPage.getByRole('dialog', { name: TITLE })
    await checkout.waitFor()
    await checkout.getByText('Ticket Booking').waitFor()
    await checkout.getByText('₹3,000').waitFor()
    await buyerPage.getByRole('button', { name: 'Processing Payment...' }).waitFor()
    expect(await buyerPage.getByRole('button', { name: 'Processing Payment...' }).isDisabled()).toBe(true)
    // The hold is seen live before the payment.
    await seesAvailable(watcherPage, 'VIP', 48)

    await checkout.getByRole('button', { name: 'Pay', exact: true }).click()
    await buyerPage.getByText('Booking Successful!').waitFor()
    await buyerPage.waitForURL((url) => url.pathname.startsWith(`/booking/${eventId}/confirmed/`))
    paidTicketId = new URL(buyerPage.url()).pathname.split('/').at(-1) ?? ''

    await seesAvailable(watcherPage, 'VIP', 48)
    await notReloaded(watcherPage)
  })

  it('lands on a confirmation page with the ticket, its amount and date, linking to its card and home', async () => {
    const page = buyerPage
    const confirmation = page.getByRole('article', { name: 'Booking confirmed' })
    await confirmation.waitFor()
    // the payment's dialog is gone: its heading has the focus (a screen reader says where they are)
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('confirmation-heading')
    await confirmation.getByRole('heading', { name: TITLE }).waitFor()
    await confirmation.getByText('VIP', { exact: true }).waitFor()
    await confirmation.getByText('2', { exact: true }).waitFor()
    await confirmation.getByText('₹3,000').waitFor()
    await confirmation.getByText('15 Jun 2030, 7:30 pm IST', { exact: true }).waitFor()
    await confirmation.getByText('Ticket No.').waitFor()
    await confirmation.getByText(shortNumber(paidTicketId), { exact: true }).waitFor()
    expect(await ticketOnServer(buyer, paidTicketId)).toMatchObject({ paymentStatus: 'Completed' })
    expect(await confirmation.getByRole('link', { name: 'Back to home' }).getAttribute('href')).toBe('/')
    // on a 390 px phone it fits without sideways scrolling
    await page.setViewportSize({ width: 390, height: 844 })
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390)
    await page.setViewportSize({ width: 1280, height: 800 })

    const toTicket = confirmation.getByRole('link', { name: 'View your ticket' })
    expect(await toTicket.getAttribute('href')).toBe(`/dashboard#ticket-${paidTicketId}`)
    await toTicket.click()
    await at(page, '/dashboard')
    const card = page.locator(`#ticket-${paidTicketId}`)
    await card.getByText(shortNumber(paidTicketId), { exact: true }).waitFor()
    await expect.poll(() => card.evaluate((el) => el.classList.contains('ticket-card-targeted'))).toBe(true)
  })

  it("shows the ticket on the buyer's dashboard", async () => {
    await buyerPage.goto('/dashboard')
    await buyerPage.getByText('Ticket Data').waitFor()
    await buyerPage.getByText(buyer.email).waitFor()
    const card = buyerPage.getByRole('article', { name: TITLE })
    await card.waitFor()
    await card.getByRole('heading', { name: TITLE }).waitFor()
    await card.getByText('buyer', { exact: true }).waitFor()
    await card.getByText('VIP', { exact: true }).waitFor()
    await card.getByText('2', { exact: true }).waitFor()
    await card.getByText('₹3,000').waitFor()
    await card.getByText('15 Jun 2030').waitFor()
    await card.getByText('Ticket No.').waitFor()
    await card.getByText(shortNumber(paidTicketId), { exact: true }).waitFor()
    await card.getByText('Blue Frog, Mumbai').waitFor()
    // until when it can be cancelled (CANCEL_CUTOFF_HOURS before the start)
    await card.getByText(/^Cancellable until /).waitFor()
    expect(await card.getByRole('button', { name: 'Cancel' }).isEnabled()).toBe(true)
    // the local gateway moves no money, and every page says so
    await buyerPage.getByRole('status').filter({ hasText: 'Test mode: no money moves' }).waitFor()
    const transfer = card.getByRole('link', { name: 'Transfer' })
    expect(await transfer.getAttribute('href')).toMatch(/^\/ticket\/transfer\/[\w-]+$/)
  })

  it("says 'Payment failed. Please try again.' for a failed payment, and the seats come back", async () => {
    await openBooking(buyerPage)
    await chooseAndConfirm(buyerPage, 'VIP', 1)
    const checkout = buyerPage.getByRole('dialog', { name: TITLE })
    await checkout.waitFor()
    await seesAvailable(watcherPage, 'VIP', 47)

    await checkout.getByRole('button', { name: 'Fail payment' }).click()
    await buyerPage.getByText('Payment failed. Please try again.').waitFor()
    expect(await checkout.count()).toBe(0)
    await buyerPage.getByRole('button', { name: 'Confirm Booking' }).waitFor()
    // the focus is back on the button that opened the dialog, not lost on the page's body
    await expect
      .poll(() => buyerPage.evaluate(() => document.activeElement?.textContent))
      .toBe('Confirm Booking')
    expect(new URL(buyerPage.url()).pathname).toBe(`/booking/${eventId}`)

    await seesAvailable(watcherPage, 'VIP', 48)
    await seesAvailable(buyerPage, 'VIP', 48)
    await notReloaded(watcherPage)
  })

  it('shows the per-order limit and the live count, and refuses more than either with one message', async () => {
    await openBooking(buyerPage)
    await buyerPage.getByLabel('Ticket Type').selectOption('VIP')
    await buyerPage.getByText('At most 10 tickets per order.').waitFor()
    await buyerPage.getByText('48 available for VIP.').waitFor()
    const confirm = buyerPage.getByRole('button', { name: 'Confirm Booking' })

    await buyerPage.getByLabel('Quantity').fill('11')
    await buyerPage.getByRole('alert').getByText('You can book at most 10 tickets at once.').waitFor()
    expect(await buyerPage.getByRole('alert').count()).toBe(1)
    expect(await confirm.isDisabled()).toBe(true)
    await buyerPage.getByLabel('Quantity').press('Enter')
    expect(await buyerPage.getByRole('dialog').count()).toBe(0)

    await buyerPage.getByLabel('Quantity').fill('10')
    await expect.poll(() => buyerPage.getByRole('alert').count()).toBe(0)
    expect(await confirm.isEnabled()).toBe(true)

    // a type with fewer seats left than the limit: the seats are the message
    const fewTitle = `Few Seats ${Date.now()}`
    const few = await approvedEvent(server.app, [{ type: 'VIP', price: 700, quantity: 3 }], fewTitle)
    await openBooking(buyerPage, few)
    await buyerPage.getByText('3 available for VIP.').waitFor()
    await buyerPage.getByLabel('Quantity').fill('4')
    await buyerPage.getByRole('alert').getByText('Only 3 left for VIP.').waitFor()
    expect(await buyerPage.getByRole('alert').count()).toBe(1)
    expect(await confirm.isDisabled()).toBe(true)
    // the count is live: a seat sold elsewhere lowers it before submit
    await boughtTicket(server.app, watcher, few, 'VIP', 1)
    await buyerPage.getByText('2 available for VIP.').waitFor()
    await buyerPage.getByLabel('Quantity').fill('3')
    await buyerPage.getByRole('alert').getByText('Only 2 left for VIP.').waitFor()
    await buyerPage.getByLabel('Quantity').fill('2')
    await expect.poll(() => confirm.isEnabled()).toBe(true)
  })

  it('holds a dashboard cancel for 5 s behind Undo: undone, nothing reaches the server', async () => {
    await buyerPage.goto('/dashboard')
    const card = buyerPage.getByRole('article', { name: TITLE })
    // by keyboard: Cancel pressed, Undo at hand in the toast (the Cancel is off meanwhile)
    await card.getByRole('button', { name: 'Cancel' }).focus()
    await buyerPage.keyboard.press('Enter')
    // no confirmation: the card says it is being cancelled, the toast offers Undo
    await card.getByText('Being cancelled…').waitFor()
    expect(await card.getByRole('button', { name: 'Cancel' }).isDisabled()).toBe(true)
    const focused = () => buyerPage.evaluate(() => document.activeElement?.textContent)
    await expect.poll(focused).toBe('Undo')
    await buyerPage.keyboard.press('Enter')
    await buyerPage.getByText('Cancel undone: your ticket is kept.').waitFor()
    await card.getByText(/^Cancellable until /).waitFor()
    // and the focus back on the card's Cancel
    await expect.poll(focused).toBe('Cancel')

    // well past the 5 s: still paid on the server, still on the dashboard
    await buyerPage.waitForTimeout(6_500)
    expect(await ticketOnServer(buyer, paidTicketId)).toMatchObject({ paymentStatus: 'Completed' })
    expect(await card.getByRole('button', { name: 'Cancel' }).isEnabled()).toBe(true)
    expect(await buyerPage.getByText('Ticket canceled successfully.').count()).toBe(0)
    expect(await available(watcherPage, 'VIP')).toBe(48)
  })

  it('sends the held cancel after 5 s when nobody undoes it, and the seats come back live', async () => {
    const card = buyerPage.getByRole('article', { name: TITLE })
    const clicked = Date.now()
    await card.getByRole('button', { name: 'Cancel' }).click()
    await card.getByText('Being cancelled…').waitFor()
    await buyerPage.waitForTimeout(3_000)
    expect(await ticketOnServer(buyer, paidTicketId)).toMatchObject({ paymentStatus: 'Completed' })

    await buyerPage.getByText('Ticket canceled successfully.').waitFor()
    expect(Date.now() - clicked).toBeGreaterThanOrEqual(5_000)
    expect(await ticketOnServer(buyer, paidTicketId)).toMatchObject({ paymentStatus: 'Cancelled' })
    await buyerPage.getByText('No ticket data available.').waitFor()
    await seesAvailable(watcherPage, 'VIP', 50)
    await notReloaded(watcherPage)
  })

  it('sends a held cancel at once when the page is left within the 5 s', async () => {
    const ticketId = await boughtTicket(server.app, buyer, eventId, 'VIP', 1)
    await buyerPage.goto('/dashboard')
    const card = buyerPage.locator(`#ticket-${ticketId}`)
    await card.getByRole('button', { name: 'Cancel' }).click()
    await card.getByText('Being cancelled…').waitFor()
    const left = Date.now()
    // a full page load elsewhere: this page's timers are gone, the keepalive request is not
    await buyerPage.goto('/home')
    await expect
      .poll(async () => (await ticketOnServer(buyer, ticketId)).paymentStatus, { timeout: 4_000 })
      .toBe('Cancelled')
    expect(Date.now() - left).toBeLessThan(5_000)
    await seesAvailable(watcherPage, 'VIP', 50)
  })

  it("transfers a ticket to another account's dashboard", async () => {
    const ticketId = await boughtTicket(server.app, buyer, eventId, 'General Admission', 1)
    await seesAvailable(watcherPage, 'General Admission', 99)

    await buyerPage.goto('/dashboard')
    // (the tickets cancelled above are still listed, as cancelled)
    const card = buyerPage.locator(`#ticket-${ticketId}`)
    await card.getByText('General Admission', { exact: true }).waitFor()
    await card.getByRole('link', { name: 'Transfer' }).click()
    await at(buyerPage, `/ticket/transfer/${ticketId}`)
    // the page says which ticket it gives away
    const which = buyerPage.getByRole('region', { name: 'The ticket' })
    await which.getByRole('heading', { name: TITLE }).waitFor()
    await which.getByText(ticketId.slice(-8).toUpperCase(), { exact: true }).waitFor()
    await which.getByText('General Admission', { exact: true }).waitFor()

    // An address nobody has: the server's words, in red.
    await buyerPage.getByLabel('New Attendee Email').fill('nobody-here@example.com')
    await buyerPage.getByRole('button', { name: 'Transfer Ticket' }).click()
    await buyerPage.getByRole('alert').getByText('No account found with that email.').waitFor()

    // the success line shows for 500 ms before the dashboard (SPEC §9): recorded the moment it
    // appears, as a wait that polls may look before and after it
    // (and whether the page still named the ticket it gave, all the while the line showed)
    await buyerPage.evaluate(() => {
      const seen: string[] = []
      const page = window as unknown as { successLines: string[]; ticketUnnamed?: boolean }
      page.successLines = seen
      new MutationObserver(() => {
        const text = document.querySelector('.success-text[role="status"]')?.textContent ?? ''
        if (text && seen.at(-1) !== text) seen.push(text)
        if (text && !document.querySelector('[aria-label="The ticket"] h2')) page.ticketUnnamed = true
      }).observe(document.body, { subtree: true, childList: true, characterData: true })
    })
    await buyerPage.getByLabel('New Attendee Email').fill(friend.email)
    await buyerPage.getByRole('button', { name: 'Transfer Ticket' }).click()
    await expect
      .poll(
        () => buyerPage.evaluate(() => (window as unknown as { successLines?: string[] }).successLines ?? []),
        { timeout: 30_000 },
      )
      .toEqual(['Ticket transferred successfully!'])
    expect(
      await buyerPage.evaluate(() => (window as unknown as { ticketUnnamed?: boolean }).ticketUnnamed),
    ).toBe(undefined)
    await at(buyerPage, '/dashboard')
    await buyerPage.getByText('No ticket data available.').waitFor()
    // the form gone, the new page's heading has the focus (a screen reader says where they are)
    await expect
      .poll(() =>
        buyerPage.evaluate(() => document.activeElement?.closest('main') && document.activeElement.tagName),
      )
      .toBe('H1')

    const friendPage = await signedInPage(friend)
    await friendPage.goto('/dashboard')
    const received = friendPage.getByRole('article', { name: TITLE })
    await received.getByText('General Admission', { exact: true }).waitFor()
    await received.getByText('friend', { exact: true }).waitFor()
    await received.getByText('₹500').waitFor()
  })

  it("lists the friend's registrations, checks the e-mail before a transfer and confirms a cancel", async () => {
    const friendPage = await signedInPage(friend)
    await friendPage.goto('/dashboard')
    await friendPage.getByRole('link', { name: 'Your Registrations' }).click()
    await at(friendPage, '/registrations')
    const card = friendPage.getByRole('article', { name: TITLE })
    await card.getByRole('heading', { name: TITLE }).waitFor()
    await card.getByText('General Admission', { exact: true }).waitFor()
    await card.getByText('Completed', { exact: true }).waitFor()
    // what tells two orders apart: number, quantity, amount, date
    await card.getByText('Ticket No.').waitFor()
    await card.getByText(/^[0-9A-F]{8}$/).waitFor()
    await card.getByText('1', { exact: true }).waitFor()
    await card.getByText('₹500').waitFor()
    await card.getByText('15 Jun 2030').waitFor()

    await card.getByRole('button', { name: 'Transfer Ticket' }).click()
    await card.getByLabel('New Attendee Email').waitFor()
    await card.getByRole('button', { name: 'Transfer Ticket' }).click()
    await card.getByText('Please enter a valid email.').waitFor()

    // Declining the confirmation keeps the ticket; accepting it cancels.
    friendPage.once('dialog', (dialog) => {
      expect(dialog.message()).toBe('Are you sure you want to cancel this ticket?')
      void dialog.dismiss()
    })
    await card.getByRole('button', { name: 'Cancel Ticket' }).click()
    await card.waitFor()
    friendPage.once('dialog', (dialog) => void dialog.accept())
    await card.getByRole('button', { name: 'Cancel Ticket' }).click()
    await friendPage.getByText('Ticket canceled successfully.').waitFor()
    await friendPage.getByText("You haven't registered for any events yet.").waitFor()
    await seesAvailable(watcherPage, 'General Admission', 100)
  })

  it('says a sold-out type is sold out and does not offer to book it', async () => {
    const smallTitle = `Tiny Gig ${Date.now()}`
    const small = await approvedEvent(server.app, [{ type: 'VIP', price: 900, quantity: 2 }], smallTitle)
    await boughtTicket(server.app, watcher, small, 'VIP', 2)

    await openBooking(buyerPage, small)
    await buyerPage.getByRole('heading', { name: smallTitle }).waitFor()
    expect(
      await buyerPage.getByLabel('Ticket Type').locator('option', { hasText: 'VIP' }).textContent(),
    ).toContain('Sold out')
    await buyerPage.getByLabel('Ticket Type').selectOption('VIP')
    await buyerPage.getByLabel('Quantity').fill('1')
    await buyerPage.getByRole('alert').getByText('VIP is sold out.').waitFor()
    expect(await buyerPage.getByRole('button', { name: 'Confirm Booking' }).isDisabled()).toBe(true)
  })

  it('sends visitors to log in', async () => {
    const context = await browser.newContext({ baseURL: server.url })
    contexts.push(context)
    const visitor = await context.newPage()
    await visitor.goto(`/booking/${eventId}`)
    await at(visitor, '/login')
  })
})
