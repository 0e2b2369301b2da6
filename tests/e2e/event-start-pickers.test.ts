// The date and time pickers of the create form and the organizer's edit form offer no start gone
// by: their lower bounds are today and, on today's date, the current minute, on the wall clock of
// the zone the server judges starts in (TIMEZONE, America/New_York here, not the browser's).
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { adminSession, organizerSession, type Session } from '../support/accounts.ts'
import { launchBrowser } from '../support/browser.ts'
import { wallClockIn } from '../support/clock.ts'
import { approvedEvent } from '../support/sales.ts'
import { startServer, type TestServer } from '../support/server.ts'

const ZONE = 'America/New_York'
let server: TestServer
let browser: Browser
let context: BrowserContext
let organizer: Session

beforeAll(async () => {
  server = await startServer({ RATE_LIMITS: 'off', TIMEZONE: ZONE })
  browser = await launchBrowser()
  organizer = await organizerSession(server.app, 'Picker')
  // the browser's own zone is another one: the bounds must follow the server's
  context = await browser.newContext({ baseURL: server.url, timezoneId: 'Pacific/Kiritimati' })
})

afterAll(async () => {
  await context?.close()
  await browser?.close()
  await server?.close()
})

async function signedIn(path: string): Promise<Page> {
  const page = await context.newPage()
  await page.goto('/home')
  await page.evaluate((token) => localStorage.setItem('token', token), organizer.token)
  await page.goto(path)
  return page
}

/** a minute on the zone's wall clock within a minute of now (the test may cross one) */
const nearNow = (time: string | null) => {
  const around = [-1, 0, 1].map((m) => wallClockIn(ZONE, m).time)
  expect(around).toContain(time)
}

describe('the start pickers', () => {
  it('of the create form begin today, and at the current minute once today is chosen', async () => {
    const page = await signedIn('/eventform')
    const date = page.getByLabel('Date', { exact: true })
    const time = page.getByLabel('Time', { exact: true })
    await date.waitFor()
    const today = wallClockIn(ZONE, 0).date

    expect(await date.getAttribute('min')).toBe(today)
    expect(await time.getAttribute('min')).toBeNull()
    await date.fill(today)
    nearNow(await time.getAttribute('min'))
    await date.fill(wallClockIn(ZONE, 3 * 24 * 60).date)
    expect(await time.getAttribute('min')).toBeNull()
  })

  it('of the edit form begin today too', async () => {
    const admin = await adminSession(server.app)
    const event = await approvedEvent(server.app, organizer, admin, { title: 'Pick a Time' })
    const page = await signedIn(`/organizers/events/${event._id}`)
    await page.getByText('Edit event').click()
    const form = page.locator('.event-changes-form')
    const date = form.getByLabel('Date', { exact: true })
    const time = form.getByLabel('Time', { exact: true })
    await date.waitFor()
    const today = wallClockIn(ZONE, 0).date

    expect(await date.getAttribute('min')).toBe(today)
    await date.fill(today)
    nearNow(await time.getAttribute('min'))
  })
})
