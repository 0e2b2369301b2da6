// Queue 'holds': a delayed job per hold releases it when its time is up, unless it was paid.
// Before releasing, it asks the provider: a payment whose confirmation never came (a lost job, a
// webhook that did not arrive) is recorded first, so a paid hold is never released.
// A waiting list is served when seats come back, and again when an offer runs out.
// And an event called off has its waiting room's line closed, then all its orders released or
// cancelled with their refunds, one order at a time, each decided on its own stream: a retry after
// a crash finds the done ones done.
import { UnrecoverableError } from 'bullmq'
import type { BookingCommands } from '../server/booking/commands.ts'
import { OrderGone, type PaymentConfirmer } from '../server/booking/confirm.ts'
import type { BookingQueries } from '../server/booking/queries.ts'
import type { CatalogQueries } from '../server/catalog/queries.ts'
import { handlers } from '../server/jobs/catalogue.ts'
import type { Processor } from '../server/jobs/port.ts'
import type { QueueCommands } from '../server/queue/commands.ts'
import type { WaitlistCommands } from '../server/waitlist/commands.ts'

export type HoldsParts = {
  booking: Pick<BookingQueries, 'byId' | 'heldOf' | 'issuedPage'>
  commands: Pick<BookingCommands, 'expire' | 'cancelForEvent'>
  confirm: PaymentConfirmer
  events: Pick<CatalogQueries, 'byId'>
  waitlist: Pick<WaitlistCommands, 'serve'>
  /** an event's waiting room, closed when the event is called off */
  queue: Pick<QueueCommands, 'callOff'>
}

/** orders cancelled per page of an event called off */
const PAGE = 200

export function holdsProcessor({
  booking,
  commands,
  confirm,
  events,
  waitlist,
  queue,
}: HoldsParts): Processor {
  return handlers('holds')({
    async 'serve-waitlist'({ ticketTypeId, eventId }) {
      return {
        offered: (await waitlist.serve(ticketTypeId, eventId)).filter((f) => f.type === 'WaitlistOffered')
          .length,
      }
    },
    async 'cancel-event'({ eventId }) {
      const event = await events.byId(eventId)
      if (!event?.cancelledAt) throw new UnrecoverableError(`event ${eventId} is not cancelled`)
      const reason = event.cancelReason ?? ''
      // nobody more waits for a sale that will not happen: the line closes, and each in it hears so
      await queue.callOff(eventId)
      let orders = 0
      // Again from the start until none is left: a hold paid meanwhile became a ticket (and no new
      // hold can be made: the hold reads the cancellation under the lock).
      for (;;) {
        const open = [...(await booking.heldOf(eventId)), ...(await booking.issuedPage([eventId], '', PAGE))]
        if (open.length === 0) return { orders }
        let changed = 0
        for (const order of open) {
          if ((await commands.cancelForEvent(order.id, reason)).length > 0) changed++
        }
        orders += changed
        if (changed === 0) throw new Error(`orders of ${eventId} that could not be cancelled: ${open.length}`)
      }
    },
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
