// The second load generator (issue 18): wrk, written in C (Debian's package), pinned to the load
// generator's core like the Node one (cannon.ts), with a Lua script (wrk-tokens.lua) that sends each
// request with the next buyer's token. Used to cross-check that the Node generator is not what
// limits a figure: if both generators agree, and each has CPU to spare, the server sets the pace.
import { spawnSync } from 'node:child_process'
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { cores, root } from './processes.ts'

export type WrkResult = {
  requests: number
  /** answers with status 200 (or 304) */
  ok: number
  requestsPerSecond: number
  okPerSecond: number
  p50Ms: number
  p99Ms: number
  socketErrors: number
  timeouts: number
  seconds: number
  /** wrk's own CPU time (user + system) over the run */
  cpuSeconds: number
}

export const WRK = process.env.WRK_PATH ?? '/usr/bin/wrk'

export function hasWrk(): boolean {
  return spawnSync(WRK, ['--version']).error === undefined
}

/** The tokens of a seed's JSON tokens file, one per line, for the Lua script. */
export function tokenLines(tokensFile: string): string {
  const file = `${tokensFile}.lines`
  writeFileSync(file, `${(JSON.parse(readFileSync(tokensFile, 'utf8')) as string[]).join('\n')}\n`)
  return file
}

export type WrkOptions = {
  url: string
  method: 'GET' | 'POST'
  path: string
  body?: unknown
  tokenLinesFile?: string
  /** sent with every request */
  headers?: Record<string, string>
  connections: number
  seconds: number
}

/** taskset's arguments for one wrk run of `seconds` over `connections` (one thread), on the load
 * generator's core */
export function wrkArgs(options: WrkOptions): string[] {
  return [
    '-c',
    String(cores.load),
    WRK,
    '-t1',
    `-c${options.connections}`,
    `-d${options.seconds}s`,
    '--timeout',
    '10s',
    '-s',
    join(root, 'tests/bench/lib/wrk-tokens.lua'),
    options.url,
    '--',
    options.method,
    options.path,
    options.tokenLinesFile ?? '',
    options.body === undefined ? '' : JSON.stringify(options.body),
    Object.entries(options.headers ?? {})
      .map(([name, value]) => `${name}: ${value}`)
      .join('|'),
  ]
}

/** One wrk run of `seconds` over `connections` (one thread), on the load generator's core. */
export function runWrk(options: WrkOptions): WrkResult {
  const args = wrkArgs(options)
  // bash's `times` prints the CPU time of the children it waited for: wrk's own
  const run = spawnSync('bash', ['-c', 'taskset "$@"; times', 'wrk', ...args], { encoding: 'utf8' })
  const line = run.stdout
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .pop()
  if (run.status !== 0 || !line) throw new Error(`wrk failed (${run.status}):\n${run.stdout}\n${run.stderr}`)
  const r = JSON.parse(line) as {
    requests: number
    ok: number
    durationUs: number
    p50Us: number
    p99Us: number
    socketErrors: number
    timeouts: number
  }
  // `times`: the shell's user and system time, then its children's: "0m1.234s 0m0.567s"
  const childTimes = run.stdout.trim().split('\n').pop() ?? ''
  const cpuSeconds = [...childTimes.matchAll(/(\d+)m([\d.]+)s/g)].reduce(
    (sum, m) => sum + Number(m[1]) * 60 + Number(m[2]),
    0,
  )
  const seconds = r.durationUs / 1e6
  return {
    requests: r.requests,
    ok: r.ok,
    requestsPerSecond: r.requests / seconds,
    okPerSecond: r.ok / seconds,
    p50Ms: r.p50Us / 1000,
    p99Ms: r.p99Us / 1000,
    socketErrors: r.socketErrors,
    timeouts: r.timeouts,
    seconds,
    cpuSeconds,
  }
}
