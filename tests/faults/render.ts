// npx tsx tests/faults/render.ts: writes the committed reports (tests/bench/results/FAULTS.md and
// CLUSTER.md) again from the committed results (faults.json and cluster.json), after a change to
// how they are written. Runs nothing; the runs write their own reports.
import { spawnSync } from 'node:child_process'
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { repoRoot, runFiles } from '../support/results-files.ts'
import { clusterReport } from './cluster-report.ts'
import { faultsReport } from './faults-report.ts'

const { faults, cluster } = runFiles(true)
const read = (file: string) => JSON.parse(readFileSync(file, 'utf8'))
writeFileSync(faults.markdown, faultsReport(read(faults.json)))
writeFileSync(cluster.markdown, clusterReport(read(cluster.json)))
spawnSync(
  join(repoRoot, 'node_modules/.bin/biome'),
  ['format', '--write', faults.markdown, cluster.markdown],
  {
    stdio: 'ignore',
  },
)
