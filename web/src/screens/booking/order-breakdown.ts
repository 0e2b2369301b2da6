// What an order costs, line by line, as the checkout shows it before paying (POST /ticket/create's
// breakdown, in rupees): the price, each tax charged, the booking fee and its GST when there is one,
// and the total. A tax of nothing is left out.
import type { Breakdown } from '../../../../contracts/billing.ts'

export type BreakdownRow = { label: string; amount: number; total?: true }

export const breakdownLabels = {
  base: 'Price',
  /** the price when GST is charged on it: the taxable value, without the GST that follows */
  taxedBase: 'Price before GST',
  cgst: 'CGST',
  sgst: 'SGST',
  igst: 'IGST',
  fee: 'Booking fee',
  feeTax: 'GST on fee',
  total: 'Total',
} as const

/**
 * Whether an order's breakdown says more than its amount: a tax or a fee. An untaxed order without
 * a fee shows its amount alone, as the checkout always has.
 */
export const breakdownAddsUp = (breakdown: Breakdown | undefined): breakdown is Breakdown =>
  breakdown !== undefined &&
  breakdown.cgst + breakdown.sgst + breakdown.igst + breakdown.fee + breakdown.feeTax > 0

export function breakdownRows(breakdown: Breakdown): BreakdownRow[] {
  const taxed = breakdown.cgst + breakdown.sgst + breakdown.igst > 0
  const rows: BreakdownRow[] = [
    { label: taxed ? breakdownLabels.taxedBase : breakdownLabels.base, amount: breakdown.base },
  ]
  for (const key of ['cgst', 'sgst', 'igst', 'fee', 'feeTax'] as const) {
    if (breakdown[key] !== 0) rows.push({ label: breakdownLabels[key], amount: breakdown[key] })
  }
  rows.push({ label: breakdownLabels.total, amount: breakdown.total, total: true })
  return rows
}
