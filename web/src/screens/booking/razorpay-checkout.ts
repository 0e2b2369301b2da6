// Razorpay's own checkout (SPEC §7) as the booking machine's provider checkout: loads
// checkout.js once, opens it with the order, and reports back paid, failed, closed or unavailable.
import { fromCallback } from 'xstate'
import { checkoutPaymentOf } from '../../api/booking.ts'
import type { CheckoutEvent, CheckoutInput } from '../../machines/booking.ts'

export const RAZORPAY_SCRIPT = 'https://checkout.razorpay.com/v1/checkout.js'
/** SPEC §7: a placeholder contact when the account has none */
const PLACEHOLDER_CONTACT = '9999999999'
const THEME_GREEN = '#2e7d5b'

export type Payer = { name: string; email: string; contact: string | null }

type RazorpayOptions = {
  key: string
  amount: number
  currency: string
  name: string
  description: string
  order_id: string
  prefill: { name: string; email: string; contact: string }
  theme: { color: string }
  handler: (response: unknown) => void
  modal: { ondismiss: () => void }
}
type RazorpayInstance = {
  open(): void
  close?(): void
  on(event: 'payment.failed', listener: () => void): void
}
type RazorpayConstructor = new (options: RazorpayOptions) => RazorpayInstance

const razorpayOf = () => (globalThis as { Razorpay?: RazorpayConstructor }).Razorpay

let loading: Promise<RazorpayConstructor> | null = null

function loadRazorpay(): Promise<RazorpayConstructor> {
  const ready = razorpayOf()
  if (ready) return Promise.resolve(ready)
  loading ??= new Promise<RazorpayConstructor>((resolve, reject) => {
    const script = document.createElement('script')
    script.src = RAZORPAY_SCRIPT
    script.async = true
    script.onload = () => {
      const loaded = razorpayOf()
      if (loaded) resolve(loaded)
      else reject(new Error('checkout.js loaded without Razorpay'))
    }
    script.onerror = () => reject(new Error('checkout.js could not be loaded'))
    document.body.appendChild(script)
  }).catch((error: unknown) => {
    // the next attempt may find the network back
    loading = null
    throw error
  })
  return loading
}

export const razorpayCheckout = (payer: Payer) =>
  fromCallback<CheckoutEvent, CheckoutInput>(({ sendBack, input }) => {
    let open: RazorpayInstance | null = null
    let over = false
    const report = (event: CheckoutEvent) => {
      if (over) return
      over = true
      sendBack(event)
    }
    loadRazorpay().then(
      (Razorpay) => {
        if (over) return
        try {
          open = new Razorpay({
            key: input.order.keyId,
            amount: input.order.amount,
            currency: 'INR',
            name: input.eventTitle,
            description: 'Ticket Booking',
            order_id: input.order.orderId,
            prefill: { name: payer.name, email: payer.email, contact: payer.contact || PLACEHOLDER_CONTACT },
            theme: { color: THEME_GREEN },
            handler: (response) => {
              try {
                report({ type: 'CHECKOUT.PAID', payment: checkoutPaymentOf(response) })
              } catch {
                report({ type: 'CHECKOUT.FAILED' })
              }
            },
            modal: { ondismiss: () => report({ type: 'CHECKOUT.CLOSED' }) },
          })
          open.on('payment.failed', () => report({ type: 'CHECKOUT.FAILED' }))
          open.open()
        } catch {
          report({ type: 'CHECKOUT.UNAVAILABLE' })
        }
      },
      () => report({ type: 'CHECKOUT.UNAVAILABLE' }),
    )
    return () => {
      over = true
      try {
        // leaving the checkout state (a failure, or the screen going away) closes the modal
        open?.close?.()
      } catch {
        // already closed
      }
    }
  })
