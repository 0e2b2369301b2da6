// Debian's Chromium driven by playwright-core (no browser download).
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core'

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'

/** `extraArgs`: more Chromium switches, such as a fake camera's (tests/e2e/door.test.ts) */
export function launchBrowser(extraArgs: readonly string[] = []): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--disable-quic',
      '--no-first-run',
      '--disable-dev-shm-usage',
      ...extraArgs,
    ],
  })
}

/**
 * Pages of a browser signed in as one account each (its token in localStorage before the app
 * starts; none: a visitor's), on the server at `baseURL`; closeAll() closes every context opened.
 */
export function signedInPages(browser: () => Browser, baseURL: () => string) {
  const contexts: BrowserContext[] = []
  return {
    async open(token: string | null): Promise<Page> {
      const context = await browser().newContext({ baseURL: baseURL() })
      contexts.push(context)
      if (token) await context.addInitScript((stored) => localStorage.setItem('token', stored), token)
      return context.newPage()
    },
    async closeAll() {
      for (const context of contexts.splice(0)) await context.close()
    },
  }
}
