// Processes for the HTTP benchmarks: the server and the load generator each pinned to a core of
// its own (taskset), so they do not take each other's CPU.
import { type ChildProcess, spawn, spawnSync } from 'node:child_process'
import { readdirSync, readFileSync } from 'node:fs'
import { cpus } from 'node:os'
import { resolve } from 'node:path'
import { freePort } from '../../support/server.ts'

export const root = resolve(import.meta.dirname, '../../..')
const lastCore = Math.max(0, cpus().length - 1)
/** the server's core and the load generator's core */
export const cores = { server: 0, load: lastCore }

export type Running = {
  child: ChildProcess
  /** stdout and stderr as they came */
  output: () => string
  /** stdout alone */
  stdout: () => string
  /** once the process has exited and its output has all been read */
  exited: Promise<number | null>
}

export function spawnPinned(core: number, args: string[], env: Record<string, string> = {}): Running {
  const child = spawn('taskset', ['-c', String(core), process.execPath, '--import', 'tsx', ...args], {
    cwd: root,
    // Whatever runs on the server's core (the app and its baselines alike) runs as `npm start` and
    // the Dockerfile run the app: glibc maps allocations of 128 kB and more and gives them back when
    // freed (docs/performance.md: the soak).
    env: { ...process.env, ...(core === cores.server ? { MALLOC_MMAP_THRESHOLD_: '131072' } : {}), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let output = ''
  let stdout = ''
  child.stdout?.on('data', (c) => {
    output += c
    stdout += c
  })
  child.stderr?.on('data', (c) => {
    output += c
  })
  // 'close', not 'exit': a process may exit before its pipes are read to the end (a load's result,
  // one JSON line of 400 kB, was cut short that way)
  const exited = new Promise<number | null>((r) => child.once('close', (code) => r(code)))
  return { child, output: () => output, stdout: () => stdout, exited }
}

export async function waitUntilUp(url: string, timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    try {
      const res = await fetch(url)
      if (res.ok) return
    } catch {}
    if (Date.now() > deadline) throw new Error(`${url} did not come up`)
    await new Promise((r) => setTimeout(r, 100))
  }
}

export type AppServer = {
  url: string
  port: number
  pid: number
  stop(): Promise<void>
  output: () => string
}

/** The real server (server/main.ts) on a data folder prepared beforehand, pinned to its core. */
export async function startAppServer(
  dataDir: string,
  env: Record<string, string> = {},
  /** a port of its own (a restart on the same address); a free one by default */
  onPort?: number,
  /** node's flags for this server alone (a bench's own profiler or preload) */
  nodeFlags: string[] = [],
): Promise<AppServer> {
  const port = onPort ?? (await freePort())
  // BENCH_SERVER_PROF=<dir>: the server writes a V8 CPU profile there when it stops.
  const profile = process.env.BENCH_SERVER_PROF
  const flags = [...(profile ? ['--cpu-prof', `--cpu-prof-dir=${profile}`] : []), ...nodeFlags]
  // BENCH_SQL_STATS=<file>: the server writes there what each SQLite statement cost (sql-stats.cjs).
  if (process.env.BENCH_SQL_STATS) flags.push('--require', './tests/bench/lib/sql-stats.cjs')
  // BENCH_MEMORY_LOG=<file> (in env or the bench's own): the server logs its memory there (memory-log.cjs).
  if (env.BENCH_MEMORY_LOG ?? process.env.BENCH_MEMORY_LOG)
    flags.push('--require', './tests/bench/lib/memory-log.cjs')
  // BENCH_SERVER_FLAGS="<node or V8 flags>": given to the server's node (e.g. a heap setting to try)
  if (process.env.BENCH_SERVER_FLAGS)
    flags.push(...process.env.BENCH_SERVER_FLAGS.split(/\s+/).filter(Boolean))
  const running = spawnPinned(cores.server, [...flags, 'server/main.ts'], {
    DATA_DIR: dataDir,
    PORT: String(port),
    HOST: '127.0.0.1',
    RATE_LIMITS: 'off',
    MAX_HELD_SEATS_PER_ADDRESS: '1000000',
    LOG_LEVEL: 'warn',
    // production refuses RATE_LIMITS=off and the local gateway, which the load needs
    NODE_ENV: 'test',
    ...env,
  })
  const url = `http://127.0.0.1:${port}`
  await waitUntilUp(`${url}/api/v1/health/live`).catch((error) => {
    throw new Error(`${error.message}\n${running.output()}`)
  })
  return {
    url,
    port,
    pid: running.child.pid ?? 0,
    output: running.output,
    async stop() {
      running.child.kill('SIGTERM')
      await running.exited
    },
  }
}

/** Resident memory of a process, in MB. */
export function rssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8')
  const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0)
  return Math.round(kb / 102.4) / 10
}

/** Runs a load script in its own pinned process (the load's core unless told); it prints one JSON
 * line with its result. */
export async function runLoad<T>(script: string, options: unknown, core = cores.load): Promise<T> {
  const running = spawnPinned(core, [script, JSON.stringify(options)])
  const code = await running.exited
  const out = running.output()
  const line = running
    .stdout()
    .trim()
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .pop()
  if (code !== 0 || !line) throw new Error(`load ${script} failed (${code}):\n${out}`)
  return JSON.parse(line) as T
}

/** Each core's busy and total time so far (jiffies, /proc/stat), to tell which core was the limit. */
export function coreTimes(): Array<{ busy: number; total: number }> {
  return readFileSync('/proc/stat', 'utf8')
    .split('\n')
    .filter((line) => /^cpu\d+ /.test(line))
    .map((line) => {
      const [user = 0, nice = 0, system = 0, idle = 0, iowait = 0, ...rest] = line
        .split(/\s+/)
        .slice(1)
        .map(Number)
      const total = user + nice + system + idle + iowait + rest.reduce((a, b) => a + b, 0)
      return { busy: total - idle - iowait, total }
    })
}

/** How busy the server's and the load's cores were between two coreTimes(), as shares of 1. */
export function coreUse(from: ReturnType<typeof coreTimes>, to: ReturnType<typeof coreTimes>) {
  const share = (core: number) => {
    const a = from[core]
    const b = to[core]
    if (!a || !b || b.total === a.total) return 0
    return Math.round(((b.busy - a.busy) / (b.total - a.total)) * 1000) / 1000
  }
  return { server: share(cores.server), load: share(cores.load) }
}

/**
 * Moves the machine's Redis (every thread of each redis-server) onto the server's core for the
 * length of a bench, and back afterwards: Redis is the server's side (on a real deployment it sits
 * with the app, not with the buyers or the organizer's browser), so the clients' core holds only
 * clients. Left free, the scheduler moved it to whichever core was less busy, so that it ran beside
 * the server in one run and beside Chromium in the next. Returns the pids moved (none when Redis is
 * not local or taskset is refused).
 */
export function pinRedisToServerCore(): { pids: number[]; restore(): void } {
  const pidsOf = spawnSync('pidof', ['redis-server'], { encoding: 'utf8' })
  const pids = (pidsOf.stdout ?? '').trim().split(/\s+/).filter(Boolean).map(Number)
  const moved: Array<{ pid: number; mask: string }> = []
  for (const pid of pids) {
    const now = /affinity mask: ([0-9a-f]+)/.exec(
      spawnSync('taskset', ['-p', String(pid)], { encoding: 'utf8' }).stdout ?? '',
    )
    const pinned = spawnSync('taskset', ['-a', '-p', (1 << cores.server).toString(16), String(pid)])
    if (now?.[1] && pinned.status === 0) moved.push({ pid, mask: now[1] })
  }
  return {
    pids: moved.map((m) => m.pid),
    restore: () => {
      for (const { pid, mask } of moved) spawnSync('taskset', ['-a', '-p', mask, String(pid)])
    },
  }
}

/** CPU time (user + system) a process has used so far, in seconds (/proc/<pid>/stat, 100 Hz). */
export function cpuSeconds(pid: number): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? []
    return (Number(fields[11]) + Number(fields[12])) / 100
  } catch {
    return 0
  }
}

/** CPU time used so far by every Chromium process of the machine, in seconds. */
export function chromiumCpuSeconds(): number {
  let total = 0
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue
    try {
      if (/chrom/i.test(readFileSync(`/proc/${entry}/comm`, 'utf8'))) total += cpuSeconds(Number(entry))
    } catch {
      // gone meanwhile
    }
  }
  return total
}
