// The server side of a sale bench in one of its variants (issue 15, "Figures"): the store (SQLite
// under one data folder, or PostgreSQL at DATABASE_URL) and 1 or 2 app processes (each running its
// workers inline, all on one Redis under one QUEUE_PREFIX), seeded the same way on both stores.
//
// The whole server side runs on the server's core, as the app and SQLite do in the other benches:
// the app processes (startAppServer pins them), the machine's Redis (pinRedisToServerCore) and, on
// PostgreSQL, every backend serving this bench's database (pinned as they connect, polled from
// pg_stat_activity). The clients' core then holds only the load generator, and the stores are
// compared on the same budget: one core for everything that is the server's. Two app processes
// therefore share that one core too: the figures say what a second process costs or gains on the
// same hardware (coordination through the store and Redis), not what a second machine would add.
//
// measure() reports, between its start and end, how busy each core was and the CPU time of each
// part of the server side (the app processes, this database's PostgreSQL backends, Redis), so
// what a paid order or a request costs can be split between the app and the store, and so any CPU
// on the server's core that is none of these (another program on the machine) shows.
import { spawnSync } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { rmSync } from 'node:fs'
import { join } from 'node:path'
import Database from 'better-sqlite3'
import pg from 'pg'
import { dropQueuePrefix } from '../../support/faults.ts'
import { freshDatabase, serverUrl } from '../../support/postgres.ts'
import {
  type AppServer,
  cores,
  coreTimes,
  coreUse,
  cpuSeconds,
  pinRedisToServerCore,
  spawnPinned,
  startAppServer,
} from './processes.ts'
import { type Seeded, seed, seedPostgres } from './seed.ts'

/** the store and how many app processes (1 or 2 in sale-stores; pg-cluster runs up to 4), and
 * how many worker processes beside them (workers/main.ts, the apps then running none inline; none by
 * default: each app runs its workers) */
export type Variant = { store: 'sqlite' | 'postgres'; apps: number; workers?: number }

export const variants: Variant[] = [
  { store: 'sqlite', apps: 1 },
  { store: 'sqlite', apps: 2 },
  { store: 'postgres', apps: 1 },
  { store: 'postgres', apps: 2 },
]

/** What the server side used between measure() and end(). */
export type ServerSideUse = {
  seconds: number
  /** how busy the server's and the load's cores were, as shares of 1 */
  cores: { server: number; load: number }
  /** CPU seconds of the app processes, of the worker processes (0 when the apps run them inline),
   * of this database's PostgreSQL backends (0 on SQLite) and of the machine's Redis (shared with
   * anything else that uses it) */
  cpuSeconds: { apps: number; workers: number; database: number; redis: number }
  /** CPU seconds on the server's core that were none of the above (others on the machine) */
  otherOnServerCore: number
}

export type Deployment = {
  seeded: Seeded
  servers: AppServer[]
  urls: string[]
  /** the Redis and the QUEUE_PREFIX the app processes' job queues live under */
  queues: { redisUrl: string; prefix: string }
  /** seats held and sold of a ticket type, from the store's inventory read model */
  inventory(ticketTypeId: string): Promise<{ held: number; sold: number }>
  measure(): { end(): Promise<ServerSideUse> }
  /** the app processes' warnings and errors so far, by message (they log at warn) */
  warnings(): Record<string, number>
  stop(): Promise<void>
}

/** Counts the log lines at warn or above in a server's output, by message (and error message). */
export function warningsIn(output: string, into: Record<string, number> = {}): Record<string, number> {
  for (const line of output.split('\n')) {
    if (!line.startsWith('{')) continue
    try {
      const entry = JSON.parse(line) as { level?: number; msg?: string; err?: { message?: string } }
      if ((entry.level ?? 0) < 40) continue
      const key = `${entry.msg ?? ''}${entry.err?.message ? `: ${entry.err.message}` : ''}`.slice(0, 200)
      into[key] = (into[key] ?? 0) + 1
    } catch {
      // not a log line
    }
  }
  return into
}

const redisUrl = process.env.REDIS_URL?.startsWith('redis') ? process.env.REDIS_URL : 'redis://127.0.0.1:6379'

/** Keeps every backend of one database on the server's core, and their CPU time as last seen. */
function databaseBackends(name: string) {
  const client = new pg.Client({ connectionString: serverUrl })
  /** pid → CPU seconds when last seen */
  const seen = new Map<number, number>()
  let polling: Promise<void> = Promise.resolve()
  let timer: NodeJS.Timeout | undefined
  const mask = (1 << cores.server).toString(16)
  const poll = async () => {
    const { rows } = await client.query<{ pid: number }>(
      'SELECT pid FROM pg_stat_activity WHERE datname = $1',
      [name],
    )
    for (const { pid } of rows) {
      if (!seen.has(pid)) spawnSync('taskset', ['-p', mask, String(pid)], { stdio: 'ignore' })
      const cpu = cpuSeconds(pid)
      // a backend gone meanwhile reads 0: keep what it had used
      if (cpu > 0 || !seen.has(pid)) seen.set(pid, Math.max(cpu, seen.get(pid) ?? 0))
    }
  }
  return {
    async start() {
      await client.connect()
      await poll()
      timer = setInterval(() => {
        polling = polling.then(poll).catch(() => {})
      }, 100)
    },
    /** a snapshot of every backend's CPU so far (those that connect later start from 0) */
    async snapshot(): Promise<Map<number, number>> {
      polling = polling.then(poll).catch(() => {})
      await polling
      return new Map(seen)
    },
    async stop() {
      clearInterval(timer)
      await polling
      await client.end().catch(() => {})
    },
  }
}

/**
 * Seeds the store, starts the app processes on it (each pinned to the server's core) and moves
 * the rest of the server side there too. `env` is given to every app process.
 */
export async function deploy(
  variant: Variant,
  seedOptions: { buyers: number; events: number; seats: number; seatedVip?: boolean },
  env: Record<string, string>,
  /** the address the app processes reach PostgreSQL at, from the database's own (a proxy's, in
   * pg-cluster); seeding and the bench's own reads use the database's */
  appDatabaseUrl: (url: string) => string = (url) => url,
): Promise<Deployment> {
  const prefix = `bench-${variant.store}-${variant.apps}-${Date.now()}`
  const cleanups: Array<() => Promise<void> | void> = []
  const stop = async () => {
    for (const cleanup of cleanups.reverse()) await cleanup()
  }
  try {
    let seeded: Seeded
    let storeEnv: Record<string, string>
    let inventory: Deployment['inventory']
    let backends: ReturnType<typeof databaseBackends> | null = null
    if (variant.store === 'postgres') {
      const database = await freshDatabase()
      cleanups.push(() => database.drop())
      const jwtSecret = randomBytes(48).toString('base64url')
      seeded = await seedPostgres({ ...seedOptions, databaseUrl: database.url, jwtSecret })
      storeEnv = { DATABASE_URL: appDatabaseUrl(database.url), JWT_SECRET: jwtSecret }
      const name = new URL(database.url).pathname.slice(1)
      backends = databaseBackends(name)
      await backends.start()
      const watcher = backends
      cleanups.push(() => watcher.stop())
      inventory = async (ticketTypeId) => {
        const client = new pg.Client({ connectionString: database.url })
        await client.connect()
        try {
          const { rows } = await client.query<{ held: number; sold: number }>(
            'SELECT held, sold FROM inventory WHERE ticket_type_id = $1',
            [ticketTypeId],
          )
          return { held: rows[0]?.held ?? 0, sold: rows[0]?.sold ?? 0 }
        } finally {
          await client.end()
        }
      }
    } else {
      seeded = seed(seedOptions)
      storeEnv = {}
      inventory = async (ticketTypeId) => {
        const db = new Database(join(seeded.dataDir, 'ticketing.sqlite'), { readonly: true })
        try {
          const row = db
            .prepare('SELECT held, sold FROM inventory WHERE ticket_type_id = ?')
            .get(ticketTypeId) as { held: number; sold: number } | undefined
          return { held: row?.held ?? 0, sold: row?.sold ?? 0 }
        } finally {
          db.close()
        }
      }
    }
    const dataDir = seeded.dataDir
    cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }))
    cleanups.push(() => dropQueuePrefix(redisUrl, prefix))
    const redis = pinRedisToServerCore()
    cleanups.push(() => redis.restore())
    const servers: AppServer[] = []
    cleanups.push(async () => {
      await Promise.all(servers.map((s) => s.stop()))
    })
    const separateWorkers = variant.workers ?? 0
    const appEnv = {
      ...env,
      ...storeEnv,
      QUEUE_PREFIX: prefix,
      ...(separateWorkers > 0 ? { WORKERS: 'off' } : {}),
    }
    for (let i = 0; i < variant.apps; i++) servers.push(await startAppServer(dataDir, appEnv))
    const workers: number[] = []
    for (let i = 0; i < separateWorkers; i++) workers.push(await startWorkers(dataDir, appEnv, cleanups))
    const redisCpu = () => redis.pids.reduce((sum, pid) => sum + cpuSeconds(pid), 0)
    const appsCpu = () => servers.reduce((sum, s) => sum + cpuSeconds(s.pid), 0)
    const workersCpu = () => workers.reduce((sum, pid) => sum + cpuSeconds(pid), 0)
    return {
      seeded,
      servers,
      urls: servers.map((s) => s.url),
      queues: { redisUrl, prefix },
      inventory,
      measure() {
        const started = performance.now()
        const coresBefore = coreTimes()
        const apps = appsCpu()
        const workersBefore = workersCpu()
        const redisBefore = redisCpu()
        const database = backends?.snapshot()
        return {
          async end() {
            const seconds = (performance.now() - started) / 1000
            const use = coreUse(coresBefore, coreTimes())
            const appsUsed = appsCpu() - apps
            const workersUsed = workersCpu() - workersBefore
            const redisUsed = redisCpu() - redisBefore
            let databaseUsed = 0
            if (backends && database) {
              const before = await database
              const after = await backends.snapshot()
              for (const [pid, cpu] of after) databaseUsed += cpu - (before.get(pid) ?? 0)
            }
            const round3 = (n: number) => Math.round(n * 1000) / 1000
            return {
              seconds: round3(seconds),
              cores: use,
              cpuSeconds: {
                apps: round3(appsUsed),
                workers: round3(workersUsed),
                database: round3(databaseUsed),
                redis: round3(redisUsed),
              },
              otherOnServerCore: round3(
                Math.max(0, use.server * seconds - appsUsed - workersUsed - databaseUsed - redisUsed),
              ),
            }
          },
        }
      },
      warnings() {
        const counts: Record<string, number> = {}
        for (const s of servers) warningsIn(s.output(), counts)
        return counts
      },
      stop,
    }
  } catch (error) {
    await stop()
    throw error
  }
}

/** A worker process (workers/main.ts) on the server's core, as the app processes are: started and
 * waited for until it says its workers run; stopped with the deployment. Its pid. */
async function startWorkers(
  dataDir: string,
  env: Record<string, string>,
  cleanups: Array<() => Promise<void> | void>,
): Promise<number> {
  // BENCH_SERVER_PROF=<dir>: a V8 CPU profile there when it stops, as the app processes write theirs
  const profile = process.env.BENCH_SERVER_PROF
  const flags = profile ? ['--cpu-prof', `--cpu-prof-dir=${profile}`] : []
  // BENCH_SQL_STATS=<file>: its SQLite statements' costs in <file>.worker (the app's go in <file>)
  const sqlStats = process.env.BENCH_SQL_STATS
  if (sqlStats) flags.push('--require', './tests/bench/lib/sql-stats.cjs')
  // BENCH_SERVER_FLAGS: node's or V8's flags, as the app processes get them
  if (process.env.BENCH_SERVER_FLAGS)
    flags.push(...process.env.BENCH_SERVER_FLAGS.split(/\s+/).filter(Boolean))
  const running = spawnPinned(cores.server, [...flags, 'workers/main.ts'], {
    DATA_DIR: dataDir,
    RATE_LIMITS: 'off',
    NODE_ENV: 'test',
    ...env,
    ...(sqlStats ? { BENCH_SQL_STATS: `${sqlStats}.worker` } : {}),
    WORKERS: 'inline',
    // its one line at info says it runs; it logs nothing else below warn
    LOG_LEVEL: 'info',
  })
  cleanups.push(async () => {
    running.child.kill('SIGTERM')
    await running.exited
  })
  const deadline = Date.now() + 40_000
  while (!running.output().includes('Workers are running')) {
    if (running.child.exitCode !== null || Date.now() > deadline)
      throw new Error(`the worker process did not start:\n${running.output().slice(-3000)}`)
    await new Promise((r) => setTimeout(r, 100))
  }
  return running.child.pid ?? 0
}
