// The fault and cluster runs' invoice invariants (tests/support/invoice-invariants.ts) on a small
// ledger: quiet when every paid order has its invoice in its payment's commit and every series runs
// 1..n; each breach named when an invoice is missing, doubled, in a commit of its own, on an order
// never issued, when a series has a gap or a repeat, or invoice_documents differs from the facts.
import { describe, expect, it } from 'vitest'
import { documentNumber } from '../../server/billing/documents.ts'
import type { StoredFact } from '../../server/ledger/ledger.ts'
import {
  checkInvoices,
  type InvoiceDocumentRow,
  samePostgresCommit,
  sameSqliteCommit,
} from '../support/invoice-invariants.ts'

const organizerId = 'org1'
const fy = '2627'
const tax = { ratePercent: 18, pricesIncludeTax: true, supplierState: '27', placeOfSupply: '27', gstin: 'G' }

/** a ledger built append by append: each append's facts consecutive, with one time and meta */
function ledger() {
  const facts: StoredFact[] = []
  const versions = new Map<string, number>()
  let tick = 0
  const append = (stream: string, list: Array<{ type: string; data: unknown }>) => {
    const at = new Date(Date.UTC(2026, 11, 2, 0, 0, tick++)).toISOString()
    for (const fact of list) {
      const version = (versions.get(stream) ?? 0) + 1
      versions.set(stream, version)
      facts.push({ ...fact, stream, version, position: facts.length + 1, meta: {}, at } as StoredFact)
    }
  }
  return { facts, append }
}

const document = (seq: number, series: 'invoice' | 'credit-note', orderId: string) => ({
  supplierId: organizerId,
  fy,
  seq,
  number: documentNumber('SEED', fy, series, seq),
  orderId,
  organizerId,
  buyerId: 'b1',
  of: 'tickets',
  document: { number: documentNumber('SEED', fy, series, seq), date: '2026-12-02' },
})

const held = (orderId: string, taxed = true) => ({
  type: 'TicketsHeld',
  data: {
    orderId,
    buyerId: 'b1',
    eventId: 'e1',
    organizerId,
    ticketTypeId: 't1',
    ticketType: 'General Admission',
    quantity: 1,
    unitPricePaise: 10_000,
    amountPaise: 10_000,
    provider: 'local',
    providerOrderId: `order_${orderId}`,
    heldUntil: '2030-01-01T00:00:00.000Z',
    ...(taxed ? { tax } : {}),
  },
})
const paid = (orderId: string) => [
  {
    type: 'PaymentCaptured',
    data: { orderId, paymentId: `pay_${orderId}`, amountPaise: 10_000, method: null },
  },
  { type: 'TicketsIssued', data: { orderId } },
]

/** three paid orders (the second one refunded) and one never paid, as the app appends them */
function sale() {
  const l = ledger()
  for (const id of ['o1', 'o2', 'o3', 'o4']) l.append(`order-${id}`, [held(id)])
  l.append('order-o1', [...paid('o1'), { type: 'InvoiceIssued', data: document(1, 'invoice', 'o1') }])
  l.append('order-o2', [...paid('o2'), { type: 'InvoiceIssued', data: document(2, 'invoice', 'o2') }])
  l.append('order-o3', [...paid('o3'), { type: 'InvoiceIssued', data: document(3, 'invoice', 'o3') }])
  l.append('order-o2', [
    { type: 'TicketCancelled', data: { orderId: 'o2' } },
    { type: 'RefundRequested', data: { orderId: 'o2', paymentId: 'pay_o2', amountPaise: 10_000 } },
    { type: 'CreditNoteIssued', data: document(1, 'credit-note', 'o2') },
  ])
  return l
}

/** invoice_documents as the billing projection writes it */
const rows = (facts: StoredFact[]): InvoiceDocumentRow[] =>
  facts
    .filter((f) => f.type === 'InvoiceIssued' || f.type === 'CreditNoteIssued')
    .map((f) => {
      const d = f.data as ReturnType<typeof document>
      return {
        supplier_id: d.supplierId,
        series: f.type === 'InvoiceIssued' ? 'invoice' : 'credit-note',
        fy: d.fy,
        seq: d.seq,
        number: d.number,
        order_id: d.orderId,
        organizer_id: d.organizerId,
        buyer_id: d.buyerId,
        of: d.of,
        issued_on: d.document.date,
        document: JSON.stringify(d.document),
      }
    })

const check = (facts: StoredFact[], table = rows(facts)) =>
  checkInvoices(facts, sameSqliteCommit, { rows: table, store: 'SQLite' })

describe('the invoice invariants of the fault and cluster runs', () => {
  it('hold for a sale as the app appends it', () => {
    const { facts } = sale()
    const result = check(facts)
    expect(result.problems).toEqual([])
    expect(result.figures).toEqual({ invoices: 3, creditNotes: 1, series: 2, invoicedOrders: 3 })
  })

  it('name a paid order without its invoice, and the gap it leaves', () => {
    const { facts } = sale()
    const problems = check(
      facts.filter((f) => !(f.type === 'InvoiceIssued' && f.stream === 'order-o1')),
    ).problems
    expect(problems.some((p) => p.startsWith('order-o1: 0 InvoiceIssued of tickets'))).toBe(true)
    expect(problems.some((p) => p.includes('series org1 invoice 2627') && p.includes('missing 1'))).toBe(true)
  })

  it('name a number drawn twice', () => {
    const { facts } = sale()
    const twice = facts.map((f) =>
      f.type === 'InvoiceIssued' && f.stream === 'order-o3'
        ? { ...f, data: document(2, 'invoice', 'o3') }
        : f,
    )
    const problems = check(twice, rows(facts)).problems
    expect(problems.some((p) => p.includes('seq 2 2 times'))).toBe(true)
    expect(problems.some((p) => p.includes('SEED2627/000002 of org1 twice'))).toBe(true)
    expect(problems.some((p) => p.includes('invoice_documents'))).toBe(true)
  })

  it('name an invoice appended apart from its payment, and one on an order never issued', () => {
    const l = sale()
    l.append('order-o4', [{ type: 'InvoiceIssued', data: document(4, 'invoice', 'o4') }])
    const apart = l.facts.map((f) =>
      f.type === 'InvoiceIssued' && f.stream === 'order-o3' ? { ...f, at: '2026-12-02T01:00:00.000Z' } : f,
    )
    const problems = check(apart).problems
    expect(problems.some((p) => p.startsWith('order-o3:') && p.includes('not appended in the commit'))).toBe(
      true,
    )
    expect(problems.some((p) => p.startsWith('order-o4:') && p.includes('never issued'))).toBe(true)
  })

  it('name a refund without its credit note, and an invoice on an untaxed order', () => {
    const l = ledger()
    l.append('order-o1', [held('o1', false)])
    l.append('order-o1', [...paid('o1'), { type: 'InvoiceIssued', data: document(1, 'invoice', 'o1') }])
    l.append('order-o2', [held('o2')])
    l.append('order-o2', [...paid('o2'), { type: 'InvoiceIssued', data: document(2, 'invoice', 'o2') }])
    l.append('order-o2', [
      { type: 'TicketCancelled', data: { orderId: 'o2' } },
      { type: 'RefundRequested', data: { orderId: 'o2', paymentId: 'pay_o2', amountPaise: 10_000 } },
    ])
    const problems = check(l.facts).problems
    expect(problems.some((p) => p.startsWith('order-o1: 1 InvoiceIssued of tickets'))).toBe(true)
    expect(problems.some((p) => p.startsWith('order-o2: 0 CreditNoteIssued of tickets'))).toBe(true)
  })

  it('judge the commit on PostgreSQL by its transaction id', () => {
    const { facts } = sale()
    const txOf = new Map(facts.map((f) => [f.position, f.at]))
    expect(checkInvoices(facts, samePostgresCommit(txOf)).problems).toEqual([])
    const invoice = facts.find((f) => f.type === 'InvoiceIssued') as StoredFact
    txOf.set(invoice.position, 'another transaction')
    expect(checkInvoices(facts, samePostgresCommit(txOf)).problems.join('\n')).toMatch(
      /not appended in the commit of TicketsIssued/,
    )
  })
})
