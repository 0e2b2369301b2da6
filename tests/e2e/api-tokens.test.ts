// API tokens in the browser (issue 43), against the real server and the built web app: an
// organizer opens the screen from their dashboard, makes a token with events:read, copies the
// secret shown once, and a program using it as a Bearer reads the organizer's events; revoked on
// the screen, the same call is refused at once. The screen has no axe violation on the way.
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { adminSession, bearer, organizerSession, type Session } from '../support/accounts.ts'
import { launchBrowser, signedInPages } from '../support/browser.ts'
import { multipartBody } from '../support/media.ts'
import { nextYear, post } from '../support/sales.ts'
import { startServer, type TestServer } from '../support/server.ts'

const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8')

let server: TestServer
let browser: Browser
let organizer: Session
let admin: Session
const pages = signedInPages(
  () => browser,
  () => server.url,
)

beforeAll(async () => {
  server = await startServer({ RATE_LIMITS: 'off' })
  browser = await launchBrowser()
  organizer = await organizerSession(server.app, 'tokenorganizer')
  admin = await adminSession(server.app)
})

afterAll(async () => {
  await pages.closeAll()
  await browser?.close()
  await server?.close()
})

/** GET /ticket/getorgid over HTTP, as a program holding the token would call it */
const readEvents = (token: string) =>
  fetch(`${server.url}/api/v1/ticket/getorgid`, { headers: { authorization: `Bearer ${token}` } })

/** axe-core's violations on the page as it is now (WCAG 2.x A and AA, best practices) */
async function violations(page: Page): Promise<string[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(AXE)
  return page.evaluate(async () => {
    type Found = { id: string; help: string; nodes: { target: string[] }[] }
    const axe = (window as unknown as { axe: { run(d: Document): Promise<{ violations: Found[] }> } }).axe
    const { violations } = await axe.run(document)
    return violations.map((v) => `${v.id}: ${v.help} at ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)
  })
}

describe('API tokens in the browser', () => {
  it('makes a token that reads the organizer’s events, shows it once, and revokes it', async () => {
    const page = await pages.open(organizer.token)
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url })
    await page.goto('/organizers/dashboard')
    await page.getByRole('navigation', { name: 'Account' }).getByRole('link', { name: 'API tokens' }).click()
    await page.getByRole('heading', { name: 'API tokens', level: 1 }).waitFor()
    await page.getByText('No tokens yet.').waitFor()
    expect(await violations(page)).toEqual([])

    // the server's schema is the form's: a token with no scope is refused at its field
    await page.getByLabel('Name').fill('Sales spreadsheet')
    await page.getByRole('button', { name: 'Create token' }).click()
    await page.getByText('Choose at least one scope.').waitFor()
    expect(await violations(page)).toEqual([])

    await page.getByLabel('events:read').check()
    await expect.poll(() => page.getByText('Choose at least one scope.').count()).toBe(0)
    await page.getByRole('button', { name: 'Create token' }).click()
    await page.getByText('Copy this token now: it is not shown again.').waitFor()
    const field = page.getByLabel('Token', { exact: true })
    const secret = await field.inputValue()
    expect(secret).toMatch(/^tkt_/)
    expect(await field.getAttribute('readonly')).not.toBeNull()
    await page.getByRole('button', { name: 'Copy', exact: true }).click()
    await page.getByText('Token copied.').waitFor()
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(secret)
    expect(await violations(page)).toEqual([])

    const row = page.getByRole('row', { name: /Sales spreadsheet/ })
    await expect
      .poll(() => row.getByRole('cell').allInnerTexts())
      .toEqual(['Sales spreadsheet', 'events:read', 'All', 'Never', 'Never', '–', 'Revoke'])

    const allowed = await readEvents(secret)
    expect(allowed.status, await allowed.clone().text()).toBe(200)
    expect(Array.isArray(await allowed.json())).toBe(true)

    // once dismissed, the secret is nowhere on the screen; the row shows the use
    await page.getByRole('button', { name: 'Done' }).click()
    await page.reload()
    await row.waitFor()
    expect(await page.getByText('Copy this token now: it is not shown again.').count()).toBe(0)
    expect(await page.content()).not.toContain(secret)
    await expect.poll(() => row.getByRole('cell').nth(4).textContent()).toMatch(/\d{4}, \d{1,2}:\d{2}/)

    await row.getByRole('button', { name: 'Revoke Sales spreadsheet' }).click()
    await row.getByText('Programs using it are refused at once.', { exact: false }).waitFor()
    expect(await violations(page)).toEqual([])
    await row.getByRole('button', { name: 'Yes, revoke' }).click()
    await page.getByText('Token revoked.').waitFor()
    await expect.poll(() => page.getByRole('row', { name: /Sales spreadsheet/ }).count()).toBe(0)

    const refused = await readEvents(secret)
    expect(refused.status).toBe(401)
  })

  it('opens for an admin from their dashboard, with every event and no event picker', async () => {
    const page = await pages.open(admin.token)
    await page.goto('/admin/dashboard')
    await page.getByRole('link', { name: 'API tokens' }).click()
    await page.getByRole('heading', { name: 'API tokens', level: 1 }).waitFor()
    await page.getByText('All events: an admin’s token is not bound to some.').waitFor()
    expect(await page.getByLabel('All my events').count()).toBe(0)
    expect(await violations(page)).toEqual([])
  })

  it('fits a 390 px phone, a token bound to one event listed with its title', async () => {
    const form = await multipartBody(
      {
        title: 'Token Test Concert',
        description: 'An evening of songs.',
        date: `${nextYear}-08-14`,
        time: '19:00',
        location: 'Town Hall, Pune',
        category: 'Music',
        ticketTypes: JSON.stringify([{ type: 'General Admission', price: 300, quantity: 100 }]),
      },
      [],
    )
    const created = await server.app.inject({
      method: 'POST',
      url: '/api/v1/event/create',
      headers: { ...form.headers, ...bearer(organizer.token) },
      payload: form.payload,
    })
    expect(created.statusCode, created.body).toBe(201)
    const made = await post(server.app, '/api/v1/account/tokens', organizer, {
      name: 'Door kiosk',
      scopes: ['checkin:write', 'attendees:read'],
      eventIds: [created.json().event._id],
    })
    expect(made.statusCode, made.body).toBe(201)

    const page = await pages.open(organizer.token)
    await page.setViewportSize({ width: 390, height: 844 })
    await page.goto('/account/tokens')
    const row = page.getByRole('row', { name: /Door kiosk/ })
    await expect.poll(() => row.getByRole('cell').nth(2).textContent()).toBe('Token Test Concert')
    await page.getByLabel('Only some of my events').check()
    await page.getByLabel('Token Test Concert').waitFor()
    expect(await violations(page)).toEqual([])
  })
})
