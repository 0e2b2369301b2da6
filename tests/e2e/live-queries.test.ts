// Live pushes and the cached server state (issue 13): a push that carries what changed is applied
// as it is, without a request; one that does not makes the screens showing it fetch again,
// coalesced: however many pushes arrive while a fetch is under way, exactly one more follows it;
// and a refetch that fails keeps what is on screen.
import type { Browser, BrowserContext, Locator, Page, Route } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { EventView } from '../../contracts/catalog.ts'
import { adminSession, organizerSession, type Session } from '../support/accounts.ts'
import { launchBrowser } from '../support/browser.ts'
import { approvedEvent, hold, signUpAll } from '../support/sales.ts'
import { startServer, type TestServer } from '../support/server.ts'

let server: TestServer
let browser: Browser
const contexts: BrowserContext[] = []
let organizer: Session
let event: EventView
let buyers: Session[]
let sold = 0

beforeAll(async () => {
  server = await startServer({ RATE_LIMITS: 'off', MAX_HELD_SEATS_PER_ADDRESS: '1000' })
  const admin = await adminSession(server.app)
  organizer = await organizerSession(server.app, 'burst')
  event = await approvedEvent(server.app, organizer, admin, { title: `Burst Fair ${Date.now()}` }, [
    { type: 'General Admission', price: 500, quantity: 100 },
  ])
  buyers = await signUpAll(
    server.app,
    Array.from({ length: 20 }, (_, i) => `burst${i}`),
  )
  browser = await launchBrowser()
})

afterAll(async () => {
  for (const context of contexts) await context.close()
  await browser?.close()
  await server?.close()
})

async function newPage(account: Session | null): Promise<Page> {
  const context = await browser.newContext({ baseURL: server.url })
  contexts.push(context)
  if (account) await context.addInitScript((token) => localStorage.setItem('token', token), account.token)
  return context.newPage()
}

/** `count` seats held at once, each by a buyer of its own */
async function holdSeats(count: number) {
  const those = buyers.slice(sold, sold + count)
  sold += count
  await Promise.all(those.map((buyer) => hold(server.app, buyer, event, 'General Admission', 1)))
}

const quiet = (page: Page) => page.waitForTimeout(1000)

describe('live pushes and what the screens fetch', () => {
  it('applies availability pushes on the event page as they are, without a request', async () => {
    const page = await newPage(null)
    await page.goto(`/event/${event._id}`)
    await page.locator('[data-live="connected"]').waitFor()
    await page.getByText('Available: 100').waitFor()
    await quiet(page)
    const eventReads: string[] = []
    page.on('request', (request) => {
      if (new URL(request.url()).pathname === `/api/v1/event/${event._id}`) eventReads.push(request.url())
    })

    await holdSeats(3)
    await page.getByText('Available: 97').waitFor()
    await quiet(page)
    expect(eventReads).toEqual([])
  })

  describe("the organizer's analytics", () => {
    let page: Page
    let panel: Locator
    const pendingFigure = () => panel.getByRole('status', { name: 'Pending', exact: true })
    const pending = () => pendingFigure().textContent()

    beforeAll(async () => {
      page = await newPage(organizer)
      await page.goto('/organizers/dashboard')
      await page.locator('[data-live="connected"]').waitFor()
      panel = page.getByRole('region', { name: `Event Analytics for ${event.title}` })
      await pendingFigure().getByText(String(sold), { exact: true }).waitFor()
      await quiet(page)
    })

    it('a burst of sales while they are being fetched makes one more fetch, not one per sale', async () => {
      // Every analytics request of this event is counted; the first is held until released.
      const asked: Route[] = []
      let release!: () => void
      const released = new Promise<void>((resolve) => {
        release = resolve
      })
      await page.route(`**/api/v1/ticket/analytics/${event._id}`, async (route) => {
        asked.push(route)
        if (asked.length === 1) await released
        await route.continue()
      })

      await holdSeats(1)
      await expect.poll(() => asked.length).toBe(1)
      // Ten more sales while that fetch is under way: none of them sends a request of its own.
      await holdSeats(10)
      await quiet(page)
      expect(asked).toHaveLength(1)

      release()
      await expect.poll(pending).toBe(String(sold))
      await quiet(page)
      expect(asked).toHaveLength(2)
      await page.unroute(`**/api/v1/ticket/analytics/${event._id}`)
    })

    it('a refetch that fails keeps the figures on screen', async () => {
      const shown = String(sold)
      let failed = 0
      await page.route(`**/api/v1/ticket/analytics/${event._id}`, async (route) => {
        failed++
        await route.fulfill({ status: 503, json: { message: 'Try again shortly.' } })
      })
      await holdSeats(1)
      await expect.poll(() => failed).toBeGreaterThan(0)
      await quiet(page)
      expect(await pending()).toBe(shown)
      expect(await page.getByRole('alert').count()).toBe(0)

      await page.unroute(`**/api/v1/ticket/analytics/${event._id}`)
      await holdSeats(1)
      await expect.poll(pending).toBe(String(sold))
    })
  })
})
