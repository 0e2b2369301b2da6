// A slow network never shows a blank page (issue 12, screen 12): before the app's script arrives
// index.html itself shows the brand and 'Loading...'; while a signed-in visit waits for the
// profile, the navigation and a loading indicator are already there.
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type Session, signUp } from '../support/accounts.ts'
import { launchBrowser } from '../support/browser.ts'
import { startServer, type TestServer } from '../support/server.ts'

let server: TestServer
let browser: Browser
const contexts: BrowserContext[] = []
let user: Session

beforeAll(async () => {
  server = await startServer()
  user = await signUp(server.app, 'slowuser')
  browser = await launchBrowser()
})

afterAll(async () => {
  for (const context of contexts) await context.close()
  await browser?.close()
  await server?.close()
})

async function newPage(account: Session | null): Promise<Page> {
  const context = await browser.newContext({ baseURL: server.url, viewport: { width: 390, height: 844 } })
  contexts.push(context)
  if (account) await context.addInitScript((token) => localStorage.setItem('token', token), account.token)
  return context.newPage()
}

/** Holds matching requests until release() is called. */
async function holdRequests(page: Page, pattern: string | RegExp) {
  let release!: () => void
  const released = new Promise<void>((resolve) => {
    release = resolve
  })
  let held = 0
  await page.route(pattern, async (route) => {
    held++
    await released
    await route.continue()
  })
  return { release, held: () => held }
}

const brand = (page: Page) => page.getByRole('link', { name: 'Event Management' })
const loading = (page: Page) => page.getByRole('status').filter({ hasText: 'Loading...' })

describe('a slow network', () => {
  it("before the app's script arrives, the page shows the brand and Loading...", async () => {
    const page = await newPage(null)
    const scripts = await holdRequests(page, /\/assets\/.*\.js$/)
    // a module script delays DOMContentLoaded, so the page is looked at as soon as it is committed
    await page.goto('/home', { waitUntil: 'commit' })
    await expect.poll(() => scripts.held()).toBeGreaterThan(0)
    await brand(page).waitFor()
    expect(await loading(page).isVisible()).toBe(true)
    scripts.release()
    await page.getByRole('heading', { name: 'Events' }).waitFor()
    expect(await loading(page).count()).toBe(0)
  })

  it('while the profile call is slow, the navigation and a loading indicator show', async () => {
    const page = await newPage(user)
    const profile = await holdRequests(page, '**/api/v1/auth/profile')
    await page.goto('/dashboard')
    await page.waitForFunction(() => document.querySelector('.nav-bar') !== null)
    await expect.poll(() => profile.held()).toBe(1)
    // the app's own frame (not index.html's), with no Login link for an account still being checked
    expect(
      await page.locator('header.nav-bar').getByRole('link', { name: 'Event Management' }).isVisible(),
    ).toBe(true)
    expect(await loading(page).isVisible()).toBe(true)
    expect(await page.getByRole('link', { name: 'Login' }).count()).toBe(0)

    profile.release()
    await page.getByRole('heading', { name: 'Ticket Data' }).waitFor()
    expect(new URL(page.url()).pathname).toBe('/dashboard')
    // the screen's own lists may still be on their way; their indicator goes once they are here
    await loading(page).first().waitFor({ state: 'detached', timeout: 10_000 })
  })

  it('with 2 s of latency on every request (CDP), the frame is up before the data', async () => {
    const page = await newPage(user)
    const cdp = await page.context().newCDPSession(page)
    await cdp.send('Network.enable')
    await cdp.send('Network.emulateNetworkConditions', {
      offline: false,
      latency: 2000,
      downloadThroughput: -1,
      uploadThroughput: -1,
    })
    const profileAnswered = page.waitForResponse('**/api/v1/auth/profile', { timeout: 30_000 })
    await page.goto('/home', { waitUntil: 'commit' })
    await brand(page).waitFor()
    await loading(page).waitFor()
    let answered = false
    void profileAnswered.then(() => {
      answered = true
    })
    await page.locator('header.nav-bar').waitFor({ timeout: 30_000 })
    expect(answered).toBe(false)
    expect(await loading(page).isVisible()).toBe(true)
    await profileAnswered
    await page.getByRole('heading', { name: 'Events' }).waitFor({ timeout: 30_000 })
  })
})
