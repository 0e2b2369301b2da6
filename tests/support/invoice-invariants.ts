// The invariants of invoices and credit notes (issue 42) under faults and many processes, checked
// from the ledger and the read model: every paid order whose terms make a document due has exactly
// that document, appended in the very commit that captured its payment and issued its ticket; no
// order without an issued ticket has one; every refund of an invoiced ticket has its credit note in
// the commit of the refund; each supplier's series runs 1..n per financial year, no gap and no
// number twice; and invoice_documents holds exactly what the facts say.
import { documentsDue } from '../../server/booking/decide.ts'
import type { CreditNoteIssued, InvoiceIssued, TicketsHeld } from '../../server/booking/facts.ts'
import type { StoredFact } from '../../server/ledger/ledger.ts'

type DocumentData = InvoiceIssued['data'] | CreditNoteIssued['data']

/** an invoice_documents row as either store gives it (snake_case columns) */
export type InvoiceDocumentRow = Record<string, unknown>

export type InvoiceFigures = {
  /** InvoiceIssued facts */
  invoices: number
  /** CreditNoteIssued facts */
  creditNotes: number
  /** (supplier, series, financial year) series checked */
  series: number
  /** orders with an issued ticket and documents due */
  invoicedOrders: number
}

export type InvoiceCheck = { problems: string[]; figures: InvoiceFigures }

/**
 * Whether two facts of one stream were appended in one commit: on PostgreSQL the transaction id the
 * ledger keeps with each fact (its tx column); on SQLite, where one append writes its facts one
 * after another with one time and one meta, consecutive positions with the same time and meta.
 */
export type SameCommit = (a: StoredFact, b: StoredFact) => boolean

export const sameSqliteCommit: SameCommit = (a, b) =>
  Math.abs(b.position - a.position) === Math.abs(b.version - a.version) &&
  a.at === b.at &&
  JSON.stringify(a.meta) === JSON.stringify(b.meta)

/** the same commit by the transaction id PostgreSQL recorded for each fact (by position) */
export const samePostgresCommit =
  (txOf: ReadonlyMap<number, string>): SameCommit =>
  (a, b) => {
    const ta = txOf.get(a.position)
    return ta !== undefined && ta === txOf.get(b.position)
  }

/** JSON with object keys in one order, so documents compare equal whatever the store did to them */
const canonical = (value: unknown): string =>
  JSON.stringify(value, (_key, v: unknown) =>
    v && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : 1)))
      : v,
  )

const seriesOf = (fact: StoredFact) => (fact.type === 'InvoiceIssued' ? 'invoice' : 'credit-note')

const describe = (fact: StoredFact) => {
  const d = fact.data as DocumentData
  return `${fact.type} ${d.number} (${d.of}, seq ${d.seq}, ${fact.stream} v${fact.version} at position ${fact.position})`
}

/** A key of a document in its series, as the table keys it. */
const keyOf = (supplierId: unknown, series: unknown, fy: unknown, seq: unknown) =>
  `${String(supplierId)} ${String(series)} ${String(fy)} #${Number(seq)}`

/** The documents of the facts, as invoice_documents must hold them (billing/project.ts). */
function expectedRows(facts: StoredFact[]): Map<string, Record<string, unknown>> {
  const rows = new Map<string, Record<string, unknown>>()
  for (const fact of facts) {
    if (fact.type !== 'InvoiceIssued' && fact.type !== 'CreditNoteIssued') continue
    const d = fact.data as DocumentData
    const series = seriesOf(fact)
    rows.set(keyOf(d.supplierId, series, d.fy, d.seq), {
      supplier_id: d.supplierId,
      series,
      fy: d.fy,
      seq: d.seq,
      number: d.number,
      order_id: d.orderId,
      organizer_id: d.organizerId,
      buyer_id: d.buyerId,
      of: d.of,
      issued_on: d.document.date,
      document: canonical(d.document),
    })
  }
  return rows
}

/** invoice_documents against the facts, row for row; `store` names where the rows were read */
export function documentRowProblems(
  facts: StoredFact[],
  rows: InvoiceDocumentRow[],
  store: string,
): string[] {
  const problems: string[] = []
  const want = expectedRows(facts)
  const seen = new Set<string>()
  for (const row of rows) {
    const key = keyOf(row.supplier_id, row.series, row.fy, row.seq)
    if (seen.has(key)) problems.push(`${store} invoice_documents: ${key} twice`)
    seen.add(key)
    const expected = want.get(key)
    if (!expected) {
      problems.push(`${store} invoice_documents: ${key} (${String(row.number)}) has no fact`)
      continue
    }
    const have: Record<string, unknown> = {
      ...row,
      seq: Number(row.seq),
      document: canonical(typeof row.document === 'string' ? JSON.parse(row.document) : row.document),
    }
    const differs = Object.keys(expected).filter((column) => expected[column] !== have[column])
    if (differs.length)
      problems.push(
        `${store} invoice_documents: ${key} differs from its fact in ${differs.join(', ')}` +
          ` (row ${differs.map((c) => `${c}=${String(have[c]).slice(0, 80)}`).join(', ')};` +
          ` fact ${differs.map((c) => `${c}=${String(expected[c]).slice(0, 80)}`).join(', ')})`,
      )
  }
  for (const [key, expected] of want)
    if (!seen.has(key))
      problems.push(`${store} invoice_documents: no row for ${key} (${String(expected.number)})`)
  return problems
}

/**
 * The invariants of every order's documents and of every series, from the facts; and, given the
 * read model's rows, that they equal the facts.
 */
export function checkInvoices(
  facts: StoredFact[],
  sameCommit: SameCommit,
  documents?: { rows: InvoiceDocumentRow[]; store: string },
): InvoiceCheck {
  const problems: string[] = []
  const streams = new Map<string, StoredFact[]>()
  for (const fact of facts) {
    if (!fact.stream.startsWith('order-')) continue
    const list = streams.get(fact.stream) ?? []
    list.push(fact)
    streams.set(fact.stream, list)
  }
  let invoicedOrders = 0
  for (const [stream, list] of streams) {
    const held = list.find((f) => f.type === 'TicketsHeld') as StoredFact<TicketsHeld> | undefined
    const invoices = list.filter((f) => f.type === 'InvoiceIssued')
    const credits = list.filter((f) => f.type === 'CreditNoteIssued')
    if (!held) {
      if (invoices.length || credits.length) problems.push(`${stream}: documents without a hold`)
      continue
    }
    const order = held.data
    const byVersion = new Map(list.map((f) => [f.version, f]))
    const issued = list.filter((f) => f.type === 'TicketsIssued')
    const due = documentsDue(order)
    for (const fact of [...invoices, ...credits]) {
      const d = fact.data as DocumentData
      const supplier = d.of === 'tickets' ? order.organizerId : 'platform'
      if (d.orderId !== order.orderId || d.organizerId !== order.organizerId || d.buyerId !== order.buyerId)
        problems.push(`${stream}: ${describe(fact)} names another order, organizer or buyer`)
      if (d.supplierId !== supplier)
        problems.push(`${stream}: ${describe(fact)} is in ${d.supplierId}'s series, not ${supplier}'s`)
      if (d.document?.number !== d.number)
        problems.push(`${stream}: ${describe(fact)} carries a document numbered ${d.document?.number}`)
    }

    // No ticket issued (no payment issued it): no invoice, no credit note.
    if (issued.length === 0) {
      for (const fact of [...invoices, ...credits])
        problems.push(`${stream}: ${describe(fact)} on an order whose ticket was never issued`)
      continue
    }
    // One invoice per document due, none other; all of them appended in the commit that captured
    // the payment and issued the ticket, right after TicketsIssued, in the order of `due`.
    const ticket = issued[0] as StoredFact
    const payment = byVersion.get(ticket.version - 1)
    if (due.length) invoicedOrders++
    for (const of of ['tickets', 'fee'] as const) {
      const mine = invoices.filter((f) => (f.data as DocumentData).of === of)
      const expected = due.includes(of) ? 1 : 0
      if (mine.length !== expected)
        problems.push(
          `${stream}: ${mine.length} InvoiceIssued of ${of} for a ticket whose terms make ${expected} due` +
            (mine.length ? ` (${mine.map(describe).join('; ')})` : ''),
        )
    }
    for (const [i, of] of due.entries()) {
      const invoice = invoices.find((f) => (f.data as DocumentData).of === of)
      if (!invoice) continue
      const where = `${stream}: ${describe(invoice)}`
      if (invoice.version !== ticket.version + 1 + i)
        problems.push(`${where} is not next after TicketsIssued (v${ticket.version})`)
      else if (!sameCommit(ticket, invoice))
        problems.push(`${where} was not appended in the commit of TicketsIssued (v${ticket.version})`)
      if (payment?.type !== 'PaymentCaptured')
        problems.push(
          `${where}: the fact before TicketsIssued is ${payment?.type ?? 'none'}, not its payment`,
        )
      else if (!sameCommit(payment, invoice))
        problems.push(`${where} was not appended in the commit of its payment (v${payment.version})`)
    }

    // A refund of the ticket (TicketCancelled with its RefundRequested) takes one credit note per
    // invoice, in its commit right after RefundRequested; nothing else takes one.
    const cancelled = list.find((f) => f.type === 'TicketCancelled')
    const refund = cancelled ? byVersion.get(cancelled.version + 1) : undefined
    const refunded = refund?.type === 'RefundRequested' && sameCommit(cancelled as StoredFact, refund)
    const credited = refunded
      ? due.filter((of) => invoices.some((f) => (f.data as DocumentData).of === of))
      : []
    for (const of of ['tickets', 'fee'] as const) {
      const mine = credits.filter((f) => (f.data as DocumentData).of === of)
      const expected = credited.includes(of) ? 1 : 0
      if (mine.length !== expected)
        problems.push(
          `${stream}: ${mine.length} CreditNoteIssued of ${of} where ${expected} is due (${refunded ? 'refunded' : 'not refunded'})` +
            (mine.length ? ` (${mine.map(describe).join('; ')})` : ''),
        )
    }
    for (const [i, of] of credited.entries()) {
      const note = credits.find((f) => (f.data as DocumentData).of === of)
      if (!note || !refund) continue
      if (note.version !== refund.version + 1 + i)
        problems.push(`${stream}: ${describe(note)} is not next after RefundRequested (v${refund.version})`)
      else if (!sameCommit(refund, note))
        problems.push(`${stream}: ${describe(note)} was not appended in the commit of its refund`)
    }
  }

  // Every series (supplier, kind, financial year) runs 1..n: no gap, no number twice.
  const series = new Map<string, StoredFact[]>()
  const numbers = new Map<string, StoredFact>()
  for (const fact of facts) {
    if (fact.type !== 'InvoiceIssued' && fact.type !== 'CreditNoteIssued') continue
    const d = fact.data as DocumentData
    const key = `${d.supplierId} ${seriesOf(fact)} ${d.fy}`
    const list = series.get(key) ?? []
    list.push(fact)
    series.set(key, list)
    const number = `${d.supplierId} ${d.number}`
    const other = numbers.get(number)
    if (other)
      problems.push(`number ${d.number} of ${d.supplierId} twice: ${describe(other)} and ${describe(fact)}`)
    numbers.set(number, fact)
  }
  for (const [key, list] of series) {
    const bySeq = new Map<number, StoredFact[]>()
    for (const fact of list) {
      const seq = (fact.data as DocumentData).seq
      bySeq.set(seq, [...(bySeq.get(seq) ?? []), fact])
    }
    for (const [seq, same] of bySeq)
      if (same.length > 1)
        problems.push(`series ${key}: seq ${seq} ${same.length} times (${same.map(describe).join('; ')})`)
    const n = list.length
    const missing = Array.from({ length: n }, (_, i) => i + 1).filter((seq) => !bySeq.has(seq))
    const outside = [...bySeq.keys()].filter((seq) => !Number.isInteger(seq) || seq < 1 || seq > n)
    if (missing.length || outside.length)
      problems.push(
        `series ${key}: ${n} documents whose seqs are not 1..${n}` +
          (missing.length
            ? `; missing ${missing.slice(0, 10).join(', ')}${missing.length > 10 ? ', …' : ''}`
            : '') +
          (outside.length
            ? `; beyond ${outside
                .sort((a, b) => a - b)
                .slice(0, 10)
                .join(', ')}`
            : ''),
      )
  }

  if (documents) problems.push(...documentRowProblems(facts, documents.rows, documents.store))
  const count = (type: string) => facts.filter((f) => f.type === type).length
  return {
    problems,
    figures: {
      invoices: count('InvoiceIssued'),
      creditNotes: count('CreditNoteIssued'),
      series: series.size,
      invoicedOrders,
    },
  }
}
