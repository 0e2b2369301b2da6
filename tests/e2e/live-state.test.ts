// The live connection's state is visible (issue 12, screen 9): when it drops the page says
// 'Reconnecting…' and the screens with live counts (event detail, booking) say the counts may be
// out of date; when it is back the page says 'Updated' and shows the counts as they are now,
// including seats sold while it was down.
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { EventView } from '../../contracts/catalog.ts'
import { adminSession, organizerSession, type Session, signUp } from '../support/accounts.ts'
import { launchBrowser } from '../support/browser.ts'
import { approvedEvent, buy, until } from '../support/sales.ts'
import { startServer, type TestServer } from '../support/server.ts'

let server: TestServer
let browser: Browser
const contexts: BrowserContext[] = []
let event: EventView
let buyer: Session
let other: Session

beforeAll(async () => {
  server = await startServer()
  const { app } = server
  const [organizer, admin] = await Promise.all([organizerSession(app), adminSession(app)])
  ;[buyer, other] = await Promise.all([signUp(app, 'livebuyer'), signUp(app, 'liveother')])
  event = await approvedEvent(app, organizer, admin, {}, [
    { type: 'General Admission', price: 500, quantity: 100 },
  ])
  browser = await launchBrowser()
})

afterAll(async () => {
  for (const context of contexts) await context.close()
  await browser?.close()
  await server?.close()
})

async function newPage(account: Session | null): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ baseURL: server.url, viewport: { width: 390, height: 844 } })
  contexts.push(context)
  if (account) await context.addInitScript((token) => localStorage.setItem('token', token), account.token)
  return { context, page: await context.newPage() }
}

/** The network goes away under the page: offline, and its open connections closed by the server. */
async function dropConnection(context: BrowserContext) {
  await context.setOffline(true)
  const sockets = server.app.live.io.of('/').sockets
  for (const socket of sockets.values()) socket.conn.close()
  await until(() => sockets.size === 0)
}

const badge = (page: Page) => page.getByRole('status').filter({ hasText: /^(Reconnecting…|Updated)$/ })

describe('the live connection drops and comes back', () => {
  it('on the event page: Reconnecting…, counts marked stale, then Updated with the counts of now', async () => {
    const { context, page } = await newPage(null)
    await page.goto(`/event/${event._id}`)
    await page.locator('[data-live="connected"]').waitFor()
    await page.getByText('Available: 100').waitFor()
    expect(await badge(page).count()).toBe(0)

    await dropConnection(context)
    await badge(page).filter({ hasText: 'Reconnecting…' }).waitFor()
    await page.getByText('Reconnecting… counts may be out of date').waitFor()

    // seats sold while this page hears nothing
    await buy(server.app, other, event, 'General Admission', 3)
    expect(await page.getByText('Available: 100').count()).toBe(1)

    await context.setOffline(false)
    await badge(page).filter({ hasText: 'Updated' }).waitFor({ timeout: 15_000 })
    await page.getByText('Available: 97').waitFor()
    expect(await page.getByText('Reconnecting… counts may be out of date').count()).toBe(0)
    // the 'Updated' note goes away by itself
    await badge(page).filter({ hasText: 'Updated' }).waitFor({ state: 'detached', timeout: 10_000 })
  })

  it('on the booking page: the Ticket Type counts are marked stale while it is down', async () => {
    const { context, page } = await newPage(buyer)
    await page.goto(`/booking/${event._id}`)
    await page.locator('[data-live="connected"]').waitFor()

    await dropConnection(context)
    await badge(page).filter({ hasText: 'Reconnecting…' }).waitFor()
    await page.getByText('Reconnecting… counts may be out of date').waitFor()
    await buy(server.app, other, event, 'General Admission', 2)

    await context.setOffline(false)
    await badge(page).filter({ hasText: 'Updated' }).waitFor({ timeout: 15_000 })
    await expect
      .poll(() => page.getByLabel('Ticket Type').locator('option').first().textContent())
      .toContain('95 available')
    expect(await page.getByText('Reconnecting… counts may be out of date').count()).toBe(0)
  })

  it('closed by the server (as on a restart), the connection is made again by itself', async () => {
    const { page } = await newPage(null)
    await page.goto(`/event/${event._id}`)
    await page.locator('[data-live="connected"]').waitFor()

    server.app.live.io.local.disconnectSockets(true)
    await badge(page).filter({ hasText: 'Reconnecting…' }).waitFor()
    await buy(server.app, other, event, 'General Admission', 1)
    await badge(page).filter({ hasText: 'Updated' }).waitFor({ timeout: 15_000 })
    await page.locator('[data-live="connected"]').waitFor()
    await page.getByText('Available: 94').waitFor()
  })
})
