// Money in integer paise (issue 13): a ledger written in rupees (before paise) replays to the same
// figures, migration 0011 turns the rupee read models into paise, and many sales add up exactly
// where adding rupees in floating point drifts (₹0.10 × 1,000 is 99.9999999999986 that way).
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import Database from 'better-sqlite3'
import { drizzle } from 'drizzle-orm/better-sqlite3'
import { migrate } from 'drizzle-orm/better-sqlite3/migrator'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { AnalyticsReply } from '../../contracts/analytics.ts'
import type { EventView } from '../../contracts/catalog.ts'
import { migrationsFolder, openDatabase } from '../../server/db/connection.ts'
import { newId } from '../../server/ids.ts'
import { adminSession, bearer, organizerSession, type Session } from '../support/accounts.ts'
import { sameStore } from '../support/app.ts'
import {
  dbRow,
  dbRows,
  type OfflineStore,
  openOffline,
  rebuildStore,
  sqliteLedger,
  storeKind,
} from '../support/db.ts'
import { readOutbox } from '../support/outbox.ts'
import {
  approvedEvent,
  buy,
  cancel,
  factsOfType,
  get,
  nextYear,
  orderRow,
  signUpAll,
  until,
} from '../support/sales.ts'
import { startServer, type TestServer } from '../support/server.ts'

type RawFact = { type: string; data: Record<string, unknown>; at: string }

/** Facts appended as rows, the way an older version of the app left them in the ledger. */
async function appendRaw(db: OfflineStore, stream: string, facts: RawFact[], actor: string) {
  for (const [i, fact] of facts.entries()) {
    await db.run(
      'INSERT INTO ledger (stream, version, type, data, meta, at) VALUES (?, ?, ?, ?, ?, ?)',
      stream,
      i + 1,
      fact.type,
      JSON.stringify(fact.data),
      JSON.stringify({ actor }),
      fact.at,
    )
  }
}

/** The consumers' work for facts already in the ledger is done (their mails went out long ago). */
async function markDispatched(db: OfflineStore) {
  const [top] = await db.rows<{ p: number }>('SELECT max(position) AS p FROM ledger')
  await db.run(
    `INSERT INTO checkpoints (name, position, at) VALUES ('jobs', ?, ?)
     ON CONFLICT (name) DO UPDATE SET position = excluded.position, at = excluded.at`,
    top?.p,
    new Date().toISOString(),
  )
  await db.run(
    "UPDATE sent_mails SET sent_at = ? WHERE job_id = '~recorded-since'",
    new Date(Date.now() + 1000).toISOString(),
  )
}

const analytics = async (server: TestServer, eventId: string, as: Session): Promise<AnalyticsReply> => {
  const res = await get(server.app, `/api/v1/ticket/analytics/${eventId}`, as)
  expect(res.statusCode, res.body).toBe(200)
  return res.json() as AnalyticsReply
}

const row = (
  type: string,
  revenue: number,
  sold: number,
  Pending: number,
  Completed: number,
  Failed: number,
) => ({
  ticketType: type,
  totalRevenue: revenue,
  totalTicketsSold: sold,
  paymentStatus: [{ Pending, Completed, Failed }],
})

describe('a ledger written in rupees, before money was kept in paise', () => {
  let first: TestServer | undefined
  let server: TestServer
  let organizer: Session
  let asha: Session
  let bala: Session
  let chitra: Session
  const eventId = newId()
  const chaiId = newId()
  const ga = newId()
  const vip = newId()
  const chaiGa = newId()
  const ids = { o1: newId(), o2: newId(), o3: newId(), o4: newId(), o5: newId() }
  let balaPayment = ''

  beforeAll(async () => {
    // Accounts through the API; then, with the server down, the event and its sales as facts of
    // the old shapes (rupees in price, unitPrice, amount), written straight into the ledger.
    first = await startServer({ RATE_LIMITS: 'off' })
    const admin = await adminSession(first.app)
    organizer = await organizerSession(first.app)
    ;[asha, bala, chitra] = await signUpAll(first.app, ['Asha', 'Bala', 'Chitra'])
    // Bala's order was really paid at the provider (₹59.97 = 5997 paise), so it can be refunded.
    const gateway = first.app.platform.localGateway
    if (!gateway) throw new Error('the tests run on the local gateway')
    const providerOrder = await gateway.createOrder({
      amount: 5997,
      currency: 'INR',
      receipt: ids.o2,
      notes: {},
    })
    balaPayment = ((await gateway.pay(providerOrder.id, 'success')) as { razorpay_payment_id: string })
      .razorpay_payment_id
    await first.stop()

    const db = await openOffline(first.config)
    const day = `${nextYear}-04-01`
    const at = (time: string) => `${nextYear - 2}-05-01T${time}:00.000Z`
    const submitted = (id: string, title: string, ticketTypes: unknown[]): RawFact => ({
      type: 'EventSubmitted',
      data: {
        eventId: id,
        organizerId: organizer.id,
        title,
        description: 'From the days of rupees.',
        date: day,
        time: '19:00',
        location: 'Pune',
        category: 'Music',
        images: [],
        videos: [],
        ticketTypes,
      },
      at: at('09:00'),
    })
    const approved = (id: string): RawFact => ({
      type: 'EventApproved',
      data: { eventId: id, organizerId: organizer.id, by: admin.id },
      at: at('09:05'),
    })
    await appendRaw(
      db,
      `event-${eventId}`,
      [
        submitted(eventId, 'Old Ledger Night', [
          { ticketTypeId: ga, type: 'General Admission', price: 499.5, quantity: 100 },
          { ticketTypeId: vip, type: 'VIP', price: 19.99, quantity: 50 },
        ]),
        approved(eventId),
      ],
      organizer.id,
    )
    // An order as the old code wrote it: amount = Math.round(price × quantity × 100) / 100, and
    // the captured amount as the provider's paise / 100.
    const order = async (
      id: string,
      buyer: Session,
      type: { id: string; name: string; price: number },
      quantity: number,
      then: Array<'paid' | 'expired' | 'cancelled'>,
      times: string[],
      onEvent = eventId,
      providerOrderId = `order_old_${id}`,
      paymentId = `pay_old_${id}`,
    ) => {
      const amount = Math.round(type.price * quantity * 100) / 100
      const facts: RawFact[] = [
        {
          type: 'TicketsHeld',
          data: {
            orderId: id,
            buyerId: buyer.id,
            eventId: onEvent,
            organizerId: organizer.id,
            ticketTypeId: type.id,
            ticketType: type.name,
            quantity,
            unitPrice: type.price,
            amount,
            provider: 'local',
            providerOrderId,
            heldUntil: `${nextYear - 2}-05-01T23:00:00.000Z`,
          },
          at: times[0] as string,
        },
      ]
      then.forEach((step, i) => {
        const when = times[i + 1] as string
        if (step === 'paid') {
          facts.push(
            {
              type: 'PaymentCaptured',
              data: { orderId: id, paymentId, amount: Math.round(amount * 100) / 100, method: 'card' },
              at: when,
            },
            {
              type: 'TicketsIssued',
              data: {
                orderId: id,
                ownerId: buyer.id,
                eventId: onEvent,
                ticketTypeId: type.id,
                quantity,
                amount,
                afterExpiry: false,
              },
              at: when,
            },
          )
        } else if (step === 'expired') {
          facts.push({ type: 'HoldExpired', data: { orderId: id }, at: when })
        } else {
          facts.push(
            {
              type: 'TicketCancelled',
              data: { orderId: id, ownerId: buyer.id, eventId: onEvent, ticketTypeId: type.id, quantity },
              at: when,
            },
            {
              type: 'RefundRequested',
              data: { orderId: id, paymentId, amount, reason: 'cancelled' },
              at: when,
            },
            {
              type: 'PaymentRefunded',
              data: { orderId: id, paymentId, refundId: `rfnd_old_${id}`, amount },
              at: when,
            },
          )
        }
      })
      await appendRaw(db, `order-${id}`, facts, buyer.id)
    }
    const GA = { id: ga, name: 'General Admission', price: 499.5 }
    const VIP = { id: vip, name: 'VIP', price: 19.99 }
    await order(ids.o1, asha, GA, 2, ['paid'], [at('10:10'), at('10:15')])
    await order(
      ids.o2,
      bala,
      VIP,
      3,
      ['paid'],
      [at('10:18'), at('10:20')],
      eventId,
      providerOrder.id,
      balaPayment,
    )
    await order(ids.o3, asha, VIP, 1, ['expired'], [at('10:25'), at('10:40')])
    await order(ids.o4, chitra, GA, 1, ['paid', 'cancelled'], [at('10:28'), at('10:30'), at('11:20')])
    await order(ids.o5, chitra, VIP, 7, ['paid'], [at('11:35'), at('11:40')])

    // A thousand sales at ₹0.10: adding the rupees in floating point gives 99.9999999999986.
    await appendRaw(
      db,
      `event-${chaiId}`,
      [
        submitted(chaiId, 'Chai Morning', [
          { ticketTypeId: chaiGa, type: 'General Admission', price: 0.1, quantity: 5000 },
        ]),
        approved(chaiId),
      ],
      organizer.id,
    )
    await db.transaction(async () => {
      for (let i = 0; i < 1000; i++) {
        await order(
          newId(),
          i % 2 ? asha : bala,
          { id: chaiGa, name: 'General Admission', price: 0.1 },
          1,
          ['paid'],
          [at('08:00'), at('08:30')],
          chaiId,
        )
      }
    })
    await markDispatched(db)
    // The read models, rebuilt from those facts (npm run ledger:rebuild).
    await db.rebuild()
    await db.close()

    server = await startServer({
      RATE_LIMITS: 'off',
      DATA_DIR: first.config.dataDir,
      ...sameStore(first.config),
    })
  }, 120_000)

  afterAll(async () => {
    await server?.close()
    await first?.release()
  })

  const expectedFigures = {
    analytics: [
      row('General Admission', 999, 2, 0, 1, 0),
      // 59.97 + 139.93: paise precision, never 199.89999999999998
      row('VIP', 199.9, 10, 0, 2, 1),
    ],
    totals: { ticketsSold: 12, revenue: 1198.9, attendees: 3, Pending: 0, Completed: 3, Failed: 1 },
    timeline: [
      // o1 (2 × ₹499.50), o2 (3 × ₹19.99) and o4 (₹499.50) issued
      { at: `${nextYear - 2}-05-01T10:00:00.000Z`, tickets: 6, revenue: 1558.47 },
      // o4 cancelled, o5 (7 × ₹19.99) issued
      { at: `${nextYear - 2}-05-01T11:00:00.000Z`, tickets: 6, revenue: -359.57 },
    ],
  }

  it('reads the old facts in paise (the stored rows keep their rupees)', async () => {
    const stored = (await dbRow(
      server.app,
      "SELECT data FROM ledger WHERE stream = ? AND type = 'TicketsHeld'",
      `order-${ids.o2}`,
    )) as { data: string }
    expect(JSON.parse(stored.data)).toMatchObject({ unitPrice: 19.99, amount: 59.97 })

    const [held, captured, issued] = await server.app.platform.ledger.readStream(`order-${ids.o2}`)
    expect(held?.data).toMatchObject({ unitPricePaise: 1999, amountPaise: 5997 })
    expect(held?.data).not.toHaveProperty('amount')
    expect(captured?.data).toEqual({
      orderId: ids.o2,
      paymentId: balaPayment,
      amountPaise: 5997,
      method: 'card',
    })
    expect(issued?.data).toMatchObject({ amountPaise: 5997 })
    // the same through the consumers' read (readFrom) and the replay's
    const tailed = (await server.app.platform.ledger.readFrom(0, 1_000_000)).find(
      (f) => f.stream === `event-${eventId}`,
    )
    expect(tailed?.data).toMatchObject({
      ticketTypes: [
        { ticketTypeId: ga, pricePaise: 49950 },
        { ticketTypeId: vip, pricePaise: 1999 },
      ],
    })
    // (PostgreSQL's replay, PgLedger.rebuild, reads the facts as readFrom does)
    const replay =
      storeKind(server.app) === 'sqlite'
        ? sqliteLedger(server.app).replayFrom(0, 1_000_000)
        : await server.app.platform.ledger.readFrom(0, 1_000_000)
    const replayed = replay.filter((f) => f.stream === `order-${ids.o4}`).map((f) => f.data)
    expect(replayed.slice(-2)).toEqual([
      { orderId: ids.o4, paymentId: `pay_old_${ids.o4}`, amountPaise: 49950, reason: 'cancelled' },
      { orderId: ids.o4, paymentId: `pay_old_${ids.o4}`, refundId: `rfnd_old_${ids.o4}`, amountPaise: 49950 },
    ])
    expect(await orderRow(server.app, ids.o2)).toMatchObject({ unitPricePaise: 1999, amountPaise: 5997 })
  })

  it('answers the same figures, in rupees with paise precision (₹499.50, ₹19.99)', async () => {
    const event = (await get(server.app, `/api/v1/event/${eventId}`)).json() as EventView
    expect(event.ticketTypes).toEqual([
      {
        _id: ga,
        type: 'General Admission',
        price: 499.5,
        quantity: 98,
        available: 98,
        capacity: 100,
        taxRate: 0,
      },
      { _id: vip, type: 'VIP', price: 19.99, quantity: 40, available: 40, capacity: 50, taxRate: 0 },
    ])
    expect(await analytics(server, eventId, organizer)).toMatchObject(expectedFigures)

    const ticket = await get(server.app, `/api/v1/ticket/getTicketbyId/${ids.o2}`, bala)
    expect(ticket.json()).toEqual({
      _id: ids.o2,
      eventId,
      userId: bala.id,
      ticketType: 'VIP',
      quantity: 3,
      totalAmount: 59.97,
      paymentStatus: 'Completed',
    })
    const registrations = (await get(server.app, '/api/v1/ticket/registrations', chitra)).json() as Array<{
      _id: string
      totalAmount: number
    }>
    expect(registrations.find((r) => r._id === ids.o5)?.totalAmount).toBe(139.93)
    expect((await get(server.app, `/api/v1/ticket/getTicketbyId/${ids.o1}`, asha)).json().totalAmount).toBe(
      999,
    )

    const byPrice = async (search: string) =>
      (
        (
          await get(server.app, `/api/v1/event/filter?filterType=price&search=${search}`)
        ).json() as EventView[]
      )
        .map((e) => e.title)
        .sort()
    expect(await byPrice('19.99-19.99')).toEqual(['Old Ledger Night'])
    expect(await byPrice('499.5-499.50')).toEqual(['Old Ledger Night'])
    expect(await byPrice('0.1-0.1')).toEqual(['Chai Morning'])
    expect(await byPrice('19.991-499.499')).toEqual([])
  })

  it('adds up a thousand old ₹0.10 sales to exactly ₹100', async () => {
    const chai = await analytics(server, chaiId, organizer)
    expect(chai.analytics).toEqual([row('General Admission', 100, 1000, 0, 1000, 0)])
    expect(chai.totals.revenue).toBe(100)
    expect(chai.timeline).toEqual([
      { at: `${nextYear - 2}-05-01T08:00:00.000Z`, tickets: 1000, revenue: 100 },
    ])
  })

  it('gives the same read models and figures when rebuilt again from the ledger', async () => {
    const tables = ['orders', 'event_ticket_types', 'sales_by_ticket_type', 'sales_by_hour']
    const dump = () =>
      Promise.all(tables.map((table) => dbRows(server.app, `SELECT * FROM "${table}" ORDER BY 1, 2`)))
    const before = { tables: await dump(), figures: await analytics(server, eventId, organizer) }
    await rebuildStore(server.app)
    expect(await dump()).toEqual(before.tables)
    expect(await analytics(server, eventId, organizer)).toEqual(before.figures)
    // integers, all of them
    if (storeKind(server.app) === 'sqlite') {
      const kinds = await dbRows(
        server.app,
        `SELECT DISTINCT typeof(amount_paise) AS a, typeof(unit_price_paise) AS u FROM orders
         UNION SELECT DISTINCT typeof(price_paise), typeof(price_paise) FROM event_ticket_types
         UNION SELECT DISTINCT typeof(revenue_paise), typeof(revenue_paise) FROM sales_by_ticket_type
         UNION SELECT DISTINCT typeof(revenue_paise), typeof(revenue_paise) FROM sales_by_hour`,
      )
      expect(kinds).toEqual([{ a: 'integer', u: 'integer' }])
    } else {
      // PostgreSQL keeps a column's type for every value: the columns' own types say it
      const kinds = await dbRows<{ column: string; type: string }>(
        server.app,
        `SELECT table_name || '.' || column_name AS "column", data_type AS type FROM information_schema.columns
         WHERE table_schema = current_schema() AND column_name IN ('amount_paise', 'unit_price_paise', 'price_paise', 'revenue_paise')
           AND table_name IN ('orders', 'event_ticket_types', 'sales_by_ticket_type', 'sales_by_hour')
         ORDER BY 1`,
      )
      expect(kinds.map((k) => k.column)).toEqual([
        'event_ticket_types.price_paise',
        'orders.amount_paise',
        'orders.unit_price_paise',
        'sales_by_hour.revenue_paise',
        'sales_by_ticket_type.revenue_paise',
      ])
      for (const { column, type } of kinds) expect(['integer', 'bigint'], column).toContain(type)
    }
  })

  it('decides on the old facts: cancelling an old ticket refunds its paise at the provider', async () => {
    await cancel(server.app, bala, ids.o2)
    await until(async () => (await server.app.platform.ledger.readStream(`order-${ids.o2}`)).length === 6)
    const facts = await server.app.platform.ledger.readStream(`order-${ids.o2}`)
    expect(facts.map((f) => f.type)).toEqual([
      'TicketsHeld',
      'PaymentCaptured',
      'TicketsIssued',
      'TicketCancelled',
      'RefundRequested',
      'PaymentRefunded',
    ])
    expect(facts[4]?.data).toEqual({
      orderId: ids.o2,
      paymentId: balaPayment,
      amountPaise: 5997,
      reason: 'cancelled',
    })
    expect(facts[5]?.data).toMatchObject({ paymentId: balaPayment, amountPaise: 5997 })
    expect(await server.app.platform.localGateway?.refundsOf(balaPayment)).toEqual([
      { id: expect.stringMatching(/^rfnd_/), amount: 5997 },
    ])
    await until(() => readOutbox(server.config.outboxDir).some((m) => m.to.includes(bala.email)))
    const mail = readOutbox(server.config.outboxDir).find((m) => m.to.includes(bala.email))
    expect(mail?.text).toContain('A refund of ₹59.97 is on its way to your payment method.')
    expect(mail?.text).toContain('Total: ₹59.97')

    const after = await analytics(server, eventId, organizer)
    expect(after.analytics[1]).toEqual(row('VIP', 139.93, 7, 0, 1, 1))
    expect(after.totals.revenue).toBe(1138.93)
  })
})

describe('migration 0011: rupee read models to integer paise', () => {
  let dir = ''
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'money-migration-'))
  })
  afterAll(() => rmSync(dir, { recursive: true, force: true }))

  it('converts every stored price, amount and revenue with round(x × 100), drift included', () => {
    // A database as the app left it before 0011: migrations 0000–0010 applied.
    const before = join(dir, 'migrations')
    mkdirSync(join(before, 'meta'), { recursive: true })
    const journal = JSON.parse(readFileSync(join(migrationsFolder, 'meta', '_journal.json'), 'utf8')) as {
      entries: Array<{ idx: number; tag: string }>
    }
    const upTo0010 = journal.entries.filter((e) => e.idx <= 10)
    expect(upTo0010.at(-1)?.tag).toBe('0010_review_reason')
    for (const { tag } of upTo0010)
      copyFileSync(join(migrationsFolder, `${tag}.sql`), join(before, `${tag}.sql`))
    writeFileSync(join(before, 'meta', '_journal.json'), JSON.stringify({ ...journal, entries: upTo0010 }))
    const file = join(dir, 'app.sqlite')
    const old = new Database(file)
    migrate(drizzle(old), { migrationsFolder: before })

    // Sums as SQLite's REAL additions made them: drifted off the paisa.
    const add = (amounts: number[]) => amounts.reduce((sum, a) => sum + a, 0)
    const drifted = {
      tenths: add(Array(1000).fill(0.1)), // 99.9999999999986
      threeTenths: add([0.1, 0.2]), // 0.30000000000000004
      vip: add(Array(5).fill(19.99)), // 99.94999999999999
    }
    expect(drifted).toEqual({
      tenths: 99.9999999999986,
      threeTenths: 0.30000000000000004,
      vip: 99.94999999999999,
    })
    old
      .prepare(
        'INSERT INTO event_ticket_types (id, event_id, rank, type, price, quantity) VALUES (?, ?, ?, ?, ?, ?)',
      )
      .run('t1', 'e1', 0, 'General Admission', 499.5, 100)
    old
      .prepare(
        'INSERT INTO event_ticket_types (id, event_id, rank, type, price, quantity) VALUES (?, ?, ?, ?, ?, ?)',
      )
      .run('t2', 'e1', 1, 'VIP', 19.99, 50)
    old
      .prepare(
        `INSERT INTO orders (id, event_id, organizer_id, ticket_type_id, ticket_type, buyer_id, owner_id, quantity,
           unit_price, amount, provider, provider_order_id, status, payment_status, held_until, created_at, updated_at)
         VALUES (?, 'e1', 'org', 't2', 'VIP', 'b', 'b', 3, ?, ?, 'local', ?, 'issued', 'Completed', 'x', 'x', 'x')`,
      )
      .run('o1', 19.99, Math.round(19.99 * 3 * 100) / 100, 'order_1')
    old
      .prepare(
        'INSERT INTO sales_by_ticket_type (ticket_type_id, event_id, ticket_type, pending, completed, failed, tickets_sold, revenue) VALUES (?, ?, ?, 0, 0, 0, 0, ?)',
      )
      .run('t1', 'e1', 'General Admission', drifted.tenths)
    old
      .prepare(
        'INSERT INTO sales_by_ticket_type (ticket_type_id, event_id, ticket_type, pending, completed, failed, tickets_sold, revenue) VALUES (?, ?, ?, 0, 0, 0, 0, ?)',
      )
      .run('t2', 'e1', 'VIP', drifted.vip)
    old
      .prepare('INSERT INTO sales_by_hour (event_id, hour, tickets, revenue) VALUES (?, ?, ?, ?)')
      .run('e1', '2026-05-01T10:00:00.000Z', 3, drifted.threeTenths)
    old.close()

    // Opening it with this version applies 0011.
    const connection = openDatabase(file)
    const all = (sql: string) => connection.sqlite.prepare(sql).all()
    expect(
      all('SELECT id, price_paise, typeof(price_paise) AS kind FROM event_ticket_types ORDER BY id'),
    ).toEqual([
      { id: 't1', price_paise: 49950, kind: 'integer' },
      { id: 't2', price_paise: 1999, kind: 'integer' },
    ])
    expect(
      all(
        'SELECT unit_price_paise, amount_paise, typeof(amount_paise) AS kind, quantity, provider_order_id FROM orders',
      ),
    ).toEqual([
      {
        unit_price_paise: 1999,
        amount_paise: 5997,
        kind: 'integer',
        quantity: 3,
        provider_order_id: 'order_1',
      },
    ])
    expect(
      all(
        'SELECT ticket_type_id, revenue_paise, typeof(revenue_paise) AS kind FROM sales_by_ticket_type ORDER BY 1',
      ),
    ).toEqual([
      { ticket_type_id: 't1', revenue_paise: 10000, kind: 'integer' },
      { ticket_type_id: 't2', revenue_paise: 9995, kind: 'integer' },
    ])
    expect(all('SELECT revenue_paise, typeof(revenue_paise) AS kind, tickets FROM sales_by_hour')).toEqual([
      { revenue_paise: 30, kind: 'integer', tickets: 3 },
    ])
    // the indexes are back (the price filter's among them)
    expect(
      all(
        "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name IN ('orders', 'event_ticket_types') AND sql IS NOT NULL ORDER BY name",
      ),
    ).toEqual(
      [
        'event_ticket_types_event',
        'event_ticket_types_price',
        'orders_buyer_event',
        'orders_held_until',
        'orders_issued_by_event',
        'orders_owner',
        'orders_provider_order',
      ].map((name) => ({ name })),
    )
    connection.close()
  })
})

describe('many sales through the API add up exactly, where rupees in floating point drift', () => {
  let server: TestServer
  beforeAll(async () => {
    server = await startServer({ RATE_LIMITS: 'off' })
  })
  afterAll(async () => {
    await server?.close()
  })

  it('₹19.99 six times less one cancelled, and ₹0.30 × 4 three times: ₹99.95, ₹3.60, ₹103.55', async () => {
    const admin = await adminSession(server.app)
    const organizer = await organizerSession(server.app)
    const event = await approvedEvent(server.app, organizer, admin, { title: 'Small Change' }, [
      { type: 'General Admission', price: 0.3, quantity: 100 },
      { type: 'VIP', price: 19.99, quantity: 100 },
    ])
    expect(event.ticketTypes.map((t) => t.price)).toEqual([0.3, 19.99])
    const buyers = await signUpAll(server.app, ['Anu', 'Biju', 'Chandra', 'Divya'])
    const vipTickets: string[] = []
    for (let i = 0; i < 6; i++) {
      vipTickets.push(await buy(server.app, buyers[i % buyers.length] as Session, event, 'VIP', 1))
    }
    for (let i = 0; i < 3; i++) {
      await buy(server.app, buyers[i % buyers.length] as Session, event, 'General Admission', 4)
    }
    await cancel(server.app, buyers[0] as Session, vipTickets[0] as string)

    // What adding rupees in a REAL column gave: 6 × 19.99 − 19.99 is 99.94999999999999 that way,
    // and 3 × 1.20 is 3.5999999999999996.
    const inFloat = (amounts: number[]) => amounts.reduce((sum, a) => sum + a, 0)
    expect(inFloat([...Array(6).fill(19.99), -19.99])).toBe(99.94999999999999)
    expect(inFloat(Array(3).fill(1.2))).toBe(3.5999999999999996)

    const figures = await analytics(server, event._id, organizer)
    expect(figures.analytics).toEqual([
      row('General Admission', 3.6, 12, 0, 3, 0),
      row('VIP', 99.95, 5, 0, 5, 0),
    ])
    expect(figures.totals).toMatchObject({ ticketsSold: 17, revenue: 103.55, Completed: 8 })
    // each hour's figure is exact too (the sales may straddle an hour)
    expect(figures.timeline.reduce((paise, h) => paise + Math.round(h.revenue * 100), 0)).toBe(10355)
    for (const hour of figures.timeline) expect(Math.round(hour.revenue * 100) / 100).toBe(hour.revenue)

    // the provider was asked for whole paise, and the tickets say the rupees
    const issued = (await factsOfType(server.app, 'TicketsIssued')).filter(
      (f) => (f.data as { eventId: string }).eventId === event._id,
    )
    expect(new Set(issued.map((f) => (f.data as { amountPaise: number }).amountPaise))).toEqual(
      new Set([1999, 120]),
    )
    const ticket = await get(
      server.app,
      `/api/v1/ticket/getTicketbyId/${vipTickets[1]}`,
      buyers[1] as Session,
    )
    expect(ticket.json().totalAmount).toBe(19.99)
    const placed = await orderRow(server.app, vipTickets[1] as string)
    expect(await server.app.platform.localGateway?.order(placed?.providerOrderId as string)).toMatchObject({
      amount: 1999,
    })
    const res = await server.app.inject({
      method: 'POST',
      url: '/api/v1/ticket/create',
      headers: bearer((buyers[2] as Session).token),
      payload: { eventId: event._id, ticketType: 'General Admission', quantity: 7 },
    })
    // 7 × ₹0.30 = ₹2.10: 210 paise, from 30 paise × 7
    expect(res.json().amount).toBe(210)
  })
})
