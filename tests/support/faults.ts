// Fault injection: real processes killed and restarted, every request and its answer recorded,
// and the invariants the ledger promises checked on the recorded history and on a consistent
// copy of the database. Used by the fault runner (tests/faults/run.ts, `npm run test:faults`) and
// by the one-trial crash test in the integration suite.
import { type ChildProcess, spawn } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { createWriteStream, mkdirSync, rmSync, type WriteStream } from 'node:fs'
import { join, resolve } from 'node:path'
import Database from 'better-sqlite3'
import { getTableName } from 'drizzle-orm'
import { Redis } from 'ioredis'
import { openDatabase } from '../../server/db/connection.ts'
import type { StoredFact } from '../../server/ledger/ledger.ts'
import { rebuildReadModels } from '../../server/ledger/rebuild.ts'
import { appLedger, projections } from '../../server/projections.ts'
import type { EventSeed } from '../bench/lib/fixtures.ts'
import {
  checkInvoices,
  type InvoiceDocumentRow,
  type InvoiceFigures,
  type SameCommit,
  sameSqliteCommit,
} from './invoice-invariants.ts'
import { readOutbox } from './outbox.ts'
import {
  type RowRecord,
  rowRecordsDisagreeing,
  rowRecordsSql,
  type SeatOfRow,
  seatsOfRowsSql,
} from './seat-rows.ts'
import { freePort } from './server.ts'

export const root = resolve(import.meta.dirname, '../..')
export const sharedRedisUrl = process.env.REDIS_URL?.startsWith('redis')
  ? process.env.REDIS_URL
  : 'redis://127.0.0.1:6379'

export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms))

/** Runs fn over items with at most `limit` in flight. */
export async function pool<T, R>(
  items: T[],
  limit: number,
  fn: (item: T, i: number) => Promise<R>,
): Promise<R[]> {
  const results: R[] = new Array(items.length)
  let next = 0
  const lane = async () => {
    while (next < items.length) {
      const i = next++
      results[i] = await fn(items[i] as T, i)
    }
  }
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane))
  return results
}

/** A small seeded random source, so a run's choices can be replayed from its seed. */
export function randomSource(seed: number) {
  let a = seed >>> 0
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
  return {
    next,
    int: (min: number, max: number) => min + Math.floor(next() * (max - min + 1)),
    pick: <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)] as T,
  }
}
export type Random = ReturnType<typeof randomSource>

// ---------------------------------------------------------------------------------------------
// The history: every request sent and what came back (or that nothing did).

export type OpKind =
  | 'hold'
  | 'pay'
  | 'pay-fail'
  | 'confirm'
  | 'confirm-retry'
  | 'cancel-hold'
  | 'cancel-ticket'
  | 'list'
  | 'event'
  | 'registrations'
  /** a waiting room's line (issue 41): joining it, and asking one's place in it */
  | 'queue-join'
  | 'queue-place'

export type Op = {
  seq: number
  scenario: string
  trial: number
  /** the virtual user that sent it (-1: the harness itself) */
  vu: number
  /** the buyer (index into the seeded tokens) it was sent as */
  buyer?: number
  op: OpKind
  method: string
  path: string
  body?: unknown
  /** epoch ms when the request was sent */
  startedAt: number
  ms: number
  /** null: no answer (connection refused or reset, or no answer before the deadline) */
  status: number | null
  error?: string
  /** the JSON reply (lists are cut to their length) */
  answer?: unknown
}

export class History {
  readonly ops: Op[] = []
  private seq = 0
  private readonly out: WriteStream | null

  constructor(file?: string) {
    if (file) mkdirSync(resolve(file, '..'), { recursive: true })
    this.out = file ? createWriteStream(file) : null
  }

  add(op: Omit<Op, 'seq'>): Op {
    const stored = { seq: ++this.seq, ...op }
    this.ops.push(stored)
    this.out?.write(`${JSON.stringify(stored)}\n`)
    return stored
  }

  close(): Promise<void> {
    return new Promise((r) => (this.out ? this.out.end(r) : r()))
  }
}

export type Call = (spec: {
  vu: number
  op: OpKind
  method: 'GET' | 'POST' | 'DELETE'
  path: string
  buyer?: number
  body?: unknown
  /** no answer by then counts as a hang: the request is abandoned and recorded without status */
  timeoutMs?: number
}) => Promise<Op>

/** A client of one server that records every request it sends in the history. */
export function recordingClient(
  history: History,
  baseUrl: () => string,
  tokens: string[],
  context: { scenario: string; trial: () => number },
): Call {
  return async ({ vu, op, method, path, buyer, body, timeoutMs = 30_000 }) => {
    const token = buyer === undefined ? undefined : tokens[buyer]
    const startedAt = Date.now()
    const started = performance.now()
    const record = (fields: Pick<Op, 'status'> & Partial<Op>) =>
      history.add({
        scenario: context.scenario,
        trial: context.trial(),
        vu,
        ...(buyer === undefined ? {} : { buyer }),
        op,
        method,
        path,
        ...(body === undefined ? {} : { body }),
        startedAt,
        ms: Math.round(performance.now() - started),
        ...fields,
      })
    try {
      const res = await fetch(`${baseUrl()}/api/v1${path}`, {
        method,
        headers: {
          ...(token ? { authorization: `Bearer ${token}` } : {}),
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(timeoutMs),
      })
      const text = await res.text()
      let answer: unknown = text.slice(0, 500)
      try {
        const parsed = JSON.parse(text) as unknown
        answer = Array.isArray(parsed) ? { items: parsed.length } : parsed
      } catch {}
      return record({ status: res.status, answer })
    } catch (error) {
      const e = error as Error & { cause?: { code?: string } }
      const reason =
        e.name === 'TimeoutError' ? `no answer within ${timeoutMs} ms` : (e.cause?.code ?? e.message)
      return record({ status: null, error: reason })
    }
  }
}

/** A connection failure (the server is down), as opposed to a request left unanswered. */
export const refused = (op: Op) => op.status === null && !op.error?.startsWith('no answer')

// ---------------------------------------------------------------------------------------------
// Processes: the real server and worker entries, killed with SIGKILL.

export type Proc = {
  child: ChildProcess
  pid: number
  output: () => string
  exited: Promise<number | null>
  /** kill -9, and wait until it is gone */
  kill9(): Promise<void>
  /** SIGTERM (graceful), and wait */
  stop(): Promise<void>
}

/** Children started here, killed (by their own pid) if this process exits before they do. */
const children = new Set<ChildProcess>()
let reaping = false
export function track(child: ChildProcess) {
  children.add(child)
  child.once('exit', () => children.delete(child))
  if (!reaping) {
    reaping = true
    process.once('exit', () => {
      for (const c of children) c.kill('SIGKILL')
    })
  }
}

export function spawnNode(script: string, env: Record<string, string>): Proc {
  return spawnProgram(process.execPath, ['--import', 'tsx', script], env)
}

/** Any program (nginx, for one), tracked, killed and read like the server and worker entries. */
export function spawnProgram(command: string, args: string[], env: Record<string, string> = {}): Proc {
  const child = spawn(command, args, {
    cwd: root,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  track(child)
  let output = ''
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-64_000)
  }
  child.stdout?.on('data', keep)
  child.stderr?.on('data', keep)
  const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)))
  const signal = async (name: NodeJS.Signals) => {
    if (child.exitCode === null && child.signalCode === null) child.kill(name)
    await exited
  }
  return {
    child,
    pid: child.pid ?? 0,
    output: () => output,
    exited,
    kill9: () => signal('SIGKILL'),
    stop: () => signal('SIGTERM'),
  }
}

export async function waitFor(
  check: () => boolean | Promise<boolean>,
  timeoutMs: number,
  what: string,
  everyMs = 50,
): Promise<number> {
  const started = Date.now()
  for (;;) {
    if (await check()) return Date.now() - started
    if (Date.now() - started > timeoutMs)
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`)
    await sleep(everyMs)
  }
}

export type ServerEnv = Record<string, string>

/** The environment every fault scenario gives the server and worker processes. */
export const faultEnv = (dataDir: string, extra: ServerEnv = {}): ServerEnv => ({
  DATA_DIR: dataDir,
  HOST: '127.0.0.1',
  RATE_LIMITS: 'off',
  MAX_HELD_SEATS_PER_ADDRESS: '1000000',
  SQLITE_SYNCHRONOUS: 'FULL',
  LOG_LEVEL: 'warn',
  // A test run: production refuses RATE_LIMITS=off and the local gateway, which the load needs.
  NODE_ENV: 'test',
  REDIS_URL: sharedRedisUrl,
  QUEUE_PREFIX: `faults-${randomBytes(5).toString('hex')}`,
  ...extra,
})

export type ServerProcess = { proc: Proc; url: string; port: number }

/** server/main.ts on the given port (a fresh one by default), up when /health/live answers. */
export async function startServerProcess(env: ServerEnv, port?: number): Promise<ServerProcess> {
  const chosen = port ?? (await freePort())
  const proc = spawnNode('server/main.ts', {
    ...env,
    PORT: String(chosen),
    PUBLIC_URL: `http://127.0.0.1:${chosen}`,
  })
  const url = `http://127.0.0.1:${chosen}`
  let gone = false
  void proc.exited.then(() => {
    gone = true
  })
  await waitFor(
    async () => {
      if (gone) throw new Error(`the server exited while starting:\n${proc.output()}`)
      try {
        return (await fetch(`${url}/api/v1/health/live`)).ok
      } catch {
        return false
      }
    },
    40_000,
    `the server on ${url}`,
  ).catch(async (error) => {
    await proc.kill9()
    throw error
  })
  return { proc, url, port: chosen }
}

/** workers/main.ts, up when it says its workers run (an info line, so it logs at info). */
export async function startWorkerProcess(env: ServerEnv): Promise<Proc> {
  const proc = spawnNode('workers/main.ts', { ...env, WORKERS: 'inline', LOG_LEVEL: 'info' })
  let gone = false
  void proc.exited.then(() => {
    gone = true
  })
  await waitFor(
    () => {
      if (gone) throw new Error(`the worker exited while starting:\n${proc.output()}`)
      return /Workers are running/.test(proc.output())
    },
    40_000,
    'the worker process',
  ).catch(async (error) => {
    await proc.kill9()
    throw error
  })
  return proc
}

/** Removes every key of a queue prefix from a Redis (the runs leave nothing behind). */
export async function dropQueuePrefix(redisUrl: string, prefix: string): Promise<void> {
  const redis = new Redis(redisUrl, { maxRetriesPerRequest: 1, lazyConnect: true })
  redis.on('error', () => {})
  try {
    await redis.connect()
    let cursor = '0'
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 1000)
      cursor = next
      if (keys.length) await redis.unlink(...keys)
    } while (cursor !== '0')
  } catch {
    // Redis gone: nothing to clean.
  } finally {
    redis.disconnect()
  }
}

export function removeDir(dir: string) {
  rmSync(dir, { recursive: true, force: true })
}

// ---------------------------------------------------------------------------------------------
// The booking load: virtual buyers holding seats, paying at the local gateway, confirming,
// giving holds back, cancelling tickets, and reading.

export type LoadOptions = {
  call: Call
  /** how many seeded buyers there are (the client holds their tokens) */
  buyers: number
  events: EventSeed[]
  vus: number
  random: Random
  /** a virtual user stops at its first refused connection (the server was killed) */
  stopWhenRefused: boolean
  timeoutMs?: number
  /** share of iterations that only read */
  reads?: number
}

export type Load = { stop(): Promise<void>; finished: Promise<void> }

export function startBookingLoad(o: LoadOptions): Load {
  let running = true
  const timeoutMs = o.timeoutMs ?? 30_000
  const readShare = o.reads ?? 0.15
  const vu = async (index: number) => {
    const gone = (op: Op) => o.stopWhenRefused && refused(op)
    while (running) {
      const buyer = o.random.int(0, o.buyers - 1)
      const event = o.random.pick(o.events)
      if (o.random.next() < readShare) {
        const which = o.random.next()
        const op =
          which < 0.4
            ? await o.call({ vu: index, op: 'list', method: 'GET', path: '/event', timeoutMs })
            : which < 0.8
              ? await o.call({
                  vu: index,
                  op: 'event',
                  method: 'GET',
                  path: `/event/${event.eventId}`,
                  timeoutMs,
                })
              : await o.call({
                  vu: index,
                  op: 'registrations',
                  method: 'GET',
                  path: '/ticket/registrations',
                  buyer,
                  timeoutMs,
                })
        if (gone(op)) return
        continue
      }
      const ticketType = o.random.next() < 0.4 ? 'VIP' : 'General Admission'
      const held = await o.call({
        vu: index,
        op: 'hold',
        method: 'POST',
        path: '/ticket/create',
        buyer,
        body: { eventId: event.eventId, ticketType, quantity: o.random.int(1, 3) },
        timeoutMs,
      })
      if (gone(held)) return
      if (held.status !== 200) continue
      const { orderId, ticketId } = held.answer as { orderId: string; ticketId: string }
      const choice = o.random.next()
      if (choice < 0.55) {
        const paid = await o.call({
          vu: index,
          op: 'pay',
          method: 'POST',
          path: '/payments/local/pay',
          buyer,
          body: { orderId, outcome: 'success' },
          timeoutMs,
        })
        if (gone(paid) || paid.status !== 200) {
          if (gone(paid)) return
          continue
        }
        const checkout = paid.answer as Record<string, string>
        const confirmed = await o.call({
          vu: index,
          op: 'confirm',
          method: 'POST',
          path: '/ticket/handlePaymentSuccess',
          buyer,
          body: {
            paymentId: checkout.razorpay_payment_id,
            orderId: checkout.razorpay_order_id,
            signature: checkout.razorpay_signature,
          },
          timeoutMs,
        })
        if (gone(confirmed)) return
        if (confirmed.status === 200 && o.random.next() < 0.1) {
          const cancelled = await o.call({
            vu: index,
            op: 'cancel-ticket',
            method: 'DELETE',
            path: `/ticket/cancel/${ticketId}`,
            buyer,
            timeoutMs,
          })
          if (gone(cancelled)) return
        }
      } else if (choice < 0.65) {
        const failed = await o.call({
          vu: index,
          op: 'pay-fail',
          method: 'POST',
          path: '/payments/local/pay',
          buyer,
          body: { orderId, outcome: 'failure' },
          timeoutMs,
        })
        if (gone(failed)) return
      } else if (choice < 0.75) {
        const released = await o.call({
          vu: index,
          op: 'cancel-hold',
          method: 'DELETE',
          path: `/ticket/cancel/${ticketId}`,
          buyer,
          timeoutMs,
        })
        if (gone(released)) return
      }
      // else: the buyer walks away and the hold lapses
    }
  }
  const finished = Promise.all(Array.from({ length: o.vus }, (_, i) => vu(i))).then(() => {})
  return {
    finished,
    async stop() {
      running = false
      await finished
    },
  }
}

// ---------------------------------------------------------------------------------------------
// Reading the history.

export type PaidOrder = {
  ticketId: string
  providerOrderId: string
  paymentId: string
  buyer: number
  checkout: Record<string, string>
  /** the callback's last answer (null: none) */
  confirmStatus: number | null
}

/** Orders the history shows were held (answered 200), by ticket id. */
export function heldOrders(ops: Op[]): Map<string, { providerOrderId: string; op: Op }> {
  const held = new Map<string, { providerOrderId: string; op: Op }>()
  for (const op of ops) {
    if (op.op !== 'hold' || op.status !== 200) continue
    const a = op.answer as { ticketId: string; orderId: string }
    held.set(a.ticketId, { providerOrderId: a.orderId, op })
  }
  return held
}

/** Payments the local gateway answered as captured, with the order they paid and the callbacks. */
export function paidOrders(ops: Op[]): PaidOrder[] {
  const byProvider = new Map([...heldOrders(ops)].map(([ticketId, h]) => [h.providerOrderId, ticketId]))
  const paid = new Map<string, PaidOrder>()
  for (const op of ops) {
    if (op.op === 'pay' && op.status === 200) {
      const checkout = op.answer as Record<string, string>
      const providerOrderId = checkout.razorpay_order_id ?? ''
      const ticketId = byProvider.get(providerOrderId)
      if (!ticketId) continue
      paid.set(checkout.razorpay_payment_id ?? '', {
        ticketId,
        providerOrderId,
        paymentId: checkout.razorpay_payment_id ?? '',
        buyer: op.buyer ?? -1,
        checkout,
        confirmStatus: null,
      })
    }
    if ((op.op === 'confirm' || op.op === 'confirm-retry') && op.status !== null) {
      const entry = paid.get((op.body as { paymentId: string }).paymentId)
      if (entry) entry.confirmStatus = op.status
    }
  }
  return [...paid.values()]
}

// ---------------------------------------------------------------------------------------------
// The invariants, checked on a consistent copy of the database.

export type InvariantReport = {
  /** PRAGMA integrity_check on the live file (and on the copy) */
  integrity: string
  facts: number
  /** acknowledged writes in the history, by kind */
  acknowledged: { holds: number; tickets: number; cancels: number }
  /** acknowledged writes missing from the ledger */
  lost: string[]
  /** a second ticket or capture where there must be one */
  duplicates: string[]
  /** seats held + sold beyond a ticket type's capacity, summed */
  oversoldSeats: number
  /** inventory rows that disagree with the ledger or the orders table */
  inventory: string[]
  /** read-model rows that a rebuild from the ledger does not reproduce */
  rebuild: string[]
  /** invoices and credit notes (issue 42) that break their invariants (invoice-invariants.ts):
   * a paid order without its invoice or with two, a document of an order never issued, one not
   * appended with its payment or refund, a gap or a repeat in a series, invoice_documents unlike
   * the facts */
  invoices: string[]
  /** how many documents and series were checked */
  invoiceFigures: InvoiceFigures
  ok: boolean
}

const readModelTables = () => [
  ...new Set(projections.flatMap((p) => p.tables.map((table) => getTableName(table)))),
]

function dumpTables(sqlite: Database.Database, tables: string[]): Map<string, string[]> {
  return new Map(
    tables.map((name) => [
      name,
      sqlite
        .prepare(`SELECT * FROM "${name}"`)
        .all()
        .map((row) => JSON.stringify(row))
        .sort(),
    ]),
  )
}

type OrderFold = {
  ticketTypeId: string
  quantity: number
  amountPaise: number
  status: 'held' | 'issued' | 'failed' | 'expired' | 'cancelled'
  issued: number
  captures: Map<string, number>
  types: string[]
  /** a seated order's seat ids (issue 40) */
  seats: string[]
}

/** Each order stream folded the way the booking projection counts seats. */
export function foldOrders(facts: StoredFact[]): Map<string, OrderFold> {
  const orders = new Map<string, OrderFold>()
  for (const fact of facts) {
    if (!fact.stream.startsWith('order-')) continue
    const id = fact.stream.slice('order-'.length)
    const data = fact.data as Record<string, unknown>
    if (fact.type === 'TicketsHeld') {
      orders.set(id, {
        ticketTypeId: String(data.ticketTypeId),
        quantity: Number(data.quantity),
        amountPaise: Number(data.amountPaise),
        status: 'held',
        issued: 0,
        captures: new Map(),
        types: [],
        seats: ((data.seats as Array<{ id: string }> | undefined) ?? []).map((s) => s.id),
      })
    }
    const order = orders.get(id)
    if (!order) continue
    order.types.push(fact.type)
    switch (fact.type) {
      case 'TicketsIssued':
        order.status = 'issued'
        order.issued++
        break
      case 'PaymentFailed':
        order.status = 'failed'
        break
      case 'HoldExpired':
        order.status = 'expired'
        break
      case 'TicketCancelled':
        order.status = 'cancelled'
        break
      case 'PaymentCaptured': {
        const paymentId = String(data.paymentId)
        order.captures.set(paymentId, (order.captures.get(paymentId) ?? 0) + 1)
        break
      }
    }
  }
  return orders
}

/** A consistent copy of a live database (VACUUM INTO reads one snapshot), checked for integrity. */
export function snapshot(databaseFile: string, copyFile: string): string {
  rmSync(copyFile, { force: true })
  const live = new Database(databaseFile, { readonly: true, fileMustExist: true })
  try {
    live.pragma('busy_timeout = 5000')
    const integrity = (live.pragma('integrity_check') as Array<{ integrity_check: string }>)
      .map((r) => r.integrity_check)
      .join('; ')
    live.prepare('VACUUM INTO ?').run(copyFile)
    return integrity
  } finally {
    live.close()
  }
}

/**
 * Checks the database (live file while its server runs) against the recorded history:
 * integrity, every acknowledged write in the ledger, one ticket and one capture per payment,
 * no seat sold twice, every paid order's invoice and every series gapless, and read models equal
 * to a rebuild from the ledger. `sameCommit` says whether two facts were appended in one commit:
 * by default as SQLite appends them (a copy of another store's ledger is given that store's).
 */
export function checkInvariants(
  databaseFile: string,
  ops: Op[],
  scratchDir: string,
  sameCommit: SameCommit = sameSqliteCommit,
): InvariantReport {
  mkdirSync(scratchDir, { recursive: true })
  const copyFile = join(scratchDir, `check-${randomBytes(4).toString('hex')}.sqlite`)
  const integrityLive = snapshot(databaseFile, copyFile)
  const connection = openDatabase(copyFile, 'NORMAL')
  try {
    const integrityCopy = (connection.sqlite.pragma('integrity_check') as Array<{ integrity_check: string }>)
      .map((r) => r.integrity_check)
      .join('; ')
    const integrity =
      integrityLive === 'ok' && integrityCopy === 'ok' ? 'ok' : `${integrityLive} / ${integrityCopy}`
    const ledger = appLedger(connection)
    const facts = ledger.readFrom(0, Number.MAX_SAFE_INTEGER)
    const orders = foldOrders(facts)
    const streams = new Map<string, StoredFact[]>()
    for (const fact of facts) {
      const list = streams.get(fact.stream) ?? []
      list.push(fact)
      streams.set(fact.stream, list)
    }

    // Every write the server acknowledged is in the ledger.
    const lost: string[] = []
    const acknowledged = { holds: 0, tickets: 0, cancels: 0 }
    const has = (stream: string, test: (f: StoredFact) => boolean) => (streams.get(stream) ?? []).some(test)
    for (const op of ops) {
      if (op.status !== 200) continue
      if (op.op === 'hold') {
        acknowledged.holds++
        const { ticketId, orderId } = op.answer as { ticketId: string; orderId: string }
        const ok = has(
          `order-${ticketId}`,
          (f) =>
            f.type === 'TicketsHeld' && (f.data as { providerOrderId: string }).providerOrderId === orderId,
        )
        if (!ok) lost.push(`#${op.seq} hold answered 200 (ticket ${ticketId}) has no TicketsHeld`)
      } else if (
        (op.op === 'confirm' || op.op === 'confirm-retry') &&
        (op.answer as { ticket?: unknown })?.ticket
      ) {
        acknowledged.tickets++
        const ticketId = (op.answer as { ticket: { _id: string } }).ticket._id
        const paymentId = (op.body as { paymentId: string }).paymentId
        if (!has(`order-${ticketId}`, (f) => f.type === 'TicketsIssued'))
          lost.push(`#${op.seq} handlePaymentSuccess answered 200 (ticket ${ticketId}) has no TicketsIssued`)
        if (
          !has(
            `order-${ticketId}`,
            (f) => f.type === 'PaymentCaptured' && (f.data as { paymentId: string }).paymentId === paymentId,
          )
        )
          lost.push(
            `#${op.seq} handlePaymentSuccess answered 200 (payment ${paymentId}) has no PaymentCaptured`,
          )
      } else if (op.op === 'cancel-hold' || op.op === 'cancel-ticket') {
        acknowledged.cancels++
        const ticketId = op.path.split('/').pop() ?? ''
        const type = op.op === 'cancel-hold' ? 'PaymentFailed' : 'TicketCancelled'
        if (!has(`order-${ticketId}`, (f) => f.type === type))
          lost.push(`#${op.seq} ${op.op} answered 200 (ticket ${ticketId}) has no ${type}`)
      }
    }

    // One ticket per order, one capture per payment; a ticket only for a captured payment.
    const duplicates: string[] = []
    for (const [id, order] of orders) {
      if (order.issued > 1) duplicates.push(`order ${id}: ${order.issued} TicketsIssued`)
      for (const [paymentId, n] of order.captures) {
        if (n > 1) duplicates.push(`order ${id}: payment ${paymentId} captured ${n} times`)
      }
      if (order.issued > 0 && order.amountPaise > 0 && order.captures.size === 0)
        duplicates.push(`order ${id}: a ticket without a captured payment`)
    }

    // No seat sold twice: per ticket type, held + sold within capacity, and the stored counts
    // equal the ledger's and the orders table's.
    const inventory: string[] = []
    let oversoldSeats = 0
    const capacities = connection.sqlite
      .prepare('SELECT id, quantity FROM event_ticket_types')
      .all() as Array<{ id: string; quantity: number }>
    const stored = new Map(
      (
        connection.sqlite.prepare('SELECT ticket_type_id AS id, held, sold FROM inventory').all() as Array<{
          id: string
          held: number
          sold: number
        }>
      ).map((r) => [r.id, r]),
    )
    const issuedRows = new Map(
      (
        connection.sqlite
          .prepare(
            "SELECT ticket_type_id AS id, sum(quantity) AS sold FROM orders WHERE status = 'issued' GROUP BY ticket_type_id",
          )
          .all() as Array<{ id: string; sold: number }>
      ).map((r) => [r.id, r.sold]),
    )
    for (const { id, quantity: capacity } of capacities) {
      let held = 0
      let sold = 0
      for (const order of orders.values()) {
        if (order.ticketTypeId !== id) continue
        if (order.status === 'held') held += order.quantity
        if (order.status === 'issued') sold += order.quantity
      }
      const row = stored.get(id) ?? { held: 0, sold: 0 }
      const over = Math.max(held + sold, row.held + row.sold) - capacity
      if (over > 0) oversoldSeats += over
      if (row.held !== held || row.sold !== sold)
        inventory.push(
          `ticket type ${id}: inventory held ${row.held} sold ${row.sold}, ledger held ${held} sold ${sold}`,
        )
      if ((issuedRows.get(id) ?? 0) !== row.sold)
        inventory.push(
          `ticket type ${id}: inventory sold ${row.sold}, issued orders ${issuedRows.get(id) ?? 0}`,
        )
    }

    // No seat of a map held or sold to two orders at once (issue 40), and the seats' statuses as
    // the ledger has them: each seat of a live order held or sold to that order, no other taken.
    const claimed = new Map<string, string>()
    for (const [id, order] of orders) {
      if (order.status !== 'held' && order.status !== 'issued') continue
      for (const seat of order.seats) {
        const other = claimed.get(seat)
        if (other) {
          oversoldSeats++
          inventory.push(`seat ${seat}: taken by orders ${other} and ${id}`)
        }
        claimed.set(seat, id)
      }
    }
    const seatRows = connection.sqlite
      .prepare("SELECT seat_id AS id, status, order_id AS orderId FROM seats WHERE status <> 'free'")
      .all() as Array<{ id: string; status: string; orderId: string }>
    for (const row of seatRows) {
      const owner = claimed.get(row.id)
      const order = owner ? orders.get(owner) : undefined
      const expected = order?.status === 'issued' ? 'sold' : 'held'
      if (owner !== row.orderId || row.status !== expected)
        inventory.push(`seat ${row.id}: stored ${row.status} for ${row.orderId}, ledger ${owner ?? 'free'}`)
      claimed.delete(row.id)
    }
    for (const [seat, owner] of claimed) inventory.push(`seat ${seat}: ledger taken by ${owner}, stored free`)
    // each row's record of its seats (what a hold of the best seats reads) and free count as they are
    inventory.push(
      ...rowRecordsDisagreeing(
        connection.sqlite.prepare(seatsOfRowsSql).all() as SeatOfRow[],
        connection.sqlite.prepare(rowRecordsSql).all() as RowRecord[],
      ),
    )

    // Every paid order's invoice, with its payment; every refund's credit note; every series 1..n;
    // invoice_documents as the facts say (the rows stored, before the rebuild below).
    const invoiceCheck = checkInvoices(facts, sameCommit, {
      rows: connection.sqlite.prepare('SELECT * FROM invoice_documents').all() as InvoiceDocumentRow[],
      store: 'SQLite',
    })

    // The read models equal what a replay of the ledger builds.
    const tables = readModelTables()
    const before = dumpTables(connection.sqlite, tables)
    rebuildReadModels(ledger)
    const after = dumpTables(connection.sqlite, tables)
    const rebuild: string[] = []
    for (const name of tables) {
      const a = before.get(name) ?? []
      const b = new Set(after.get(name) ?? [])
      const aSet = new Set(a)
      const missing = [...b].filter((r) => !aSet.has(r))
      const extra = a.filter((r) => !b.has(r))
      if (missing.length || extra.length) {
        rebuild.push(
          `${name}: ${extra.length} stored rows not rebuilt, ${missing.length} rebuilt rows not stored` +
            (extra[0] ? `; e.g. stored ${extra[0].slice(0, 300)}` : '') +
            (missing[0] ? `; rebuilt ${missing[0].slice(0, 300)}` : ''),
        )
      }
    }

    return {
      integrity,
      facts: facts.length,
      acknowledged,
      lost,
      duplicates,
      oversoldSeats,
      inventory,
      rebuild,
      invoices: invoiceCheck.problems,
      invoiceFigures: invoiceCheck.figures,
      ok:
        integrity === 'ok' &&
        lost.length === 0 &&
        duplicates.length === 0 &&
        oversoldSeats === 0 &&
        inventory.length === 0 &&
        rebuild.length === 0 &&
        invoiceCheck.problems.length === 0,
    }
  } finally {
    connection.close()
    for (const suffix of ['', '-wal', '-shm']) rmSync(`${copyFile}${suffix}`, { force: true })
  }
}

/** The facts of a live database (one read transaction). */
export function readLedger(databaseFile: string): StoredFact[] {
  const live = new Database(databaseFile, { readonly: true, fileMustExist: true })
  try {
    live.pragma('busy_timeout = 5000')
    return (
      live.prepare('SELECT * FROM ledger ORDER BY position').all() as Array<{
        position: number
        stream: string
        version: number
        type: string
        data: string
        meta: string
        at: string
      }>
    ).map((r) => ({ ...r, data: JSON.parse(r.data), meta: JSON.parse(r.meta) }))
  } finally {
    live.close()
  }
}

// ---------------------------------------------------------------------------------------------
// Jobs the server acknowledged (by a 2xx, or by a fact it committed) and must carry out.

/** Ticket ids named by the confirmation mails in an outbox folder, with how many mails each. */
export function mailedTickets(outboxDir: string): Map<string, number> {
  const found = new Map<string, number>()
  // each mail's text part decoded (readOutbox): a confirmation with its pass images is multipart,
  // and its text part may be base64 as well as quoted-printable
  for (const mail of readOutbox(outboxDir)) {
    if (!/Your booking is confirmed/.test(mail.text)) continue
    const id = /Ticket number: ([0-9a-f]+)/.exec(mail.text)?.[1]
    if (id) found.set(id, (found.get(id) ?? 0) + 1)
  }
  return found
}

/** Orders still held, with the time their hold lapses. */
export function openHolds(facts: StoredFact[]): Array<{ id: string; heldUntil: number }> {
  const until = new Map(
    facts
      .filter((f) => f.type === 'TicketsHeld')
      .map((f) => {
        const d = f.data as { orderId: string; heldUntil: string }
        return [d.orderId, Date.parse(d.heldUntil)] as const
      }),
  )
  return [...foldOrders(facts)]
    .filter(([, order]) => order.status === 'held')
    .map(([id]) => ({ id, heldUntil: until.get(id) ?? 0 }))
}

export const jobKinds = {
  capture: 'accepted payment never captured',
  mail: 'ticket without its confirmation mail',
  refund: 'refund requested, never made',
  release: 'lapsed hold never released',
} as const

/**
 * What is still owed, by kind: payments the gateway accepted (answered 200 to the payer) without
 * a capture, tickets without their mail, refunds requested but not made, holds lapsed more than
 * `graceMs` ago and not released.
 */
export function owedJobs(
  /** the SQLite file, or the facts of a ledger already read (PostgreSQL's) */
  ledger: string | StoredFact[],
  outboxDir: string,
  accepted: PaidOrder[],
  graceMs = 5000,
): Record<string, string[]> {
  const facts = typeof ledger === 'string' ? readLedger(ledger) : ledger
  const owed: Record<string, string[]> = {}
  const add = (kind: string, item: string) => {
    owed[kind] ??= []
    owed[kind].push(item)
  }
  const captured = new Set(
    facts.filter((f) => f.type === 'PaymentCaptured').map((f) => (f.data as { paymentId: string }).paymentId),
  )
  for (const p of accepted) {
    if (!captured.has(p.paymentId))
      add(
        jobKinds.capture,
        `payment ${p.paymentId} of ticket ${p.ticketId} (callback answered ${p.confirmStatus ?? 'never'})`,
      )
  }
  const mailed = mailedTickets(outboxDir)
  for (const f of facts) {
    if (f.type !== 'TicketsIssued') continue
    const id = (f.data as { orderId: string }).orderId
    if (!mailed.has(id)) add(jobKinds.mail, `ticket ${id}`)
  }
  const refunded = new Set(
    facts.filter((f) => f.type === 'PaymentRefunded').map((f) => (f.data as { paymentId: string }).paymentId),
  )
  for (const f of facts) {
    if (f.type !== 'RefundRequested') continue
    const d = f.data as { paymentId: string; orderId: string }
    if (!refunded.has(d.paymentId)) add(jobKinds.refund, `payment ${d.paymentId} of ticket ${d.orderId}`)
  }
  const now = Date.now()
  for (const hold of openHolds(facts)) {
    if (hold.heldUntil + graceMs < now)
      add(jobKinds.release, `ticket ${hold.id} held until ${new Date(hold.heldUntil).toISOString()}`)
  }
  return owed
}

/** Waits until nothing is owed (or the time is up) and returns what still is. */
export async function settleJobs(
  owed: () => Record<string, string[]> | Promise<Record<string, string[]>>,
  timeoutMs: number,
  /** hears what is still owed every ten seconds */
  progress?: (left: Record<string, string[]>) => void,
): Promise<Record<string, string[]>> {
  let left = await owed()
  const started = Date.now()
  let told = started
  while (Object.keys(left).length > 0 && Date.now() < started + timeoutMs) {
    await sleep(500)
    left = await owed()
    if (progress && Date.now() - told >= 10_000) {
      told = Date.now()
      progress(left)
    }
  }
  return left
}

/**
 * Where a BullMQ job is (for reports): absent, or its list, attempts and failure; `pending` when
 * it is still on its way (waiting, delayed, or running — a job whose worker lost Redis or died
 * runs again after BullMQ's stalled check).
 */
export async function bullJobState(
  redis: Redis,
  prefix: string,
  queue: string,
  jobId: string,
): Promise<{ state: string; pending: boolean }> {
  const key = `${prefix}:${queue}`
  const hash = await redis.hgetall(`${key}:${jobId}`)
  if (Object.keys(hash).length === 0)
    return { state: `job ${queue}/${jobId} absent from Redis`, pending: false }
  const where: string[] = []
  for (const set of ['delayed', 'completed', 'failed', 'prioritized', 'waiting-children']) {
    if ((await redis.zscore(`${key}:${set}`, jobId)) !== null) where.push(set)
  }
  for (const list of ['wait', 'active', 'paused']) {
    if ((await redis.lpos(`${key}:${list}`, jobId)) !== null) where.push(list)
  }
  const details = [
    hash.atm ? `${hash.atm} attempts` : '',
    hash.stc ? `stalled ${hash.stc}×` : '',
    hash.failedReason ? `failed: ${hash.failedReason.slice(0, 120)}` : '',
  ].filter(Boolean)
  return {
    state: `job ${queue}/${jobId} ${where.join('+') || 'in no list'}${details.length ? ` (${details.join(', ')})` : ''}`,
    pending: where.some((w) => ['wait', 'active', 'delayed', 'prioritized', 'paused'].includes(w)),
  }
}

/** The BullMQ job (queue, id) that should have done an owed job. */
export function jobFor(kind: string, item: string): [string, string] | null {
  const ticket = /ticket ([0-9a-f]+)/.exec(item)?.[1]
  const payment = /payment (\S+)/.exec(item)?.[1]
  if (!ticket) return null
  switch (kind) {
    case jobKinds.capture:
      return ['payments', `confirm-${ticket}-${payment}`]
    case jobKinds.refund:
      return ['payments', `refund-${ticket}-${payment}`]
    case jobKinds.mail:
      return ['mail', `mail-issued-${ticket}`]
    case jobKinds.release:
    case 'open hold without its expiry job':
      return ['holds', `expire-${ticket}`]
    default:
      return null
  }
}

/** Each owed item with where its BullMQ job is (for reports). */
export async function describeOwed(
  redisUrl: string,
  prefix: string,
  owed: Record<string, string[]>,
): Promise<Record<string, string[]>> {
  if (Object.keys(owed).length === 0) return owed
  const redis = new Redis(redisUrl, { maxRetriesPerRequest: 1 })
  redis.on('error', () => {})
  try {
    const described: Record<string, string[]> = {}
    for (const [kind, items] of Object.entries(owed)) {
      described[kind] = []
      for (const item of items) {
        const job = jobFor(kind, item)
        described[kind].push(
          job ? `${item}: ${(await bullJobState(redis, prefix, job[0], job[1])).state}` : item,
        )
      }
    }
    return described
  } catch {
    return owed
  } finally {
    redis.disconnect()
  }
}

/** The id of the last entry of a Redis stream ('0-0' when there is none). */
export async function streamEnd(redis: Redis, stream: string): Promise<string> {
  const last = (await redis.xrevrange(stream, '+', '-', 'COUNT', 1)) as Array<[string, string[]]>
  return last[0]?.[0] ?? '0-0'
}

/** Resolves at the n-th `event` after `from` in a BullMQ queue's event stream (false: timed out). */
export async function nthEvent(
  redis: Redis,
  stream: string,
  from: string,
  event: string,
  n: number,
  timeoutMs: number,
): Promise<boolean> {
  const deadline = Date.now() + timeoutMs
  let last = from
  let seen = 0
  while (Date.now() < deadline) {
    const read = (await redis.xread(
      'BLOCK',
      Math.max(1, deadline - Date.now()),
      'STREAMS',
      stream,
      last,
    )) as Array<[string, Array<[string, string[]]>]> | null
    for (const [, entries] of read ?? []) {
      for (const [id, fields] of entries) {
        last = id
        if (fields[0] === 'event' && fields[1] === event && ++seen >= n) return true
      }
    }
  }
  return false
}
