// The support desk in the browser (SPEC §2, §4, §5, §8): a user sends an inquiry while an admin
// watches /inquiryreplay and another admin page shows the Activity panel; the inquiry appears on
// both without reload (with a toast), the admin replies through the dialog, and the user's
// dashboard, open all along, shows the reply without reload. Against the real server and the
// built web app, in two browsers' worth of separate contexts.
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { adminSession, bearer, type Session, signUp } from '../support/accounts.ts'
import { ADMIN } from '../support/app.ts'
import { launchBrowser } from '../support/browser.ts'
import { startServer, type TestServer } from '../support/server.ts'

let server: TestServer
let browser: Browser
const contexts: BrowserContext[] = []

let admin: Session
let asker: Session
/** the admin's inbox, the admin's dashboard (Activity panel) and the asker's page, kept open */
let inboxPage: Page
let adminDashboardPage: Page
let askerPage: Page

const SUBJECT = `Wheelchair access ${Date.now()}`
const INQUIRY = 'Is the venue step-free?\nI will come with a friend in a wheelchair.'
const REPLY = 'Yes: the main entrance has a ramp and there is a lift to every floor.'
const SUBMITTED = 'Your inquiry has been submitted. We will reply soon.'
const REPLY_FAILED = 'Failed to send the reply. Please try again.'

/** a page of its own browser context whose stored token belongs to this account */
async function signedInPage(account: Session): Promise<Page> {
  const context = await browser.newContext({ baseURL: server.url, viewport: { width: 1280, height: 900 } })
  contexts.push(context)
  const page = await context.newPage()
  await page.goto('/home')
  await page.evaluate((token) => localStorage.setItem('token', token), account.token)
  return page
}

const at = (page: Page, path: string) => page.waitForURL((url) => url.pathname === path)

/** marks the document, so that a later check can tell it was never reloaded */
const markDocument = (page: Page) =>
  page.evaluate(() => {
    ;(window as unknown as { stillHere: boolean }).stillHere = true
  })
const notReloaded = async (page: Page) =>
  expect(await page.evaluate(() => (window as unknown as { stillHere?: boolean }).stillHere)).toBe(true)

const toast = (page: Page, text: string) => page.locator('.Toastify__toast', { hasText: text })

/** the inquiry's card on the inbox or on the dashboard (articles are named by their subject) */
const card = (page: Page, subject = SUBJECT) => page.getByRole('article', { name: subject })

/** the Activity panel's lines */
const activity = (page: Page) => page.getByRole('list', { name: 'Latest activity' }).getByRole('listitem')

/**
 * Records the inquiry form's outcome line (text and colour) the moment it appears: on success
 * the screen moves on to / right after, so the test cannot wait for it afterwards.
 */
const recordOutcome = (page: Page) =>
  page.evaluate(() => {
    const seen: { text: string; color: string }[] = []
    ;(window as unknown as { outcomes: typeof seen }).outcomes = seen
    new MutationObserver(() => {
      const line = document.querySelector('.inquiry-outcome')
      const text = line?.textContent ?? ''
      if (line && text && seen.at(-1)?.text !== text) seen.push({ text, color: getComputedStyle(line).color })
    }).observe(document.body, { subtree: true, childList: true, characterData: true })
  })
const outcomes = (page: Page) =>
  page.evaluate(() => (window as unknown as { outcomes?: { text: string; color: string }[] }).outcomes ?? [])

/** a colour's channels, from getComputedStyle's rgb(...) */
const channels = (color: string) =>
  (color.match(/\d+/g) ?? []).slice(0, 3).map(Number) as [number, number, number]
const isGreen = (color: string) => {
  const [r, g, b] = channels(color)
  return g > r && g > b
}
const isRed = (color: string) => {
  const [r, g, b] = channels(color)
  return r > g && r > b
}

beforeAll(async () => {
  server = await startServer({ RATE_LIMITS: 'off' })
  browser = await launchBrowser()
  admin = await adminSession(server.app)
  asker = await signUp(server.app, 'asker')
  inboxPage = await signedInPage(admin)
  adminDashboardPage = await signedInPage(admin)
  askerPage = await signedInPage(asker)
})

afterAll(async () => {
  await Promise.all(contexts.splice(0).map((context) => context.close()))
  await browser?.close()
  await server?.close()
})

describe('support desk in the browser', () => {
  it('asks for a subject and an inquiry before sending anything', async () => {
    await askerPage.goto('/inquiryform')
    await askerPage.getByRole('heading', { name: 'Support Inquiry' }).waitFor()
    await askerPage.getByRole('button', { name: 'Submit Inquiry' }).click()
    await askerPage.getByText('Subject is required.').waitFor()
    await askerPage.getByText('Inquiry is required.').waitFor()
    expect(await askerPage.getByLabel('Subject').getAttribute('aria-invalid')).toBe('true')

    // Blanks are not an inquiry either.
    await askerPage.getByLabel('Subject').fill('Parking')
    await askerPage.getByLabel('Inquiry').fill('   ')
    await askerPage.getByRole('button', { name: 'Submit Inquiry' }).click()
    await askerPage.getByText('Inquiry is required.').waitFor()
    expect(await askerPage.getByText('Subject is required.').count()).toBe(0)
    expect(new URL(askerPage.url()).pathname).toBe('/inquiryform')

    const stored = await server.app.inject({
      method: 'GET',
      url: '/api/v1/support/mine',
      headers: bearer(asker.token),
    })
    expect(stored.json()).toEqual([])
  })

  it('sends an inquiry that appears at once, with a toast, on the admin pages already open', async () => {
    await inboxPage.goto('/inquiryreplay')
    await inboxPage.getByRole('heading', { name: 'Support Inquiries' }).waitFor()
    await inboxPage.locator('[data-live="connected"]').waitFor()
    await inboxPage.getByText('No inquiries yet.').waitFor()
    await markDocument(inboxPage)

    await adminDashboardPage.goto('/admin/dashboard')
    await adminDashboardPage.getByRole('heading', { name: 'Activity' }).waitFor()
    await adminDashboardPage.locator('[data-live="connected"]').waitFor()
    await adminDashboardPage.locator('[data-feed="live"]').waitFor()
    // The backlog is there: the asker's sign-up.
    await activity(adminDashboardPage).filter({ hasText: 'asker signed up as a user' }).waitFor()
    await markDocument(adminDashboardPage)

    await askerPage.goto('/inquiryform')
    await askerPage.getByLabel('Subject').fill(SUBJECT)
    await askerPage.getByLabel('Inquiry').fill(INQUIRY)
    await recordOutcome(askerPage)
    await askerPage.getByRole('button', { name: 'Submit Inquiry' }).click()

    // The server's message, in green, then the landing page; the toast stays on.
    await at(askerPage, '/')
    await toast(askerPage, SUBMITTED).waitFor()
    const [outcome] = await outcomes(askerPage)
    expect(outcome?.text).toBe(SUBMITTED)
    expect(isGreen(outcome?.color ?? '')).toBe(true)

    // The inbox shows it without a reload, newest first, with the asker, the text and the status.
    const inquiry = card(inboxPage)
    await inquiry.waitFor()
    await toast(inboxPage, `New inquiry: “${SUBJECT}”`).waitFor()
    await inquiry.getByText(asker.email).waitFor()
    await inquiry.getByText('Is the venue step-free?').waitFor()
    await inquiry.getByText('Pending').waitFor()
    await inquiry.getByText('No reply yet.').waitFor()
    await inquiry.getByRole('button', { name: 'Reply', exact: true }).waitFor()
    await notReloaded(inboxPage)

    // Any admin page hears of it too, and the Activity panel has the line, newest first.
    await toast(adminDashboardPage, `New inquiry: “${SUBJECT}”`).waitFor()
    await expect
      .poll(() => activity(adminDashboardPage).first().textContent(), { timeout: 15_000 })
      .toContain(`asker asked: “${SUBJECT}”`)
    await notReloaded(adminDashboardPage)
  })

  it("lets the admin reply through the dialog; the user's open dashboard shows the reply without reload", async () => {
    await askerPage.goto('/dashboard')
    await askerPage.getByRole('heading', { name: 'My Inquiries' }).waitFor()
    await askerPage.locator('[data-live="connected"]').waitFor()
    const mine = card(askerPage)
    await mine.getByText('Pending').waitFor()
    await mine.getByText('No reply yet.').waitFor()
    await markDocument(askerPage)

    const inquiry = card(inboxPage)
    await inquiry.getByRole('button', { name: 'Reply', exact: true }).click()
    const dialog = inboxPage.getByRole('dialog', { name: `Reply to “${SUBJECT}”` })
    await dialog.waitFor()
    await dialog.getByText('I will come with a friend in a wheelchair.').waitFor()

    // Cancel leaves everything as it was.
    await dialog.getByRole('button', { name: 'Cancel' }).click()
    await dialog.waitFor({ state: 'hidden' })
    await inquiry.getByRole('button', { name: 'Reply', exact: true }).click()
    await dialog.waitFor()

    // A reply is required.
    await dialog.getByRole('button', { name: 'Send Reply' }).click()
    await dialog.getByText('Reply is required.').waitFor()

    await dialog.getByLabel('Reply').fill(REPLY)
    await dialog.getByRole('button', { name: 'Send Reply' }).click()
    await dialog.waitFor({ state: 'hidden' })
    await toast(inboxPage, 'Reply sent successfully.').waitFor()
    await inquiry.getByText('Replied', { exact: true }).waitFor()
    await inquiry.getByText(REPLY).waitFor()
    expect(await inquiry.getByRole('button', { name: 'Reply', exact: true }).count()).toBe(0)

    // The asker's dashboard follows, without a reload.
    await mine.getByText(REPLY).waitFor({ timeout: 15_000 })
    await mine.getByText('Replied', { exact: true }).waitFor()
    await toast(askerPage, 'An admin has replied to your inquiry.').waitFor()
    await notReloaded(askerPage)

    // The Activity panel has the answer as its newest line.
    await expect
      .poll(() => activity(adminDashboardPage).first().textContent(), { timeout: 15_000 })
      .toContain(`${ADMIN.username} answered asker's inquiry`)
    await notReloaded(adminDashboardPage)

    // Stored: after a reload the inquiry is still answered and has no Reply button.
    await inboxPage.reload()
    await card(inboxPage).getByText(REPLY).waitFor()
    expect(await card(inboxPage).getByRole('button', { name: 'Reply', exact: true }).count()).toBe(0)
  })

  it('says so when a reply cannot be sent (answered meanwhile by another admin)', async () => {
    const subject = `Refund timing ${Date.now()}`
    const opened = await server.app.inject({
      method: 'POST',
      url: '/api/v1/admin/support',
      headers: bearer(asker.token),
      payload: { subject, inquiry: 'How long does a refund take?' },
    })
    expect(opened.statusCode).toBe(201)
    const inquiryId: string = opened.json().inquiry._id

    // Newest first: the new inquiry comes before the answered one.
    await card(inboxPage, subject).waitFor()
    const subjects = await inboxPage.getByRole('article').locator('h2').allTextContents()
    expect(subjects.indexOf(subject)).toBeLessThan(subjects.indexOf(SUBJECT))

    await card(inboxPage, subject).getByRole('button', { name: 'Reply', exact: true }).click()
    const dialog = inboxPage.getByRole('dialog', { name: `Reply to “${subject}”` })
    await dialog.getByLabel('Reply').fill('About a week.')

    // Another admin answers first.
    const other = await server.app.inject({
      method: 'POST',
      url: '/api/v1/admin/support/reply',
      headers: bearer(admin.token),
      payload: { inquiryId, reply: 'Five to seven working days.' },
    })
    expect(other.statusCode).toBe(200)

    await dialog.getByRole('button', { name: 'Send Reply' }).click()
    await toast(inboxPage, REPLY_FAILED).waitFor()
    await dialog.waitFor({ state: 'hidden' })
    // The list shows the reply that was stored, and no Reply button.
    await card(inboxPage, subject).getByText('Five to seven working days.').waitFor()
    expect(await card(inboxPage, subject).getByRole('button', { name: 'Reply', exact: true }).count()).toBe(0)
  })

  it('resumes the Activity feed from the last position seen after the connection drops', async () => {
    const page = await signedInPage(admin)
    // The page's feed connection runs through the test, which can read the hellos and cut it.
    const hellos: { token?: string; from?: number; keep?: number }[] = []
    const connections: { drop(): Promise<void> }[] = []
    await page.routeWebSocket(
      (url) => url.pathname === '/api/v1/activity',
      (route) => {
        const upstream = route.connectToServer()
        route.onMessage((message) => {
          hellos.push(JSON.parse(String(message)))
          upstream.send(message)
        })
        connections.push({ drop: () => route.close({ code: 1011, reason: 'dropped by the test' }) })
      },
    )
    await page.goto('/admin/dashboard')
    await page.locator('[data-feed="live"]').waitFor()
    await markDocument(page)
    const linesBefore = await activity(page).count()
    const headBefore = await server.app.platform.ledger.head()
    expect(hellos).toHaveLength(1)
    // the panel shows the latest 50: it asks for no more (a sale's facts come in a few batches)
    expect(hellos[0]).toEqual({ token: admin.token, from: 0, keep: 50 })

    await connections[0]?.drop()
    await page.locator('[data-feed="reconnecting"]').waitFor()
    // Something happens while the panel is away.
    const subject = `While offline ${Date.now()}`
    const opened = await server.app.inject({
      method: 'POST',
      url: '/api/v1/admin/support',
      headers: bearer(asker.token),
      payload: { subject, inquiry: 'Did you get this?' },
    })
    expect(opened.statusCode).toBe(201)

    // Back, from where it stopped: the missed fact once, nothing twice, no reload.
    await page.locator('[data-feed="live"]').waitFor({ timeout: 20_000 })
    await activity(page)
      .filter({ hasText: `asker asked: “${subject}”` })
      .waitFor()
    expect(hellos).toHaveLength(2)
    expect(hellos[1]?.from).toBe(headBefore)
    expect(await activity(page).count()).toBe(Math.min(50, linesBefore + 1))
    expect(await activity(page).first().textContent()).toContain(subject)
    await notReloaded(page)
  })

  it('shows a refused inquiry in red with the failure text', async () => {
    // An admin may not open inquiries (role user only): the server refuses.
    const adminForm = await signedInPage(admin)
    await adminForm.goto('/inquiryform')
    // The guard sends anyone but a user away.
    await at(adminForm, '/')

    // A user whose session ended meanwhile: the server refuses with 401.
    await askerPage.goto('/inquiryform')
    await askerPage.getByLabel('Subject').fill('Lost session')
    await askerPage.getByLabel('Inquiry').fill('Will this arrive?')
    await askerPage.evaluate(() => localStorage.setItem('token', 'not-a-token'))
    await askerPage.getByRole('button', { name: 'Submit Inquiry' }).click()
    const outcome = askerPage.locator('.inquiry-outcome')
    await outcome.waitFor()
    expect(await outcome.textContent()).toMatch(/^Failed to submit the inquiry\./)
    expect(isRed(await outcome.evaluate((element) => getComputedStyle(element).color))).toBe(true)
    await toast(askerPage, 'Failed to submit the inquiry.').waitFor()
    expect(new URL(askerPage.url()).pathname).toBe('/inquiryform')
    await askerPage.evaluate((token) => localStorage.setItem('token', token), asker.token)
  })
})
