// Queue 'payments': confirm an order's payments with the provider (one job per order and payment,
// however often the callback and the webhook arrive), and refunds.
import { UnrecoverableError } from 'bullmq'
import * as v from 'valibot'
import { bookingCommands } from '../server/booking/commands.ts'
import { OrderGone, paymentConfirmer } from '../server/booking/confirm.ts'
import type { Processor } from '../server/jobs/port.ts'
import { toPaise } from '../server/money.ts'
import type { Platform } from '../server/platform.ts'

const ConfirmJob = v.object({ orderId: v.string() })
const Paise = v.pipe(v.number(), v.safeInteger())
/** amountPaise; a job enqueued before money was kept in paise carries rupees in `amount` */
const RefundJob = v.union([
  v.object({ orderId: v.string(), paymentId: v.string(), amountPaise: Paise }),
  v.pipe(
    v.object({ orderId: v.string(), paymentId: v.string(), amount: v.number() }),
    v.transform(({ amount, ...job }) => ({ ...job, amountPaise: toPaise(amount) })),
  ),
])

export function paymentsProcessor(platform: Pick<Platform, 'ledger' | 'gateway'>): Processor {
  const { ledger, gateway } = platform
  const confirm = paymentConfirmer(ledger, gateway)
  const commands = bookingCommands(ledger)
  return async (job) => {
    switch (job.name) {
      case 'confirm': {
        const { orderId } = parse(ConfirmJob, job.data, job.id)
        try {
          return await confirm(orderId)
        } catch (error) {
          if (error instanceof OrderGone) throw new UnrecoverableError(error.message)
          throw error
        }
      }
      case 'refund': {
        const { orderId, paymentId, amountPaise } = parse(RefundJob, job.data, job.id)
        // A retry after the provider refunded (but before it was recorded) records that refund.
        const earlier = await gateway.refundsOf(paymentId)
        const refunded = earlier.reduce((sum, r) => sum + r.amount, 0)
        const refund =
          refunded >= amountPaise && earlier[0] ? earlier[0] : await gateway.refund(paymentId, amountPaise)
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
