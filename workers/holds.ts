// Queue 'holds': a delayed job per hold releases it when its time is up, unless it was paid.
// Before releasing, it asks the provider: a payment whose confirmation never came (a lost job, a
// webhook that did not arrive) is recorded first, so a paid hold is never released.
import { UnrecoverableError } from 'bullmq'
import { bookingCommands } from '../server/booking/commands.ts'
import { OrderGone, paymentConfirmer } from '../server/booking/confirm.ts'
import { bookingQueries } from '../server/booking/queries.ts'
import type { Processor } from '../server/jobs/port.ts'
import type { Platform } from '../server/platform.ts'

export function holdsProcessor(platform: Pick<Platform, 'ledger' | 'gateway'>): Processor {
  const commands = bookingCommands(platform.ledger)
  const booking = bookingQueries(platform.ledger.db)
  const confirm = paymentConfirmer(platform.ledger, platform.gateway)
  return async (job) => {
    switch (job.name) {
      case 'expire': {
        const orderId = (job.data as { orderId?: unknown })?.orderId
        if (typeof orderId !== 'string') throw new UnrecoverableError(`malformed job ${job.id}`)
        const order = booking.byId(orderId)
        if (order?.status === 'held' && order.provider !== 'free') {
          try {
            await confirm(orderId)
          } catch (error) {
            if (error instanceof OrderGone) throw new UnrecoverableError(error.message)
            throw error
          }
        }
        return { released: commands.expire(orderId).length > 0 }
      }
      default:
        throw new UnrecoverableError(`unknown holds job ${job.name}`)
    }
  }
}
