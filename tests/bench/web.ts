// web: the gzipped JavaScript a browser loads for `/` and for `/schedule` (built app, served by
// the real server, loaded in Chromium), against the seed product's one 261 kB bundle.
import { execFileSync } from 'node:child_process'
import { readFileSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { gzipSync } from 'node:zlib'
import { launchBrowser } from '../support/browser.ts'
import { root, startAppServer } from './lib/processes.ts'
import { seed } from './lib/seed.ts'
import { round } from './lib/stats.ts'

export type WebResult = {
  routes: Array<{ route: string; scripts: number; gzippedKb: number; target: number | null }>
  seedProductKb: number
}

export async function benchWeb(build = true): Promise<WebResult> {
  if (build) {
    execFileSync('npx', ['vite', 'build', '--config', 'web/vite.config.ts', '--logLevel', 'warn'], {
      cwd: root,
      stdio: 'inherit',
      env: { ...process.env, NODE_ENV: 'production' },
    })
  }
  const data = seed({ buyers: 1, events: 3, seats: 10 })
  const server = await startAppServer(data.dataDir, { QUEUE_PREFIX: `bench-web-${Date.now()}` })
  const browser = await launchBrowser()
  const routes: WebResult['routes'] = []
  try {
    for (const [route, target] of [
      ['/', 120],
      ['/schedule', null],
    ] as const) {
      const page = await browser.newPage()
      const scripts = new Set<string>()
      page.on('response', (response) => {
        const url = new URL(response.url())
        if (url.pathname.endsWith('.js')) scripts.add(url.pathname)
      })
      await page.goto(`${server.url}${route}`, { waitUntil: 'networkidle' })
      let bytes = 0
      for (const script of scripts) bytes += gzipSync(readFileSync(join(root, 'web/dist', script))).length
      routes.push({ route, scripts: scripts.size, gzippedKb: round(bytes / 1024, 1), target })
      await page.close()
    }
  } finally {
    await browser.close()
    await server.stop()
    rmSync(data.dataDir, { recursive: true, force: true })
  }
  return { routes, seedProductKb: 261 }
}

if (import.meta.url === `file://${process.argv[1]}`) console.log(JSON.stringify(await benchWeb(), null, 2))
