// The flash sale's holds through nginx (deploy/nginx.conf) against the same sale straight at the
// app, both under wrk with 100 connections (issue 18). Node 20's libuv accepts one connection per
// turn of the event loop, and a busy app's turns are long (a batch of holds each): connections
// opened while the sale runs wait turns to be accepted. nginx keeps up to `keepalive` idle
// connections to the app; with fewer than the requests it has in flight, it closes and opens
// connections to the app all through the sale. The variant with 32 (the file's value before) shows
// what that costs.
import { spawn, spawnSync } from 'node:child_process'
import { rmSync } from 'node:fs'
import { type Balancer, startBalancer } from '../support/balancer.ts'
import { cores, runLoad, startAppServer } from './lib/processes.ts'
import { seed } from './lib/seed.ts'
import { median, round } from './lib/stats.ts'
import { hasWrk, runWrk, tokenLines, wrkArgs } from './lib/wrk.ts'

const CONNECTIONS = 100
const WARMUP_SECONDS = 3
const SECONDS = 10
/** deploy/nginx.conf's line, and the variant before it */
const KEEPALIVE = 'keepalive 512;'
const BEFORE = 'keepalive 32;'

type Way = 'direct' | 'nginx' | 'nginx-32'

/** a fresh seed and app, with nginx in front (startBalancer's variants) pinned to the load core */
async function deployed(
  events: number,
  env: Record<string, string>,
  nginx: Parameters<typeof startBalancer>[1] | null,
  replace?: Parameters<typeof startBalancer>[2],
) {
  const data = seed({ buyers: 60_000, events, seats: 60_000 })
  const server = await startAppServer(data.dataDir, {
    SQLITE_SYNCHRONOUS: 'FULL',
    QUEUE_PREFIX: `bench-balancer-${Date.now()}`,
    ...env,
  })
  let balancer: Balancer | undefined
  const stop = async () => {
    await balancer?.stop()
    await server.stop()
    rmSync(data.dataDir, { recursive: true, force: true })
  }
  try {
    if (nginx) {
      balancer = await startBalancer([server.port], nginx, replace)
      // nginx (one process) on the load generator's core, off the app's
      spawnSync('taskset', ['-a', '-p', '-c', String(cores.load), String(balancer.proc.pid)])
    }
  } catch (error) {
    await stop()
    throw error
  }
  const [event, warmup] = data.events
  if (!event) throw new Error('no event seeded')
  return { data, event, warmup, url: balancer?.url ?? server.url, stop }
}

const hold = (eventId: string) => ({ eventId, ticketType: 'General Admission', quantity: 1 })
type Run = { holdsPerSecond: number; p50Ms: number; p99Ms: number; wrkCpuShare: number }

async function once(way: Way): Promise<Run> {
  const app = await deployed(
    2,
    {},
    way === 'direct' ? null : [],
    way === 'nginx-32' ? { [KEEPALIVE]: BEFORE } : {},
  )
  try {
    if (!app.warmup) throw new Error('no event seeded')
    const load = {
      url: app.url,
      method: 'POST' as const,
      path: '/api/v1/ticket/create',
      tokenLinesFile: tokenLines(app.data.tokensFile),
      connections: CONNECTIONS,
    }
    runWrk({ ...load, body: hold(app.warmup.eventId), seconds: WARMUP_SECONDS })
    const r = runWrk({ ...load, body: hold(app.event.eventId), seconds: SECONDS })
    return {
      holdsPerSecond: r.okPerSecond,
      p50Ms: r.p50Ms,
      p99Ms: r.p99Ms,
      wrkCpuShare: r.cpuSeconds / r.seconds,
    }
  } finally {
    await app.stop()
  }
}

export type BalancedSaleResult = {
  connections: number
  rounds: number
  /** 300 live clients opened during the sale through nginx, per round: as the file has it, and before */
  liveClients: number
  live: LiveConnects[]
  liveBefore: LiveConnects[]
  ways: Record<
    Way,
    { holdsPerSecond: number; p50Ms: number; p99Ms: number; p99Spread: number[]; wrkCpuShare: number }
  >
}

/** each way in turn, `rounds` times (a drift of the machine falls on all three); medians */
export async function benchBalancedSale(rounds = 3): Promise<BalancedSaleResult | undefined> {
  if (!hasWrk()) return undefined
  const ways: Way[] = ['direct', 'nginx', 'nginx-32']
  const runs = new Map<Way, Run[]>(ways.map((w) => [w, []]))
  const live: LiveConnects[] = []
  const liveBefore: LiveConnects[] = []
  for (let i = 0; i < rounds; i++) {
    for (const way of ways) runs.get(way)?.push(await once(way))
    live.push(await liveConnects(false))
    liveBefore.push(await liveConnects(true))
  }
  const figures = (of: Run[]) => ({
    holdsPerSecond: round(median(of.map((r) => r.holdsPerSecond)), 0),
    p50Ms: round(median(of.map((r) => r.p50Ms)), 1),
    p99Ms: round(median(of.map((r) => r.p99Ms)), 1),
    p99Spread: of.map((r) => round(r.p99Ms, 1)).sort((a, b) => a - b),
    wrkCpuShare: round(median(of.map((r) => r.wrkCpuShare)), 3),
  })
  return {
    connections: CONNECTIONS,
    rounds,
    liveClients: LIVE_CLIENTS,
    live,
    liveBefore,
    ways: Object.fromEntries(ways.map((w) => [w, figures(runs.get(w) ?? [])])) as BalancedSaleResult['ways'],
  }
}

/** the live upstream's keepalive line (deploy/nginx.conf), dropped for the variant before it */
const LIVE_KEEPALIVE = 'keepalive 1024;'
const LIVE_CLIENTS = 300

export type LiveConnects = {
  connected: number
  errors: Record<string, number>
  p50Ms: number
  p90Ms: number
  maxMs: number
}

/**
 * 300 Socket.IO clients (long-polling, then the upgrade) opened at once through nginx while the sale
 * runs (wrk, 100 connections, through nginx too): the live upstream as the file has it, or as before,
 * keeping no idle connection to the app (each long-polling request on a new one).
 */
async function liveConnects(before: boolean): Promise<LiveConnects> {
  const app = await deployed(1, { LIVE_CONNECTIONS_PER_ADDRESS: '100000' }, before ? [LIVE_KEEPALIVE] : [])
  try {
    const sale = spawn(
      'taskset',
      wrkArgs({
        url: app.url,
        method: 'POST',
        path: '/api/v1/ticket/create',
        tokenLinesFile: tokenLines(app.data.tokensFile),
        body: hold(app.event.eventId),
        connections: CONNECTIONS,
        seconds: WARMUP_SECONDS + SECONDS,
      }),
      { stdio: 'ignore' },
    )
    try {
      await new Promise((resolve) => setTimeout(resolve, WARMUP_SECONDS * 1000))
      return await runLoad<LiveConnects>('tests/bench/lib/live-connects.ts', {
        url: app.url,
        count: LIVE_CLIENTS,
      })
    } finally {
      sale.kill()
    }
  } finally {
    await app.stop()
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(JSON.stringify(await benchBalancedSale(Number(process.argv[2] ?? 1)), null, 2))
}
