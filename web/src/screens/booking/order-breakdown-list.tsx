// An order's breakdown as the checkout shows it before paying: a list of its lines, the total last.
import type { Breakdown } from '../../../../contracts/billing.ts'
import { formatAmount } from '../../ui/money.ts'
import { breakdownRows } from './order-breakdown.ts'

export function OrderBreakdown({ breakdown }: { breakdown: Breakdown }) {
  return (
    <dl className="order-breakdown" aria-label="Order summary">
      {breakdownRows(breakdown).map((row) => (
        <div key={row.label} className={row.total ? 'order-breakdown-total' : undefined}>
          <dt>{row.label}</dt>
          <dd>{formatAmount(row.amount)}</dd>
        </div>
      ))}
    </dl>
  )
}
