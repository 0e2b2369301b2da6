// The shape of tests/faults/results.json: the figures of the last full and the last quick run.
import { spawnSync } from 'node:child_process'
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'

export type FaultFigures = {
  trialsRun: number
  faultsInjected: number
  requestsRecorded: number
  acknowledgedWritesLost: number
  oversoldSeats: number
  integrityChecks: number
  integrityChecksPassed: number
  rebuildsEqual: number
  duplicateTicketsOrCaptures: number
  acknowledgedJobsLost: number
  hangsAndServerErrors: number
}

export type FaultRun = {
  mode: 'full' | 'quick'
  seed: number
  startedAt: string
  finishedAt: string
  durationSeconds: number
  passed: boolean
  figures: FaultFigures
  scenarios: Record<string, unknown>
  failures: string[]
}

export type FaultsResults = { full?: FaultRun; quick?: FaultRun }

/**
 * Keeps a run's figures in `resultsFile` (beside the other mode's last run) and rewrites its README
 * section from them, in the repository's own format, so `npm run lint` stays clean after a run.
 */
export function recordRun<Results extends Record<string, unknown>>(
  root: string,
  resultsFile: string,
  mode: 'full' | 'quick',
  run: Results[keyof Results],
  writeSection: (readme: string, results: Results) => void,
): void {
  recordResults<Results>(root, resultsFile, (previous) => ({ ...previous, [mode]: run }), writeSection)
}

/** The same for any shape of results file: `update` makes the new results from the previous ones. */
export function recordResults<Results extends Record<string, unknown>>(
  root: string,
  resultsFile: string,
  update: (previous: Results) => Results,
  writeSection: (readme: string, results: Results) => void,
): void {
  const previous = (existsSync(resultsFile) ? JSON.parse(readFileSync(resultsFile, 'utf8')) : {}) as Results
  const results = update(previous)
  writeFileSync(resultsFile, `${JSON.stringify(results, null, 2)}\n`)
  const readme = join(root, 'README.md')
  writeSection(readme, results)
  spawnSync(join(root, 'node_modules/.bin/biome'), ['format', '--write', resultsFile, readme], {
    stdio: 'ignore',
  })
}
