// Before the browser tests: Chromium is there (installed from Debian's packages when it may be,
// or a stop with the one command to run: ensure-chromium.ts), then the web app is built once (the
// server serves web/dist), and the harness page of screen parts (tests/e2e/harness).
import { buildWeb } from '../support/web-build.ts'
import { ensureChromium } from './ensure-chromium.ts'

export default function setup() {
  const chromium = ensureChromium()
  if (!chromium.ok) throw new Error(chromium.message)
  if (process.env.E2E_SKIP_BUILD === '1') return
  buildWeb()
  // the page that mounts screen parts alone (charts.test.ts)
  buildWeb('tests/e2e/harness/vite.config.ts')
}
