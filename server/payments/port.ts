// The payment gateway port. Amounts here are in integer paise, the provider's unit and the app's
// (server/money.ts: rupees only at the API edge). Adapters: razorpay.ts (Razorpay's API through its SDK) and local.ts (the
// built-in test gateway, speaking Razorpay's shapes, for development and tests).
export type GatewayPayment = {
  id: string
  orderId: string
  /** paise */
  amount: number
  currency: string
  status: 'created' | 'authorized' | 'captured' | 'refunded' | 'failed'
  method: string | null
  errorDescription: string | null
}

export interface PaymentGateway {
  readonly provider: 'local' | 'razorpay'
  /** the public key the browser's checkout opens with */
  readonly keyId: string
  createOrder(input: {
    amount: number
    currency: 'INR'
    receipt: string
    notes: Record<string, string>
  }): Promise<{
    id: string
  }>
  verifyCheckoutSignature(input: { orderId: string; paymentId: string; signature: string }): boolean
  paymentsOfOrder(orderId: string): Promise<GatewayPayment[]>
  capture(payment: GatewayPayment): Promise<GatewayPayment>
  refund(paymentId: string, amount: number): Promise<{ id: string }>
  /** the refunds already made of a payment (to retry a refund without paying out twice) */
  refundsOf(paymentId: string): Promise<Array<{ id: string; amount: number }>>
  verifyWebhook(rawBody: Buffer, signature: string): boolean
}
