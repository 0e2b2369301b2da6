// The cluster runs' report (CLUSTER.md), made from their results (cluster.json): what the run
// checks, the last full and quick run on each store, and what they ran on.
import type { RoomResult } from './cluster-room.ts'
import type { ClusterResults, ClusterRun } from './cluster-run.ts'
import { type StoreName, storeLabel, storeNames } from './cluster-stores.ts'
import { ranOn } from './faults-report.ts'

const n = (x: number) => x.toLocaleString('en')
const seconds = (s: number) => (s >= 120 ? `${(s / 60).toFixed(1)} min` : `${Math.round(s)} s`)

type Column = { mode: 'full' | 'quick'; store: StoreName; run: ClusterRun }

/** "full run on SQLite", as the table heads and the paragraphs name a run */
const runName = ({ mode, store }: Column) => `${mode} run on ${storeLabel[store]}`
const load = (run: ClusterRun) =>
  run.machine ? `, load ${run.machine.loadAverage} on ${run.machine.cores} cores` : ''

/** a room check's problems: none is "yes" */
const held = (...problems: string[][]) => {
  const n = problems.flat().length
  return n === 0 ? 'yes' : `**no** (${n})`
}

function table(columns: Column[]): string[] {
  const row = (label: string, pick: (r: NonNullable<ClusterRun['result']>) => string | number) =>
    `| ${label} | ${columns.map(({ run }) => (run.result ? pick(run.result) : '—')).join(' | ')} |`
  // (runs recorded before the waiting room was checked have no room)
  const roomRow = (label: string, pick: (room: RoomResult) => string | number) =>
    row(`waiting room: ${label}`, (r) => (r.room ? pick(r.room) : '—'))
  return [
    `| | ${columns.map((c) => `${runName(c)} (${c.run.finishedAt.slice(0, 10)}, ${seconds(c.run.durationSeconds)}${load(c.run)})`).join(' | ')} |`,
    `|---|${columns.map(() => '---:').join('|')}|`,
    row('buyers / seats', (r) => `${n(r.sale.buyers)} / ${n(r.sale.seats)}`),
    row('sale: every buyer answered in', (r) => `${r.sale.seconds} s`),
    row(
      'holds acknowledged (per process)',
      (r) => `${n(r.sale.held)} (${r.sale.heldPerProcess.join(' / ')})`,
    ),
    row('refused as sold out (409)', (r) => n(r.sale.soldOut)),
    row('sale answers other than 200 or sold out', (r) => n(r.sale.buyers - r.sale.held - r.sale.soldOut)),
    row('hold requests answered per second (all processes)', (r) => n(r.sale.holdsPerSecond)),
    row('tickets issued / oversold seats', (r) => `${n(r.sale.ticketsIssued)} / ${r.sale.oversoldSeats}`),
    row(
      "push to the other processes during the sale, from the hold's request (p50 / p99 / max)",
      (r) => `${r.sale.pushLatency.p50} / ${r.sale.pushLatency.p99} / ${r.sale.pushLatency.max} ms`,
    ),
    row(
      "… from the hold's answer (p50 / p99 / max, limit 1 s)",
      (r) =>
        `${r.sale.pushAfterAnswer.p50} / ${r.sale.pushAfterAnswer.p99} / ${r.sale.pushAfterAnswer.max} ms`,
    ),
    row(
      'push to the other processes, quiet (p50 / max, limit 1 s)',
      (r) => `${r.live.latency.p50} / ${r.live.latency.max} ms`,
    ),
    row('pushes that never arrived', (r) => r.sale.pushesMissing + r.live.missing),
    roomRow(
      'in line: pre-queue / after the opening (through the restarted process) / joined twice / seats',
      (room) =>
        `${room.early} / ${room.late} (${room.afterRestart}) / ${room.joinedTwice} / ${room.capacity}`,
    ),
    roomRow(
      'admitted (admissions; a minute, set rate)',
      (room) => `${room.admitted} (${room.admissions}; ${room.measuredPerMinute}, ${room.admitPerMinute})`,
    ),
    roomRow(
      'bought / too late / told it closed',
      (room) => `${room.bought} / ${room.soldOut} / ${room.toldClosed}`,
    ),
    roomRow(
      'app process killed after … admitted; down for; admitted while down / after',
      (room) =>
        `${room.killedApp.afterAdmitted}; ${(room.killedApp.downMs / 1000).toFixed(1)} s; ${room.killedApp.admittedWhileDown} / ${room.killedApp.admittedAfter}`,
    ),
    roomRow('places heard on sockets / answers read', (room) => `${n(room.heard)} / ${n(room.asked)}`),
    roomRow('admitted strictly in line order, nobody twice, one place per account', (room) =>
      held(room.checks.inOrder, room.checks.onceEach, room.checks.onePlace),
    ),
    roomRow('places or counts ahead that went backwards', (room) => room.checks.neverBackwards.length),
    roomRow('places told that the ledger does not have', (room) => room.checks.asRecorded.length),
    roomRow(
      'checkouts without an admission refused; holds without one',
      (room) =>
        `${room.unadmitted.refused} of ${room.unadmitted.sent}; ${room.checks.admissionNeeded.length}`,
    ),
    roomRow('within capacity and the set rate', (room) =>
      held(room.checks.withinCapacity, room.checks.withinRate),
    ),
    roomRow('every buyer admitted or told it closed, alike on every process', (room) =>
      held(room.checks.ranOn),
    ),
    row('requests under the kills', (r) => n(r.faults.requests)),
    row('acknowledged writes lost', (r) => r.faults.report.lost.length),
    row('second tickets or captures', (r) => r.faults.report.duplicates.length),
    row('read models equal to a rebuild', (r) => (r.faults.report.rebuild.length === 0 ? 'yes' : 'no')),
    // (runs recorded before invoices were checked have no invoice figures)
    row('invoices / credit notes issued', (r) =>
      r.faults.report.invoiceFigures
        ? `${n(r.faults.report.invoiceFigures.invoices)} / ${n(r.faults.report.invoiceFigures.creditNotes)}`
        : '—',
    ),
    row('invoices: one per paid order, with its payment; series without gaps or repeats', (r) =>
      r.faults.report.invoices === undefined
        ? '—'
        : [r.sale.report, r.faults.report].every((report) => (report.invoices ?? []).length === 0)
          ? 'yes'
          : 'no',
    ),
    row("PostgreSQL's read models equal to its ledger's SQLite copy's", (r) =>
      (r.store ?? 'sqlite') === 'sqlite'
        ? '—'
        : [r.sale.report, r.faults.report].every((report) => (report.stores ?? []).length === 0)
          ? 'yes'
          : 'no',
    ),
    row('acknowledged jobs lost', (r) => Object.values(r.faults.owed).flat().length),
    `| result | ${columns.map(({ run }) => (run.passed ? 'passed' : `**failed** (${run.failures.length})`)).join(' | ')} |`,
  ]
}

/** Each store's sale times beside the other's, for the modes both have run. */
function saleTimes(columns: Column[]): string[] {
  const lines: string[] = []
  for (const mode of ['full', 'quick'] as const) {
    const both = columns.filter((c) => c.mode === mode && c.run.result)
    if (both.length < 2) continue
    lines.push(
      `The ${mode} run's sale, ${n(both[0]?.run.result?.sale.buyers ?? 0)} buyers for ${n(both[0]?.run.result?.sale.seats ?? 0)} seats over 3 app processes: ` +
        both
          .map(({ store, run }) => {
            const sale = run.result?.sale
            return `${storeLabel[store]} ${sale?.seconds} s (${n(sale?.holdsPerSecond ?? 0)} holds answered a second)`
          })
          .join(', ') +
        '.',
    )
  }
  return lines.length ? ['', ...lines] : []
}

export function clusterReport(results: ClusterResults): string {
  const columns = (['full', 'quick'] as const).flatMap((mode) =>
    storeNames.flatMap((store) => {
      const run = results[store]?.[mode]
      return run ? [{ mode, store, run }] : []
    }),
  )
  const lines = [
    '# Cluster runs',
    '',
    'Many processes on one store, written by `npm run test:cluster` (full) and',
    '`npm run test:cluster -- --quick` (CI), each on SQLite (the default, `--store sqlite`) or on',
    'PostgreSQL (`--store postgres`): every run to `tests/bench/results/latest/` (not committed), and',
    'with `--record` to `tests/bench/results/CLUSTER.md` and `cluster.json`. 3 app',
    'processes (`WORKERS=off`) and 2 `workers/main.ts` on one data folder (JWT secret, local',
    "gateway's file, mail outbox; on SQLite the database file too) and one Redis; on PostgreSQL every",
    'process is given `DATABASE_URL` (a fresh database each run, seeded through `PgLedger.copyIn`) and',
    'one `JWT_SECRET`. Every buyer holds one seat through the app processes in',
    'turn; every hold is paid at the gateway through the next process and reported through the one',
    'after; a socket on each process times, for every hold made on another, the first count of its',
    "ticket type's seats at or after the hold's position in the ledger (a fast sale's facts share one",
    'count per `LIVE_FIGURES_EVERY_MS`). Then, under a',
    'booking load spread over the processes, one app process is killed with `kill -9`, and so is the',
    "worker process running a job of a burst of payments (its `processedBy`); the dead process's",
    'unanswered callbacks are sent again to the others, and the fault',
    "runs' invariants are checked (every acknowledged hold, ticket and cancellation in the ledger,",
    'one capture and one ticket per paid order, held + sold within capacity, read models equal to a',
    'rebuild, every accepted payment captured and every ticket mailed; the organizer has a GSTIN and',
    'its events are taxed, so every issued ticket has exactly one invoice appended in the commit of its',
    'payment (PostgreSQL: the same transaction id), each refund its credit note, each series runs 1..n',
    'with no gap or repeat, and `invoice_documents` holds what the facts say). On PostgreSQL they are',
    "checked on a SQLite copy of its ledger (`copyLedger`, from one snapshot of the live database, the copy's",
    'read models built by replaying it), and every PostgreSQL read-model table, read in that snapshot,',
    "must equal the copy's row for row.",
    '',
    'Between the sale and the kills, a waiting room (issue 41, `tests/faults/cluster-room.ts`): an',
    'event with fewer seats than buyers, its sale set an hour ahead while most buyers join its',
    'pre-queue, then moved to a few seconds ahead; the others join after the opening, every fourth',
    'buyer a second time through another process (at once or afterwards). Each buyer has a socket on',
    'an app process and asks `GET /event/{id}/queue/me` now and then; once admitted it buys through',
    'the normal purchase path (General Admission, VIP once that is gone). When the first buyers are',
    'admitted one app process (every app process runs the admitter) is killed with `kill -9` and',
    'started again on its port; the last few buyers join through it once it answers again, and the',
    'room runs on until the event sells out. Judged from the ledger (`QueueJoined`, `QueueOpened`,',
    '`QueueAdmitted`, `QueueClosed` and the orders) and from what each buyer heard and was answered:',
    'admissions from line 1 on, each from the line after the last, none twice, none past the line or',
    "after the close, never faster than the set rate; one place per account (the pre-queue's ranked",
    "by their draws); no buyer's place or count ahead going backwards on a socket or in an answer",
    'asked for after it; every place told one the ledger had; checkouts before the opening, by a',
    "buyer waiting and by one not in line refused, and every hold of the event after its buyer's",
    'admission; nothing held or sold beyond capacity; at the end every buyer admitted or told the',
    "room closed, alike on every process, and the organizer's figures the ledger's. Its orders are",
    "in the fault phase's invariants too.",
    '',
    ...(columns.length ? table(columns) : ['No run recorded yet.']),
    ...saleTimes(columns),
  ]
  for (const column of columns) {
    const { run } = column
    const r = run.result
    if (!r) continue
    const name = runName(column)
    lines.push(
      '',
      `${name[0]?.toUpperCase()}${name.slice(1)}, seed ${run.seed} (${ranOn(run)})` +
        (run.settings
          ? ` (with ${Object.entries(run.settings)
              .map(([k, v]) => `${k}=${v}`)
              .join(', ')})`
          : '') +
        `: sale ${r.sale.seconds} s; ` +
        `${r.faults.requests} requests under the kills, app process ${r.faults.killedApp.index + 1} killed after ` +
        `${r.faults.killedApp.afterMs} ms (${r.faults.killedApp.requestsCut} requests cut), worker ` +
        `${r.faults.killedWorker.index + 1} after ${r.faults.killedWorker.afterMs} ms` +
        (r.faults.killedWorker.kills > 1
          ? ` (kill ${r.faults.killedWorker.kills}: the kills before it caught no job running, and the worker was started again)`
          : '') +
        ' while it ran ' +
        `${r.faults.killedWorker.jobsRunning.length} jobs (${r.faults.killedWorker.jobsRunning.join(', ') || 'none'}; ` +
        `${r.faults.killedWorker.takenOver} taken over by the other worker); ${r.faults.callbacksRetried} callbacks ` +
        `sent again; ${r.faults.paymentsAccepted} payments accepted, everything owed done ${r.faults.settleSeconds} s after the load.` +
        (r.room
          ? ` Waiting room: ${r.room.seconds} s, app process ${r.room.killedApp.index + 1} killed once ${r.room.killedApp.afterAdmitted} ` +
            `buyers were admitted and answering again ${(r.room.killedApp.downMs / 1000).toFixed(1)} s later; ` +
            `${r.room.reconnects} sockets connected again elsewhere; ${r.room.cut} purchases cut by the kill` +
            `${r.room.closed ? '; the room closed when the event sold out' : ''}.`
          : ''),
    )
  }
  for (const column of columns) {
    const { run } = column
    if (run.failures.length === 0) continue
    lines.push('', `Failed checks of the ${runName(column)}:`, '')
    for (const failure of run.failures.slice(0, 12))
      lines.push(`- ${failure.length > 320 ? `${failure.slice(0, 320)}…` : failure}`)
  }
  lines.push('')
  return lines.join('\n')
}
