// Search by words (API.md: GET /event/filter with filterType absent or 'text'): approved events
// whose title, description, location or category hold the words, by prefix, in any case, accents
// ignored, best matches first; through the FTS5 index the catalogue projection keeps
// (server/catalog/search-index.ts, migrations/0009_events_search.sql), rebuilt with the other read
// models. The other filter types answer as before.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { EventView } from '../../contracts/catalog.ts'
import { migrationsFolder, openDatabase } from '../../server/db/connection.ts'
import { adminSession, organizerSession, type Session } from '../support/accounts.ts'
import { startApp, type TestApp } from '../support/app.ts'
import { dbExec, dbRow, dbRows, rebuildStore, sqliteOf, testStore } from '../support/db.ts'
import { review, submitEvent } from '../support/sales.ts'

const year = new Date().getFullYear() + 1
const on = (monthDay: string) => `${year}-${monthDay}`
const ga = (price: number) => [{ type: 'General Admission' as const, price, quantity: 50 }]

const filter = (app: FastifyInstance, query: Record<string, string>) =>
  app.inject({ method: 'GET', url: `/api/v1/event/filter?${new URLSearchParams(query)}` })

let t: TestApp
let organizer: Session
let admin: Session
/** name → event, and back, so that answers read as names */
const catalogue: Record<string, EventView> = {}
const names = () => Object.fromEntries(Object.entries(catalogue).map(([name, e]) => [e._id, name]))

async function anEvent(name: string, fields: Record<string, string>, price = 499) {
  catalogue[name] = await submitEvent(t.app, organizer, fields, ga(price))
  return catalogue[name]
}

/** the names of the events a search answers, in its order (200 expected) */
async function found(query: Record<string, string>): Promise<string[]> {
  const res = await filter(t.app, query)
  expect(res.statusCode, res.body).toBe(200)
  const list = res.json() as EventView[]
  expect(Array.isArray(list)).toBe(true)
  const known = names()
  return list.map((e) => known[e._id] ?? e._id)
}
const words = (search: string) => found({ search })

const indexRows = () =>
  dbRows(
    t.app,
    'SELECT event_id, title, description, location, category FROM events_search ORDER BY event_id',
  )

beforeAll(async () => {
  t = await startApp({ RATE_LIMITS: 'off' })
  organizer = await organizerSession(t.app)
  admin = await adminSession(t.app)
  const approve = async (name: string, fields: Record<string, string>, price?: number) =>
    review(t.app, admin, (await anEvent(name, fields, price))._id)

  await approve('jazz', {
    title: 'Kabini Jazz Weekend',
    description: 'Two days of jazz by the river.',
    location: 'Kabini, Karnataka',
    category: 'Music',
    date: on('03-15'),
  })
  await approve(
    'cafe',
    {
      title: 'Café Poetry Evening',
      description: 'Verses over filter coffee.',
      location: 'Café Mondegar, Mumbai',
      category: 'Literature',
      date: on('03-20'),
    },
    200,
  )
  // 'tabla' once in each: in rhythm's description, in tablaNights' title; rhythm comes first by date.
  await approve('rhythm', {
    title: 'Rhythm Workshop',
    description: 'Learn the tabla from scratch.',
    location: 'Pune',
    category: 'Workshop',
    date: on('02-01'),
  })
  await approve('tablaNights', {
    title: 'Tabla Nights',
    description: 'Solo recitals, all evening.',
    location: 'Pune',
    category: 'Music',
    date: on('06-01'),
  })
  await approve(
    'bandra',
    {
      title: 'Open Mic',
      description: 'Stand-up and songs.',
      location: 'Bandra, Mumbai',
      category: 'Comedy',
      date: on('04-10'),
    },
    0,
  )
  await anEvent('pending', {
    title: 'Secret Jazz Preview',
    description: 'Jazz before anyone else.',
    location: 'Kabini',
    category: 'Music',
  })
  const rejected = await anEvent('rejected', {
    title: 'Rejected Jazz Night',
    description: 'Jazz that was turned down.',
    location: 'Kabini',
    category: 'Music',
  })
  await review(t.app, admin, rejected._id, 'Rejected')
})
afterAll(async () => {
  await t.close()
})

describe('GET /event/filter by words', () => {
  it('finds approved events by any word of title, description, location or category', async () => {
    expect(await words('jazz')).toEqual(['jazz'])
    expect(await words('river')).toEqual(['jazz']) // description
    expect(await words('Karnataka')).toEqual(['jazz']) // location
    expect(await words('literature')).toEqual(['cafe']) // category
    expect((await words('mumbai')).sort()).toEqual(['bandra', 'cafe'])
  })

  it('answers a bare array of event objects, as the other filters do', async () => {
    const res = await filter(t.app, { search: 'jazz' })
    const [event] = res.json() as EventView[]
    expect(event).toMatchObject({
      _id: catalogue.jazz?._id,
      title: 'Kabini Jazz Weekend',
      approvalStatus: 'Approved',
      ticketTypes: [expect.objectContaining({ type: 'General Admission', price: 499 })],
    })
  })

  it('matches prefixes of words, and needs every word', async () => {
    expect(await words('ja')).toEqual(['jazz'])
    expect(await words('kab jaz')).toEqual(['jazz'])
    expect(await words('poet even')).toEqual(['cafe'])
    expect(await words('jazz chennai')).toEqual([])
    expect(await words('azz')).toEqual([]) // a word's inside is not a prefix
  })

  it('ignores case and accents, both ways', async () => {
    for (const search of ['JAZZ', 'jAzZ', 'jázz', 'JÀZZ'])
      expect(await words(search), search).toEqual(['jazz'])
    for (const search of ['cafe', 'CAFE', 'café', 'Café', 'CAFÉ', 'caf'])
      expect(await words(search), search).toEqual(['cafe'])
  })

  it('puts a match in the title before a match in the description', async () => {
    // rhythm is earlier by date and holds 'tabla' in its description only
    expect(await words('tabla')).toEqual(['tablaNights', 'rhythm'])
    expect(await words('tab')).toEqual(['tablaNights', 'rhythm'])
  })

  it('never finds a pending or rejected event', async () => {
    for (const search of ['secret', 'preview', 'rejected', 'turned down'])
      expect(await words(search)).toEqual([])
    expect(await words('jazz')).not.toContain('pending')
  })

  it('takes filterType absent, text in any case, or blank as a search by words', async () => {
    for (const filterType of ['text', 'TEXT', ' Text ', ''])
      expect(await found({ search: 'jazz', filterType }), filterType).toEqual(['jazz'])
  })

  it('refuses an empty search with 400 and the search message', async () => {
    const empties: Record<string, string>[] = [
      {},
      { search: '' },
      { search: '   ' },
      { search: '', filterType: 'text' },
    ]
    for (const query of empties) {
      const res = await filter(t.app, query)
      expect(res.statusCode, JSON.stringify(query)).toBe(400)
      expect(res.json().message).toBe('Please enter a search term and select a filter type.')
    }
    const res = await filter(t.app, { search: 'jazz', filterType: 'title' })
    expect(res.statusCode).toBe(400)
    expect(res.json().message).toBe('Filter type must be text, category, date, location or price.')
  })

  it('treats FTS5 syntax in the words as plain text: never a 500, never an event it should not find', async () => {
    const hostile = [
      '"',
      'jazz"',
      '"jazz',
      'jazz OR secret',
      'jazz NOT weekend',
      'NOT jazz',
      'NEAR(jazz secret)',
      'jazz AND',
      'OR',
      '*',
      'jazz*',
      '^jazz',
      '-jazz',
      '+jazz',
      'title:jazz',
      '{title description}: jazz',
      'approval_status:Pending',
      'jazz) OR (secret',
      "'; DROP TABLE events; --",
      '\u0301',
      '()',
      '%',
      '_',
      '\\',
      'a'.repeat(200),
      Array.from({ length: 40 }, (_, i) => `w${i}`).join(' '),
    ]
    for (const search of hostile) {
      const res = await filter(t.app, { search })
      expect(res.statusCode, `${search}: ${res.body}`).toBe(200)
      const got = (res.json() as EventView[]).map((e) => names()[e._id])
      expect(got, search).not.toContain('pending')
      expect(got, search).not.toContain('rejected')
    }
    // Operators are words: 'jazz OR secret' needs both words; 'jazz NOT weekend' needs 'not…' too.
    expect(await words('jazz OR secret')).toEqual([])
    expect(await words('jazz NOT weekend')).toEqual([])
    // Punctuation around words is dropped, the words still count.
    expect(await words('"jazz"')).toEqual(['jazz'])
    expect(await words('title:jazz')).toEqual([])
    expect(await words('^jazz*')).toEqual(['jazz'])
    expect(await words('(kabini)')).toEqual(['jazz'])
    expect(await words('*')).toEqual([])
    expect(await dbRow(t.app, 'SELECT count(*) AS n FROM events')).toEqual({ n: 7 })
  })

  it('follows approval: found once approved, gone once rejected', async () => {
    const ghazal = await anEvent('ghazal', {
      title: 'Ghazal Evening',
      description: 'Urdu poetry sung.',
      location: 'Lucknow',
      category: 'Poetry',
      date: on('08-01'),
    })
    expect(await words('ghazal')).toEqual([])
    await review(t.app, admin, ghazal._id)
    expect(await words('ghazal')).toEqual(['ghazal'])
    expect(await words('lucknow urdu')).toEqual(['ghazal'])
    await review(t.app, admin, ghazal._id, 'Rejected')
    expect(await words('ghazal')).toEqual([])
    await review(t.app, admin, ghazal._id)
    expect(await words('ghazal')).toEqual(['ghazal'])
  })

  // SQLite's query plan (FTS5); PostgreSQL's search is pg-catalog.test.ts's to check.
  it.skipIf(testStore === 'postgres')('reads the full-text index, not a scan of the events', async () => {
    const sqlite = sqliteOf(t.app)
    const sql = await t.app.platform.store.queries.catalog.wordsSql()
    const plan = sqlite
      .prepare(`EXPLAIN QUERY PLAN ${sql}`)
      .all('"jazz"*')
      .map((row) => (row as { detail: string }).detail)
    expect(plan.join('\n')).toMatch(/SCAN events_search VIRTUAL TABLE INDEX/)
    // each match finds its event by primary key
    expect(plan.join('\n')).toMatch(/SEARCH events USING INDEX sqlite_autoindex_events_1 \(id=\?\)/)
    expect(plan.some((detail) => /^SCAN events\b(?!_search)/.test(detail))).toBe(false)
  })
})

describe('the other filter types', () => {
  it('answer as before', async () => {
    expect(await found({ filterType: 'category', search: 'music' })).toEqual(['jazz', 'tablaNights'])
    expect(await found({ filterType: 'category', search: 'mus' })).toEqual([])
    expect(await found({ filterType: 'location', search: 'mumbai' })).toEqual(['cafe', 'bandra'])
    expect(await found({ filterType: 'date', search: `${year}-03` })).toEqual(['jazz', 'cafe'])
    expect(await found({ filterType: 'price', search: '0-250' })).toEqual(['cafe', 'bandra'])
    const res = await filter(t.app, { filterType: 'price', search: '500-100' })
    expect(res.statusCode).toBe(400)
    expect(res.json().message).toBe('Please enter valid min and max prices.')
  })
})

describe('the index as a read model', () => {
  it('is emptied and refilled by a rebuild, equal to the live one', async () => {
    const live = await indexRows()
    expect(live.length).toBe(Object.keys(catalogue).length)
    await dbExec(
      t.app,
      "DELETE FROM events_search WHERE title LIKE '%Jazz%'; UPDATE events_search SET title = 'tampered'",
    )
    // (read through the queries: the route's answers are kept until the ledger moves on)
    const search = t.app.platform.store.queries.catalog
    const byWords = async (text: string) => (await search.withWords(text)).map((e) => names()[e.id])
    expect(await byWords('jazz')).toEqual([])
    await rebuildStore(t.app)
    expect(await indexRows()).toEqual(live)
    expect(await byWords('jazz')).toEqual(['jazz'])
    expect(await byWords('tabla')).toEqual(['tablaNights', 'rhythm'])
  })

  // SQLite's migrations (0009 made the FTS5 index); PostgreSQL's start with the index.
  it.skipIf(testStore === 'postgres')(
    'holds the events made before its migration, once the migration runs',
    async () => {
      const sqlite = sqliteOf(t.app)
      const live = await indexRows()
      // As before migration 0009: no index, and the migration not recorded. drizzle applies every
      // migration newer than the newest recorded, so the later 0011 (money in paise) is undone and
      // unrecorded too: it runs again after 0009, converting the rupees back; and so is 0012 (the
      // dashboards' read models), which fills them again from the read models it finds; 0013 (the
      // door's read models), which makes the passes of the tickets it finds; 0014 (promo codes); and 0015
      // (events' cancellation); 0016 (waiting lists); 0017 (the attendees' index, which the orders
      // table made again by 0011 has in its old form); 0018 (door staff invitations, which
      // replace 0013's door staff); 0019 (cancelled tickets and refunds on orders); and 0020 (seat
      // maps).
      const journal = JSON.parse(readFileSync(join(migrationsFolder, 'meta', '_journal.json'), 'utf8')) as {
        entries: Array<{ tag: string; when: number }>
      }
      const recorded = (tag: string) => journal.entries.find((e) => e.tag === tag)?.when
      sqlite.exec('DROP TABLE events_search')
      for (const [table, column] of [
        ['event_ticket_types', 'price'],
        ['orders', 'unit_price'],
        ['orders', 'amount'],
        ['sales_by_ticket_type', 'revenue'],
        ['sales_by_hour', 'revenue'],
      ]) {
        sqlite.exec(`ALTER TABLE ${table} RENAME COLUMN ${column}_paise TO ${column}`)
        sqlite.exec(`UPDATE ${table} SET ${column} = ${column} / 100.0`)
      }
      for (const table of [
        'event_sales',
        'attendance',
        'sales_totals',
        'passes',
        'double_entries',
        'admissions',
        'admissions_by_minute',
        'door_invitations',
        'promo_codes',
        'waitlist_entries',
        'seat_maps',
        'seats',
        'seat_rows',
        'queue_rooms',
        'queue_places',
        'billing_profiles',
        'booking_fees',
        'invoice_documents',
        'api_tokens',
        'webhook_endpoints',
        'webhook_deliveries',
        'stream_snapshots',
      ])
        sqlite.exec(`DROP TABLE ${table}`)
      for (const column of [
        'promo_code',
        'discount_paise',
        'cancelled_at',
        'cancelled_by',
        'refund_requested_paise',
        'refunded_paise',
        'refunded_at',
        'fee_paise',
        'seats_held',
      ])
        sqlite.exec(`ALTER TABLE orders DROP COLUMN ${column}`)
      for (const column of ['cancelled_at', 'cancel_reason', 'gst_state', 'prices_include_tax'])
        sqlite.exec(`ALTER TABLE events DROP COLUMN ${column}`)
      sqlite.exec('ALTER TABLE event_ticket_types DROP COLUMN tax_rate_bp')
      const undone = [
        '0009_events_search',
        '0011_money_in_paise',
        '0012_dashboard_figures',
        '0013_door',
        '0014_promo_codes',
        '0015_event_changes',
        '0016_waitlist',
        '0017_attendees_from_index',
        '0018_door_invitations',
        '0019_cancelled_tickets',
        '0020_seat_maps',
        '0021_waiting_rooms',
        '0022_billing_profiles',
        '0023_seat_holds',
        '0024_invoices',
        '0025_api_tokens',
        '0026_webhooks',
        '0027_seat_rows_taken',
        '0028_queue_type_opens',
        '0029_booking_fees',
        '0030_buyer_documents',
        '0031_invoice_register',
        '0032_order_seats',
        '0033_buyer_documents_order',
        '0034_invoice_documents_no_buyer_index',
        '0035_seats_row_record',
        '0036_stream_snapshots',
      ]
      sqlite
        .prepare(`DELETE FROM __drizzle_migrations WHERE created_at IN (${undone.map(() => '?').join(', ')})`)
        .run(...undone.map(recorded))
      // Opening the database applies the missing migration, which indexes the existing events.
      openDatabase(sqlite.name).close()
      expect(await indexRows()).toEqual(live)
      // the attendees' index as 0017 leaves it, not as 0011 made it
      expect(
        sqlite.prepare("SELECT sql FROM sqlite_master WHERE name = 'orders_issued_by_event'").pluck().get(),
      ).toContain('`owner_id`')
      expect(
        (await t.app.platform.store.queries.catalog.withWords('poetry')).map((e) => names()[e.id]),
      ).toEqual(['cafe', 'ghazal'])
    },
  )
})
