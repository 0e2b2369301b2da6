// The provider's webhook: checked over the raw body, answered at once, processed by the same
// confirmation job as the client's callback (one job per order and payment, so a duplicate
// delivery, recognised by its payment, does nothing new).
import type { PaymentConfirmer } from '../booking/confirm.ts'
import type { BookingQueries } from '../booking/queries.ts'
import { invalid } from '../errors.ts'
import { job, jobIds } from '../jobs/catalogue.ts'
import { enqueueOrDoNow, type Jobs } from '../jobs/port.ts'
import type { PaymentGateway } from './port.ts'

type WebhookBody = {
  event?: string
  payload?: {
    payment?: { entity?: { id?: string; order_id?: string } }
    order?: { entity?: { id?: string } }
  }
}

export type WebhookOutcome = { accepted: boolean; reason?: string }

export type WebhookParts = {
  gateway: PaymentGateway
  jobs: Jobs
  booking: Pick<BookingQueries, 'byProviderOrderId'>
  confirm: PaymentConfirmer
}

export function webhookAcceptor(parts: WebhookParts) {
  const { booking, confirm } = parts
  return async (rawBody: Buffer, signature: string | undefined): Promise<WebhookOutcome> => {
    if (!signature || !parts.gateway.verifyWebhook(rawBody, signature)) {
      throw invalid('Invalid webhook signature.')
    }
    let body: WebhookBody | null
    try {
      body = JSON.parse(rawBody.toString('utf8'))
    } catch {
      throw invalid('The webhook body is not JSON.')
    }
    if (typeof body !== 'object' || body === null) throw invalid('The webhook body must be a JSON object.')
    const payment = body.payload?.payment?.entity
    const providerOrderId = payment?.order_id ?? body.payload?.order?.entity?.id
    if (typeof providerOrderId !== 'string') return { accepted: false, reason: 'not about an order' }
    const order = await booking.byProviderOrderId(providerOrderId)
    if (!order) return { accepted: false, reason: 'unknown order' }
    // The queue away, the confirmation is done now (the same idempotent work).
    const paymentId = typeof payment?.id === 'string' ? payment.id : 'order'
    await enqueueOrDoNow(
      parts.jobs,
      job('payments.confirm', { orderId: order.id }, { jobId: jobIds.confirm(order.id, paymentId) }),
      () => confirm(order.id),
    )
    return { accepted: true }
  }
}
