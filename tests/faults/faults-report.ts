// The fault runs' report (FAULTS.md), made from their results (faults.json): what each scenario
// checks, the last full and quick run's figures, and what they ran on.
import type { FaultRun, FaultsResults } from './results.ts'

const seconds = (s: number) => (s >= 120 ? `${(s / 60).toFixed(1)} min` : `${Math.round(s)} s`)

function runTable(runs: Array<[string, FaultRun]>): string[] {
  const row = (label: string, pick: (r: FaultRun) => string | number) =>
    `| ${label} | ${runs.map(([, r]) => pick(r)).join(' | ')} |`
  return [
    `| | ${runs.map(([mode, r]) => `${mode} run (${r.finishedAt.slice(0, 10)}, ${seconds(r.durationSeconds)})`).join(' | ')} |`,
    `|---|${runs.map(() => '---:').join('|')}|`,
    row('trials run', (r) => r.figures.trialsRun),
    row('faults injected', (r) => r.figures.faultsInjected),
    row('requests recorded', (r) => r.figures.requestsRecorded.toLocaleString('en')),
    row('acknowledged writes lost', (r) => r.figures.acknowledgedWritesLost),
    row('oversold seats', (r) => r.figures.oversoldSeats),
    row(
      'integrity checks passed',
      (r) => `${r.figures.integrityChecksPassed} of ${r.figures.integrityChecks}`,
    ),
    row(
      'read models equal to a rebuild',
      (r) => `${r.figures.rebuildsEqual} of ${r.figures.integrityChecks}`,
    ),
    row('second tickets or captures', (r) => r.figures.duplicateTicketsOrCaptures),
    row('invoices / credit notes issued', (r) =>
      r.figures.invoicesIssued === undefined
        ? '—'
        : `${r.figures.invoicesIssued.toLocaleString('en')} / ${r.figures.creditNotesIssued ?? 0}`,
    ),
    row('invoice invariants held', (r) =>
      r.figures.invoiceChecksPassed === undefined
        ? '—'
        : `${r.figures.invoiceChecksPassed} of ${r.figures.integrityChecks}`,
    ),
    row('acknowledged jobs lost', (r) => r.figures.acknowledgedJobsLost),
    row('requests unanswered or 500 while Redis was down', (r) => r.figures.hangsAndServerErrors),
    row('result', (r) => (r.passed ? 'passed' : `**failed** (${plural(r.failures.length, 'check')})`)),
  ]
}

type Details = {
  crash?: {
    kills: number
    requestsCutByKills: number
    restartSeconds: number[]
    callbacksRetried: number
    settleSeconds: number
    ticketMails: number
    ticketsMailedTwice: number
  }
  worker?: {
    kills: number
    paidOrders: number
    jobsActiveAtKill: number[]
    recoverySeconds: Array<number | null>
  }
  redis?: Array<{
    variant: string
    outageSeconds: number
    deadlineSeconds: number
    requests: number
    answersByPhase: Record<string, Record<string, number>>
    jobsLost: Record<string, number>
    holdCheck: string
  }>
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b)
  return s.length ? (s[Math.floor((s.length - 1) / 2)] as number) : 0
}

function details(mode: string, run: FaultRun): string[] {
  const d = run.scenarios as Details
  const lines: string[] = [
    `${mode[0]?.toUpperCase()}${mode.slice(1)} run, seed ${run.seed} (${ranOn(run)}):`,
    '',
  ]
  if (d.crash) {
    lines.push(
      `- crash: ${plural(d.crash.kills, 'kill')} cut ${plural(d.crash.requestsCutByKills, 'request')} off; a restart took ${median(d.crash.restartSeconds).toFixed(1)} s ` +
        `(median); ${d.crash.callbacksRetried} callbacks sent again after a restart; ${d.crash.ticketMails} tickets mailed ` +
        `(${d.crash.ticketsMailedTwice} twice: a mail job re-run after a kill); everything owed was done ${Math.round(d.crash.settleSeconds)} s after the last restart.`,
    )
  }
  if (d.worker) {
    const recovery = d.worker.recoverySeconds
      .map((s) => (s === null ? 'never' : `${Math.round(s)} s`))
      .join(', ')
    lines.push(
      `- worker: ${plural(d.worker.kills, 'kill')} with ${d.worker.jobsActiveAtKill.join(', ')} confirmation jobs running; ` +
        `${d.worker.paidOrders} paid orders; every one had its ticket ${recovery} after the kill ` +
        "(a dead worker's job is taken over once its 10 s lock lapses, by the stalled-job check that runs every 5 s).",
    )
  }
  for (const r of d.redis ?? []) {
    const outage = Object.entries(r.answersByPhase)
      .filter(([k]) => k.startsWith('outage '))
      .reduce((n, [, v]) => n + Object.values(v).reduce((a, b) => a + b, 0), 0)
    const lost = Object.entries(r.jobsLost)
      .map(([kind, n]) => `${n} × ${kind}`)
      .join(', ')
    lines.push(
      `- redis (${r.variant}): ${r.requests} requests, ${outage} of them sent during the ${r.outageSeconds} s outage ` +
        `(an answer later than ${r.deadlineSeconds} s counts as a hang); holds: ${r.holdCheck}; ` +
        `jobs lost: ${lost || 'none'}.`,
    )
  }
  return lines
}

/** What a run ran on: the commit, CPU and cores, or the commit that recorded it. */
export function ranOn(run: {
  machine?: { commit?: string; cpu?: string; cores: number }
  recordedIn?: string
}) {
  const m = run.machine
  if (m?.commit) return `commit ${m.commit}, ${m.cpu}, ${m.cores} cores`
  return `${m ? `${m.cores} cores, ` : ''}CPU and commit not recorded; figures committed in ${run.recordedIn ?? 'an earlier commit'}`
}

export function faultsReport(results: FaultsResults): string {
  const runs = (['full', 'quick'] as const).flatMap((mode) => {
    const run = results[mode]
    return run ? [[mode, run] as [string, FaultRun]] : []
  })
  const lines = [
    '# Fault runs',
    '',
    'Written by `npm run test:faults` (full) and `npm run test:faults -- --quick` (CI): every run to',
    '`tests/bench/results/latest/` (not committed), and with `--record` to `tests/bench/results/FAULTS.md`',
    'and `faults.json`. Every request and its answer is recorded (`tests/faults/history/`, not committed)',
    'and the invariants are checked on the history and on a consistent copy of the database after every',
    'fault:',
    '',
    '- **Crash**: the real server (`server/main.ts`, `SQLITE_SYNCHRONOUS=FULL`) under a booking load',
    '  (holds, local payments and callbacks, released holds, cancellations, reads) is killed with',
    '  `kill -9` at a random moment and restarted on the same data folder. After each restart:',
    '  `PRAGMA integrity_check` is `ok`; every hold, ticket and cancellation answered 2xx is in the',
    "  ledger; held + sold never exceeds a ticket type's capacity and the stored counts equal the",
    "  ledger's; the read models equal a rebuild from the ledger, row for row. Callbacks the crash",
    '  swallowed are sent again, and at the end every payment the gateway accepted is one capture.',
    "- **Invoices** (every scenario's organizer has a GSTIN and its events are taxed): after every",
    '  fault each issued ticket has exactly one invoice, appended in the commit of its payment (right',
    '  after TicketsIssued), no order without an issued ticket has one, each refund its credit note in',
    "  the refund's commit; each supplier's series per financial year runs 1..n with no gap and no",
    '  number twice; `invoice_documents` holds exactly what the facts say.',
    '- **Worker killed mid-confirmation**: `WORKERS=off` server and a separate `workers/main.ts`, killed',
    "  with `kill -9` on BullMQ's own `active` event; a new worker takes the dead one's jobs over",
    '  (stalled-job check) and every paid order ends with exactly one capture and one ticket.',
    '- **Redis stopped and restarted under load** (a private `redis-server`; server and worker',
    '  processes as in docker-compose.yml; Redis stops while a burst of payment confirmations is',
    '  queued and the worker is down): every request is answered in time (2xx/4xx or a 503 with a',
    '  message), and every acknowledged job happens: ticket mails, captures of accepted payments,',
    '  refunds, release of lapsed holds. Run against a Redis that forgets its data on restart',
    "  (`--save '' --appendonly no`) and one with AOF (`--appendfsync always`).",
    '',
    ...(runs.length ? runTable(runs) : ['No run recorded yet.']),
  ]
  for (const [mode, run] of runs) lines.push('', ...details(mode, run))
  for (const [mode, run] of runs) {
    if (run.failures.length === 0) continue
    lines.push('', `Failed checks of the ${mode} run:`, '')
    for (const failure of run.failures.slice(0, 12))
      lines.push(`- ${failure.length > 320 ? `${failure.slice(0, 320)}…` : failure}`)
    if (run.failures.length > 12) lines.push(`- … and ${run.failures.length - 12} more (faults.json)`)
  }
  lines.push('')
  return lines.join('\n')
}
