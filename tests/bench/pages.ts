// pages (issues 40 and 42): what a hold and a purchase write to SQLite, page by page. On SQLite in
// WAL mode a commit appends every page its transaction changed to the log (and a checkpoint copies
// each to the database file later), so a change's cost grows with the pages it touches, not only with
// its statements. This counts them exactly, where the CPU benches' rounds move by more than the parts
// they compare: the app in this process (its workers inline, SQLite, its connection's automatic
// checkpoints off), one request at a time, and after each step the frames the log gained, each named
// by the table or index its page belongs to (SQLite's dbstat), until the app has gone quiet (its
// consumers' commits counted with the step that caused them). A step during which the log began
// again (checkpointed by another of the app's connections) is not counted: `skipped`.
// - Purchases (hold, then pay and confirm) of a ticket at ₹500 + 18% GST from an organizer with a
//   billing profile (a tax invoice each), alternating with one from an organizer without one (no
//   tax, no invoice).
// - Holds of one seat that replace the buyer's last, by kind, in turn: a count of general admission
//   (replacing a named seat's hold), the best seat of a seated section (replacing a count), and a seat
//   the buyer names (replacing a best seat's hold), as the seating bench alternates them.
// - What a page costs: the CPU of transactions each changing k rows at random pages of a 200,000-row
//   table (synchronous FULL, as the benches run the app), k = 1 and 33: the slope, µs a page.
import { closeSync, mkdtempSync, openSync, readFileSync, readSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import Database from 'better-sqlite3'
import type { FastifyInstance } from 'fastify'
import { buildApp } from '../../server/root.ts'
import { adminSession, bearer, crowd, organizerSession } from '../support/accounts.ts'
import { testConfigOnStore } from '../support/app.ts'
import { eventForm } from '../support/event-form.ts'
import { gridSection } from '../support/seat-plans.ts'
import { round } from './lib/stats.ts'

/** pages written by one step, on average, in all and by table or index */
export type StepPages = {
  steps: number
  /** steps not counted: another of the app's connections checkpointed the log during them */
  skipped: number
  pages: number
  commits: number
  /** by table or index (SQLite's names: sqlite_autoindex_… is a table's key), most first */
  by: Record<string, number>
}

export type PagesResult = {
  purchases: {
    withInvoice: { hold: StepPages; pay: StepPages }
    without: { hold: StepPages; pay: StepPages }
  }
  holds: { count: StepPages; best: StepPages; named: StepPages }
  /** CPU µs a page changed costs a commit (the slope between 1 and 33 pages a transaction) */
  pageCpuUs: number
  /** CPU µs of a transaction changing one row */
  oneRowTransactionCpuUs: number
}

type Wal = { size: number; salt: string }

function walNow(path: string): Wal {
  const header = Buffer.alloc(32)
  const fd = openSync(path, 'r')
  try {
    readSync(fd, header, 0, 32, 0)
  } finally {
    closeSync(fd)
  }
  return { size: statSync(path).size, salt: `${header.readUInt32BE(16)}:${header.readUInt32BE(20)}` }
}

/** the frames appended to the log between two readings: each one's page, and how many commits */
function framesBetween(path: string, before: Wal, after: Wal): { pages: number[]; commits: number } | null {
  // another of the app's connections checkpointed it meanwhile, and the log began again
  if (before.salt !== after.salt || after.size < before.size) return null
  const log = readFileSync(path)
  const pageSize = log.readUInt32BE(8)
  const frame = 24 + pageSize
  const pages: number[] = []
  let commits = 0
  for (let at = Math.max(32, before.size); at + frame <= after.size; at += frame) {
    pages.push(log.readUInt32BE(at))
    // a commit's last frame carries the database's size after it
    if (log.readUInt32BE(at + 4) !== 0) commits++
  }
  return { pages, commits }
}

/** the CPU of transactions changing k rows each, at random pages, synchronous FULL */
function pageCost(dir: string): { pageCpuUs: number; oneRowTransactionCpuUs: number } {
  const db = new Database(join(dir, 'pages.db'))
  try {
    db.pragma('journal_mode = WAL')
    db.pragma('synchronous = FULL')
    db.exec('CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT NOT NULL)')
    const insert = db.prepare('INSERT INTO t (v) VALUES (?)')
    const rows = 200_000
    db.transaction(() => {
      for (let i = 0; i < rows; i++) insert.run('x'.repeat(100))
    })()
    const update = db.prepare('UPDATE t SET v = ? WHERE id = ?')
    const per = (k: number) => {
      const n = 1500
      for (let i = 0; i < 200; i++) update.run('w'.repeat(100), 1 + Math.floor(Math.random() * rows))
      const started = process.cpuUsage()
      for (let i = 0; i < n; i++)
        db.transaction(() => {
          for (let j = 0; j < k; j++) update.run('y'.repeat(100), 1 + Math.floor(Math.random() * rows))
        })()
      const used = process.cpuUsage(started)
      return (used.user + used.system) / n
    }
    const one = per(1)
    const many = per(33)
    return { pageCpuUs: round((many - one) / 32, 1), oneRowTransactionCpuUs: round(one, 1) }
  } finally {
    db.close()
  }
}

async function inject(
  app: FastifyInstance,
  method: 'GET' | 'POST' | 'PUT',
  url: string,
  token: string | null,
  payload?: unknown,
) {
  const res = await app.inject({
    method,
    url,
    headers: token ? bearer(token) : {},
    ...(payload === undefined ? {} : { payload: payload as object }),
  })
  if (res.statusCode >= 300) throw new Error(`${method} ${url}: ${res.statusCode} ${res.body}`)
  return res.json()
}

/** an event submitted (multipart, as the web form sends it) and approved */
async function approvedEvent(
  app: FastifyInstance,
  organizer: string,
  admin: string,
  fields: Record<string, string>,
  ticketTypes: unknown[],
): Promise<string> {
  const res = await app.inject((await eventForm(organizer, fields, ticketTypes)).request)
  if (res.statusCode !== 201) throw new Error(`event: ${res.statusCode} ${res.body}`)
  const id = res.json().event._id as string
  await inject(app, 'PUT', `/api/v1/admin/events/${id}/status`, admin, { status: 'Approved' })
  return id
}

export async function benchPages(log: (line: string) => void = () => {}): Promise<PagesResult> {
  const scratch = mkdtempSync(join(tmpdir(), 'bench-pages-'))
  const { config, release } = await testConfigOnStore({
    RATE_LIMITS: 'off',
    LOG_LEVEL: 'error',
    SQLITE_SYNCHRONOUS: 'FULL',
    MAX_HELD_SEATS_PER_ADDRESS: '1000000',
  })
  const app = await buildApp(config)
  try {
    const sqlite = app.platform.store.sqlite
    if (!sqlite) throw new Error('the pages bench runs on SQLite')
    const db = sqlite.connection.sqlite
    const wal = `${db.name}-wal`
    // the log is read between steps: nothing may checkpoint it meanwhile but this bench
    db.pragma('wal_autocheckpoint = 0')
    const checkpoint = () => db.pragma('wal_checkpoint(TRUNCATE)')

    /** the log once the app has written nothing more for a while: its consumers have caught up */
    const settled = async () => {
      let last = walNow(wal)
      let still = 0
      const deadline = Date.now() + 30_000
      while (still < 4) {
        if (Date.now() > deadline) throw new Error('the app kept writing for 30 s after a step')
        await new Promise((r) => setTimeout(r, 25))
        const now = walNow(wal)
        if (now.size === last.size && now.salt === last.salt) still++
        else still = 0
        last = now
      }
      return last
    }
    const tally = () => ({ steps: 0, skipped: 0, pages: 0, commits: 0, by: {} as Record<string, number> })
    type Tally = ReturnType<typeof tally>
    /** a step's frames, each page named by its table or index as the database is after it */
    const count = (into: Tally, frames: { pages: number[]; commits: number }) => {
      const names = new Map<number, string>()
      for (const row of db.prepare('SELECT name, pageno FROM dbstat').all() as Array<{
        name: string
        pageno: number
      }>)
        names.set(row.pageno, row.name)
      into.steps++
      into.commits += frames.commits
      for (const page of frames.pages) {
        // page 1 is the file's header (its size, the free list) as well as the schema's root
        const name = page === 1 ? 'the header (page 1)' : (names.get(page) ?? 'free pages')
        into.by[name] = (into.by[name] ?? 0) + 1
        into.pages++
      }
    }
    const average = (t: Tally): StepPages => {
      const per = (n: number) => round(n / Math.max(1, t.steps), 2)
      return {
        steps: t.steps,
        skipped: t.skipped,
        pages: per(t.pages),
        commits: per(t.commits),
        by: Object.fromEntries(
          Object.entries(t.by)
            .sort((a, b) => b[1] - a[1])
            .map(([name, n]) => [name, per(n)]),
        ),
      }
    }
    /** what `act` writes, with what the app writes after it until quiet */
    const step = async (into: Tally | null, act: () => Promise<unknown>) => {
      const before = await settled()
      await act()
      const after = await settled()
      const frames = framesBetween(wal, before, after)
      if (into && frames) count(into, frames)
      else if (into) into.skipped++
      if (after.size > 8 * 1024 * 1024) checkpoint()
    }

    const admin = (await adminSession(app)).token
    const taxed = (await organizerSession(app, 'Taxed')).token
    const plain = (await organizerSession(app, 'Plain')).token
    await inject(app, 'PUT', '/api/v1/organizer/billing', taxed, {
      legalName: 'Rangmanch Productions LLP',
      gstin: '27AAPFU0939F1ZV',
      address: '12 FC Road, Pune 411004',
      state: '27',
      invoicePrefix: 'RMP',
    })
    const taxedTypes = [{ type: 'General Admission', price: 500, quantity: 10_000, taxRate: 18 }]
    const taxedEvent = await approvedEvent(
      app,
      taxed,
      admin,
      { state: '27', pricesIncludeTax: 'false' },
      taxedTypes,
    )
    const plainEvent = await approvedEvent(
      app,
      plain,
      admin,
      { state: '27', pricesIncludeTax: 'false' },
      taxedTypes,
    )
    const buyers = (await crowd(app, 80, 'pages-buyer')).map((b) => b.token)

    // purchases, alternating: 10 of each to warm up, then 40 of each counted
    const purchases = {
      withInvoice: { hold: tally(), pay: tally() },
      without: { hold: tally(), pay: tally() },
    }
    for (let i = 0; i < 100; i++) {
      const invoiced = i % 2 === 0
      const into = i < 20 ? null : invoiced ? purchases.withInvoice : purchases.without
      const buyer = buyers[i % buyers.length] as string
      let placed: { orderId: string } | null = null
      await step(into?.hold ?? null, async () => {
        placed = await inject(app, 'POST', '/api/v1/ticket/create', buyer, {
          eventId: invoiced ? taxedEvent : plainEvent,
          ticketType: 'General Admission',
          quantity: 1,
        })
      })
      await step(into?.pay ?? null, async () => {
        const paid = await inject(app, 'POST', '/api/v1/payments/local/pay', buyer, {
          orderId: (placed as { orderId: string } | null)?.orderId,
          outcome: 'success',
        })
        await inject(app, 'POST', '/api/v1/ticket/handlePaymentSuccess', buyer, {
          paymentId: paid.razorpay_payment_id,
          orderId: paid.razorpay_order_id,
          signature: paid.razorpay_signature,
          event: { source: 'bench' },
        })
      })
    }
    log(
      `pages: purchases ${JSON.stringify(purchases.withInvoice.pay.pages)} / ${JSON.stringify(purchases.without.pay.pages)}`,
    )

    // holds by kind, each replacing the buyer's last: a round of each to warm up, then two counted
    const seatedEvent = await approvedEvent(app, plain, admin, { title: 'Seated Night' }, [
      { type: 'General Admission', price: 300, quantity: 10_000 },
      { type: 'VIP', price: 1500, quantity: 1 },
    ])
    await inject(app, 'PUT', `/api/v1/event/${seatedEvent}/seatmap`, plain, {
      stage: { x: 0, y: -3, w: 60, h: 2 },
      sections: [gridSection('VIP', 'VIP', 25, 60)],
    })
    const map = (await inject(app, 'GET', `/api/v1/event/${seatedEvent}/seatmap`, null)) as {
      sections: Array<{ rows: Array<{ seats: Array<{ id: string }> }> }>
    }
    // the seats buyers name: from the back row forwards, each row's every third seat (none strands one)
    const named: string[] = []
    for (const row of map.sections.flatMap((s) => s.rows).reverse())
      for (let i = 0; i + 2 < row.seats.length; i += 3) named.push((row.seats[i] as { id: string }).id)
    const holds = { count: tally(), best: tally(), named: tally() }
    const seatBuyers = buyers.slice(0, 40)
    let next = 0
    for (let r = 0; r < 3; r++) {
      for (const kind of ['count', 'best', 'named'] as const) {
        for (const buyer of seatBuyers) {
          const body =
            kind === 'count'
              ? { eventId: seatedEvent, ticketType: 'General Admission', quantity: 1 }
              : kind === 'best'
                ? { eventId: seatedEvent, ticketType: 'VIP', quantity: 1 }
                : { eventId: seatedEvent, ticketType: 'VIP', seats: [named[next++ % named.length]] }
          await step(r === 0 ? null : holds[kind], () =>
            inject(app, 'POST', '/api/v1/ticket/create', buyer, body),
          )
        }
      }
    }
    const cost = pageCost(scratch)
    const result: PagesResult = {
      purchases: {
        withInvoice: { hold: average(purchases.withInvoice.hold), pay: average(purchases.withInvoice.pay) },
        without: { hold: average(purchases.without.hold), pay: average(purchases.without.pay) },
      },
      holds: { count: average(holds.count), best: average(holds.best), named: average(holds.named) },
      ...cost,
    }
    log(`pages: ${JSON.stringify(result)}`)
    return result
  } finally {
    await app.close()
    await release()
    rmSync(scratch, { recursive: true, force: true })
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  // node --import tsx tests/bench/pages.ts
  console.log(JSON.stringify(await benchPages(console.error), null, 2))
}
