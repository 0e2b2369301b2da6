// The analytics charts in Chromium, alone on a harness page (tests/e2e/harness): live figures
// arriving in any order around the moments React hides and re-shows mounted content (a Suspense
// boundary suspending again, <Activity>). With echarts-for-react a re-shown chart read the instance
// that library had just made without an option, and the page fell to "Cannot read properties of
// undefined (reading 'series')", the crash the dashboards showed mid-sale (issue 12, item 13): the
// <Activity> and the crowded cases below fail that way on the old charts (a535eaa^).
import { readFile } from 'node:fs/promises'
import { extname, join, resolve } from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import type { AnalyticsReply } from '../../contracts/analytics.ts'
import { launchBrowser } from '../support/browser.ts'

type Figures = Pick<AnalyticsReply, 'analytics' | 'timeline'>
type Harness = {
  show(figures: Figures): void
  suspend(): void
  resume(): void
  hide(hidden: boolean): void
}
type Step = ['show', Figures] | ['suspend'] | ['resume'] | ['hide', boolean]

const ORIGIN = 'http://harness.test'
const DIST = resolve(import.meta.dirname, 'harness/dist')
const types: Record<string, string> = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css' }

let browser: Browser
let page: Page
let errors: string[]

/** the figures after `sold` tickets at ₹500 and `vip` at ₹1,500, sold over two hours */
function figures(sold: number, vip = 0): Figures {
  const status = [{ Pending: 0, Completed: sold + vip, Failed: 0 }]
  return {
    analytics: [
      {
        ticketType: 'General Admission',
        totalRevenue: sold * 500,
        totalTicketsSold: sold,
        paymentStatus: status,
      },
      { ticketType: 'VIP', totalRevenue: vip * 1500, totalTicketsSold: vip, paymentStatus: status },
    ],
    timeline: [
      { at: '2026-11-26T08:00:00.000Z', tickets: Math.ceil(sold / 2), revenue: Math.ceil(sold / 2) * 500 },
      {
        at: '2026-11-26T09:00:00.000Z',
        tickets: Math.floor(sold / 2) + vip,
        revenue: Math.floor(sold / 2) * 500 + vip * 1500,
      },
    ],
  }
}

/** runs the steps in one go in the page: no frame between them, as when pushes and renders crowd */
const run = (steps: Step[]) =>
  page.evaluate((all) => {
    const harness = (window as unknown as { harness: Harness }).harness
    for (const [name, arg] of all) {
      if (name === 'show') harness.show(arg as Figures)
      else if (name === 'hide') harness.hide(arg as boolean)
      else harness[name]()
    }
  }, steps)

/** what the page shows now: the error screen's text, and what the revenue chart's instance holds */
const seen = () =>
  page.evaluate(() => {
    const figure = document.querySelector<HTMLElement>('[data-chart="revenue-by-ticket-type"]')
    return {
      error: document.querySelector('#error')?.textContent ?? null,
      bars: figure?.dataset.series ? (JSON.parse(figure.dataset.series) as unknown) : null,
    }
  })

/** the page is up (no error screen, no uncaught error) and the bars are the last figures given */
async function drawsLatest(sold: number, vip = 0) {
  const latest = { error: null, bars: [[sold * 500, vip * 1500]] }
  await expect
    .poll(
      async () => {
        const now = await seen()
        return now.error ? now : { ...now, error: errors[0] ?? null }
      },
      { timeout: 10_000 },
    )
    .toEqual(latest)
  await page.waitForTimeout(1200) // an ECharts animation and its 'finished' frame
  expect({ ...(await seen()), error: errors[0] ?? (await seen()).error }).toEqual(latest)
}

beforeAll(async () => {
  browser = await launchBrowser()
})

afterAll(async () => {
  await browser?.close()
})

beforeEach(async () => {
  page = await browser.newPage()
  errors = []
  page.on('pageerror', (error) => errors.push(error.message))
  await page.route(`${ORIGIN}/**`, async (route) => {
    const path = new URL(route.request().url()).pathname
    const file = join(DIST, path === '/' ? 'index.html' : path)
    const body = await readFile(file).catch(() => null)
    if (!body) return route.fulfill({ status: 404, body: 'Not found' })
    await route.fulfill({ body, contentType: types[extname(file)] ?? 'application/octet-stream' })
  })
  await page.goto(`${ORIGIN}/`)
  await run([['show', figures(1)]])
  await drawsLatest(1)
  return () => page.close()
})

describe('analytics charts around hides and re-shows', () => {
  it('survive their Suspense boundary suspending again and showing them', async () => {
    await run([['suspend'], ['resume']])
    await drawsLatest(1)
    await run([['show', figures(7)]])
    await drawsLatest(7)
  })

  it('take figures that arrive right after a re-show', async () => {
    await run([['suspend'], ['resume'], ['show', figures(12, 1)]])
    await drawsLatest(12, 1)
  })

  it('take figures that arrive while they are hidden', async () => {
    await run([['suspend'], ['show', figures(20)], ['resume']])
    await drawsLatest(20)
    await run([
      ['hide', true],
      ['show', figures(25, 2)],
      ['hide', false],
    ])
    await drawsLatest(25, 2)
  })

  it('survive being hidden and shown by <Activity>', async () => {
    await run([['hide', true]])
    await page.waitForTimeout(100)
    await run([
      ['hide', false],
      ['show', figures(30)],
    ])
    await drawsLatest(30)
  })

  it('draw the last figures after 60 pushes crowded among hides and re-shows, in any order', async () => {
    // a fixed pseudo-random order (xorshift), so a failure can be replayed
    let seed = 0x2f6e2b1
    const next = () => {
      seed ^= seed << 13
      seed ^= seed >>> 17
      seed ^= seed << 5
      return (seed >>> 0) / 2 ** 32
    }
    let suspended = false
    let hidden = false
    for (let sale = 2; sale <= 60; sale++) {
      const steps: Step[] = [['show', figures(sale, sale % 3)]]
      const roll = next()
      if (roll < 0.25) steps.unshift(suspended ? ['resume'] : ['suspend'])
      else if (roll < 0.4) steps.push(suspended ? ['resume'] : ['suspend'])
      else if (roll < 0.55) steps.push(['hide', !hidden])
      for (const [name, arg] of steps) {
        if (name === 'suspend') suspended = true
        if (name === 'resume') suspended = false
        if (name === 'hide') hidden = arg
      }
      await run(steps)
      if (next() < 0.5) await page.waitForTimeout(Math.floor(next() * 40))
    }
    await run([['resume'], ['hide', false]])
    await drawsLatest(60, 0)
  })
})
