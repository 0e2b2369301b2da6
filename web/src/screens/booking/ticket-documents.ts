// Which bills a ticket of the buyer's has to download: the invoice of a paid ticket with a price
// (a cancelled one was paid too if something is refunded), and the credit note of a refund.
import type { Registration } from '../../../../contracts/booking.ts'
import type { TicketDocumentKind } from '../../api/billing.ts'

export const documentTexts = {
  invoice: 'Invoice',
  'credit-note': 'Credit note',
  downloading: 'Downloading...',
  failed: 'The document could not be downloaded.',
} as const

export function documentsOf(
  ticket: Pick<Registration, 'paymentStatus' | 'totalAmount' | 'refundAmount'>,
): TicketDocumentKind[] {
  if (ticket.paymentStatus === 'Completed') return ticket.totalAmount > 0 ? ['invoice'] : []
  if (ticket.paymentStatus === 'Cancelled' && (ticket.refundAmount ?? 0) > 0)
    return ['invoice', 'credit-note']
  return []
}
