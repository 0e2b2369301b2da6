// Before the browser tests: Chromium is there (installed from Debian's packages when it may be,
// or a stop with the one command to run: ensure-chromium.ts), then the web app is built once (the
// server serves web/dist).
import { execFileSync } from 'node:child_process'
import { resolve } from 'node:path'
import { ensureChromium } from './ensure-chromium.ts'

export default function setup() {
  const chromium = ensureChromium()
  if (!chromium.ok) throw new Error(chromium.message)
  if (process.env.E2E_SKIP_BUILD === '1') return
  execFileSync('npx', ['vite', 'build', '--config', 'web/vite.config.ts', '--logLevel', 'warn'], {
    cwd: resolve(import.meta.dirname, '../..'),
    stdio: 'inherit',
    // vitest sets NODE_ENV=test; the browser tests must run the production build.
    env: { ...process.env, NODE_ENV: 'production' },
  })
}
