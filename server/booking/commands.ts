// Booking commands with what they must look up inside the same transaction (live availability
// of the ticket type), shared by the routes and the workers.
import type { TicketTypeRow } from '../catalog/queries.ts'
import { streams } from '../ids.ts'
import { handleCommand } from '../ledger/decider.ts'
import type { FactMeta, Ledger } from '../ledger/ledger.ts'
import type { GatewayPayment } from '../payments/port.ts'
import { type CancelCutoff, type OrderCommand, orderDecider, REPLACED_BY_NEW_CHECKOUT } from './decide.ts'
import type { TicketsHeld } from './facts.ts'
import type { BookingQueries } from './queries.ts'

/** The limits a hold is decided under (from the settings and the event). */
export type HoldLimits = {
  /** the event's start, or its own sales end if earlier (ISO) */
  salesCloseAt: string
  maxHeldFromAddress: number
  maxTicketsPerAccount: number
}

const run = (ledger: Ledger, orderId: string, command: OrderCommand, meta: FactMeta) =>
  handleCommand(ledger, orderDecider, { stream: streams.order(orderId), command, meta }).facts

/**
 * How many seats of a ticket type are on sale, read inside the hold's transaction (booking's
 * available(): capacity − held − sold). A test may stand in a stale count to show the race this
 * reading under the lock prevents (tests/integration/oversell.test.ts); production never does.
 */
export type SeatsLeft = (ticketType: TicketTypeRow, order: TicketsHeld['data']) => number

export function bookingCommands(
  ledger: Ledger,
  booking: BookingQueries,
  seatsLeft: SeatsLeft = (ticketType) => booking.available(ticketType),
) {
  /** Holds that ran out but were not released yet give their seats back first. */
  const releaseLapsed = (now: string, ticketTypeId?: string) => {
    for (const order of booking.lapsedHolds(now, ticketTypeId)) {
      run(ledger, order.id, { type: 'Expire', now }, { actor: 'system' })
    }
  }

  return {
    /**
     * Decides the hold against availability read under the write lock, so concurrent orders
     * can never take more seats than exist; settles once the hold is committed.
     */
    hold(order: TicketsHeld['data'], ticketType: TicketTypeRow, meta: FactMeta, limits: HoldLimits) {
      // Holds are the flash sale's hot write: they share commits (group commit).
      return ledger.transactionInBatch(() => {
        const now = new Date().toISOString()
        // One unpaid hold per buyer and event: a new checkout gives the previous one's seats back
        // first, so nobody can stack holds on an event, and the buyer's own seats count for them.
        const replaced = booking.heldBy(order.buyerId, order.eventId)
        for (const previous of replaced) {
          run(
            ledger,
            previous.id,
            { type: 'Release', by: order.buyerId, reason: REPLACED_BY_NEW_CHECKOUT },
            meta,
          )
        }
        if (seatsLeft(ticketType, order) < order.quantity) releaseLapsed(now, ticketType.id)
        const available = seatsLeft(ticketType, order)
        const facts = run(
          ledger,
          order.orderId,
          {
            type: 'Hold',
            order,
            available,
            checks: {
              now,
              salesCloseAt: limits.salesCloseAt,
              heldFromAddress: order.clientKey ? booking.seatsHeldFrom(order.clientKey, order.eventId) : 0,
              maxHeldFromAddress: limits.maxHeldFromAddress,
              // the cap is for free tickets only: a paid hold need not read it
              issuedToBuyer:
                order.amountPaise === 0 ? booking.seatsIssuedTo(order.buyerId, order.eventId) : 0,
              maxTicketsPerAccount: limits.maxTicketsPerAccount,
            },
          },
          meta,
        )
        return { facts, replaced: replaced.map((r) => r.id) }
      })
    },

    /**
     * Applies what the provider says about an order's payments: captures first, then failures,
     * each committed in turn (sharing commits with other work: group commit).
     */
    async applyPayments(orderId: string, ticketType: TicketTypeRow, payments: GatewayPayment[]) {
      const ordered = [...payments].sort((a, b) => rank(a) - rank(b))
      for (const payment of ordered) {
        if (payment.status === 'captured' || payment.status === 'refunded') {
          await ledger.transactionInBatch(() =>
            run(
              ledger,
              orderId,
              {
                type: 'Capture',
                paymentId: payment.id,
                amountPaise: payment.amount,
                method: payment.method,
                available: booking.available(ticketType),
              },
              { actor: 'system' },
            ),
          )
        } else if (payment.status === 'failed') {
          await ledger.transactionInBatch(() =>
            run(
              ledger,
              orderId,
              { type: 'Fail', paymentId: payment.id, reason: payment.errorDescription ?? 'Payment failed.' },
              { actor: 'system' },
            ),
          )
        }
      }
    },

    expire: (orderId: string, now = new Date().toISOString()) =>
      run(ledger, orderId, { type: 'Expire', now }, { actor: 'system' }),

    /** Releases every hold past its expiry (at start, and when a ticket type runs short). */
    releaseLapsedHolds: (now = new Date().toISOString()) => releaseLapsed(now),

    recordRefund: (orderId: string, paymentId: string, refundId: string) =>
      run(ledger, orderId, { type: 'RecordRefund', paymentId, refundId }, { actor: 'system' }),

    cancel: (orderId: string, by: string, cutoff: CancelCutoff | null, meta: FactMeta) =>
      run(ledger, orderId, { type: 'Cancel', by, cutoff, now: new Date().toISOString() }, meta),

    transfer: (orderId: string, by: string, toId: string | null, meta: FactMeta) =>
      run(ledger, orderId, { type: 'Transfer', by, toId }, meta),
  }
}

const rank = (payment: GatewayPayment) =>
  payment.status === 'captured' || payment.status === 'refunded' ? 0 : 1

export type BookingCommands = ReturnType<typeof bookingCommands>
