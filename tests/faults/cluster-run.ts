// npm run test:cluster [-- --quick] [--seed=N] [--keep]
//
// The cluster test of issue 15: 3 app processes (WORKERS=off) and 2 worker processes on one
// database and one Redis (tests/faults/cluster.ts). Full: 5,000 buyers for 2,000 seats; --quick
// (CI): 1,000 buyers for 400 seats. Every request and its answer is recorded
// (tests/faults/history/cluster-<mode>.jsonl); the figures go to tests/faults/cluster-results.json
// and the README's reliability section. Exits 1 when any check fails.
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { History, randomSource, removeDir, root } from '../support/faults.ts'
import { type ClusterResult, clusterScenario } from './cluster.ts'
import { writeClusterSection } from './cluster-readme.ts'
import { recordRun } from './results.ts'

const args = process.argv.slice(2)
const quick = args.includes('--quick')
const keep = args.includes('--keep')
const seedArg = args.find((a) => a.startsWith('--seed='))
const seed = seedArg ? Number(seedArg.split('=')[1]) : Math.floor(Math.random() * 2 ** 31)
const mode = quick ? 'quick' : 'full'

const plan = quick
  ? {
      buyers: 1000,
      seats: 400,
      concurrency: 60,
      liveSamples: 15,
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
      vus: 12,
      burst: 60,
      killAppAfterMs: [1500, 5000] as [number, number],
      killWorkerAfterMs: [1500, 5000] as [number, number],
      loadAfterKillsMs: 4000,
      settleMs: 90_000,
    }

export type ClusterRun = {
  mode: 'full' | 'quick'
  seed: number
  startedAt: string
  finishedAt: string
  durationSeconds: number
  passed: boolean
  result: Omit<ClusterResult, 'failures'> | null
  failures: string[]
}
export type ClusterResults = { full?: ClusterRun; quick?: ClusterRun }

const started = performance.now()
const startedAt = new Date().toISOString()
const log = (line: string) =>
  console.log(`[${((performance.now() - started) / 1000).toFixed(1).padStart(6)} s] ${line}`)

for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => process.exit(130))

log(`cluster test, ${mode} run, seed ${seed}`)
const history = new History(join(root, 'tests/faults/history', `cluster-${mode}.jsonl`))
const scratchDir = mkdtempSync(join(tmpdir(), 'cluster-scratch-'))
let result: ClusterResult | null = null
const failures: string[] = []
try {
  result = await clusterScenario({
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
  seed,
  startedAt,
  finishedAt: new Date().toISOString(),
  durationSeconds: Math.round((performance.now() - started) / 100) / 10,
  passed: failures.length === 0,
  result: result ? (figures as Omit<ClusterResult, 'failures'>) : null,
  failures,
}
recordRun<ClusterResults>(
  root,
  join(root, 'tests/faults/cluster-results.json'),
  mode,
  run,
  writeClusterSection,
)

log(`${mode} run ${run.passed ? 'PASSED' : 'FAILED'} in ${run.durationSeconds} s`)
if (failures.length) {
  console.log(`\n${failures.length} failed checks:`)
  for (const f of failures.slice(0, 40)) console.log(`  - ${f}`)
}
console.log(
  `History: tests/faults/history/cluster-${mode}.jsonl; figures: tests/faults/cluster-results.json and README.md`,
)
process.exit(run.passed ? 0 : 1)
