// The shape of the fault runs' results (tests/bench/results/faults.json): the figures of the last
// full and the last quick run, and how a run keeps them.
import { spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { dirname, join, relative } from 'node:path'
import type { Machine } from '../bench/lib/machine.ts'
import { repoRoot } from '../support/results-files.ts'

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
  /** invoices and credit notes issued (issue 42), summed over the scenarios' last checks; runs
   * recorded before invoices were checked have none of these four */
  invoicesIssued?: number
  creditNotesIssued?: number
  /** checks whose invoice invariants all held (of integrityChecks) */
  invoiceChecksPassed?: number
  /** invoice invariants broken, summed over the scenarios' worst checks */
  invoiceProblems?: number
  acknowledgedJobsLost: number
  hangsAndServerErrors: number
}

export type FaultRun = {
  mode: 'full' | 'quick'
  seed: number
  /** what the run was measured on (runs recorded before it was kept have `recordedIn` instead) */
  machine?: Machine
  /** the commit that recorded a run whose machine was not kept */
  recordedIn?: string
  startedAt: string
  finishedAt: string
  durationSeconds: number
  passed: boolean
  figures: FaultFigures
  scenarios: Record<string, unknown>
  failures: string[]
}

export type FaultsResults = { full?: FaultRun; quick?: FaultRun }

/** Where a writer keeps its results: the JSON and the Markdown made from it. */
export type ResultsFiles = { json: string; markdown: string }

/**
 * Keeps a run's results: always in the latest files (ignored by git), and with `record` in the
 * committed ones too. `update` makes the new results from the previous ones of the same files (the
 * other mode's or store's last run stays); `render` makes the Markdown. The committed files are
 * formatted as the repository's own (aligned tables), so `npm run lint` stays clean after a record.
 */
export function recordResults<Results extends Record<string, unknown>>(
  files: { latest: ResultsFiles; recorded: ResultsFiles },
  record: boolean,
  update: (previous: Results) => Results,
  render: (results: Results) => string,
): string[] {
  const read = (file: string) =>
    existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as Results) : null
  const write = ({ json, markdown }: ResultsFiles, previous: Results | null) => {
    const results = update(previous ?? ({} as Results))
    mkdirSync(dirname(json), { recursive: true })
    writeFileSync(json, `${JSON.stringify(results, null, 2)}\n`)
    writeFileSync(markdown, render(results))
    return [json, markdown]
  }
  // the latest files start from the committed ones, so they show the other runs too
  const written = write(files.latest, read(files.latest.json) ?? read(files.recorded.json))
  if (record) {
    const recorded = write(files.recorded, read(files.recorded.json))
    spawnSync(join(repoRoot, 'node_modules/.bin/biome'), ['format', '--write', ...recorded], {
      stdio: 'ignore',
    })
    written.push(...recorded)
  }
  return written.map((file) => relative(repoRoot, file))
}
