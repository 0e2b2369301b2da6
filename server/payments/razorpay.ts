// The `razorpay` adapter: Razorpay's REST API through the official SDK (pinned; see package.json).
// The SDK has no option for its host, so `apiUrl` sets its HTTP client's base URL after
// construction; tests point it at the local gateway's Razorpay-shaped API.
import Razorpay from 'razorpay'
import { fromRazorpayPayment } from './local.ts'
import type { PaymentGateway } from './port.ts'
import { checkoutSignature, sameSignature, webhookSignature } from './signatures.ts'

export type RazorpaySettings = {
  keyId: string
  keySecret: string
  webhookSecret: string
  apiUrl: string | null
}

export function razorpayAdapter(settings: RazorpaySettings): PaymentGateway {
  const sdk = new Razorpay({ key_id: settings.keyId, key_secret: settings.keySecret })
  if (settings.apiUrl) {
    ;(sdk as unknown as { api: { rq: { defaults: { baseURL: string } } } }).api.rq.defaults.baseURL =
      settings.apiUrl
  }
  return {
    provider: 'razorpay',
    keyId: settings.keyId,
    async createOrder(input) {
      const order = await sdk.orders.create({
        amount: input.amount,
        currency: input.currency,
        receipt: input.receipt,
        notes: input.notes,
      })
      return { id: order.id }
    },
    verifyCheckoutSignature: ({ orderId, paymentId, signature }) =>
      sameSignature(checkoutSignature(settings.keySecret, orderId, paymentId), signature),
    async paymentsOfOrder(orderId) {
      const { items } = await sdk.orders.fetchPayments(orderId)
      return items.map((p) => fromRazorpayPayment(p as Parameters<typeof fromRazorpayPayment>[0]))
    },
    async capture(payment) {
      if (payment.status !== 'authorized') return payment
      return fromRazorpayPayment(
        (await sdk.payments.capture(payment.id, payment.amount, payment.currency)) as Parameters<
          typeof fromRazorpayPayment
        >[0],
      )
    },
    async refund(paymentId, amount) {
      const refund = await sdk.payments.refund(paymentId, { amount })
      return { id: refund.id }
    },
    async refundsOf(paymentId) {
      const { items } = await sdk.payments.fetchMultipleRefund(paymentId)
      return items.map((r) => ({ id: r.id, amount: Number(r.amount) }))
    },
    verifyWebhook: (rawBody, signature) =>
      sameSignature(webhookSignature(settings.webhookSecret, rawBody), signature),
  }
}
