// hold-profile (issue 39, item 3): where the server's CPU goes in a hold, by part. The app on one
// core (SQLite, synchronous FULL) as the flash sale runs it; wrk on the other core, 32 connections,
// each request a buyer's hold of 1 seat of one event, the buyers taken in turn from 1,000, so each
// hold in the window replaces that buyer's last (POST /api/v1/ticket/create: an unpaid hold of the
// same event is released by the new one). 3 s of warm-up, then a 10 s window, three times on a
// fresh seed and server each:
//   plain    nothing added: holds/s, p99, the server's CPU per hold
//   profile  node's --cpu-prof (the main thread sampled every 250 µs): the samples of the window,
//            each given to one part by its stack (lib/cpu-parts.ts)
//   count    every SQLite statement counted (lib/sql-count.cjs): statements per hold, by SQL
// The profiled run's own CPU per hold is split by the profile's shares; the plain run is the figure
// to compare with other benches (the profiler's cost is the difference).
import { mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import Database from 'better-sqlite3'
import { type Attribution, attribute, type CpuProfile } from './lib/cpu-parts.ts'
import {
  type AppServer,
  coreTimes,
  coreUse,
  cpuSeconds,
  pinRedisToServerCore,
  root,
  startAppServer,
} from './lib/processes.ts'
import { seed } from './lib/seed.ts'
import { round } from './lib/stats.ts'
import { hasWrk, runWrk, tokenLines, type WrkResult } from './lib/wrk.ts'

const CONNECTIONS = 32
/** buyers taken in turn: more than the connections, so no buyer has two holds in flight */
const BUYERS = 1000
const WARMUP_SECONDS = 3
const SECONDS = 10
/** µs between the profiler's samples */
const SAMPLE_US = 250

export type HoldWindow = {
  holdsPerSecond: number
  /** every answer per second (a refusal would count here) */
  requestsPerSecond: number
  p50Ms: number
  p99Ms: number
  holds: number
  /** the server process's CPU (every thread) per hold answered, µs */
  cpuPerHoldUs: number
  /** the server's main thread's CPU per hold, µs (the rest: V8's and libuv's helper threads) */
  mainThreadCpuPerHoldUs: number
  /** the server's CPU ÷ the window (1: its core busy throughout) */
  serverCpuShare: number
  /** wrk's CPU ÷ the window */
  generatorCpuShare: number
  /** Redis's CPU per hold, µs (the jobs' other half; pinned to the server's core) */
  redisCpuPerHoldUs: number
  /** CPU on the server's core that was neither the server nor Redis (others on the machine), as a
   * share of the window */
  otherOnServerCore: number
  /** the server's threads by name: CPU per hold, µs */
  threads: Record<string, number>
  /** holds in the window that released the buyer's previous hold (PaymentFailed, released) */
  replaced: number
  errors: number
}

/** a row of the table: a part's share of the server's CPU in a hold and its µs per hold */
export type PartRow = { part: string; share: number; usPerHold: number }

export type HoldProfileResult = {
  connections: number
  buyers: number
  warmupSeconds: number
  seconds: number
  sampleIntervalUs: number
  plain: HoldWindow
  profiled: HoldWindow & { profile: string; attribution: Attribution }
  /**
   * The plain run's CPU per hold split by the profile: the main thread's CPU by the parts' shares
   * of its samples (the time spent off the CPU in a commit taken out: see offCpu), the other
   * threads apart. Adds up to the plain run's cpuPerHoldUs and to 100%.
   */
  table: PartRow[]
  /** the profiled main thread's samples that were not on the CPU: sampled time − its CPU time, ms;
   * taken from the commits' samples (waiting for fsync), per hold in µs of wall time */
  offCpu: { ms: number; commitMs: number; usPerHold: number }
  statements: {
    perHold: number
    /** each statement's runs per hold and µs per run, by its SQL, most runs first */
    bySql: Array<{ sql: string; perHold: number; usPerRun: number }>
  }
}

/** CPU seconds of one thread of a process (utime + stime, 100 Hz) */
function threadCpuSeconds(pid: number, tid: number): number {
  try {
    const fields = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? []
    return (Number(fields[11]) + Number(fields[12])) / 100
  } catch {
    return 0
  }
}

/** CPU seconds of each thread of a process, by its name (threads of one name added up) */
function threadsCpu(pid: number): Map<string, number> {
  const byName = new Map<string, number>()
  let tids: string[] = []
  try {
    tids = readdirSync(`/proc/${pid}/task`)
  } catch {
    return byName
  }
  for (const tid of tids) {
    try {
      const name = Number(tid) === pid ? 'main' : readFileSync(`/proc/${pid}/task/${tid}/comm`, 'utf8').trim()
      byName.set(name, (byName.get(name) ?? 0) + threadCpuSeconds(pid, Number(tid)))
    } catch {
      // gone meanwhile
    }
  }
  return byName
}

/** facts of the window's sort, counted in the store after the server stopped */
function countFacts(dataDir: string, type: string, fromPosition: number): number {
  const db = new Database(join(dataDir, 'ticketing.sqlite'), { readonly: true })
  try {
    return (
      db
        .prepare('SELECT count(*) AS n FROM ledger WHERE type = ? AND position > ?')
        .get(type, fromPosition) as { n: number }
    ).n
  } finally {
    db.close()
  }
}

const headOf = (dataDir: string) => {
  const db = new Database(join(dataDir, 'ticketing.sqlite'), { readonly: true })
  try {
    return (db.prepare('SELECT coalesce(max(position), 0) AS p FROM ledger').get() as { p: number }).p
  } finally {
    db.close()
  }
}

type Run = {
  window: HoldWindow
  /** the window on the monotonic clock, µs (the profile's clock) */
  startUs: number
  endUs: number
  server: AppServer
  dataDir: string
}

/**
 * One run: a fresh seed and server (given `flags`), warmed up, then measured; `around` is called
 * with the server just before and just after the window.
 */
async function holdRun(
  tag: string,
  flags: string[],
  env: Record<string, string> = {},
  around: (server: AppServer, when: 'start' | 'end') => void = () => {},
): Promise<Run> {
  const seeded = seed({ buyers: BUYERS, events: 1, seats: BUYERS * 2 })
  const event = seeded.events[0]
  if (!event) throw new Error('no event seeded')
  // Redis is the server's side (its jobs): on the server's core, as in lib/deploy.ts
  const redis = pinRedisToServerCore()
  const server = await startAppServer(
    seeded.dataDir,
    { SQLITE_SYNCHRONOUS: 'FULL', QUEUE_PREFIX: `bench-hold-profile-${tag}-${Date.now()}`, ...env },
    undefined,
    flags,
  )
  try {
    const load = {
      url: server.url,
      method: 'POST' as const,
      path: '/api/v1/ticket/create',
      tokenLinesFile: tokenLines(seeded.tokensFile),
      body: { eventId: event.eventId, ticketType: 'General Admission', quantity: 1 },
      connections: CONNECTIONS,
    }
    runWrk({ ...load, seconds: WARMUP_SECONDS })
    const head = headOf(seeded.dataDir)
    around(server, 'start')
    const startUs = Number(process.hrtime.bigint() / 1000n)
    const redisCpu = () => redis.pids.reduce((sum, pid) => sum + cpuSeconds(pid), 0)
    const coresBefore = coreTimes()
    const redisBefore = redisCpu()
    const cpuBefore = cpuSeconds(server.pid)
    const threadsBefore = threadsCpu(server.pid)
    const w: WrkResult = runWrk({ ...load, seconds: SECONDS })
    const cpu = cpuSeconds(server.pid) - cpuBefore
    const threadsAfter = threadsCpu(server.pid)
    const redisUsed = redisCpu() - redisBefore
    const use = coreUse(coresBefore, coreTimes())
    const endUs = Number(process.hrtime.bigint() / 1000n)
    around(server, 'end')
    const threads: Record<string, number> = {}
    for (const [name, after] of threadsAfter) {
      const used = after - (threadsBefore.get(name) ?? 0)
      if (used > 0) threads[name] = round((used * 1e6) / w.ok, 1)
    }
    const main = (threadsAfter.get('main') ?? 0) - (threadsBefore.get('main') ?? 0)
    const replaced = countFacts(seeded.dataDir, 'PaymentFailed', head)
    return {
      window: {
        holdsPerSecond: round(w.okPerSecond, 0),
        requestsPerSecond: round(w.requestsPerSecond, 0),
        p50Ms: round(w.p50Ms, 2),
        p99Ms: round(w.p99Ms, 2),
        holds: w.ok,
        cpuPerHoldUs: round((cpu * 1e6) / w.ok, 1),
        mainThreadCpuPerHoldUs: round((main * 1e6) / w.ok, 1),
        serverCpuShare: round(cpu / w.seconds, 3),
        generatorCpuShare: round(w.cpuSeconds / w.seconds, 3),
        redisCpuPerHoldUs: round((redisUsed * 1e6) / w.ok, 1),
        otherOnServerCore: round(Math.max(0, use.server - (cpu + redisUsed) / w.seconds), 3),
        threads,
        replaced,
        errors: w.requests - w.ok + w.socketErrors + w.timeouts,
      },
      startUs,
      endUs,
      server,
      dataDir: seeded.dataDir,
    }
  } catch (error) {
    await server.stop()
    rmSync(seeded.dataDir, { recursive: true, force: true })
    throw error
  } finally {
    redis.restore()
  }
}

async function finish(run: Run) {
  await run.server.stop()
  rmSync(run.dataDir, { recursive: true, force: true })
}

export async function benchHoldProfile(log: (line: string) => void = () => {}): Promise<HoldProfileResult> {
  if (!hasWrk()) throw new Error('hold-profile needs wrk (apt-get install -y wrk)')
  const stamp = new Date().toISOString().replace(/[:.]/g, '-')
  const dir = join(root, 'tests/bench/results/tmp/hold-profile', stamp)
  mkdirSync(dir, { recursive: true })

  const plain = await holdRun('plain', [])
  await finish(plain)
  log(`plain: ${JSON.stringify(plain.window)}`)

  const profiled = await holdRun('profile', [
    '--cpu-prof',
    `--cpu-prof-dir=${dir}`,
    `--cpu-prof-interval=${SAMPLE_US}`,
  ])
  await finish(profiled)
  // one profile per thread (CPU.<date>.<time>.<pid>.<thread id>.<n>.cpuprofile): the main thread is 0
  const files = readdirSync(dir).filter(
    (f) => f.endsWith('.cpuprofile') && f.includes(`.${profiled.server.pid}.0.`),
  )
  const file = files[0]
  if (!file) throw new Error(`no profile of the main thread in ${dir}: ${readdirSync(dir).join(', ')}`)
  const path = join(dir, file)
  const profile = JSON.parse(readFileSync(path, 'utf8')) as CpuProfile
  const attribution = attribute(profile, profiled.startUs, profiled.endUs)
  log(`profiled: ${JSON.stringify(profiled.window)}; profile ${path}`)

  const countFile = join(dir, 'statements.jsonl')
  const signal = (server: AppServer) => {
    process.kill(server.pid, 'SIGUSR2')
    // the server writes its line between two requests: wait until it is there
    const lines = () => {
      try {
        return readFileSync(countFile, 'utf8').split('\n').filter(Boolean).length
      } catch {
        return 0
      }
    }
    const before = lines()
    const deadline = Date.now() + 5000
    while (lines() === before && Date.now() < deadline)
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 20)
  }
  const counted = await holdRun(
    'count',
    ['--require', './tests/bench/lib/sql-count.cjs'],
    { BENCH_SQL_COUNT: countFile },
    (server) => signal(server),
  )
  await finish(counted)
  const [first, last] = readFileSync(countFile, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Record<string, { runs: number; ns: number; statements?: number }>)
  if (!first || !last) throw new Error('the statement counts were not written')
  const holds = counted.window.holds
  const bySql = Object.entries(last)
    .map(([sql, s]) => {
      const runs = s.runs - (first[sql]?.runs ?? 0)
      const ns = s.ns - (first[sql]?.ns ?? 0)
      return { sql, runs, statements: runs * (s.statements ?? 1), ns }
    })
    .filter((s) => s.runs > 0)
    .sort((a, b) => b.statements - a.statements)
  const statements = bySql.reduce((sum, s) => sum + s.statements, 0)
  log(`counted: ${JSON.stringify(counted.window)}`)

  // The main thread's samples cover its time on the CPU and its waits inside JavaScript (a
  // synchronous fsync); the difference from its CPU time is taken from the commits' samples.
  const p = profiled.window
  const sampledCpuMs = (p.threads.main ?? 0) * (p.holds / 1000)
  const offCpuMs = Math.max(0, attribution.busyMs - sampledCpuMs)
  const commitMs = attribution.parts.reduce((sum, x) => sum + x.commitMs, 0)
  const onCpu = attribution.parts.map((x) => {
    const waited = commitMs > 0 ? Math.min(x.commitMs, (offCpuMs * x.commitMs) / commitMs) : 0
    return { part: x.part, ms: x.ms - waited }
  })
  const onCpuMs = onCpu.reduce((sum, x) => sum + x.ms, 0)
  const mainUs = plain.window.threads.main ?? plain.window.mainThreadCpuPerHoldUs
  const table: PartRow[] = onCpu.map((x) => ({
    part: x.part === 'other' ? 'other (main thread: GC, V8, the event loop)' : x.part,
    share: 0,
    usPerHold: (mainUs * x.ms) / onCpuMs,
  }))
  for (const [name, us] of Object.entries(plain.window.threads))
    if (name !== 'main')
      table.push({
        // Node 20 names its threads 'node': V8's platform workers (concurrent and parallel GC,
        // background compilation) and libuv's pool, which a hold does not use
        part: name === 'node' ? "other threads (V8's helpers: GC, compilation)" : `other thread: ${name}`,
        share: 0,
        usPerHold: us,
      })
  const total = table.reduce((sum, x) => sum + x.usPerHold, 0)
  for (const row of table) {
    row.share = round(row.usPerHold / total, 4)
    row.usPerHold = round(row.usPerHold, 1)
  }

  return {
    connections: CONNECTIONS,
    buyers: BUYERS,
    warmupSeconds: WARMUP_SECONDS,
    seconds: SECONDS,
    sampleIntervalUs: SAMPLE_US,
    plain: plain.window,
    profiled: { ...profiled.window, profile: path, attribution },
    table,
    offCpu: {
      ms: Math.round(offCpuMs),
      commitMs: Math.round(commitMs),
      usPerHold: round((offCpuMs * 1000) / p.holds, 1),
    },
    statements: {
      perHold: round(statements / holds, 1),
      bySql: bySql.map((s) => ({
        sql: s.sql.slice(0, 300),
        perHold: round((s.runs * 1) / holds, 2),
        usPerRun: round(s.ns / s.runs / 1000, 1),
      })),
    },
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const result = await benchHoldProfile((line) => console.log(line))
  console.log(JSON.stringify(result, null, 2))
}
