// seating-web (issue 40, "Reserved seating"): the buyer's seat map of a 50,000-seat plan in
// Chromium on a phone profile, and its live room with 200 maps open.
// - The plan: one section of 200 rows of 250 seats, 10 units apart (as the editor draws them), the
//   event's VIP type; seeded through the ledger (lib/seed.ts). The app (SQLite, FULL) on the server
//   core with Redis; Chromium (lib: pinnedChromium, Debian's, the usual switches) and the load
//   generators on the other (lib/seat-load.ts).
// - The phone: a 390×844 viewport at deviceScaleFactor 3, isMobile, hasTouch, a phone's user agent,
//   and the CPU slowed 4× (CDP Emulation.setCPUThrottlingRate); a fresh context each run (nothing
//   cached).
// - First render: from navigation start (performance.timeOrigin) to the frame after the picker
//   marks its map drawn (the grid's data-drawn: "some" once its first rows are in the DOM, "all"
//   once its last are; the time is taken when the next task after the following animation frame
//   runs, i.e. once that frame was laid out and painted). Median of the runs; for the median run,
//   when the event and the map were asked for and the map received (resource timing). Before
//   those runs, one with the CPU not slowed, and the page's speed as Lighthouse's BenchmarkIndex
//   not slowed and slowed (speedOf): what the figures are relative to, as the machine's speed moves.
//   After them, the same first render with the CPU slowed to Chrome DevTools' mid-tier phone (its
//   CPU calibration's Pixel 5: BenchmarkIndex 1,000; the rate found by bisection, as DevTools
//   does): 4× on a host slower than the one Lighthouse's 4× was chosen for is a slower phone.
// - Long tasks: on the last run's page, with every seat drawn and the live room joined, buyers hold
//   5 named seats each (a hold replacing the buyer's last: 10 seats change) at HOLDS_PER_SECOND for
//   CHURN_SECONDS; the share of that window's wall time inside long tasks (PerformanceObserver
//   'longtask', the parts of each inside the window), and the seat changes a second the room
//   carried (counted by a socket of the generator), after one unmeasured hold by each buyer. The
//   free seats the page's picker counts are then compared with the server's map.
// - Pushes: CLIENTS socket.io clients watch `seats-<eventId>` (the browser closed); PUSH_HOLDS
//   holds one after another, PUSH_GAP_MS apart; for each hold and client, from the hold's reply to
//   that client hearing its seats held. The live budget per address is raised with
//   LIVE_CONNECTIONS_PER_ADDRESS (docs/operations.md), as the other benches with many sockets do.
import { execFileSync } from 'node:child_process'
import { rmSync } from 'node:fs'
import type { Page } from 'playwright-core'
import { chromiumSettled, pinnedChromium } from './dashboards.ts'
import { cores, pinRedisToServerCore, root, runLoad, spawnPinned, startAppServer } from './lib/processes.ts'
import { seed } from './lib/seed.ts'
import { median, percentile, round } from './lib/stats.ts'

const ROWS = 200
const SEATS_PER_ROW = 250
/** the seed's VIP type is a tenth of its seats */
const SEATS = ROWS * SEATS_PER_ROW * 10
const HOLDS_PER_SECOND = 50
const CHURN_SECONDS = 15
const CLIENTS = 200
const PUSH_HOLDS = 100
const PUSH_GAP_MS = 100

export const phone = {
  viewport: { width: 390, height: 844 },
  deviceScaleFactor: 3,
  isMobile: true,
  hasTouch: true,
  userAgent:
    'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36',
  cpuSlowdown: 4,
}

export type SeatingWebResult = {
  seats: number
  profile: string
  firstRender: {
    runs: number
    /** navigation start to the frame after the first rows were in the DOM, each run */
    firstSeatsMs: number[]
    /** … after the last rows were */
    allSeatsMs: number[]
    firstSeatsMedianMs: number
    allSeatsMedianMs: number
    /** the page's long tasks from navigation start to all drawn (median run) */
    longTasksMs: number
    /** where the median run's time went, from navigation start (resource timing): the event asked
     * for, the map asked for and received */
    eventRequestedMs: number
    mapRequestedMs: number
    mapReceivedMs: number
    domNodes: number
    /** one more run with the CPU not slowed: what the page waits for besides its CPU */
    unthrottledMs?: number
  }
  /**
   * The page's CPU as Lighthouse's BenchmarkIndex (higher is faster), read in a blank page of the
   * phone's context, not slowed and slowed as the phone is: what a run's figures are relative to.
   * Chrome DevTools' calibration takes 1,000 for a mid-tier phone and 264 for a low-tier one.
   */
  speed?: { hostIndex: number; phoneIndex: number }
  /**
   * The first render again with the CPU slowed to DevTools' calibrated mid-tier phone (BenchmarkIndex
   * MID_TIER_INDEX): the rate found, the index read at it, each run's all-drawn time and their median.
   */
  midTier?: { rate: number; index: number; allSeatsMs: number[]; allSeatsMedianMs: number }
  churn: {
    seconds: number
    holdsPerSecond: number
    /** seat changes a second the room carried (held and freed) */
    seatChangesPerSecond: number
    holdStatuses: Record<string, number>
    longTaskShare: number
    longTasks: number
    longestTaskMs: number
    /** the sum over long tasks of their time past 50 ms, a second of the window */
    blockingMsPerSecond: number
    generatorCpuShare: number
    /** free seats the page's picker counts after the window, and the server's map */
    pageFree: number
    serverFree: number
  }
  pushes: {
    clients: number
    holds: number
    gapMs: number
    deliveries: number
    missing: number
    p50Ms: number
    p99Ms: number
    maxMs: number
    generatorCpuShare: number
  }
}

type Window = {
  firstSeats?: number
  allSeats?: number
  longTasks: Array<{ start: number; duration: number }>
}

/** set before the app's scripts: the long tasks, and when the grid's data-drawn changes */
function observe() {
  const w = window as unknown as { seatBench: Window }
  w.seatBench = { longTasks: [] }
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries())
      w.seatBench.longTasks.push({ start: entry.startTime, duration: entry.duration })
  }).observe({ type: 'longtask', buffered: true })
  /** the time once the next frame was painted (the first task after its animation frame) */
  const afterFrame = (set: (t: number) => void) =>
    requestAnimationFrame(() => {
      const channel = new MessageChannel()
      channel.port1.onmessage = () => set(performance.now())
      channel.port2.postMessage(null)
    })
  let grid: Element | null = null
  const check = () => {
    const drawn = grid?.getAttribute('data-drawn')
    if ((drawn === 'some' || drawn === 'all') && w.seatBench.firstSeats === undefined) {
      w.seatBench.firstSeats = -1
      afterFrame((t) => {
        w.seatBench.firstSeats = t
      })
    }
    if (drawn === 'all' && w.seatBench.allSeats === undefined) {
      w.seatBench.allSeats = -1
      afterFrame((t) => {
        w.seatBench.allSeats = t
      })
      attributes.disconnect()
    }
  }
  const attributes = new MutationObserver(check)
  // the grid appears once (its children are not watched: 50,000 seats would be 50,000 records)
  const appears = new MutationObserver(() => {
    grid = document.querySelector('svg[data-drawn]')
    if (!grid) return
    appears.disconnect()
    attributes.observe(grid, { attributes: true, attributeFilter: ['data-drawn'] })
    check()
  })
  appears.observe(document, { childList: true, subtree: true })
}

/**
 * Lighthouse's BenchmarkIndex of the page's main thread (GoogleChrome/lighthouse, its
 * computeBenchmarkIndex, as Chrome DevTools' CPU calibration runs it): the mean of two loops' rates,
 * each timed for half a second, building a 10,000-character string (with garbage) and copying an
 * array of 100,000 numbers back and forth (without), each divided by 10. As text: evaluated in the page.
 */
const BENCHMARK_INDEX = `(() => {
  const strings = () => {
    const t0 = Date.now()
    let n = 0
    while (Date.now() - t0 < 500) {
      let s = ''
      for (let j = 0; j < 10000; j++) s += 'a'
      if (s.length === 1) throw new Error('not reached: keeps the loop from being folded away')
      n++
    }
    return Math.round(n / 10 / ((Date.now() - t0) / 1000))
  }
  const copies = () => {
    const a = []
    const b = []
    for (let i = 0; i < 100000; i++) a[i] = b[i] = i
    const t0 = Date.now()
    let n = 0
    while (n % 10 !== 0 || Date.now() - t0 < 500) {
      const from = n % 2 === 0 ? a : b
      const to = n % 2 === 0 ? b : a
      for (let j = 0; j < from.length; j++) to[j] = from[j]
      n++
    }
    return Math.round(n / 10 / ((Date.now() - t0) / 1000))
  }
  return (strings() + copies()) / 2
})()`

/** Chrome DevTools' CPU calibration's mid-tier phone (a Pixel 5): its BenchmarkIndex */
const MID_TIER_INDEX = 1000

/**
 * The CPU slowdown that brings the page's BenchmarkIndex to `target`, found by bisection between 1×
 * and 10× (as DevTools' calibration does, the index not being in proportion to the rate): the rate
 * and the index read at it. 1 when the page is no faster than the target unslowed.
 */
async function rateFor(browser: Awaited<ReturnType<typeof pinnedChromium>>['browser'], target: number) {
  const { cpuSlowdown: _, ...device } = phone
  const context = await browser.newContext(device)
  try {
    const page = await context.newPage()
    await page.goto('about:blank')
    const cdp = await context.newCDPSession(page)
    const indexAt = async (rate: number) => {
      await cdp.send('Emulation.setCPUThrottlingRate', { rate })
      return (await page.evaluate(BENCHMARK_INDEX)) as number
    }
    await indexAt(1)
    let best = { rate: 1, index: await indexAt(1) }
    if (best.index <= target) return { rate: 1, index: Math.round(best.index) }
    let [low, high] = [1, 10]
    for (let step = 0; step < 7; step++) {
      const rate = round((low + high) / 2, 2)
      const index = await indexAt(rate)
      if (Math.abs(index - target) < Math.abs(best.index - target)) best = { rate, index }
      if (index > target) low = rate
      else high = rate
    }
    return { rate: best.rate, index: Math.round(best.index) }
  } finally {
    await context.close()
  }
}

/** the page's CPU not slowed and slowed as the phone's (a warm-up reading first, not kept) */
async function speedOf(browser: Awaited<ReturnType<typeof pinnedChromium>>['browser']) {
  const { cpuSlowdown, ...device } = phone
  const context = await browser.newContext(device)
  try {
    const page = await context.newPage()
    await page.goto('about:blank')
    const cdp = await context.newCDPSession(page)
    await page.evaluate(BENCHMARK_INDEX)
    const hostIndex = Math.round((await page.evaluate(BENCHMARK_INDEX)) as number)
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: cpuSlowdown })
    const phoneIndex = Math.round((await page.evaluate(BENCHMARK_INDEX)) as number)
    return { hostIndex, phoneIndex }
  } finally {
    await context.close()
  }
}

async function openMap(
  browser: Awaited<ReturnType<typeof pinnedChromium>>['browser'],
  url: string,
  slowdown = phone.cpuSlowdown,
) {
  const { cpuSlowdown: _, ...device } = phone
  const context = await browser.newContext(device)
  const page = await context.newPage()
  // as text, with the name helper tsx's compiler wraps named functions in (absent from the page)
  await page.addInitScript({ content: `var __name = (f) => f;\n(${observe.toString()})()` })
  const cdp = await context.newCDPSession(page)
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: slowdown })
  await page.goto(url)
  await page.waitForFunction(
    () => ((window as unknown as { seatBench: Window }).seatBench.allSeats ?? -1) > 0,
    undefined,
    { timeout: 120_000, polling: 500 },
  )
  // no named functions in here: tsx's compiler would wrap them in a helper the page lacks
  const seen = await page.evaluate(() => {
    const bench = (window as unknown as { seatBench: Window }).seatBench
    let event: PerformanceResourceTiming | undefined
    let map: PerformanceResourceTiming | undefined
    for (const entry of performance.getEntriesByType('resource') as PerformanceResourceTiming[]) {
      const path = new URL(entry.name).pathname
      if (!event && /^\/api\/v1\/event\/[^/]+$/.test(path)) event = entry
      if (!map && path.endsWith('/seatmap')) map = entry
    }
    return {
      ...bench,
      eventRequested: event?.startTime ?? 0,
      mapRequested: map?.startTime ?? 0,
      mapReceived: map?.responseEnd ?? 0,
    }
  })
  return { context, page, seen }
}

const longTaskMsUntil = (seen: Window, until: number) =>
  seen.longTasks.reduce((sum, t) => sum + Math.max(0, Math.min(t.start + t.duration, until) - t.start), 0)

export async function benchSeatingWeb(
  quick = false,
  log: (line: string) => void = () => {},
  build = true,
): Promise<SeatingWebResult> {
  if (build) {
    execFileSync('npx', ['vite', 'build', '--config', 'web/vite.config.ts', '--logLevel', 'warn'], {
      cwd: root,
      stdio: 'inherit',
      env: { ...process.env, NODE_ENV: 'production' },
    })
  }
  const runs = quick ? 1 : 3
  const data = seed({
    buyers: 2 * CLIENTS,
    events: 1,
    seats: SEATS,
    seatedVip: { seatsPerRow: SEATS_PER_ROW, pitch: 10 },
  })
  const event = data.events[0]
  if (!event) throw new Error('no event seeded')
  const redis = pinRedisToServerCore()
  const server = await startAppServer(data.dataDir, {
    QUEUE_PREFIX: `bench-seating-web-${Date.now()}`,
    SQLITE_SYNCHRONOUS: 'FULL',
    // the pushes' sockets, the churn's watcher and the browser's, all from 127.0.0.1
    LIVE_CONNECTIONS_PER_ADDRESS: String(CLIENTS + 50),
  })
  const pageUrl = `${server.url}/event/${event.eventId}`
  const chromium = await pinnedChromium()
  let closed = false
  try {
    await chromiumSettled()
    // the server's map made once before the runs (the first read of a plan after a start)
    await fetch(`${server.url}/api/v1/event/${event.eventId}/seatmap`)

    const speed = await speedOf(chromium.browser)
    log(`seating-web speed: ${JSON.stringify(speed)}`)
    // a. first render, once not slowed, then as the phone
    const unthrottled = await openMap(chromium.browser, pageUrl, 1)
    const unthrottledMs = round(unthrottled.seen.allSeats ?? 0, 0)
    await unthrottled.context.close()
    log(`seating-web first render not slowed: ${unthrottledMs} ms`)
    // the same first render on DevTools' mid-tier phone (read with no other page open: Chromium
    // runs on one core, and a page left open halved the index read beside it)
    const calibrated = await rateFor(chromium.browser, MID_TIER_INDEX)
    const midTierMs: number[] = []
    for (let i = 0; i < runs; i++) {
      const run = await openMap(chromium.browser, pageUrl, calibrated.rate)
      midTierMs.push(round(run.seen.allSeats ?? 0, 0))
      await run.context.close()
    }
    const midTier = { ...calibrated, allSeatsMs: midTierMs, allSeatsMedianMs: median(midTierMs) }
    log(`seating-web first render as a mid-tier phone: ${JSON.stringify(midTier)}`)
    const firstSeatsMs: number[] = []
    const allSeatsMs: number[] = []
    const longTasks: number[] = []
    const requests: Array<{ event: number; map: number; received: number }> = []
    let last: Awaited<ReturnType<typeof openMap>> | null = null
    for (let i = 0; i < runs; i++) {
      if (last) await last.context.close()
      last = await openMap(chromium.browser, pageUrl)
      const { seen } = last
      firstSeatsMs.push(round(seen.firstSeats ?? 0, 0))
      allSeatsMs.push(round(seen.allSeats ?? 0, 0))
      requests.push({
        event: round(seen.eventRequested, 0),
        map: round(seen.mapRequested, 0),
        received: round(seen.mapReceived, 0),
      })
      longTasks.push(round(longTaskMsUntil(seen, seen.allSeats ?? 0), 0))
      log(
        `seating-web first render: first seats ${firstSeatsMs.at(-1)} ms, all ${allSeatsMs.at(-1)} ms, long tasks ${longTasks.at(-1)} ms, ${JSON.stringify(requests.at(-1))}`,
      )
    }
    if (!last) throw new Error('no run')
    const { page } = last
    const domNodes = await page.evaluate(() => document.getElementsByTagName('*').length)
    const medianRun = allSeatsMs.indexOf(median(allSeatsMs))

    // b. long tasks while seats change
    await page.locator('[data-live="connected"]').waitFor({ timeout: 30_000 })
    await page.waitForTimeout(1000)
    const churn = await churnOn(page, server.url, event.eventId, data.tokens.slice(0, CLIENTS))
    log(`seating-web churn: ${JSON.stringify(churn)}`)
    await last.context.close()
    chromium.stop()
    closed = true

    // c. pushes to 200 maps
    const pushed = await runLoad<{
      latencies: number[]
      missing: number
      statuses: Record<string, number>
      cpuSeconds: number
    }>('tests/bench/lib/seat-load.ts', {
      mode: 'pushes',
      url: server.url,
      eventId: event.eventId,
      tokens: data.tokens.slice(CLIENTS),
      clients: CLIENTS,
      holds: quick ? 30 : PUSH_HOLDS,
      gapMs: PUSH_GAP_MS,
    })
    const holds = quick ? 30 : PUSH_HOLDS
    const pushes = {
      clients: CLIENTS,
      holds,
      gapMs: PUSH_GAP_MS,
      deliveries: pushed.latencies.length,
      missing: pushed.missing,
      p50Ms: round(percentile(pushed.latencies, 50), 1),
      p99Ms: round(percentile(pushed.latencies, 99), 1),
      maxMs: round(Math.max(...pushed.latencies), 1),
      generatorCpuShare: round(pushed.cpuSeconds / ((holds * PUSH_GAP_MS) / 1000), 3),
    }
    log(`seating-web pushes: ${JSON.stringify(pushes)}`)
    return {
      seats: ROWS * SEATS_PER_ROW,
      profile: `${phone.viewport.width}×${phone.viewport.height} CSS px at deviceScaleFactor ${phone.deviceScaleFactor}, isMobile, hasTouch, CPU slowed ${phone.cpuSlowdown}× (CDP)`,
      firstRender: {
        runs,
        firstSeatsMs,
        allSeatsMs,
        firstSeatsMedianMs: median(firstSeatsMs),
        allSeatsMedianMs: median(allSeatsMs),
        longTasksMs: longTasks[medianRun] ?? 0,
        eventRequestedMs: requests[medianRun]?.event ?? 0,
        mapRequestedMs: requests[medianRun]?.map ?? 0,
        mapReceivedMs: requests[medianRun]?.received ?? 0,
        domNodes,
        unthrottledMs,
      },
      speed,
      midTier,
      churn,
      pushes,
    }
  } finally {
    if (!closed) chromium.stop()
    await server.stop()
    redis.restore()
    rmSync(data.dataDir, { recursive: true, force: true })
  }
}

/** the holds of the churn against the open page; the page's long tasks inside their window */
async function churnOn(page: Page, url: string, eventId: string, tokens: string[]) {
  const generator = spawnPinned(cores.load, [
    'tests/bench/lib/seat-load.ts',
    JSON.stringify({
      mode: 'churn',
      url,
      eventId,
      tokens,
      holdsPerSecond: HOLDS_PER_SECOND,
      seconds: CHURN_SECONDS,
    }),
  ])
  const code = await generator.exited
  const line = generator
    .output()
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .pop()
  if (code !== 0 || !line) throw new Error(`the churn failed (${code}): ${generator.output()}`)
  const load = JSON.parse(line) as {
    startedAt: number
    endedAt: number
    seconds: number
    sent: number
    statuses: Record<string, number>
    changesHeard: number
    cpuSeconds: number
  }
  // the page's last changes drawn
  await page.waitForTimeout(1000)
  const seen = await page.evaluate(
    ({ from, to }) => {
      const bench = (window as unknown as { seatBench: Window }).seatBench
      const origin = performance.timeOrigin
      const inside = bench.longTasks
        .map((t) => ({
          start: Math.max(origin + t.start, from),
          end: Math.min(origin + t.start + t.duration, to),
          duration: t.duration,
        }))
        .filter((t) => t.end > t.start)
      return {
        count: inside.length,
        ms: inside.reduce((sum, t) => sum + (t.end - t.start), 0),
        longest: Math.max(0, ...inside.map((t) => t.duration)),
        blocking: inside.reduce((sum, t) => sum + Math.max(0, t.duration - 50), 0),
        // the picker's count of the section's free seats (its prices table), from the map it holds
        free: Number(document.querySelector('.seat-prices tbody td:last-child')?.textContent),
      }
    },
    { from: load.startedAt, to: load.endedAt },
  )
  const map = (await (await fetch(`${url}/api/v1/event/${eventId}/seatmap`)).json()) as {
    sections: Array<{ rows: Array<{ seats: Array<{ status: string }> }> }>
  }
  const serverFree = map.sections
    .flatMap((s) => s.rows)
    .reduce((n, r) => n + r.seats.filter((seat) => seat.status === 'free').length, 0)
  const windowMs = load.endedAt - load.startedAt
  return {
    seconds: round(load.seconds, 1),
    holdsPerSecond: round((load.statuses['200'] ?? 0) / load.seconds, 1),
    seatChangesPerSecond: round(load.changesHeard / load.seconds, 0),
    holdStatuses: load.statuses,
    longTaskShare: round(seen.ms / windowMs, 3),
    longTasks: seen.count,
    longestTaskMs: round(seen.longest, 0),
    blockingMsPerSecond: round((seen.blocking * 1000) / windowMs, 1),
    generatorCpuShare: round(load.cpuSeconds / load.seconds, 3),
    pageFree: seen.free,
    serverFree,
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  // node --import tsx tests/bench/seating-web.ts [--quick] [--no-build]
  const result = await benchSeatingWeb(
    process.argv.includes('--quick'),
    console.error,
    !process.argv.includes('--no-build'),
  )
  console.log(JSON.stringify(result, null, 2))
}
