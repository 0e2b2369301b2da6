// The organizer's invoices over some days as the Invoices screen lists them: the days asked for by
// default (this month), and the totals row, credit notes taken off (summed in paise, so no drift).
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
 * What the documents add up to: invoices and bills of supply count, credit notes are taken off
 * (whichever sign the server writes them with).
 */
export function registerTotals(documents: readonly InvoiceDocument[]): DocumentMoney {
  const paise = { taxableValue: 0, cgst: 0, sgst: 0, igst: 0, total: 0 }
  for (const document of documents) {
    const credit = document.kind === 'credit-note'
    for (const key of moneyKeys) {
      const amount = paiseOf(document.totals[key])
      paise[key] += credit ? -Math.abs(amount) : amount
    }
  }
  return {
    taxableValue: paise.taxableValue / 100,
    cgst: paise.cgst / 100,
    sgst: paise.sgst / 100,
    igst: paise.igst / 100,
    total: paise.total / 100,
  }
}
