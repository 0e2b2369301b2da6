// pg-cluster (issue 39, item 2): how holds scale with app processes on PostgreSQL when the
// database is a network away. A delaying TCP proxy (lib/delay-proxy.ts) stands between the app
// processes and PostgreSQL and adds D ms each way to every chunk, so each round trip costs 2D more;
// N app processes (WORKERS=off) each sell an event of their own, each with a closed loop of 8
// buyers holding a seat again and again (8 holds in flight per process; lib/hold-loop.ts), for a
// fixed window after a warm-up. A process's holds are then bounded by its round trips to the
// database and by whatever the processes wait for together (a lock all appends share), which is
// what more processes would show: with nothing shared, N processes sell N times what one does.
//
// Configurations: D = 5 ms with N = 1, 2 and 4; D = 0 (loopback, no proxy) with one process on
// PostgreSQL and on SQLite (the ratio of the two); and one event's sale at D = 5 ms, 4 processes
// all selling the same event (its holds stay serialised on that event's inventory).
//
// Placement as in the other benches (lib/deploy.ts): the app processes, this database's PostgreSQL
// backends and Redis on the server's core; the load generator and the proxy (the "network") on the
// other. CPU is reported per part as a share of the measured window (1 = one core busy throughout).
import { URL } from 'node:url'
import { serverUrl } from '../support/postgres.ts'
import { deploy, type ServerSideUse } from './lib/deploy.ts'
import { cores, cpuSeconds, type Running, spawnPinned } from './lib/processes.ts'
import { median, round } from './lib/stats.ts'

/** holds in flight per app process (its closed loop's buyers) */
export const CLIENTS_PER_PROCESS = 8

export type PgClusterConfig = {
  /** what the row is called */
  name: string
  store: 'postgres' | 'sqlite'
  /** ms added each way by the proxy; 0: no proxy */
  delayMs: number
  apps: number
  /** every process sells the same event (else each its own) */
  sameEvent: boolean
}

export const pgClusterConfigs: PgClusterConfig[] = [
  { name: 'D5-N1', store: 'postgres', delayMs: 5, apps: 1, sameEvent: false },
  { name: 'D5-N2', store: 'postgres', delayMs: 5, apps: 2, sameEvent: false },
  { name: 'D5-N4', store: 'postgres', delayMs: 5, apps: 4, sameEvent: false },
  { name: 'D5-N4-one-event', store: 'postgres', delayMs: 5, apps: 4, sameEvent: true },
  { name: 'D0-N1', store: 'postgres', delayMs: 0, apps: 1, sameEvent: false },
  { name: 'sqlite-N1', store: 'sqlite', delayMs: 0, apps: 1, sameEvent: false },
]

type LoopResult = {
  answered: number
  holds: number
  replaced: number
  statusCodes: Record<string, number>
  errors: number
  seconds: number
  p50: number
  p99: number
  cpuSeconds: number
}

export type PgClusterRound = {
  /** holds answered in the window */
  holds?: number
  holdsPerSecond: number
  p50Ms: number
  p99Ms: number
  /** answers other than a hold (by status) and failed requests, in the window */
  statusCodes: Record<string, number>
  errors: number
  /** holds that replaced the buyer's last one (every one after a buyer's first) */
  replaced: number
  /** CPU as shares of the window: app processes, PostgreSQL backends, Redis, generator, proxy */
  cpu: { apps: number; database: number; redis: number; generator: number; proxy: number }
  /** how busy the server's and the load's cores were */
  cores: ServerSideUse['cores']
  /** CPU on the server's core that was none of the server side's (others on the machine) */
  otherOnServerCore: number
  seconds: number
}

export type PgClusterFigures = PgClusterConfig & {
  holdsPerSecond: number
  p50Ms: number
  p99Ms: number
  cpu: PgClusterRound['cpu']
  rounds: PgClusterRound[]
  serverWarnings: Record<string, number>
}

export type PgClusterResult = {
  clientsPerProcess: number
  warmupSeconds: number
  seconds: number
  configs: PgClusterFigures[]
}

/** waits until `text` is in a process's output (or it exits) */
async function outputOf(running: Running, text: string, timeoutMs: number): Promise<void> {
  let exited = false
  void running.exited.then(() => {
    exited = true
  })
  const deadline = Date.now() + timeoutMs
  while (!running.output().includes(text)) {
    if (exited) throw new Error(`exited before printing ${text}:\n${running.output()}`)
    if (Date.now() > deadline) throw new Error(`no ${text} within ${timeoutMs} ms:\n${running.output()}`)
    await new Promise((r) => setTimeout(r, 20))
  }
}

/** the delaying proxy in a process of its own on the load's core, in front of `serverUrl`'s port */
async function startProxy(delayMs: number, databaseUrl: string) {
  const target = new URL(databaseUrl)
  const running = spawnPinned(cores.load, [
    'tests/bench/lib/delay-proxy.ts',
    JSON.stringify({ delayMs, target: { host: target.hostname, port: Number(target.port || 5432) } }),
  ])
  await outputOf(running, '"port"', 30_000)
  const line = running
    .output()
    .split('\n')
    .find((l) => l.startsWith('{"port"'))
  const { port } = JSON.parse(line ?? '{}') as { port: number }
  return {
    port,
    pid: running.child.pid ?? 0,
    /** the app's address of a database: the same one, through the proxy */
    via: (url: string) => {
      const proxied = new URL(url)
      proxied.hostname = '127.0.0.1'
      proxied.port = String(port)
      return proxied.toString()
    },
    async stop() {
      running.child.kill('SIGTERM')
      await running.exited
    },
  }
}

async function runOnce(
  config: PgClusterConfig,
  warmupSeconds: number,
  seconds: number,
): Promise<{ round: PgClusterRound; warnings: Record<string, number> }> {
  const proxy = config.delayMs > 0 ? await startProxy(config.delayMs, serverUrl) : null
  try {
    const deployment = await deploy(
      { store: config.store, apps: config.apps },
      {
        buyers: CLIENTS_PER_PROCESS * config.apps,
        events: config.sameEvent ? 1 : config.apps,
        seats: 100_000,
      },
      { WORKERS: 'off', SQLITE_SYNCHRONOUS: 'FULL' },
      proxy ? proxy.via : undefined,
    )
    try {
      const { events, tokens } = deployment.seeded
      const targets = deployment.urls.map((url, i) => {
        const event = events[config.sameEvent ? 0 : i]
        if (!event) throw new Error('no event seeded')
        return {
          url,
          eventId: event.eventId,
          tokens: tokens.slice(i * CLIENTS_PER_PROCESS, (i + 1) * CLIENTS_PER_PROCESS),
        }
      })
      const load = spawnPinned(cores.load, [
        'tests/bench/lib/hold-loop.ts',
        JSON.stringify({ targets, warmupSeconds, seconds }),
      ])
      await outputOf(load, '{"measuring":true}', (warmupSeconds + 60) * 1000)
      const measuring = deployment.measure()
      const proxyBefore = proxy ? cpuSeconds(proxy.pid) : 0
      await outputOf(load, '{"measured":true}', (seconds + 60) * 1000)
      const use = await measuring.end()
      const proxyUsed = proxy ? cpuSeconds(proxy.pid) - proxyBefore : 0
      const code = await load.exited
      const line = load
        .output()
        .trim()
        .split('\n')
        .filter((l) => l.startsWith('{"answered"'))
        .pop()
      if (code !== 0 || !line) throw new Error(`hold loop failed (${code}):\n${load.output()}`)
      const result = JSON.parse(line) as LoopResult
      const share = (cpu: number) => round(cpu / result.seconds, 3)
      const others = { ...result.statusCodes }
      delete others['200']
      return {
        round: {
          holds: result.holds,
          holdsPerSecond: round(result.holds / result.seconds, 1),
          p50Ms: result.p50,
          p99Ms: result.p99,
          statusCodes: others,
          errors: result.errors,
          replaced: result.replaced,
          cpu: {
            apps: share(use.cpuSeconds.apps),
            database: share(use.cpuSeconds.database),
            redis: share(use.cpuSeconds.redis),
            generator: share(result.cpuSeconds),
            proxy: share(proxyUsed),
          },
          cores: use.cores,
          otherOnServerCore: share(use.otherOnServerCore),
          seconds: round(result.seconds, 2),
        },
        warnings: deployment.warnings(),
      }
    } finally {
      await deployment.stop()
    }
  } finally {
    await proxy?.stop()
  }
}

export async function benchPgCluster(
  quick = false,
  log: (line: string) => void = () => {},
  configs = pgClusterConfigs,
): Promise<PgClusterResult> {
  const rounds = quick ? 1 : 3
  const warmupSeconds = quick ? 2 : 5
  const seconds = quick ? 5 : 20
  const figures: PgClusterFigures[] = []
  for (const config of configs) {
    const runs: PgClusterRound[] = []
    const serverWarnings: Record<string, number> = {}
    for (let i = 0; i < rounds; i++) {
      const { round: r, warnings } = await runOnce(config, warmupSeconds, seconds)
      log(`pg-cluster ${config.name} round ${i + 1}: ${JSON.stringify(r)}`)
      runs.push(r)
      for (const [k, n] of Object.entries(warnings)) serverWarnings[k] = (serverWarnings[k] ?? 0) + n
    }
    const mid = (f: (r: PgClusterRound) => number, digits = 1) => round(median(runs.map(f)), digits)
    figures.push({
      ...config,
      holdsPerSecond: mid((r) => r.holdsPerSecond),
      p50Ms: mid((r) => r.p50Ms),
      p99Ms: mid((r) => r.p99Ms),
      cpu: {
        apps: mid((r) => r.cpu.apps, 3),
        database: mid((r) => r.cpu.database, 3),
        redis: mid((r) => r.cpu.redis, 3),
        generator: mid((r) => r.cpu.generator, 3),
        proxy: mid((r) => r.cpu.proxy, 3),
      },
      rounds: runs,
      serverWarnings,
    })
  }
  return { clientsPerProcess: CLIENTS_PER_PROCESS, warmupSeconds, seconds, configs: figures }
}

/** the targets over a result: each null when a figure it needs was not measured */
export function pgClusterVerdicts(r: PgClusterResult) {
  const of = (name: string) => r.configs.find((c) => c.name === name)?.holdsPerSecond
  const one = of('D5-N1')
  const two = of('D5-N2')
  const four = of('D5-N4')
  const pgLoop = of('D0-N1')
  const sqlite = of('sqlite-N1')
  /** a ÷ b against a least ratio, when both were measured */
  const against = (a: number | undefined, b: number | undefined, least: number) => {
    if (a === undefined || !b) return null
    const ratio = round(a / b, 3)
    return { ratio, met: ratio >= least }
  }
  return {
    one: one === undefined ? null : { holdsPerSecond: one, met: one >= 150 },
    two: against(two, one, 1.7),
    four: against(four, one, 3),
    loopback: against(pgLoop, sqlite, 0.5),
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  // node --import tsx tests/bench/pg-cluster.ts [--quick] [config names…]
  const args = process.argv.slice(2)
  const names = args.filter((a) => !a.startsWith('--'))
  const configs = names.length ? pgClusterConfigs.filter((c) => names.includes(c.name)) : pgClusterConfigs
  const result = await benchPgCluster(args.includes('--quick'), console.error, configs)
  console.log(JSON.stringify({ ...result, verdicts: pgClusterVerdicts(result) }, null, 2))
}
