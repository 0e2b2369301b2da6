// npm run test:faults [-- --quick] [--seed=N] [--only=crash,worker,redis] [--keep] [--record]
// (--only runs a part and writes no figures; --keep keeps the data folders; --record also writes
// the committed results, tests/bench/results/FAULTS.md and faults.json)
//
// Fault injection against the real processes: kill -9 of the server under a booking load, kill -9
// of a worker while payment confirmations run, Redis stopped and restarted under load. Every
// request and its answer is recorded (tests/faults/history/<mode>.jsonl) and the invariants are
// checked on that history; the figures go to tests/bench/results/latest/FAULTS.md and faults.json
// (ignored by git: a run changes no committed file unless given --record). Exits 1 when any check
// fails.
//
// --quick (CI, about a minute): 3 crash trials, 1 worker kill, each Redis setup once, the lanes
// side by side. Full (several minutes): 20 crash trials, 3 worker kills, and the Redis runs wait
// for every hold to lapse.
import { spawnSync } from 'node:child_process'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Redis } from 'ioredis'
import { machine } from '../bench/lib/machine.ts'
import {
  History,
  type InvariantReport,
  randomSource,
  removeDir,
  root,
  sharedRedisUrl,
} from '../support/faults.ts'
import { recordAsked, runFiles } from '../support/results-files.ts'
import { type CrashResult, crashScenario } from './crash.ts'
import { faultsReport } from './faults-report.ts'
import { type RedisResult, redisScenario } from './redis.ts'
import { type FaultRun, type FaultsResults, recordResults } from './results.ts'
import { type WorkerResult, workerScenario } from './worker.ts'

const args = process.argv.slice(2)
const quick = args.includes('--quick')
const keep = args.includes('--keep')
const seedArg = args.find((a) => a.startsWith('--seed='))
const seed = seedArg ? Number(seedArg.split('=')[1]) : Math.floor(Math.random() * 2 ** 31)
const only = new Set(
  (args.find((a) => a.startsWith('--only='))?.split('=')[1] ?? 'crash,worker,redis')
    .split(',')
    .filter(Boolean),
)
const mode = quick ? 'quick' : 'full'
const record = recordAsked(args)

const plan = quick
  ? {
      crash: { trials: 3, vus: 10, killAfterMs: [400, 2000] as [number, number], settleMs: 75_000 },
      worker: { trials: 1, orders: 40, recoveryTimeoutMs: 90_000 },
      redis: {
        vus: 8,
        beforeMs: 2000,
        outageMs: 8000,
        afterMs: 3000,
        deadlineMs: 6000,
        waitForHolds: false,
        settleMs: { min: 5000, max: 75_000 },
      },
    }
  : {
      crash: { trials: 20, vus: 12, killAfterMs: [300, 4000] as [number, number], settleMs: 90_000 },
      worker: { trials: 3, orders: 60, recoveryTimeoutMs: 120_000 },
      redis: {
        vus: 10,
        beforeMs: 3000,
        outageMs: 12_000,
        afterMs: 5000,
        deadlineMs: 6000,
        waitForHolds: true,
        settleMs: { min: 10_000, max: 90_000 },
      },
    }

const started = performance.now()
const startedAt = new Date().toISOString()
const measuredOn = machine()
const log = (line: string) =>
  console.log(`[${((performance.now() - started) / 1000).toFixed(1).padStart(6)} s] ${line}`)

async function preflight() {
  const problems: string[] = []
  if ((only.has('crash') || only.has('worker')) && !(await answers(sharedRedisUrl)))
    problems.push(
      `no Redis answers at ${sharedRedisUrl} (the crash and worker scenarios use it with a prefix of their own)`,
    )
  if (only.has('redis') && spawnSync('redis-server', ['--version']).status !== 0)
    problems.push('redis-server is not installed (the Redis scenario starts a private one)')
  if (problems.length) {
    console.error(`Cannot run the fault scenarios:\n${problems.map((p) => `  - ${p}`).join('\n')}`)
    process.exit(2)
  }
}

async function answers(url: string) {
  const redis = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null })
  redis.on('error', () => {})
  try {
    await redis.connect()
    return (await redis.ping()) === 'PONG'
  } catch {
    return false
  } finally {
    redis.disconnect()
  }
}

// Ctrl-C: exit, which kills the servers, workers and Redis this run started.
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => process.exit(130))

await preflight()
log(`fault injection, ${mode} run, seed ${seed}`)
const history = new History(join(root, 'tests/faults/history', `${mode}.jsonl`))
const scratchDir = mkdtempSync(join(tmpdir(), 'faults-scratch-'))
const random = randomSource(seed)
const failures: string[] = []
const crashed = (scenario: string) => (error: unknown) => {
  failures.push(`${scenario}: the scenario could not run: ${(error as Error).message.split('\n')[0]}`)
  log(`${scenario} FAILED TO RUN: ${(error as Error).stack ?? error}`)
  return null
}

let crashLoadDone: () => void = () => {}
const crashLoadFinished = new Promise<void>((r) => {
  crashLoadDone = r
})

// Lanes side by side: the worker scenario mostly waits for BullMQ's stalled-job check, and the
// crash scenario's end waits for the same.
const workerLane: Promise<WorkerResult | null> = only.has('worker')
  ? workerScenario({
      ...plan.worker,
      random: randomSource(seed + 1),
      history,
      scratchDir,
      log,
      keepData: keep,
    }).catch(crashed('worker'))
  : Promise.resolve(null)
const crashLane: Promise<CrashResult | null> = only.has('crash')
  ? crashScenario({
      ...plan.crash,
      random,
      history,
      scratchDir,
      log,
      keepData: keep,
      onLoadDone: () => crashLoadDone(),
    })
      .catch(crashed('crash'))
      .finally(() => crashLoadDone())
  : Promise.resolve(null).finally(() => crashLoadDone())
const redisRun = (variant: 'volatile' | 'persistent') =>
  redisScenario({
    ...plan.redis,
    variant,
    random: randomSource(seed + (variant === 'volatile' ? 2 : 3)),
    history,
    scratchDir,
    log,
    keepData: keep,
  }).catch(crashed(`redis-${variant}`))
const redisLane = (async (): Promise<RedisResult[]> => {
  if (!only.has('redis')) return []
  // Full: one after the other, after the crash load, so answer times are not measured against
  // other loads. Quick (to stay near a minute and a half): the volatile run beside the crash
  // trials, the persistent one once the crash load is over; never more than two loads at once.
  if (!quick) {
    await crashLoadFinished
    const volatile = await redisRun('volatile')
    const persistent = await redisRun('persistent')
    return [volatile, persistent].filter((r) => r !== null)
  }
  const runs = await Promise.all([redisRun('volatile'), crashLoadFinished.then(() => redisRun('persistent'))])
  return runs.filter((r) => r !== null)
})()

const [worker, crash, redis] = await Promise.all([workerLane, crashLane, redisLane])
await history.close()
removeDir(scratchDir)

// ---- figures and failures
const reports: Array<[string, InvariantReport]> = [
  ...(crash
    ? crash.trials.map((t) => [`crash trial ${t.trial}`, t.report] as [string, InvariantReport])
    : []),
  ...(crash ? [['crash (end)', crash.final] as [string, InvariantReport]] : []),
  ...(worker
    ? worker.trials.map((t) => [`worker trial ${t.trial}`, t.report] as [string, InvariantReport])
    : []),
  ...redis.map((r) => [`redis-${r.variant}`, r.report] as [string, InvariantReport]),
]
for (const [where, report] of reports) {
  if (report.integrity !== 'ok') failures.push(`${where}: integrity_check says ${report.integrity}`)
  for (const lost of report.lost) failures.push(`${where}: acknowledged write lost: ${lost}`)
  for (const d of report.duplicates) failures.push(`${where}: ${d}`)
  if (report.oversoldSeats > 0) failures.push(`${where}: ${report.oversoldSeats} seats oversold`)
  for (const i of report.inventory) failures.push(`${where}: ${i}`)
  for (const r of report.rebuild) failures.push(`${where}: rebuilt read model differs: ${r}`)
  for (const i of report.invoices) failures.push(`${where}: invoices: ${i}`)
}
if (crash) {
  for (const [kind, items] of Object.entries(crash.owed)) {
    const examples = `${items.slice(0, 3).join('; ')}${items.length > 3 ? '; …' : ''}`
    failures.push(
      `crash: ${items.length} × ${kind} ${Math.round(crash.settleMs / 1000)} s after the last restart (${examples})`,
    )
  }
}
if (worker) {
  for (const t of worker.trials) {
    if (t.recoveryMs === null)
      failures.push(
        `worker trial ${t.trial}: paid orders still without a ticket ${plan.worker.recoveryTimeoutMs / 1000} s after the kill`,
      )
    for (const w of t.wrong) failures.push(`worker trial ${t.trial}: ${w}`)
  }
}
for (const r of redis) {
  for (const h of r.hangs)
    failures.push(`redis-${r.variant}: no answer within ${plan.redis.deadlineMs} ms: ${h}`)
  for (const e of r.serverErrors) failures.push(`redis-${r.variant}: server error: ${e}`)
  for (const u of r.unexpected) failures.push(`redis-${r.variant}: unexpected answer: ${u}`)
  for (const [kind, items] of Object.entries(r.lostJobs)) {
    const examples = items.slice(0, 3).join('; ')
    failures.push(
      `redis-${r.variant}: acknowledged jobs lost: ${items.length} × ${kind} (${examples}${items.length > 3 ? '; …' : ''})`,
    )
  }
}

const distinctLost = new Set(
  reports.flatMap(([where, r]) => r.lost.map((l) => `${where.split(' ')[0]} ${l}`)),
)
const maxPerScenario = (pick: (r: InvariantReport) => number) => {
  const byScenario = new Map<string, number>()
  for (const [where, r] of reports) {
    const key = where.split(' ')[0] as string
    byScenario.set(key, Math.max(byScenario.get(key) ?? 0, pick(r)))
  }
  return [...byScenario.values()].reduce((a, b) => a + b, 0)
}
const figures = {
  trialsRun: (crash?.trials.length ?? 0) + (worker?.trials.length ?? 0) + redis.length,
  faultsInjected: (crash?.faults ?? 0) + (worker?.faults ?? 0) + redis.reduce((n, r) => n + r.faults, 0),
  requestsRecorded: history.ops.length,
  acknowledgedWritesLost: distinctLost.size,
  oversoldSeats: maxPerScenario((r) => r.oversoldSeats),
  integrityChecks: reports.length,
  integrityChecksPassed: reports.filter(([, r]) => r.integrity === 'ok').length,
  rebuildsEqual: reports.filter(([, r]) => r.rebuild.length === 0).length,
  duplicateTicketsOrCaptures: maxPerScenario((r) => r.duplicates.length),
  invoicesIssued: maxPerScenario((r) => r.invoiceFigures.invoices),
  creditNotesIssued: maxPerScenario((r) => r.invoiceFigures.creditNotes),
  invoiceChecksPassed: reports.filter(([, r]) => r.invoices.length === 0).length,
  invoiceProblems: maxPerScenario((r) => r.invoices.length),
  acknowledgedJobsLost:
    redis.reduce((n, r) => n + Object.values(r.lostJobs).flat().length, 0) +
    Object.values(crash?.owed ?? {}).flat().length +
    (worker?.trials.reduce((n, t) => n + t.wrong.length, 0) ?? 0),
  hangsAndServerErrors: redis.reduce((n, r) => n + r.hangs.length + r.serverErrors.length, 0),
}

const run: FaultRun = {
  mode,
  seed,
  machine: measuredOn,
  startedAt,
  finishedAt: new Date().toISOString(),
  durationSeconds: Math.round((performance.now() - started) / 100) / 10,
  passed: failures.length === 0,
  figures,
  scenarios: {
    ...(crash
      ? {
          crash: {
            trials: crash.trials.length,
            kills: crash.faults,
            requests: crash.requests,
            requestsCutByKills: crash.trials.reduce((n, t) => n + t.cutByKill, 0),
            killedAfterMs: crash.trials.map((t) => t.killedAfterMs),
            restartSeconds: crash.trials.map((t) => t.restartMs / 1000),
            callbacksRetried: crash.callbacksRetried,
            facts: crash.final.facts,
            invoices: crash.final.invoiceFigures,
            acknowledged: crash.final.acknowledged,
            settleSeconds: crash.settleMs / 1000,
            jobsOwedAfterSettle: Object.fromEntries(
              Object.entries(crash.owed).map(([k, v]) => [k, v.length]),
            ),
            ticketMails: crash.mails.tickets,
            ticketsMailedTwice: crash.mails.sentTwice,
            seconds: crash.ms / 1000,
          },
        }
      : {}),
    ...(worker
      ? {
          worker: {
            trials: worker.trials.length,
            kills: worker.faults,
            requests: worker.requests,
            paidOrders: worker.trials.reduce((n, t) => n + t.paid, 0),
            jobsActiveAtKill: worker.trials.map((t) => t.activeAtKill),
            withoutTicketAtKill: worker.trials.map((t) => t.unissuedAtKill),
            stalledJobsCompletedElsewhere: worker.trials.map((t) => t.stalledRecovered),
            recoverySeconds: worker.trials.map((t) => (t.recoveryMs === null ? null : t.recoveryMs / 1000)),
            callbacks: worker.trials.map((t) => t.callbacks),
            wrongOrders: worker.trials.reduce((n, t) => n + t.wrong.length, 0),
            seconds: worker.ms / 1000,
          },
        }
      : {}),
    ...(redis.length
      ? {
          redis: redis.map((r) => ({
            variant: r.variant,
            stops: r.faults,
            outageSeconds: plan.redis.outageMs / 1000,
            deadlineSeconds: plan.redis.deadlineMs / 1000,
            requests: r.requests,
            answersByPhase: r.byPhase,
            unanswered: r.hangs.length,
            serverErrors: r.serverErrors.length,
            unexpected: r.unexpected.length,
            jobsLost: Object.fromEntries(
              Object.entries(r.lostJobs).map(([kind, items]) => [kind, items.length]),
            ),
            jobsLostItems: r.lostJobs,
            holdsChecked: r.holdsChecked,
            holdCheck: plan.redis.waitForHolds
              ? 'waited for every hold to lapse, then for its release'
              : 'each open hold has its expiry job queued (no wait for the minute)',
            ticketsAfterRestart: r.resumed.ticketsAfterRestart,
            ticketMails: r.resumed.mails,
            seconds: r.ms / 1000,
          })),
        }
      : {}),
  },
  failures,
}

// Only a whole run (no --only) writes the figures.
const whole = !args.some((a) => a.startsWith('--only='))
const written = whole
  ? recordResults<FaultsResults>(
      { latest: runFiles().faults, recorded: runFiles(true).faults },
      record,
      (previous) => ({ ...previous, [mode]: run }),
      faultsReport,
    )
  : []

log(
  `${mode} run ${run.passed ? 'PASSED' : 'FAILED'} in ${run.durationSeconds} s: ${figures.trialsRun} trials, ` +
    `${figures.faultsInjected} faults, ${figures.requestsRecorded} requests, ${figures.acknowledgedWritesLost} acknowledged writes lost, ` +
    `${figures.oversoldSeats} seats oversold, ${figures.integrityChecksPassed}/${figures.integrityChecks} integrity checks, ` +
    `${figures.invoicesIssued} invoices and ${figures.creditNotesIssued} credit notes, ${figures.invoiceChecksPassed}/${figures.integrityChecks} invoice checks, ` +
    `${figures.acknowledgedJobsLost} jobs lost, ${figures.hangsAndServerErrors} hangs or 500s`,
)
if (failures.length) {
  console.log(`\n${failures.length} failed checks:`)
  for (const f of failures.slice(0, 40)) console.log(`  - ${f}`)
  if (failures.length > 40) console.log(`  … ${failures.length - 40} more in ${written[0] ?? 'the history'}`)
}
console.log(
  `History: tests/faults/history/${mode}.jsonl${whole ? `; figures: ${written.join(', ')}` : ' (--only: figures not written)'}`,
)
process.exit(run.passed ? 0 : 1)
