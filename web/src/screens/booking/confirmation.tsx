// The page a booking ends on (issue 12; SPEC §4 went home with only a toast): what was bought
// (type, quantity, amount), for which event and when, the ticket's short number, a link to its
// card and the way home. A ticket still being issued says so, and the page updates live when it is.
import { getRouteApi, Link } from '@tanstack/react-router'
import { useCallback, useEffect, useState } from 'react'
import type { TicketView } from '../../../../contracts/booking.ts'
import type { EventView } from '../../../../contracts/catalog.ts'
import { fetchEvent, fetchTicket } from '../../api/booking.ts'
import { useLiveFacts } from '../../live/use-live.ts'
import { useSession } from '../../session/use-session.ts'
import { formatEventWhen, formatPrice } from '../../ui/format.ts'
import { Loading } from '../../ui/loading.tsx'
import { ticketAnchor, ticketNumber } from './ticket-number.ts'
import './booking.css'

const confirmationRoute = getRouteApi('/booking/$id/confirmed/$ticketId')

type Load =
  | { state: 'loading' }
  | { state: 'loaded'; ticket: TicketView; event: EventView }
  | { state: 'failed' }

export const confirmationTexts = {
  issued: 'Booking confirmed',
  pending: 'Payment received',
  pendingNote: 'Your ticket is being issued; it shows here and on your dashboard as soon as it is.',
  failed: 'This booking could not be loaded.',
  viewTicket: 'View your ticket',
  home: 'Back to home',
} as const

export function ConfirmationScreen() {
  const { id, ticketId } = confirmationRoute.useParams()
  const { user } = useSession()
  const [load, setLoad] = useState<Load>({ state: 'loading' })

  const refetch = useCallback(() => {
    Promise.all([fetchTicket(ticketId), fetchEvent(id)]).then(
      ([ticket, event]) => setLoad({ state: 'loaded', ticket, event }),
      () => setLoad((previous) => (previous.state === 'loaded' ? previous : { state: 'failed' })),
    )
  }, [id, ticketId])

  useEffect(() => {
    setLoad({ state: 'loading' })
    refetch()
  }, [refetch])

  // the buyer's room: the ticket issued (or its payment failed) after the page opened
  useLiveFacts({
    onConnect: refetch,
    onFact(push) {
      if (push.type === 'TicketsIssued' || push.type === 'PaymentFailed') refetch()
    },
  })

  if (load.state === 'loading') return <Loading />
  if (load.state === 'failed') {
    return (
      <section className="page confirmation-page">
        <p className="error-text" role="alert">
          {confirmationTexts.failed}
        </p>
        <Link to="/" className="button button-secondary">
          {confirmationTexts.home}
        </Link>
      </section>
    )
  }

  const { ticket, event } = load
  const pending = ticket.paymentStatus === 'Pending'
  // the dashboard is the user's; other accounts that book see their tickets under registrations
  const ticketPage = user?.role === 'user' ? '/dashboard' : '/registrations'
  return (
    <section className="page confirmation-page">
      <article className="card" aria-labelledby="confirmation-heading">
        <h1 id="confirmation-heading">{pending ? confirmationTexts.pending : confirmationTexts.issued}</h1>
        {pending && (
          <p className="form-hint" role="status">
            {confirmationTexts.pendingNote}
          </p>
        )}
        <h2>{event.title}</h2>
        <dl className="facts">
          <dt>Ticket No.</dt>
          <dd className="ticket-number">{ticketNumber(ticket._id)}</dd>
          <dt>Ticket Type:</dt>
          <dd>{ticket.ticketType}</dd>
          <dt>Quantity:</dt>
          <dd>{ticket.quantity}</dd>
          <dt>Amount:</dt>
          <dd className="confirmation-amount">{formatPrice(ticket.totalAmount)}</dd>
          <dt>Date:</dt>
          <dd>{formatEventWhen(event.date, event.time)}</dd>
          <dt>Location:</dt>
          <dd>{event.location}</dd>
          <dt>Payment Status:</dt>
          <dd>{ticket.paymentStatus}</dd>
        </dl>
        <div className="form-actions">
          <Link to={ticketPage} hash={ticketAnchor(ticket._id)} className="button">
            {confirmationTexts.viewTicket}
          </Link>
          <Link to="/" className="button button-secondary">
            {confirmationTexts.home}
          </Link>
        </div>
      </article>
    </section>
  )
}
