// Builds the web app once before the browser tests (the server serves web/dist).
import { execFileSync } from 'node:child_process'
import { resolve } from 'node:path'

export default function setup() {
  if (process.env.E2E_SKIP_BUILD === '1') return
  execFileSync('npx', ['vite', 'build', '--config', 'web/vite.config.ts', '--logLevel', 'warn'], {
    cwd: resolve(import.meta.dirname, '../..'),
    stdio: 'inherit',
    // vitest sets NODE_ENV=test; the browser tests must run the production build.
    env: { ...process.env, NODE_ENV: 'production' },
  })
}
