// What names a ticket wherever it is shown whole (its confirmation, its passes, registrations, the
// transfer form): its number, type and quantity, and a seated order's seats, as a definition list's
// entries.
import { SeatFacts } from '../../ui/seat-lines.tsx'
import { ticketNumber } from '../../ui/ticket-number.ts'

export function TicketLines({ ticket }: { ticket: { _id: string; ticketType: string; quantity: number } }) {
  return (
    <>
      <dt>Ticket No.</dt>
      <dd className="ticket-number">{ticketNumber(ticket._id)}</dd>
      <dt>Ticket Type:</dt>
      <dd>{ticket.ticketType}</dd>
      <dt>Quantity:</dt>
      <dd>{ticket.quantity}</dd>
      <SeatFacts ticket={ticket} />
    </>
  )
}
