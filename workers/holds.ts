// Queue 'holds': a delayed job per hold releases it when its time is up, unless it was paid.
// Before releasing, it asks the provider: a payment whose confirmation never came (a lost job, a
// webhook that did not arrive) is recorded first, so a paid hold is never released.
import { UnrecoverableError } from 'bullmq'
import type { BookingCommands } from '../server/booking/commands.ts'
import { OrderGone, type PaymentConfirmer } from '../server/booking/confirm.ts'
import type { BookingQueries } from '../server/booking/queries.ts'
import { handlers } from '../server/jobs/catalogue.ts'
import type { Processor } from '../server/jobs/port.ts'

export type HoldsParts = {
  booking: Pick<BookingQueries, 'byId'>
  commands: Pick<BookingCommands, 'expire'>
  confirm: PaymentConfirmer
}

export function holdsProcessor({ booking, commands, confirm }: HoldsParts): Processor {
  return handlers('holds')({
    async expire({ orderId }) {
      const order = await booking.byId(orderId)
      if (order?.status === 'held' && order.provider !== 'free') {
        try {
          await confirm(orderId)
        } catch (error) {
          if (error instanceof OrderGone) throw new UnrecoverableError(error.message)
          throw error
        }
      }
      return { released: (await commands.expire(orderId)).length > 0 }
    },
  })
}
