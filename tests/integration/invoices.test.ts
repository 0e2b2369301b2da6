// Taxes and invoices (issue 42) on the real app and store (both, by the suite's projects): an
// event's GST fields, the breakdown a checkout returns and charges, the invoice a payment issues
// (numbered in the organizer's series for the financial year, a fact with the payment), its PDF and
// JSON to the buyer, the organizer and admins only, a bill of supply without a GSTIN, a credit note
// on a refund, a transfer keeping the buyer's invoice, and the organizer's list and CSV; numbers
// stay gapless with many payments at once, and the documents equal a rebuild from the ledger.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { FROM_AFTER_TO, NO_INVOICE } from '../../contracts/billing.ts'
import type { EventView } from '../../contracts/catalog.ts'
import { STATE_NEEDED_FOR_TAX } from '../../contracts/catalog.ts'
import { adminSession, bearer, organizerSession, type Session, signUp } from '../support/accounts.ts'
import { afterBackfill, dbRows, rebuildStore, sqliteOf, testStore } from '../support/db.ts'
import { parsedMail, waitForMail } from '../support/outbox.ts'
import {
  approvedEvent,
  buy,
  cancel,
  confirm,
  get,
  hold,
  nextYear,
  orderRow,
  pay,
  transfer,
  until,
} from '../support/sales.ts'
import { startServer, type TestServer } from '../support/server.ts'

let server: TestServer
const app = () => server.app
let admin: Session

beforeAll(async () => {
  server = await startServer({ RATE_LIMITS: 'off', LOG_LEVEL: 'error' })
  admin = await adminSession(app())
}, 60_000)

afterAll(async () => {
  await server?.close()
})

const setProfile = (who: Session, profile: Record<string, unknown>) => setProfile2(app(), who, profile)

async function setProfile2(on: TestServer['app'], who: Session, profile: Record<string, unknown>) {
  const res = await on.inject({
    method: 'PUT',
    url: '/api/v1/organizer/billing',
    headers: bearer(who.token),
    payload: profile,
  })
  expect(res.statusCode, res.body).toBe(200)
}

const registered = {
  legalName: 'Rangmanch Productions LLP',
  gstin: '27AAPFU0939F1ZV',
  address: '12 FC Road, Pune 411004',
  state: '27',
  invoicePrefix: 'RMP',
}

/** the financial year of today in Asia/Kolkata, as invoice numbers carry it */
const fyNow = () => {
  const day = new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Kolkata' }).format(new Date())
  const [y, m] = day.split('-').map(Number) as [number, number]
  const start = m >= 4 ? y : y - 1
  return `${String(start % 100).padStart(2, '0')}${String((start + 1) % 100).padStart(2, '0')}`
}

const invoiceOf = (who: Session, ticketId: string, kind = 'invoice') =>
  get(app(), `/api/v1/ticket/${ticketId}/${kind}?format=json`, who)

/** the bills a ticket's row of the account's registrations (cancelled ones too) offers to download */
async function documentsListed(who: Session, ticketId: string) {
  const res = await get(app(), '/api/v1/ticket/registrations?include=cancelled', who)
  expect(res.statusCode, res.body).toBe(200)
  const row = (res.json() as Array<{ _id: string; documents?: string[] }>).find((t) => t._id === ticketId)
  expect(row, `ticket ${ticketId} in the registrations`).toBeDefined()
  // none: the field is left out, as a ticket without seats has no seats
  return row?.documents ?? []
}

describe('GST on events and checkouts', () => {
  it('takes the state, prices with tax or without, and a rate per type; a taxed type needs a state', async () => {
    const organizer = await organizerSession(app(), 'Taxed')
    const event = await approvedEvent(app(), organizer, admin, { state: '27', pricesIncludeTax: 'false' }, [
      { type: 'General Admission', price: 1000, quantity: 50, taxRate: 18 },
      { type: 'VIP', price: 2500, quantity: 10 },
    ] as never)
    expect(event.state).toBe('27')
    expect(event.pricesIncludeTax).toBe(false)
    expect(event.ticketTypes.map((t) => t.taxRate)).toEqual([18, 0])
    // an old client's event: no state, prices with tax, no rate
    const plain = await approvedEvent(app(), organizer, admin)
    expect([plain.state, plain.pricesIncludeTax, plain.ticketTypes[0]?.taxRate]).toEqual([null, true, 0])

    const form = (fields: Record<string, string>, types: unknown[]) => {
      const data = new FormData()
      const all = {
        title: 'Without a state',
        description: 'x',
        date: `${nextYear}-03-15`,
        time: '18:00',
        location: 'Pune',
        category: 'Music',
        ticketTypes: JSON.stringify(types),
        ...fields,
      }
      for (const [k, v] of Object.entries(all)) data.append(k, v)
      return new Request('http://x/', { method: 'POST', body: data })
    }
    const send = async (request: Request) =>
      app().inject({
        method: 'POST',
        url: '/api/v1/event/create',
        payload: Buffer.from(await request.arrayBuffer()),
        headers: { 'content-type': request.headers.get('content-type') ?? '', ...bearer(organizer.token) },
      })
    const noState = await send(form({}, [{ type: 'VIP', price: 100, quantity: 1, taxRate: 18 }]))
    expect([noState.statusCode, noState.json().message]).toEqual([400, STATE_NEEDED_FOR_TAX])
    const oddRate = await send(form({ state: '27' }, [{ type: 'VIP', price: 100, quantity: 1, taxRate: 7 }]))
    expect([oddRate.statusCode, oddRate.json().message]).toEqual([
      400,
      'GST rate must be one of 0, 5, 12, 18, 28, 40 percent.',
    ])
    const badState = await send(form({ state: '99' }, [{ type: 'VIP', price: 100, quantity: 1 }]))
    expect(badState.statusCode).toBe(400)
    // an edit without the rate keeps it; one taking the state away from a taxed type is refused
    const kept = await app().inject({
      method: 'PUT',
      url: `/api/v1/event/${event._id}`,
      headers: bearer(organizer.token),
      payload: {
        ticketTypes: [
          { type: 'General Admission', price: 1000, quantity: 60 },
          { type: 'VIP', price: 2500, quantity: 10 },
        ],
      },
    })
    expect(kept.statusCode, kept.body).toBe(200)
    expect(kept.json().event.ticketTypes.map((t: { taxRate: number }) => t.taxRate)).toEqual([18, 0])
    const stateless = await app().inject({
      method: 'PUT',
      url: `/api/v1/event/${event._id}`,
      headers: bearer(organizer.token),
      payload: { state: '' },
    })
    expect([stateless.statusCode, stateless.json().message]).toEqual([400, STATE_NEEDED_FOR_TAX])
  })

  it('returns the breakdown and charges its total: CGST + SGST within the state, IGST across', async () => {
    const organizer = await organizerSession(app(), 'Breakdown')
    await setProfile(organizer, registered)
    const [buyer] = [await signUp(app())]
    const within = await approvedEvent(app(), organizer, admin, { state: '27', pricesIncludeTax: 'false' }, [
      { type: 'VIP', price: 1000, quantity: 50, taxRate: 18 },
    ] as never)
    const held = await hold(app(), buyer as Session, within, 'VIP', 2)
    expect(held.breakdown).toEqual({
      base: 2000,
      cgst: 180,
      sgst: 180,
      igst: 0,
      fee: 0,
      feeTax: 0,
      total: 2360,
    })
    expect(held.amount).toBe(236_000)
    // held in Karnataka, supplied from Maharashtra: IGST; prices that include it are split, not raised
    const across = await approvedEvent(app(), organizer, admin, { state: '29', pricesIncludeTax: 'true' }, [
      { type: 'VIP', price: 1180, quantity: 50, taxRate: 18 },
    ] as never)
    const inclusive = await hold(app(), buyer as Session, across, 'VIP', 1)
    expect(inclusive.breakdown).toEqual({
      base: 1000,
      cgst: 0,
      sgst: 0,
      igst: 180,
      fee: 0,
      feeTax: 0,
      total: 1180,
    })
    expect(inclusive.amount).toBe(118_000)
    // an organizer without a billing profile charges no tax, whatever the rate
    const bare = await organizerSession(app(), 'NoProfile')
    const untaxed = await approvedEvent(app(), bare, admin, { state: '27', pricesIncludeTax: 'false' }, [
      { type: 'VIP', price: 1000, quantity: 5, taxRate: 18 },
    ] as never)
    expect((await hold(app(), buyer as Session, untaxed, 'VIP', 1)).breakdown.total).toBe(1000)
    // and issues no invoice: the buyer's ticket offers none to download
    const untaxedTicket = await buy(app(), buyer as Session, untaxed, 'VIP', 1)
    expect((await invoiceOf(buyer as Session, untaxedTicket)).statusCode).toBe(404)
    expect(await documentsListed(buyer as Session, untaxedTicket)).toEqual([])
  })
})

describe('invoices and credit notes', () => {
  it('issues a tax invoice on payment, numbered in the organizer’s series, readable by the buyer, organizer and admins', async () => {
    const organizer = await organizerSession(app(), 'Invoicer')
    await setProfile(organizer, { ...registered, invoicePrefix: 'INV' })
    const event = await approvedEvent(app(), organizer, admin, { state: '27', pricesIncludeTax: 'false' }, [
      { type: 'VIP', price: 1000, quantity: 50, taxRate: 18 },
    ] as never)
    const buyer = await signUp(app(), 'Asha')
    const unpaid = await hold(app(), buyer, event, 'VIP', 1)
    const before = await invoiceOf(buyer, unpaid.ticketId)
    expect([before.statusCode, before.json().message]).toEqual([404, NO_INVOICE])
    const ticketId = await buy(app(), buyer, event, 'VIP', 2)
    const res = await invoiceOf(buyer, ticketId)
    expect(res.statusCode, res.body).toBe(200)
    const invoice = res.json()
    expect(invoice).toMatchObject({
      kind: 'tax-invoice',
      number: `INV${fyNow()}/000001`,
      supplier: { legalName: registered.legalName, gstin: registered.gstin, state: '27' },
      buyer: { name: 'Asha', email: buyer.email },
      placeOfSupply: '27',
      lines: [{ sac: '9996', quantity: 2, taxableValue: 2000, cgst: 180, sgst: 180, igst: 0, total: 2360 }],
      totals: { taxableValue: 2000, cgst: 180, sgst: 180, igst: 0, total: 2360 },
      ticketId,
    })
    expect(invoice.number.length).toBeLessThanOrEqual(16)
    // the organizer and an admin read it; another buyer or organizer does not
    expect((await invoiceOf(organizer, ticketId)).json().number).toBe(invoice.number)
    expect((await invoiceOf(admin, ticketId)).json().number).toBe(invoice.number)
    expect((await invoiceOf(await signUp(app()), ticketId)).statusCode).toBe(404)
    expect((await invoiceOf(await organizerSession(app(), 'Else'), ticketId)).statusCode).toBe(404)
    // the PDF
    const pdf = await get(app(), `/api/v1/ticket/${ticketId}/invoice`, buyer)
    expect(pdf.statusCode).toBe(200)
    expect(pdf.headers['content-type']).toBe('application/pdf')
    expect(pdf.rawPayload.subarray(0, 5).toString()).toBe('%PDF-')
    // asked again: the same bytes, or told it has not changed
    const tag = pdf.headers.etag as string
    expect(tag).toMatch(/^"pdf-[\w-]{27}"$/)
    const again = await get(app(), `/api/v1/ticket/${ticketId}/invoice`, buyer)
    expect([again.headers.etag, again.rawPayload.equals(pdf.rawPayload)]).toEqual([tag, true])
    const unchanged = await app().inject({
      method: 'GET',
      url: `/api/v1/ticket/${ticketId}/invoice`,
      headers: { ...bearer(buyer.token), 'if-none-match': tag },
    })
    expect([unchanged.statusCode, unchanged.body]).toEqual([304, ''])
    // nor is it told to another who sends the tag
    const stranger = await app().inject({
      method: 'GET',
      url: `/api/v1/ticket/${ticketId}/invoice`,
      headers: { ...bearer((await signUp(app())).token), 'if-none-match': tag },
    })
    expect(stranger.statusCode).toBe(404)
    // the next payment takes the next number; the number is a fact with the payment
    const second = await buy(app(), buyer, event, 'VIP', 1)
    expect((await invoiceOf(buyer, second)).json().number).toBe(`INV${fyNow()}/000002`)
    const secondPdf = await get(app(), `/api/v1/ticket/${second}/invoice`, buyer)
    expect(secondPdf.headers.etag).not.toBe(tag)
    const facts = await dbRows(
      app(),
      `SELECT type FROM ledger WHERE stream = 'order-${second}' ORDER BY version`,
    )
    expect(facts.map((f) => f.type)).toEqual([
      'TicketsHeld',
      'PaymentCaptured',
      'TicketsIssued',
      'InvoiceIssued',
    ])
  })

  it('issues a bill of supply without a GSTIN, and nothing for a free ticket', async () => {
    const organizer = await organizerSession(app(), 'Unregistered')
    await setProfile(organizer, { ...registered, gstin: null, invoicePrefix: 'BOS' })
    const event = await approvedEvent(app(), organizer, admin, { state: '27' }, [
      { type: 'VIP', price: 500, quantity: 5, taxRate: 18 },
      { type: 'General Admission', price: 0, quantity: 5 },
    ] as never)
    const buyer = await signUp(app())
    const ticketId = await buy(app(), buyer, event, 'VIP', 1)
    const bill = (await invoiceOf(buyer, ticketId)).json()
    expect(bill).toMatchObject({
      kind: 'bill-of-supply',
      number: `BOS${fyNow()}/000001`,
      supplier: { gstin: null },
      totals: { taxableValue: 500, cgst: 0, sgst: 0, igst: 0, total: 500 },
    })
    expect(await documentsListed(buyer, ticketId)).toEqual(['invoice'])
    const free = await hold(app(), buyer, event, 'General Admission', 1)
    expect((await invoiceOf(buyer, free.ticketId)).statusCode).toBe(404)
  })

  it('issues a credit note against the invoice on a refund; a transfer keeps the buyer’s invoice', async () => {
    const organizer = await organizerSession(app(), 'Refunder')
    await setProfile(organizer, { ...registered, invoicePrefix: 'CRN' })
    const event = await approvedEvent(app(), organizer, admin, { state: '29', pricesIncludeTax: 'true' }, [
      { type: 'VIP', price: 1180, quantity: 20, taxRate: 18 },
    ] as never)
    const [buyer, friend] = [await signUp(app()), await signUp(app())]
    const ticketId = await buy(app(), buyer, event, 'VIP', 1)
    expect((await get(app(), `/api/v1/ticket/${ticketId}/credit-note?format=json`, buyer)).statusCode).toBe(
      404,
    )
    expect(await documentsListed(buyer, ticketId)).toEqual(['invoice'])
    await cancel(app(), buyer, ticketId)
    expect(await documentsListed(buyer, ticketId)).toEqual(['invoice', 'credit-note'])
    const note = (await invoiceOf(buyer, ticketId, 'credit-note')).json()
    expect(note).toMatchObject({
      kind: 'credit-note',
      number: `CRN${fyNow()}C000001`,
      against: `CRN${fyNow()}/000001`,
      placeOfSupply: '29',
      totals: { taxableValue: 1000, cgst: 0, sgst: 0, igst: 180, total: 1180 },
    })
    // a transferred ticket: the invoice stays the buyer's, the new holder cannot read it
    const given = await buy(app(), buyer, event, 'VIP', 1)
    await transfer(app(), buyer, given, friend)
    expect((await invoiceOf(buyer, given)).json().buyer.email).toBe(buyer.email)
    expect((await invoiceOf(friend, given)).statusCode).toBe(404)
    // so the new holder's registrations offer no bill the server would refuse
    expect(await documentsListed(friend, given)).toEqual([])
    // the buyer's own list keeps all three (the given ticket's too), a credit note before its
    // invoice; the holder's has none
    const mine = await get(app(), '/api/v1/account/invoices', buyer)
    expect(mine.statusCode, mine.body).toBe(200)
    const listed = (mine.json() as Array<{ number: string; ticketId: string; of: string }>).map((d) =>
      [d.number, d.ticketId, d.of].join(' '),
    )
    expect([...listed].sort()).toEqual(
      [
        `CRN${fyNow()}/000002 ${given} tickets`,
        `CRN${fyNow()}C000001 ${ticketId} tickets`,
        `CRN${fyNow()}/000001 ${ticketId} tickets`,
      ].sort(),
    )
    expect(listed.indexOf(`CRN${fyNow()}C000001 ${ticketId} tickets`)).toBeLessThan(
      listed.indexOf(`CRN${fyNow()}/000001 ${ticketId} tickets`),
    )
    // a page at a time: the same order, the count in a header, the next page's address in Link
    const first = await get(app(), '/api/v1/account/invoices?page=1&limit=2', buyer)
    expect(first.statusCode, first.body).toBe(200)
    expect(first.headers['x-total-count']).toBe('3')
    expect(first.headers.link).toBe('</api/v1/account/invoices?page=2&limit=2>; rel="next"')
    const second = await get(app(), '/api/v1/account/invoices?page=2&limit=2', buyer)
    expect(second.headers['x-total-count']).toBe('3')
    expect(second.headers.link).toBeUndefined()
    const numbers = (reply: { json: () => unknown }) =>
      (reply.json() as Array<{ number: string }>).map((d) => d.number)
    expect([...numbers(first), ...numbers(second)]).toEqual(numbers(mine))
    expect(numbers(await get(app(), '/api/v1/account/invoices?page=3&limit=2', buyer))).toEqual([])
    for (const query of ['page=0', 'page=x', 'limit=501', 'page=1&limit=0']) {
      const refused = await get(app(), `/api/v1/account/invoices?${query}`, buyer)
      expect(refused.statusCode, query).toBe(400)
      expect((refused.json() as { message: string }).message).toMatch(
        /^(Page|page|limit) must be a whole number/,
      )
    }
    expect((await get(app(), '/api/v1/account/invoices', friend)).json()).toEqual([])
    expect((await get(app(), '/api/v1/account/invoices')).statusCode).toBe(401)
  })

  it('lists a buyer’s documents newest first by when each was issued: a refund’s credit note before the orders bought since', async () => {
    const organizer = await organizerSession(app(), 'Sequencer')
    await setProfile(organizer, { ...registered, invoicePrefix: 'SEQ' })
    const event = await approvedEvent(app(), organizer, admin, { state: '29', pricesIncludeTax: 'true' }, [
      { type: 'VIP', price: 1180, quantity: 20, taxRate: 18 },
    ] as never)
    const buyer = await signUp(app())
    const first = await buy(app(), buyer, event, 'VIP', 1)
    await buy(app(), buyer, event, 'VIP', 1)
    // the first order refunded after the second was bought, the same day
    await cancel(app(), buyer, first)
    const mine = await get(app(), '/api/v1/account/invoices', buyer)
    expect(mine.statusCode, mine.body).toBe(200)
    expect((mine.json() as Array<{ number: string }>).map((d) => d.number)).toEqual([
      `SEQ${fyNow()}C000001`,
      `SEQ${fyNow()}/000002`,
      `SEQ${fyNow()}/000001`,
    ])
    // the migration that added the time of issue finds it in the ledger, as the projection writes it
    const read =
      'SELECT supplier_id, series, fy, seq, issued_at FROM invoice_documents ORDER BY supplier_id, series, fy, seq'
    const now = await dbRows(app(), read)
    expect(now.filter((row) => !String(row.issued_at).includes('T'))).toEqual([])
    const migration = { sqlite: '0033_buyer_documents_order.sql', postgres: '0025_buyer_documents_order.sql' }
    expect(
      await afterBackfill(app(), migration, "UPDATE invoice_documents SET issued_at = ''", [read]),
    ).toEqual([now])
  })

  it('lists the organizer’s documents by day, and as CSV whose lines add up', async () => {
    const organizer = await organizerSession(app(), 'Lister')
    await setProfile(organizer, { ...registered, invoicePrefix: 'LST' })
    const event = await approvedEvent(app(), organizer, admin, { state: '27', pricesIncludeTax: 'false' }, [
      { type: 'VIP', price: 333.33, quantity: 20, taxRate: 18 },
    ] as never)
    const buyer = await signUp(app())
    const first = await buy(app(), buyer, event, 'VIP', 3)
    await buy(app(), buyer, event, 'VIP', 1)
    await cancel(app(), buyer, first)
    const listed = await get(app(), '/api/v1/organizer/invoices', organizer)
    expect(listed.statusCode, listed.body).toBe(200)
    const documents = listed.json() as Array<{ number: string; kind: string; totals: Record<string, number> }>
    expect(documents.map((d) => [d.number, d.kind])).toEqual([
      [`LST${fyNow()}/000001`, 'tax-invoice'],
      [`LST${fyNow()}/000002`, 'tax-invoice'],
      [`LST${fyNow()}C000001`, 'credit-note'],
    ])
    for (const d of documents) {
      const t = d.totals as { taxableValue: number; cgst: number; sgst: number; igst: number; total: number }
      expect(Math.round((t.taxableValue + t.cgst + t.sgst + t.igst) * 100)).toBe(Math.round(t.total * 100))
    }
    const none = await get(app(), '/api/v1/organizer/invoices?from=2000-01-01&to=2000-12-31', organizer)
    expect(none.json()).toEqual([])
    // a form's blank days are not given: the whole list
    const blank = await get(app(), '/api/v1/organizer/invoices?from=&to=', organizer)
    expect([blank.statusCode, blank.json()]).toEqual([200, documents])
    const csv = await get(app(), '/api/v1/organizer/invoices?format=csv', organizer)
    expect(csv.headers['content-type']).toMatch(/^text\/csv/)
    const rows = csv.body
      .trim()
      .split('\r\n')
      .map((line) => line.split(','))
    expect(rows[0]).toEqual([
      'number',
      'kind',
      'date',
      'ticket',
      'buyer',
      'email',
      'placeOfSupply',
      'taxableValue',
      'cgst',
      'sgst',
      'igst',
      'total',
      'against',
    ])
    expect(rows.length).toBe(4)
    for (const row of rows.slice(1)) {
      const [taxable, cgst, sgst, igst, total] = row.slice(7, 12).map((n) => Math.round(Number(n) * 100))
      expect((taxable ?? 0) + (cgst ?? 0) + (sgst ?? 0) + (igst ?? 0)).toBe(total)
    }
    // buyers have no such list
    expect((await get(app(), '/api/v1/organizer/invoices', buyer)).statusCode).toBe(403)
    const badRange = await get(app(), '/api/v1/organizer/invoices?from=2026-13-01', organizer)
    expect(badRange.statusCode).toBe(400)
    // a day the calendar has not, and a range that ends before it starts: each named
    const noSuchDay = await get(app(), '/api/v1/organizer/invoices?from=2026-02-30', organizer)
    expect([noSuchDay.statusCode, noSuchDay.json().message]).toEqual([
      400,
      'From must be a real day on the calendar.',
    ])
    const backwards = await get(app(), '/api/v1/admin/invoices?from=2026-05-01&to=2026-04-01', admin)
    expect(backwards.statusCode).toBe(400)
    expect(backwards.json()).toMatchObject({
      message: FROM_AFTER_TO,
      issues: [{ field: 'from', message: FROM_AFTER_TO }],
    })
  })

  it('numbers many payments at once without a gap or a repeat, per organizer', async () => {
    const organizers = await Promise.all(['GaplessA', 'GaplessB'].map((n) => organizerSession(app(), n)))
    const events: EventView[] = []
    for (const [i, organizer] of organizers.entries()) {
      await setProfile(organizer, { ...registered, invoicePrefix: `G${i}` })
      events.push(
        await approvedEvent(app(), organizer, admin, { state: '27' }, [
          { type: 'VIP', price: 100, quantity: 100, taxRate: 5 },
        ] as never),
      )
    }
    const buyers = await Promise.all(Array.from({ length: 16 }, () => signUp(app())))
    const tickets = await Promise.all(buyers.map((b, i) => buy(app(), b, events[i % 2] as never, 'VIP', 1)))
    expect(tickets).toHaveLength(16)
    for (const [i, organizer] of organizers.entries()) {
      const numbers = (
        (await get(app(), '/api/v1/organizer/invoices', organizer)).json() as Array<{ number: string }>
      )
        .map((d) => d.number)
        .sort()
      expect(numbers).toEqual(
        Array.from({ length: 8 }, (_, n) => `G${i}${fyNow()}/${String(n + 1).padStart(6, '0')}`),
      )
    }
  })

  it('keeps the documents as a rebuild from the ledger makes them', async () => {
    const read = () => dbRows(app(), 'SELECT * FROM invoice_documents ORDER BY supplier_id, series, fy, seq')
    const before = await read()
    expect(before.length).toBeGreaterThan(5)
    await rebuildStore(app())
    expect(await read()).toEqual(before)
  })
})

describe('the booking fee, refunds by the organizer and an event called off, and the mails', () => {
  let feeServer: TestServer
  const feeApp = () => feeServer.app

  beforeAll(async () => {
    feeServer = await startServer({
      RATE_LIMITS: 'off',
      LOG_LEVEL: 'error',
      BOOKING_FEE_PER_TICKET: '20',
      BOOKING_FEE_PERCENT: '1',
      BOOKING_FEE_GST_RATE: '18',
      PLATFORM_LEGAL_NAME: 'Tickets Platform Pvt Ltd',
      PLATFORM_GSTIN: '29AAGCB7383J1Z4',
      PLATFORM_STATE: '29',
      PLATFORM_INVOICE_PREFIX: 'TPF',
    })
  }, 60_000)

  afterAll(async () => {
    await feeServer?.close()
  })

  const document = (who: Session, ticketId: string, kind: string, of = 'tickets') =>
    get(feeApp(), `/api/v1/ticket/${ticketId}/${kind}?format=json&of=${of}`, who)

  it('charges the fee with its GST, invoiced by the platform in its own series, both attached to the mail', async () => {
    const feeAdmin = await adminSession(feeApp())
    const organizer = await organizerSession(feeApp(), 'FeeOrganizer')
    await setProfile2(feeApp(), organizer, { ...registered, invoicePrefix: 'FO' })
    const event = await approvedEvent(
      feeApp(),
      organizer,
      feeAdmin,
      { state: '27', pricesIncludeTax: 'false' },
      [{ type: 'VIP', price: 1000, quantity: 20, taxRate: 18 }] as never,
    )
    expect((await get(feeApp(), '/api/v1/tax-rates')).json()).toEqual({
      rates: [0, 5, 12, 18, 28, 40],
      fee: { perTicket: 20, percent: 1, taxRate: 18 },
    })
    // the platform has a GSTIN: its admins are told GST is charged on the fee
    expect((await get(feeApp(), '/api/v1/admin/booking-fee', feeAdmin)).json()).toMatchObject({
      perTicket: 20,
      taxed: true,
    })
    const buyer = await signUp(feeApp(), 'Ravi')
    const placed = await hold(feeApp(), buyer, event, 'VIP', 2)
    // the fee: ₹20 × 2 and 1% of ₹2,000 = ₹60, and 18% of it
    expect(placed.breakdown).toEqual({
      base: 2000,
      cgst: 180,
      sgst: 180,
      igst: 0,
      fee: 60,
      feeTax: 10.8,
      total: 2430.8,
    })
    expect(placed.amount).toBe(243_080)
    const ticketId = await buy(feeApp(), buyer, event, 'VIP', 2)
    const fee = (await document(buyer, ticketId, 'invoice', 'fee')).json()
    expect(fee).toMatchObject({
      kind: 'tax-invoice',
      number: `TPF${fyNow()}/000001`,
      supplier: { legalName: 'Tickets Platform Pvt Ltd', gstin: '29AAGCB7383J1Z4', state: '29' },
      lines: [
        {
          description: 'Booking fee',
          sac: '998599',
          quantity: 2,
          taxableValue: 60,
          cgst: 5.4,
          sgst: 5.4,
          igst: 0,
          total: 70.8,
        },
      ],
    })
    const tickets = (await document(buyer, ticketId, 'invoice')).json()
    expect(tickets.number).toBe(`FO${fyNow()}/000001`)
    expect(tickets.totals.total + fee.totals.total).toBe(2430.8)
    // the fee's invoice is the platform's and the buyer's: the event's organizer reads the tickets' only
    expect((await document(organizer, ticketId, 'invoice', 'fee')).statusCode).toBe(404)
    // the buyer's list has both, each saying what it is for
    const mine = (await get(feeApp(), '/api/v1/account/invoices', buyer)).json() as Array<{
      number: string
      of: string
    }>
    expect(mine.map((d) => `${d.number} ${d.of}`).sort()).toEqual(
      [`${tickets.number} tickets`, `${fee.number} fee`].sort(),
    )
    expect((await document(organizer, ticketId, 'invoice')).json().number).toBe(tickets.number)
    expect((await document(feeAdmin, ticketId, 'invoice', 'fee')).json().number).toBe(fee.number)
    // the platform's register: its fee documents, for admins, as JSON and CSV
    const platform = await get(feeApp(), '/api/v1/admin/invoices', feeAdmin)
    expect(platform.statusCode, platform.body).toBe(200)
    expect((platform.json() as Array<{ number: string }>).map((d) => d.number)).toContain(fee.number)
    expect((platform.json() as Array<{ number: string }>).map((d) => d.number)).not.toContain(tickets.number)
    const platformCsv = await get(feeApp(), '/api/v1/admin/invoices?format=csv', feeAdmin)
    expect(platformCsv.headers['content-type']).toMatch(/^text\/csv/)
    expect(platformCsv.body).toContain(fee.number)
    expect((await get(feeApp(), '/api/v1/admin/invoices', organizer)).statusCode).toBe(403)
    // the ticket's mail carries both PDFs
    const mail = await waitForMail(
      feeServer.config.outboxDir,
      (m) => m.to.includes(buyer.email) && /Your tickets/.test(m.subject),
    )
    const parsed = await parsedMail(feeServer.config.outboxDir, mail)
    const pdfs = parsed.attachments.filter((a) => a.contentType === 'application/pdf')
    expect(pdfs.map((a) => a.filename).sort()).toEqual([
      `FO${fyNow()}_000001.pdf`,
      `TPF${fyNow()}_000001.pdf`,
    ])
    expect(pdfs.every((a) => a.content.subarray(0, 5).toString() === '%PDF-')).toBe(true)

    // the organizer refunds it: a credit note in each series, attached to the refund's mail
    const refund = await feeApp().inject({
      method: 'POST',
      url: `/api/v1/ticket/${ticketId}/refund`,
      headers: bearer(organizer.token),
      payload: { reason: 'Seat broken' },
    })
    expect(refund.statusCode, refund.body).toBe(200)
    expect((await document(buyer, ticketId, 'credit-note')).json()).toMatchObject({
      number: `FO${fyNow()}C000001`,
      against: `FO${fyNow()}/000001`,
    })
    expect((await document(buyer, ticketId, 'credit-note', 'fee')).json()).toMatchObject({
      number: `TPF${fyNow()}C000001`,
      against: `TPF${fyNow()}/000001`,
    })
    const refunded = await waitForMail(
      feeServer.config.outboxDir,
      (m) => m.to.includes(buyer.email) && /refunded/.test(m.subject),
    )
    const notes = (await parsedMail(feeServer.config.outboxDir, refunded)).attachments.map((a) => a.filename)
    expect(notes.sort()).toEqual([`FO${fyNow()}C000001.pdf`, `TPF${fyNow()}C000001.pdf`])
  })

  it('issues a credit note for every paid ticket of an event called off', async () => {
    const feeAdmin = await adminSession(feeApp())
    const organizer = await organizerSession(feeApp(), 'CallsOff')
    await setProfile2(feeApp(), organizer, { ...registered, invoicePrefix: 'CO' })
    const event = await approvedEvent(feeApp(), organizer, feeAdmin, { state: '27' }, [
      { type: 'VIP', price: 500, quantity: 20, taxRate: 5 },
    ] as never)
    const buyers = await Promise.all([signUp(feeApp()), signUp(feeApp()), signUp(feeApp())])
    const tickets = await Promise.all(buyers.map((b) => buy(feeApp(), b, event, 'VIP', 1)))
    const called = await feeApp().inject({
      method: 'POST',
      url: `/api/v1/event/${event._id}/cancel`,
      headers: bearer(organizer.token),
      payload: { reason: 'Flooded venue' },
    })
    expect(called.statusCode, called.body).toBe(200)
    const noteOf = async (i: number) => document(buyers[i] as Session, tickets[i] as string, 'credit-note')
    await until(
      async () => (await Promise.all([0, 1, 2].map(noteOf))).every((r) => r.statusCode === 200),
      15_000,
    )
    const numbers = (await Promise.all([0, 1, 2].map(noteOf))).map((r) => r.json().number).sort()
    expect(numbers).toEqual([1, 2, 3].map((n) => `CO${fyNow()}C00000${n}`))
  })

  it('keeps each order’s fee as the migration that added it computes it from the holds a database had', async () => {
    const feeAdmin = await adminSession(feeApp())
    const organizer = await organizerSession(feeApp(), 'Odd')
    const event = await approvedEvent(feeApp(), organizer, feeAdmin, { state: '27' }, [
      { type: 'VIP', price: 333.33, quantity: 20 },
      { type: 'General Admission', price: 0, quantity: 20 },
      { type: 'Balcony', price: 50.5, quantity: 20 },
    ] as never)
    // a fee of ₹20 × 3 and 1% of ₹999.99 (₹10.00, rounded half up) with 18% on it; none on a free ticket
    const odd = await hold(feeApp(), await signUp(feeApp()), event, 'VIP', 3)
    expect(odd.breakdown).toMatchObject({ fee: 70, feeTax: 12.6 })
    await hold(feeApp(), await signUp(feeApp()), event, 'General Admission', 2)
    // half a paisa each way: 1% of ₹50.50 is 50.5 paise (51), 9% of ₹20.51 is 184.59 paise (185)
    const half = await hold(feeApp(), await signUp(feeApp()), event, 'Balcony', 1)
    expect(half.breakdown).toMatchObject({ fee: 20.51, feeTax: 3.7 })
    const read = 'SELECT id, fee_paise FROM orders ORDER BY id'
    const [now] = await dbRows(feeApp(), read).then((rows) => [rows])
    expect(now?.find((o) => o.id === odd.ticketId)?.fee_paise).toBe(8260)
    expect(now?.find((o) => o.id === half.ticketId)?.fee_paise).toBe(2421)
    expect(now?.filter((o) => Number(o.fee_paise) === 0).length).toBeGreaterThan(0)
    const migration = { sqlite: '0029_booking_fees.sql', postgres: '0021_booking_fees.sql' }
    expect(await afterBackfill(feeApp(), migration, 'UPDATE orders SET fee_paise = 0', [read])).toEqual([now])
  })
})

describe('a register longer than one read', () => {
  let small: TestServer
  beforeAll(async () => {
    small = await startServer({ RATE_LIMITS: 'off', LOG_LEVEL: 'error', INVOICE_REGISTER_BATCH: '2' })
  }, 60_000)
  afterAll(async () => {
    await small?.close()
  })

  it('is given whole, in order, as JSON and as CSV, read two documents at a time', async () => {
    const organizer = await organizerSession(small.app, 'Long')
    await setProfile2(small.app, organizer, { ...registered, invoicePrefix: 'LNG' })
    const event = await approvedEvent(small.app, organizer, await adminSession(small.app), { state: '27' }, [
      { type: 'VIP', price: 100, quantity: 20, taxRate: 5 },
    ] as never)
    const buyer = await signUp(small.app)
    const tickets: string[] = []
    for (let n = 0; n < 4; n++) tickets.push(await buy(small.app, buyer, event, 'VIP', 1))
    await cancel(small.app, buyer, tickets[0] as string)
    // five documents of one day: invoices 1 to 4, then the credit note (batches 2, 2 and 1)
    const expected = [1, 2, 3, 4].map((n) => `LNG${fyNow()}/00000${n}`).concat(`LNG${fyNow()}C000001`)
    const listed = await get(small.app, '/api/v1/organizer/invoices', organizer)
    expect(listed.statusCode, listed.body).toBe(200)
    expect(listed.headers['content-type']).toMatch(/^application\/json/)
    expect((listed.json() as Array<{ number: string }>).map((d) => d.number)).toEqual(expected)
    const csv = await get(small.app, '/api/v1/organizer/invoices?format=csv', organizer)
    expect(csv.statusCode).toBe(200)
    const lines = csv.body.trim().split(/\r?\n/)
    expect(lines.slice(1).map((line) => line.split(',')[0])).toEqual(expected)
    // none at all: an empty array, and a CSV of its header alone
    const none = await get(small.app, '/api/v1/organizer/invoices?from=2000-01-01&to=2000-01-02', organizer)
    expect(none.json()).toEqual([])
    const noneCsv = await get(small.app, '/api/v1/organizer/invoices?format=csv&to=2000-01-02', organizer)
    expect(noneCsv.body.trim().split(/\r?\n/)).toHaveLength(1)
  })

  // Each batch seeks its first row in the register's index: a register of n documents reads n
  // rows, not the rest of its range again for every batch (a sort of what is left, n²/batch rows).
  it('reads each batch from the index in the register’s order, with no sort', async () => {
    const { postgres, plan } = await planOf('register', {
      supplierId: 'o1',
      to: '2026-12-31',
      limit: 1000,
      issuedOn: '2026-12-01',
      credit: 0,
      fy: '2026-27',
      seq: 7,
    })
    if (postgres) {
      expect(plan).toMatch(/Index Scan using invoice_documents_register/)
      expect(plan).toMatch(/Index Cond: .*ROW\(issued_on, credit, fy, seq\) > ROW\(/)
      expect(plan).not.toMatch(/Sort/)
    } else {
      expect(plan).toMatch(
        /SEARCH invoice_documents USING INDEX invoice_documents_register \(supplier_id=\? AND \(issued_on,credit,fy,seq\)>\(\?,\?,\?,\?\)/,
      )
      expect(plan).not.toMatch(/TEMP B-TREE/)
    }
  })

  // A buyer's documents are found through their orders (no index of the documents by buyer):
  // the buyer's orders by their index, then each order's documents by theirs, never a scan.
  it('finds a buyer’s documents through the indexes of their orders and of each order’s documents', async () => {
    const { postgres, plan } = await planOf('boughtBy', { buyerId: 'b1', limit: 20, offset: 0 })
    if (postgres) {
      expect(plan).toMatch(/Index (Only )?Scan using invoice_documents_order on invoice_documents/)
      expect(plan).toMatch(/Index (Only )?Scan using orders_buyer_event on orders/)
    } else {
      expect(plan).toMatch(/SEARCH invoice_documents USING INDEX invoice_documents_order \(order_id=\?\)/)
      expect(plan).toMatch(/SEARCH orders USING (COVERING )?INDEX orders_buyer_event \(buyer_id=\?\)/)
      expect(plan).not.toMatch(/SCAN invoice_documents/)
    }
  })

  /** how this store plans one of the billing statements, with these parameters */
  async function planOf(which: 'register' | 'boughtBy', given: Record<string, unknown>) {
    const store = small.app.platform.store
    const { text, names } = await store.queries.billing.sqlOf(which)
    const values = names.map((name) => given[name])
    if (!store.postgres) {
      const plan = sqliteOf(small.app)
        .prepare(`EXPLAIN QUERY PLAN ${text}`)
        .all(...values)
        .map((row) => (row as { detail: string }).detail)
        .join('\n')
      return { postgres: false, plan }
    }
    const client = await store.postgres.connection.pool.connect()
    try {
      // the tables are small here: the planner would read them whole; asked not to, it shows
      // whether the indexes can serve the query at all
      await client.query('BEGIN')
      await client.query('SET LOCAL enable_seqscan = off')
      const plan = (await client.query(`EXPLAIN ${text}`, values)).rows.map((r) => r['QUERY PLAN']).join('\n')
      return { postgres: true, plan }
    } finally {
      await client.query('ROLLBACK')
      client.release()
    }
  }
})

describe('the booking fee as the platform’s admins set it', () => {
  let feeServer: TestServer
  const feeApp = () => feeServer.app

  beforeAll(async () => {
    feeServer = await startServer({ RATE_LIMITS: 'off', LOG_LEVEL: 'error' })
  }, 60_000)

  afterAll(async () => {
    await feeServer?.close()
  })

  const setFee = (who: Session, fee: Record<string, unknown>) =>
    feeApp().inject({
      method: 'PUT',
      url: '/api/v1/admin/booking-fee',
      headers: bearer(who.token),
      payload: fee,
    })
  const feeDocument = (who: Session, ticketId: string) =>
    get(feeApp(), `/api/v1/ticket/${ticketId}/invoice?format=json&of=fee`, who)

  it('charges from then on what an admin sets, each order keeping the fee it was priced with', async () => {
    const feeAdmin = await adminSession(feeApp())
    const organizer = await organizerSession(feeApp(), 'Fees')
    await setProfile2(feeApp(), organizer, { ...registered, invoicePrefix: 'FS' })
    const event = await approvedEvent(feeApp(), organizer, feeAdmin, { state: '27' }, [
      { type: 'VIP', price: 500, quantity: 20, taxRate: 18 },
    ] as never)
    // the platform has no GSTIN here: the reply says no GST is charged on its fee
    const none = { perTicket: 0, percent: 0, taxRate: 18, updatedAt: null, taxed: false }
    expect((await get(feeApp(), '/api/v1/admin/booking-fee', feeAdmin)).json()).toEqual(none)
    expect((await get(feeApp(), '/api/v1/tax-rates')).json().fee).toBeNull()

    // only admins set it, and only to what may be charged; a refusal stores nothing
    expect((await get(feeApp(), '/api/v1/admin/booking-fee', organizer)).statusCode).toBe(403)
    const byOrganizer = await setFee(organizer, { perTicket: 10, percent: 0, taxRate: 18 })
    expect(byOrganizer.statusCode).toBe(403)
    for (const [fee, message] of [
      [{ perTicket: 10, percent: 0, taxRate: 7 }, 'GST rate must be one of 0, 5, 12, 18, 28, 40 percent.'],
      [{ perTicket: -1, percent: 0, taxRate: 18 }, 'Fee per ticket cannot be negative.'],
      [{ perTicket: 10.005, percent: 0, taxRate: 18 }, 'Fee per ticket can have at most two decimals.'],
      [{ perTicket: 0, percent: 51, taxRate: 18 }, 'Fee percent must be at most 50.'],
      [{ perTicket: '10', percent: 0, taxRate: 18 }, 'Fee per ticket must be a number of rupees.'],
    ] as const) {
      const res = await setFee(feeAdmin, fee)
      expect(res.statusCode, res.body).toBe(400)
      expect(res.json().message).toBe(message)
    }
    expect((await get(feeApp(), '/api/v1/admin/booking-fee', feeAdmin)).json()).toEqual(none)

    const [early, late, after] = [await signUp(feeApp()), await signUp(feeApp()), await signUp(feeApp())]
    const before = await hold(feeApp(), early, event, 'VIP', 1)
    expect(before.breakdown).toMatchObject({ fee: 0, feeTax: 0 })

    const set = await setFee(feeAdmin, { perTicket: 10, percent: 2, taxRate: 18 })
    expect(set.statusCode, set.body).toBe(200)
    expect(set.json()).toMatchObject({ perTicket: 10, percent: 2, taxRate: 18 })
    expect(Date.parse(set.json().updatedAt)).toBeGreaterThan(Date.now() - 60_000)
    expect((await get(feeApp(), '/api/v1/tax-rates')).json().fee).toEqual({
      perTicket: 10,
      percent: 2,
      taxRate: 18,
    })
    // ₹10 × 2 and 2% of ₹1,000 (the price, its GST included); the platform has no GSTIN here: no
    // GST on the fee
    const priced = await hold(feeApp(), late, event, 'VIP', 2)
    expect(priced.breakdown).toMatchObject({ fee: 40, feeTax: 0, total: 1040 })

    // cleared before the held order is paid: that order still pays and is invoiced its fee
    const cleared = await setFee(feeAdmin, { perTicket: 0, percent: 0, taxRate: 18 })
    expect(cleared.json()).toMatchObject({ perTicket: 0, percent: 0 })
    expect((await get(feeApp(), '/api/v1/tax-rates')).json().fee).toBeNull()
    expect((await hold(feeApp(), after, event, 'VIP', 1)).breakdown).toMatchObject({ fee: 0 })

    for (const [who, placed] of [
      [early, before],
      [late, priced],
    ] as const) {
      const paid = await pay(feeApp(), who, placed)
      expect(paid.statusCode, paid.body).toBe(200)
      const confirmed = await confirm(feeApp(), who, paid.json())
      expect(confirmed.json().message).toBe('Booking Successful!')
      expect((await orderRow(feeApp(), placed.ticketId))?.feePaise).toBe(placed === priced ? 4000 : 0)
    }
    expect((await feeDocument(early, before.ticketId)).statusCode).toBe(404)
    const feeInvoice = await feeDocument(late, priced.ticketId)
    expect(feeInvoice.statusCode, feeInvoice.body).toBe(200)
    expect(feeInvoice.json()).toMatchObject({
      kind: 'bill-of-supply',
      number: `FEE${fyNow()}/000001`,
      totals: { taxableValue: 40, total: 40 },
    })
    const facts = await dbRows(
      feeApp(),
      "SELECT data FROM ledger WHERE type = 'BookingFeeSet' ORDER BY position",
    )
    expect(facts.map((f) => JSON.parse(String(f.data)))).toEqual([
      { perTicketPaise: 1000, percent: 2, ratePercent: 18 },
      { perTicketPaise: 0, percent: 0, ratePercent: 18 },
    ])
    await rebuildStore(feeApp())
    expect((await get(feeApp(), '/api/v1/admin/booking-fee', feeAdmin)).json()).toMatchObject({
      perTicket: 0,
      percent: 0,
      updatedAt: cleared.json().updatedAt,
    })
  })
})

describe('the day a document bears, at midnight', () => {
  // Midnight passes while a payment waits for its organizer's lock: once `turned`, the clock says
  // 31 March when the payment first asks (reading ahead the last numbers of that year's series,
  // before the lock) and 1 April after (under the lock; on SQLite the store's write lock must be
  // held by then). A document is dated as it is numbered, under the lock, so none numbered after
  // another bears an earlier day, and at the financial year's turn it opens the new year's series.
  let night: TestServer
  let turned = false
  let askedSince = 0
  beforeAll(async () => {
    night = await startServer(
      { RATE_LIMITS: 'off', LOG_LEVEL: 'error' },
      {
        today: () => {
          if (!turned || askedSince++ === 0) return '2027-03-31'
          if (testStore === 'sqlite') expect(sqliteOf(night.app).inTransaction).toBe(true)
          return '2027-04-01'
        },
      },
    )
  }, 60_000)

  afterAll(async () => {
    await night?.close()
  })

  const documentOf = (who: Session, ticketId: string, kind: string) =>
    get(night.app, `/api/v1/ticket/${ticketId}/${kind}?format=json`, who)

  it('dates an invoice and a credit note on the day their numbers are drawn, in that year’s series', async () => {
    const on = night.app
    const organizer = await organizerSession(on, 'Midnight')
    await setProfile2(on, organizer, { ...registered, invoicePrefix: 'MID' })
    const event = await approvedEvent(
      on,
      organizer,
      await adminSession(on),
      { state: '27', pricesIncludeTax: 'false' },
      [{ type: 'VIP', price: 1000, quantity: 10, taxRate: 18 }] as never,
    )
    const buyer = await signUp(on)
    const before = await buy(on, buyer, event, 'VIP', 1)
    expect((await documentOf(buyer, before, 'invoice')).json()).toMatchObject({
      number: 'MID2627/000001',
      date: '2027-03-31',
    })
    turned = true
    const after = await buy(on, buyer, event, 'VIP', 1)
    expect((await documentOf(buyer, after, 'invoice')).json()).toMatchObject({
      number: 'MID2728/000001',
      date: '2027-04-01',
    })
    await cancel(on, buyer, after)
    expect((await documentOf(buyer, after, 'credit-note')).json()).toMatchObject({
      number: 'MID2728C000001',
      date: '2027-04-01',
      against: 'MID2728/000001',
    })
  })
})
