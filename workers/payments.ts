// Queue 'payments': confirm an order's payments with the provider (one job per order and payment,
// however often the callback and the webhook arrive), and refunds.
import { UnrecoverableError } from 'bullmq'
import * as v from 'valibot'
import { bookingCommands } from '../server/booking/commands.ts'
import { bookingQueries } from '../server/booking/queries.ts'
import { catalogQueries } from '../server/catalog/queries.ts'
import type { Processor } from '../server/jobs/port.ts'
import { toPaise } from '../server/payments/port.ts'
import type { Platform } from '../server/platform.ts'

const ConfirmJob = v.object({ orderId: v.string() })
const RefundJob = v.object({ orderId: v.string(), paymentId: v.string(), amount: v.number() })

export function paymentsProcessor(platform: Pick<Platform, 'ledger' | 'gateway'>): Processor {
  const { ledger, gateway } = platform
  const booking = bookingQueries(ledger.db)
  const events = catalogQueries(ledger.db)
  const commands = bookingCommands(ledger)
  return async (job) => {
    switch (job.name) {
      case 'confirm': {
        const { orderId } = parse(ConfirmJob, job.data, job.id)
        const order = booking.byId(orderId)
        if (!order) throw new UnrecoverableError(`order ${orderId} does not exist`)
        const ticketType = events.ticketType(order.ticketTypeId)
        if (!ticketType) throw new UnrecoverableError(`ticket type of order ${orderId} does not exist`)
        const payments = await Promise.all(
          (await gateway.paymentsOfOrder(order.providerOrderId)).map((p) =>
            p.status === 'authorized' ? gateway.capture(p) : p,
          ),
        )
        commands.applyPayments(order.id, ticketType, payments)
        return { payments: payments.length }
      }
      case 'refund': {
        const { orderId, paymentId, amount } = parse(RefundJob, job.data, job.id)
        // A retry after the provider refunded (but before it was recorded) records that refund.
        const earlier = await gateway.refundsOf(paymentId)
        const refunded = earlier.reduce((sum, r) => sum + r.amount, 0)
        const refund =
          refunded >= toPaise(amount) && earlier[0]
            ? earlier[0]
            : await gateway.refund(paymentId, toPaise(amount))
        commands.recordRefund(orderId, paymentId, refund.id)
        return refund
      }
      default:
        throw new UnrecoverableError(`unknown payments job ${job.name}`)
    }
  }
}

function parse<T extends v.GenericSchema>(schema: T, data: unknown, id: string): v.InferOutput<T> {
  const parsed = v.safeParse(schema, data)
  if (!parsed.success) throw new UnrecoverableError(`malformed job ${id}`)
  return parsed.output
}
