// Where test, fault and bench runs write their figures. A run writes under
// tests/bench/results/latest/, which git ignores, so that `npm test`, `npm run test:faults`,
// `npm run test:cluster` and `npm run bench` leave the working tree as they found it. The committed
// results beside it (tests/bench/results/) change only when a run is asked to record them:
// `--record` for the fault and cluster runs and the benches. tests/unit/results-files.test.ts holds
// every writer to that.
import { join, resolve } from 'node:path'

export const repoRoot = resolve(import.meta.dirname, '../..')
/** the committed results: written only by a run given --record */
export const recordedDir = join(repoRoot, 'tests/bench/results')
/** the last run's results, whatever it was: ignored by git */
export const latestDir = join(recordedDir, 'latest')

/** The files each writer writes: the latest run's, or with `record` the committed ones. */
export function runFiles(record = false) {
  const dir = record ? recordedDir : latestDir
  return {
    /** the integration suite's fuzz and access figures (tests/integration/global-setup.ts) */
    suite: { markdown: join(latestDir, 'suite.md') },
    /** npm run test:faults */
    faults: { json: join(dir, 'faults.json'), markdown: join(dir, 'FAULTS.md') },
    /** npm run test:cluster */
    cluster: { json: join(dir, 'cluster.json'), markdown: join(dir, 'CLUSTER.md') },
    /** npm run bench */
    bench: {
      json: join(dir, 'latest.json'),
      markdown: join(dir, 'RESULTS.md'),
      soakPlot: join(dir, 'soak.svg'),
    },
  } satisfies Record<string, Record<string, string>>
}

/** --record among a command's arguments */
export const recordAsked = (args: string[] = process.argv.slice(2)) => args.includes('--record')
