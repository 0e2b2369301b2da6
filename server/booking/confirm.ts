// Asks the provider what became of an order's payments and records it: the work of the payments
// queue's 'confirm' job, also done inline when the queue cannot be reached.

import type { CatalogQueries } from '../catalog/queries.ts'
import type { LedgerPort } from '../db/store.ts'
import { streams } from '../ids.ts'
import { streamFacts } from '../ledger/decider.ts'
import type { PaymentGateway } from '../payments/port.ts'
import type { BookingCommands } from './commands.ts'
import type { BookingFact } from './facts.ts'
import type { BookingQueries, OrderRow } from './queries.ts'

export class OrderGone extends Error {}

/** `known`: the order's row when the caller has just read it (a checkout replacing it) */
export type PaymentConfirmer = (orderId: string, known?: OrderRow) => Promise<{ payments: number }>

export function paymentConfirmer(parts: {
  gateway: PaymentGateway
  booking: BookingQueries
  catalog: Pick<CatalogQueries, 'ticketType'>
  commands: BookingCommands
  /** reads an order's stream (the seats its hold named) */
  ledger: Pick<LedgerPort<unknown>, 'readStream'>
}): PaymentConfirmer {
  const { gateway, booking, catalog: events, commands, ledger } = parts
  /** the seat ids an order's hold named (null: a counted order) */
  const seatsOfOrder = async (orderId: string) => {
    const facts = await streamFacts<BookingFact>(ledger, streams.order(orderId))
    const held = facts.find((f) => f.type === 'TicketsHeld')
    return held?.type === 'TicketsHeld' && held.data.seats ? held.data.seats.map((s) => s.id) : null
  }
  return async (orderId: string, known?: OrderRow) => {
    const order = known?.id === orderId ? known : await booking.byId(orderId)
    if (!order) throw new OrderGone(`order ${orderId} does not exist`)
    const payments = await Promise.all(
      (await gateway.paymentsOfOrder(order.providerOrderId)).map((p) =>
        p.status === 'authorized' ? gateway.capture(p) : p,
      ),
    )
    // nothing paid (a checkout closed before paying): nothing to record
    if (payments.length === 0) return { payments: 0 }
    const ticketType = await events.ticketType(order.ticketTypeId)
    if (!ticketType) throw new OrderGone(`ticket type of order ${orderId} does not exist`)
    // a late payment (its hold lapsed) for a seated order is decided against its very seats
    const late = order.status === 'expired' || order.status === 'failed'
    const seatIds = late ? await seatsOfOrder(order.id) : null
    await commands.applyPayments(order.id, ticketType, payments, order.promoCode, seatIds, order)
    return { payments: payments.length }
  }
}
