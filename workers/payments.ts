// Queue 'payments': confirm an order's payments with the provider (one job per order and payment,
// however often the callback and the webhook arrive), and refunds.
import { UnrecoverableError } from 'bullmq'
import type { BookingCommands } from '../server/booking/commands.ts'
import { OrderGone, type PaymentConfirmer } from '../server/booking/confirm.ts'
import { handlers } from '../server/jobs/catalogue.ts'
import type { Processor } from '../server/jobs/port.ts'
import type { PaymentGateway } from '../server/payments/port.ts'

export type PaymentsParts = {
  gateway: PaymentGateway
  commands: Pick<BookingCommands, 'recordRefund'>
  confirm: PaymentConfirmer
}

export function paymentsProcessor({ gateway, commands, confirm }: PaymentsParts): Processor {
  return handlers('payments')({
    async confirm({ orderId }) {
      try {
        return await confirm(orderId)
      } catch (error) {
        if (error instanceof OrderGone) throw new UnrecoverableError(error.message)
        throw error
      }
    },
    async refund({ orderId, paymentId, amountPaise }) {
      // A retry after the provider refunded (but before it was recorded) records that refund.
      const earlier = await gateway.refundsOf(paymentId)
      const refunded = earlier.reduce((sum, r) => sum + r.amount, 0)
      const refund =
        refunded >= amountPaise && earlier[0] ? earlier[0] : await gateway.refund(paymentId, amountPaise)
      await commands.recordRefund(orderId, paymentId, refund.id)
      return refund
    },
  })
}
