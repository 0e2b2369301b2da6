// The `local` adapter: the port over the built-in test gateway, in-process.
import type { LocalGateway, RazorpayPaymentEntity } from './local-gateway.ts'
import type { GatewayPayment, PaymentGateway } from './port.ts'
import { checkoutSignature, sameSignature, webhookSignature } from './signatures.ts'

export const fromRazorpayPayment = (p: {
  id: string
  order_id: string
  amount: number | string
  currency: string
  status: string
  method?: string | null
  error_description?: string | null
}): GatewayPayment => ({
  id: p.id,
  orderId: p.order_id,
  amount: Number(p.amount),
  currency: p.currency,
  status: p.status as GatewayPayment['status'],
  method: p.method ?? null,
  errorDescription: p.error_description ?? null,
})

export function localAdapter(
  gateway: LocalGateway,
  secrets: { keySecret: string; webhookSecret: string },
): PaymentGateway {
  return {
    provider: 'local',
    keyId: gateway.keyId,
    async createOrder(input) {
      return { id: (await gateway.createOrder(input)).id }
    },
    verifyCheckoutSignature: ({ orderId, paymentId, signature }) =>
      sameSignature(checkoutSignature(secrets.keySecret, orderId, paymentId), signature),
    async paymentsOfOrder(orderId) {
      return (await gateway.paymentsOfOrder(orderId)).map((p: RazorpayPaymentEntity) =>
        fromRazorpayPayment(p),
      )
    },
    async capture(payment) {
      return fromRazorpayPayment(await gateway.capture(payment.id))
    },
    async refund(paymentId, amount) {
      return { id: (await gateway.refund(paymentId, amount)).id }
    },
    async refundsOf(paymentId) {
      return gateway.refundsOf(paymentId)
    },
    verifyWebhook: (rawBody, signature) =>
      sameSignature(webhookSignature(secrets.webhookSecret, rawBody), signature),
  }
}
