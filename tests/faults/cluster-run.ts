// npm run test:cluster [-- --quick] [--store sqlite|postgres] [--seed=N] [--keep] [--record]
//
// The cluster test: 3 app processes (WORKERS=off) and 2 worker processes on one
// database and one Redis (tests/faults/cluster.ts). Full: 5,000 buyers for 2,000 seats, and 300
// buyers in a waiting room's line for 275; --quick (CI): 1,000 buyers for 400 seats, and 96 in line
// for 88. The store is the SQLite file of the shared data folder (the default), or with --store
// postgres a fresh PostgreSQL database on the server of TEST_DATABASE_URL
// (tests/support/postgres.ts; by default the local one). Every request and its answer is recorded
// (tests/faults/history/cluster[-postgres]-<mode>.jsonl); the figures go to
// tests/bench/results/latest/CLUSTER.md and cluster.json, by store and mode (ignored by git; with
// --record also to the committed tests/bench/results/CLUSTER.md and cluster.json). Exits 1 when any
// check fails.
import { mkdtempSync } from 'node:fs'
import { availableParallelism, loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import { machine as commitAndCpu, type Machine } from '../bench/lib/machine.ts'
import { History, randomSource, removeDir, root } from '../support/faults.ts'
import { recordAsked, runFiles } from '../support/results-files.ts'
import { type ClusterResult, clusterScenario } from './cluster.ts'
import { clusterReport } from './cluster-report.ts'
import { type StoreName, storeNames } from './cluster-stores.ts'
import { recordResults } from './results.ts'

const args = process.argv.slice(2)
const quick = args.includes('--quick')
const keep = args.includes('--keep')
const seedArg = args.find((a) => a.startsWith('--seed='))
const seed = seedArg ? Number(seedArg.split('=')[1]) : Math.floor(Math.random() * 2 ** 31)
const mode = quick ? 'quick' : 'full'
const storeAt = args.findIndex((a) => a === '--store' || a.startsWith('--store='))
const storeArg = storeAt < 0 ? 'sqlite' : (args[storeAt]?.split('=')[1] ?? args[storeAt + 1])
if (!storeNames.includes(storeArg as StoreName)) {
  console.error(`--store: ${storeArg ?? 'nothing'}; it is one of ${storeNames.join(', ')}`)
  process.exit(2)
}
const store = storeArg as StoreName

const plan = quick
  ? {
      buyers: 1000,
      seats: 400,
      concurrency: 60,
      liveSamples: 15,
      room: {
        buyers: 96,
        early: 66,
        afterRestart: 6,
        seats: 80,
        admitPerMinute: 360,
        opensInMs: 3000,
        killAfterAdmitted: 8,
      },
      vus: 8,
      burst: 40,
      killAppAfterMs: [1000, 3000] as [number, number],
      killWorkerAfterMs: [1000, 3000] as [number, number],
      loadAfterKillsMs: 2000,
      settleMs: 60_000,
    }
  : {
      buyers: 5000,
      seats: 2000,
      concurrency: 96,
      liveSamples: 30,
      room: {
        buyers: 300,
        early: 220,
        afterRestart: 20,
        seats: 250,
        admitPerMinute: 1200,
        opensInMs: 4000,
        killAfterAdmitted: 30,
      },
      vus: 12,
      burst: 60,
      killAppAfterMs: [1500, 5000] as [number, number],
      killWorkerAfterMs: [1500, 5000] as [number, number],
      loadAfterKillsMs: 4000,
      settleMs: 90_000,
    }

export type ClusterRun = {
  mode: 'full' | 'quick'
  store: StoreName
  seed: number
  /** the machine: its cores, and its 1-minute load average when the run began; the commit, CPU,
   * Node and date too (runs recorded before they were kept have `recordedIn` instead) */
  machine?: { cores: number; loadAverage: number } & Partial<Machine>
  /** the commit that recorded a run whose commit and CPU were not kept */
  recordedIn?: string
  /** settings the processes inherited from this run's environment, when any was set */
  settings?: Record<string, string>
  startedAt: string
  finishedAt: string
  durationSeconds: number
  passed: boolean
  result: Omit<ClusterResult, 'failures'> | null
  failures: string[]
}
export type StoreRuns = { full?: ClusterRun; quick?: ClusterRun }
/** the last full and quick run on each store */
export type ClusterResults = Partial<Record<StoreName, StoreRuns>>

/** Results as they are now, from a file written before runs were kept by store (SQLite's, then). */
export function byStore(results: ClusterResults & StoreRuns): ClusterResults {
  const { full, quick, ...stores } = results
  if (!full && !quick) return stores
  const old = Object.fromEntries(
    Object.entries({ full, quick }).flatMap(([mode, run]) =>
      run ? [[mode, { ...run, store: 'sqlite' }]] : [],
    ),
  ) as StoreRuns
  return { ...stores, sqlite: { ...old, ...stores.sqlite } }
}

const started = performance.now()
const startedAt = new Date().toISOString()
const log = (line: string) =>
  console.log(`[${((performance.now() - started) / 1000).toFixed(1).padStart(6)} s] ${line}`)

for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => process.exit(130))

const machine = {
  ...commitAndCpu(),
  cores: availableParallelism(),
  loadAverage: Math.round((loadavg()[0] ?? 0) * 100) / 100,
}
// The processes inherit this environment: a setting that changes their figures is kept with them.
const settings = Object.fromEntries(
  ['DATABASE_POOL_SIZE', 'LEDGER_POLL_MS', 'LIVE_FIGURES_EVERY_MS'].flatMap((name) =>
    process.env[name] ? [[name, process.env[name] as string]] : [],
  ),
)
log(
  `cluster test, ${mode} run on ${store}, seed ${seed} (${machine.cores} cores, load average ${machine.loadAverage})`,
)
const historyFile = `cluster${store === 'sqlite' ? '' : `-${store}`}-${mode}.jsonl`
const history = new History(join(root, 'tests/faults/history', historyFile))
const scratchDir = mkdtempSync(join(tmpdir(), 'cluster-scratch-'))
let result: ClusterResult | null = null
const failures: string[] = []
try {
  result = await clusterScenario({
    store,
    apps: 3,
    workers: 2,
    ...plan,
    random: randomSource(seed),
    history,
    scratchDir,
    log,
    keepData: keep,
  })
  failures.push(...result.failures)
} catch (error) {
  failures.push(`the scenario could not run: ${(error as Error).message.split('\n')[0]}`)
  log(`FAILED TO RUN: ${(error as Error).stack ?? error}`)
}
await history.close()
removeDir(scratchDir)

const { failures: _, ...figures } = result ?? { failures: [] }
const run: ClusterRun = {
  mode,
  store,
  seed,
  machine,
  ...(Object.keys(settings).length ? { settings } : {}),
  startedAt,
  finishedAt: new Date().toISOString(),
  durationSeconds: Math.round((performance.now() - started) / 100) / 10,
  passed: failures.length === 0,
  result: result ? (figures as Omit<ClusterResult, 'failures'>) : null,
  failures,
}
const written = recordResults<ClusterResults>(
  { latest: runFiles().cluster, recorded: runFiles(true).cluster },
  recordAsked(args),
  (previous) => {
    const results: ClusterResults = { ...byStore(previous) }
    results[store] = { ...results[store], [mode]: run }
    // SQLite's first, then PostgreSQL's, whichever ran last
    return Object.fromEntries(storeNames.flatMap((name) => (results[name] ? [[name, results[name]]] : [])))
  },
  clusterReport,
)

log(`${mode} run on ${store} ${run.passed ? 'PASSED' : 'FAILED'} in ${run.durationSeconds} s`)
if (failures.length) {
  console.log(`\n${failures.length} failed checks:`)
  for (const f of failures.slice(0, 40)) console.log(`  - ${f}`)
}
console.log(`History: tests/faults/history/${historyFile}; figures: ${written.join(', ')}`)
process.exit(run.passed ? 0 : 1)
