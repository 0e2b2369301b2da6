// The page a booking ends on (issue 12; SPEC §4 went home with only a toast): what was bought
// (type, quantity, amount), for which event and when, the ticket's short number, a link to its
// card and the way home. A ticket still being issued says so, and the page updates live when it is
// (the buyer's room hears the ticket issued or its payment failed: live/follow.ts).
import { useQuery } from '@tanstack/react-query'
import { getRouteApi, Link } from '@tanstack/react-router'
import type { TicketView } from '../../../../contracts/booking.ts'
import type { EventView } from '../../../../contracts/catalog.ts'
import { bookedTicketQuery } from '../../api/queries.ts'
import { useSession } from '../../session/use-session.ts'
import { Fetched } from '../../ui/fetched.tsx'
import { formatEventWhenIn, formatPrice } from '../../ui/format.ts'
import { useEventZone } from '../../ui/use-site.ts'
import { TicketLines } from './ticket-lines.tsx'
import { ticketAnchor } from './ticket-number.ts'
import './booking.css'

const confirmationRoute = getRouteApi('/_signed-in/booking/$id/confirmed/$ticketId')

export const confirmationTexts = {
  issued: 'Booking confirmed',
  pending: 'Payment received',
  pendingNote: 'Your ticket is being issued; it shows here and on your dashboard as soon as it is.',
  failed: 'This booking could not be loaded.',
  viewTicket: 'View your ticket',
  passes: 'Show your passes',
  home: 'Back to home',
} as const

export function ConfirmationScreen() {
  const { id, ticketId } = confirmationRoute.useParams()
  const booked = useQuery(bookedTicketQuery(ticketId, id))
  return (
    <Fetched
      query={booked}
      failed={confirmationTexts.failed}
      frame={(content, failed) => (
        <section className="page confirmation-page">
          {content}
          {failed && (
            <Link to="/" className="button button-secondary">
              {confirmationTexts.home}
            </Link>
          )}
        </section>
      )}
    >
      {({ ticket, event }) => <Confirmation ticket={ticket} event={event} />}
    </Fetched>
  )
}

function Confirmation({ ticket, event }: { ticket: TicketView; event: EventView }) {
  const { user } = useSession()
  const zone = useEventZone()
  const pending = ticket.paymentStatus === 'Pending'
  // the dashboard is the user's; other accounts that book see their tickets under registrations
  const ticketPage = user?.role === 'user' ? '/dashboard' : '/registrations'
  return (
    <article className="card" aria-labelledby="confirmation-heading">
      <h1 id="confirmation-heading">{pending ? confirmationTexts.pending : confirmationTexts.issued}</h1>
      {pending && (
        <p className="form-hint" role="status">
          {confirmationTexts.pendingNote}
        </p>
      )}
      <h2>{event.title}</h2>
      <dl className="facts">
        <TicketLines ticket={ticket} />
        <dt>Amount:</dt>
        <dd className="confirmation-amount">{formatPrice(ticket.totalAmount)}</dd>
        <dt>Date:</dt>
        <dd>{formatEventWhenIn(event.date, event.time, zone)}</dd>
        <dt>Location:</dt>
        <dd>{event.location}</dd>
        <dt>Payment Status:</dt>
        <dd>{ticket.paymentStatus}</dd>
      </dl>
      <div className="form-actions">
        <Link to={ticketPage} hash={ticketAnchor(ticket._id)} className="button">
          {confirmationTexts.viewTicket}
        </Link>
        {!pending && (
          <Link to="/ticket/$ticketId" params={{ ticketId: ticket._id }} className="button button-secondary">
            {confirmationTexts.passes}
          </Link>
        )}
        <Link to="/" className="button button-secondary">
          {confirmationTexts.home}
        </Link>
      </div>
    </article>
  )
}
