// The waiting lists' decisions with what they read inside their own transaction (issue 17): joining
// reads the seats on sale under the event's lock (none, or joining is refused); serving reads the
// seats free for the list (capacity less sold, held and offered) and offers them in order, under it
// too, so an offer and a hold never take the same seat.
import type { BookingReads } from '../booking/commands.ts'
import { decisionLocks, type LedgerPort, wait } from '../db/store.ts'
import { streams } from '../ids.ts'
import { decideIn } from '../ledger/decider.ts'
import type { FactMeta } from '../ledger/ledger.ts'
import { positionOf, waitlistDecider } from './decide.ts'

export type WaitlistLedger = Pick<LedgerPort<BookingReads>, 'transaction'>

export function waitlistCommands(ledger: WaitlistLedger, offerMinutes: number) {
  return {
    /** the account's place in line once joined */
    join(
      entry: {
        eventId: string
        ticketTypeId: string
        ticketType: string
        entryId: string
        accountId: string
        quantity: number
      },
      meta: FactMeta,
    ) {
      return ledger.transaction(
        function* (tx) {
          const onSale = yield* wait(tx.reads.booking.available({ id: entry.ticketTypeId }))
          const eventCancelled = yield* wait(tx.reads.booking.eventCancelled(entry.eventId))
          const { state } = yield* decideIn(tx, waitlistDecider, {
            stream: streams.waitlist(entry.ticketTypeId),
            command: { type: 'Join', ...entry, onSale, eventCancelled },
            meta,
          })
          return positionOf(state, entry.entryId) ?? 0
        },
        { lock: decisionLocks.event(entry.eventId) },
      )
    },

    leave: (ticketTypeId: string, accountId: string, meta: FactMeta) =>
      ledger.transaction((tx) =>
        decideIn(tx, waitlistDecider, {
          stream: streams.waitlist(ticketTypeId),
          command: { type: 'Leave', ticketTypeId, accountId },
          meta,
        }),
      ),

    /** offers the seats free for the list, lapsing overdue offers first; the facts appended */
    serve: (ticketTypeId: string, eventId: string, now = new Date().toISOString()) =>
      ledger.transaction(
        function* (tx) {
          if (yield* wait(tx.reads.booking.eventCancelled(eventId))) return []
          const free = yield* wait(tx.reads.booking.freeSeats(ticketTypeId))
          const { facts } = yield* decideIn(tx, waitlistDecider, {
            stream: streams.waitlist(ticketTypeId),
            command: { type: 'Serve', ticketTypeId, free, now, offerMinutes },
            meta: { actor: 'system' },
          })
          return facts
        },
        { lock: decisionLocks.event(eventId) },
      ),
  }
}

export type WaitlistCommands = ReturnType<typeof waitlistCommands>
