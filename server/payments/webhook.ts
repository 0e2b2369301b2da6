// The provider's webhook: checked over the raw body, answered at once, processed by the same
// confirmation job as the client's callback (one job per order and payment, so a duplicate
// delivery, recognised by its payment, does nothing new).
import { paymentConfirmer } from '../booking/confirm.ts'
import { bookingQueries } from '../booking/queries.ts'
import { invalid } from '../errors.ts'
import { enqueueOrDoNow } from '../jobs/port.ts'
import type { Platform } from '../platform.ts'

type WebhookBody = {
  event?: string
  payload?: {
    payment?: { entity?: { id?: string; order_id?: string } }
    order?: { entity?: { id?: string } }
  }
}

export type WebhookOutcome = { accepted: boolean; reason?: string }

export function webhookAcceptor(platform: Pick<Platform, 'gateway' | 'jobs' | 'ledger'>) {
  const booking = bookingQueries(platform.ledger.db)
  const confirm = paymentConfirmer(platform.ledger, platform.gateway)
  return async (rawBody: Buffer, signature: string | undefined): Promise<WebhookOutcome> => {
    if (!signature || !platform.gateway.verifyWebhook(rawBody, signature)) {
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
    const order = booking.byProviderOrderId(providerOrderId)
    if (!order) return { accepted: false, reason: 'unknown order' }
    // The queue away, the confirmation is done now (the same idempotent work).
    await enqueueOrDoNow(
      platform.jobs,
      {
        queue: 'payments',
        name: 'confirm',
        data: { orderId: order.id },
        jobId: `confirm-${order.id}-${typeof payment?.id === 'string' ? payment.id : 'order'}`,
      },
      () => confirm(order.id),
    )
    return { accepted: true }
  }
}
