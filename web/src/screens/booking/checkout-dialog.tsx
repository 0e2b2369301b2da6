// The local test gateway's checkout (DESIGN.md, Payments): what Razorpay's dialog would show
// (the event, 'Ticket Booking', the amount and what it is made of), with the payer's choice to pay
// or to fail.
import { useId } from 'react'
import type { Breakdown } from '../../../../contracts/billing.ts'
import { formatAmount } from '../../ui/money.ts'
import { formatRupees } from '../../ui/rupees.ts'
import { useModal } from '../../ui/use-modal.ts'
import { breakdownAddsUp } from './order-breakdown.ts'
import { OrderBreakdown } from './order-breakdown-list.tsx'

type CheckoutDialogProps = {
  eventTitle: string
  /** paise, as the order carries it */
  amountPaise: number
  /** what the amount is made of, when the server said */
  breakdown?: Breakdown | undefined
  paying: boolean
  onPay(): void
  onFail(): void
  onClose(): void
}

export function CheckoutDialog({
  eventTitle,
  amountPaise,
  breakdown,
  paying,
  onPay,
  onFail,
  onClose,
}: CheckoutDialogProps) {
  // A modal: the page behind is inert, and Escape ends in `close` (or `cancel`).
  const dialog = useModal()
  const titleId = useId()

  return (
    <dialog
      ref={dialog}
      className="checkout-dialog"
      aria-labelledby={titleId}
      aria-busy={paying}
      onCancel={(event) => {
        // Escape closes the checkout, unless a payment is under way.
        event.preventDefault()
        if (!paying) onClose()
      }}
    >
      <header className="checkout-header">
        <h2 id={titleId}>{eventTitle}</h2>
        <p>Ticket Booking</p>
      </header>
      <p className="checkout-amount">
        {/* beside a breakdown to the paisa, the amount is written to the paisa too */}
        {breakdownAddsUp(breakdown) ? formatAmount(amountPaise / 100) : formatRupees(amountPaise / 100)}
      </p>
      {breakdownAddsUp(breakdown) && <OrderBreakdown breakdown={breakdown} />}
      <p className="checkout-note">Test payment: no card is charged.</p>
      <div className="checkout-actions">
        <button type="button" onClick={onPay} disabled={paying}>
          Pay
        </button>
        <button type="button" className="button-danger" onClick={onFail} disabled={paying}>
          Fail payment
        </button>
        <button type="button" className="button-secondary" onClick={onClose} disabled={paying}>
          Cancel
        </button>
      </div>
      {paying && (
        <p className="checkout-note" role="status">
          Processing...
        </p>
      )}
    </dialog>
  )
}
