// One crash trial of the fault suite (tests/faults, `npm run test:faults` runs twenty): the real
// server process under a booking load is killed with SIGKILL at a random moment and restarted on
// the same data folder, and the invariants are checked against every recorded request.
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { crashScenario } from '../faults/crash.ts'
import { History, randomSource, removeDir } from '../support/faults.ts'

const scratchDir = mkdtempSync(join(tmpdir(), 'crash-test-'))
afterAll(() => removeDir(scratchDir))

describe('kill -9 of the server under a booking load', () => {
  it('loses no acknowledged write, sells no seat twice, invoices every ticket, keeps the database whole and its read models rebuildable', async () => {
    const seed = Math.floor(Math.random() * 2 ** 31)
    const history = new History()
    const result = await crashScenario({
      trials: 1,
      vus: 8,
      killAfterMs: [500, 1500],
      random: randomSource(seed),
      history,
      scratchDir,
      settleMs: 0,
      retryCallbacks: false,
      seed: { buyers: 30, events: 2, seats: 40 },
    })
    const [trial] = result.trials
    if (!trial) throw new Error('no trial ran')
    const context = `seed ${seed}, killed after ${trial.killedAfterMs} ms`
    // The load did book and pay before the kill, and the kill cut requests off.
    expect(trial.report.acknowledged.holds, context).toBeGreaterThan(0)
    expect(
      history.ops.some((op) => op.status === null),
      context,
    ).toBe(true)
    expect(trial.report.integrity, context).toBe('ok')
    expect(trial.report.lost, context).toEqual([])
    expect(trial.report.duplicates, context).toEqual([])
    expect(trial.report.oversoldSeats, context).toBe(0)
    expect(trial.report.inventory, context).toEqual([])
    expect(trial.report.rebuild, context).toEqual([])
    // the organizer bills with a GSTIN: every ticket issued has its invoice, with its payment
    expect(trial.report.invoices, context).toEqual([])
    expect(result.final.ok, context).toBe(true)
  }, 45_000)
})
