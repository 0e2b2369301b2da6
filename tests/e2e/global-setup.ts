// Before the browser tests: Chromium is there (installed from Debian's packages when it may be,
// or a stop with the one command to run: ensure-chromium.ts), then the web app is built once (the
// server serves web/dist), and the harness page of screen parts (tests/e2e/harness).
import { execFileSync } from 'node:child_process'
import { resolve } from 'node:path'
import { ensureChromium } from './ensure-chromium.ts'

export default function setup() {
  const chromium = ensureChromium()
  if (!chromium.ok) throw new Error(chromium.message)
  if (process.env.E2E_SKIP_BUILD === '1') return
  // vitest sets NODE_ENV=test; the browser tests must run the production build.
  const build = (config: string) =>
    execFileSync('npx', ['vite', 'build', '--config', config, '--logLevel', 'warn'], {
      cwd: resolve(import.meta.dirname, '../..'),
      stdio: 'inherit',
      env: { ...process.env, NODE_ENV: 'production' },
    })
  build('web/vite.config.ts')
  // the page that mounts screen parts alone (charts.test.ts)
  build('tests/e2e/harness/vite.config.ts')
}
