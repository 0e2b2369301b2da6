// Queue 'holds': a delayed job per hold releases it when its time is up, unless it was paid.
import { UnrecoverableError } from 'bullmq'
import { bookingCommands } from '../server/booking/commands.ts'
import type { Processor } from '../server/jobs/port.ts'
import type { Platform } from '../server/platform.ts'

export function holdsProcessor(platform: Pick<Platform, 'ledger'>): Processor {
  const commands = bookingCommands(platform.ledger)
  return async (job) => {
    switch (job.name) {
      case 'expire': {
        const orderId = (job.data as { orderId?: unknown })?.orderId
        if (typeof orderId !== 'string') throw new UnrecoverableError(`malformed job ${job.id}`)
        return { released: commands.expire(orderId).length > 0 }
      }
      default:
        throw new UnrecoverableError(`unknown holds job ${job.name}`)
    }
  }
}
