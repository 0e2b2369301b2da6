// The organizer's invoices over some days as the Invoices screen lists them: the days asked for by
// default (this month), each document's amounts as counted (credit notes taken off) and the totals
// row.
import type { DocumentMoney, InvoiceDocument } from '../../../../contracts/billing.ts'
import type { DocumentDays } from '../../api/billing.ts'
import { paiseOf } from '../../ui/money.ts'

const two = (n: number) => String(n).padStart(2, '0')
const dayText = (year: number, month: number, day: number) => `${year}-${two(month)}-${two(day)}`

/** the month of `today` (its calendar in the viewer's zone), from its first day to its last */
export function thisMonth(today: Date): DocumentDays {
  const year = today.getFullYear()
  const month = today.getMonth() + 1
  const last = new Date(year, month, 0).getDate()
  return { from: dayText(year, month, 1), to: dayText(year, month, last) }
}

/** both days well formed, the first not after the last */
export const isRange = (days: DocumentDays): boolean =>
  /^\d{4}-\d{2}-\d{2}$/.test(days.from) && /^\d{4}-\d{2}-\d{2}$/.test(days.to) && days.from <= days.to

const moneyKeys = ['taxableValue', 'cgst', 'sgst', 'igst', 'total'] as const

/**
 * A document's amounts as the register counts them: an invoice's or a bill of supply's as they are,
 * a credit note's taken off (negative, whichever sign the server writes them with), so each row
 * reads as the totals add it.
 */
export function signedMoney(document: InvoiceDocument): DocumentMoney {
  // (a nothing stays 0: -0 would show as -₹0.00)
  const sign = (amount: number) =>
    document.kind === 'credit-note' && amount !== 0 ? -Math.abs(amount) : amount
  const t = document.totals
  return {
    taxableValue: sign(t.taxableValue),
    cgst: sign(t.cgst),
    sgst: sign(t.sgst),
    igst: sign(t.igst),
    total: sign(t.total),
  }
}

/** What the documents add up to, each as signedMoney counts it (summed in paise, so no drift). */
export function registerTotals(documents: readonly InvoiceDocument[]): DocumentMoney {
  const paise = { taxableValue: 0, cgst: 0, sgst: 0, igst: 0, total: 0 }
  for (const document of documents) {
    const money = signedMoney(document)
    for (const key of moneyKeys) paise[key] += paiseOf(money[key])
  }
  return {
    taxableValue: paise.taxableValue / 100,
    cgst: paise.cgst / 100,
    sgst: paise.sgst / 100,
    igst: paise.igst / 100,
    total: paise.total / 100,
  }
}
