// The shape of tests/faults/results.json: the figures of the last full and the last quick run.
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
