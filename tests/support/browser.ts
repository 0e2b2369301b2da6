// Debian's Chromium driven by playwright-core (no browser download).
import { type Browser, chromium } from 'playwright-core'

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
