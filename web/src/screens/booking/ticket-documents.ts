// Which bills a ticket of the account's has to download: those the server lists for it as its buyer
// (the invoice of a paid ticket whose organizer issues them, then the credit note of a refund), so
// a later holder, a free ticket or an organizer without a billing profile shows no button that
// could only answer "no invoice".
import type { Registration } from '../../../../contracts/booking.ts'
import type { TicketDocumentKind } from '../../api/billing.ts'

export const documentTexts = {
  invoice: 'Invoice',
  'credit-note': 'Credit note',
  downloading: 'Downloading...',
  failed: 'The document could not be downloaded.',
} as const

export function documentsOf(ticket: Pick<Registration, 'documents'>): TicketDocumentKind[] {
  return ticket.documents ?? []
}
