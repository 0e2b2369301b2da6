// Razorpay's signatures: HMAC-SHA256 in hex, compared in constant time.
import { createHmac, timingSafeEqual } from 'node:crypto'

export const hmacHex = (secret: string, payload: string | Buffer) =>
  createHmac('sha256', secret).update(payload).digest('hex')

export function sameSignature(expected: string, given: string): boolean {
  const a = Buffer.from(expected, 'utf8')
  const b = Buffer.from(given, 'utf8')
  return a.length === b.length && timingSafeEqual(a, b)
}

/** Checkout success: HMAC of "order_id|payment_id" with the key secret (order id we stored). */
export const checkoutSignature = (keySecret: string, orderId: string, paymentId: string) =>
  hmacHex(keySecret, `${orderId}|${paymentId}`)

/** Webhooks: HMAC of the raw body with the webhook secret. */
export const webhookSignature = (webhookSecret: string, rawBody: string | Buffer) =>
  hmacHex(webhookSecret, rawBody)
