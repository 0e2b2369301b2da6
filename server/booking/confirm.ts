// Asks the provider what became of an order's payments and records it: the work of the payments
// queue's 'confirm' job, also done inline when the queue cannot be reached.

import { catalogQueries } from '../catalog/queries.ts'
import type { Ledger } from '../ledger/ledger.ts'
import type { PaymentGateway } from '../payments/port.ts'
import { bookingCommands } from './commands.ts'
import { bookingQueries } from './queries.ts'

export class OrderGone extends Error {}

export function paymentConfirmer(ledger: Ledger, gateway: PaymentGateway) {
  const booking = bookingQueries(ledger.db)
  const events = catalogQueries(ledger.db)
  const commands = bookingCommands(ledger)
  return async (orderId: string) => {
    const order = booking.byId(orderId)
    if (!order) throw new OrderGone(`order ${orderId} does not exist`)
    const ticketType = events.ticketType(order.ticketTypeId)
    if (!ticketType) throw new OrderGone(`ticket type of order ${orderId} does not exist`)
    const payments = await Promise.all(
      (await gateway.paymentsOfOrder(order.providerOrderId)).map((p) =>
        p.status === 'authorized' ? gateway.capture(p) : p,
      ),
    )
    await commands.applyPayments(order.id, ticketType, payments)
    return { payments: payments.length }
  }
}
