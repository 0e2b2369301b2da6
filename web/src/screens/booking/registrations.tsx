// Your Registrations (SPEC §2, §5): each ticket's event, type and payment status, with its number,
// quantity, amount and date to tell two orders apart, a confirmed cancel and an in-place transfer
// (the first click asks for the new attendee's e-mail). Live as the dashboard is.
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { Link } from '@tanstack/react-router'
import { useState } from 'react'
import type { Registration } from '../../../../contracts/booking.ts'
import { cancelRegistration, transferTicket } from '../../api/booking.ts'
import { keys } from '../../api/queries.ts'
import { useLiveConnected } from '../../live/use-live.ts'
import { transferMessages } from '../../machines/transfer.ts'
import { Fetched, messageOr } from '../../ui/fetched.tsx'
import { formatEventWhenIn, formatPrice } from '../../ui/format.ts'
import { notify } from '../../ui/toasts.ts'
import { useEventZone } from '../../ui/use-site.ts'
import { CancelCutoff, cancellationClosed } from './cancel-cutoff.tsx'
import { isCancelled } from './ticket-ending.ts'
import { TicketLines } from './ticket-lines.tsx'
import { ticketAnchor, useScrollToTicket } from './ticket-number.ts'
import { useMyTickets } from './use-my-tickets.ts'
import './booking.css'

export function RegistrationsScreen() {
  const mine = useMyTickets()
  const live = useLiveConnected()
  const target = useScrollToTicket(mine.data !== undefined)

  return (
    <Fetched query={mine} failed={messageOr('An error occurred while fetching data.')}>
      {({ tickets: all }) => {
        // the dashboard keeps the cancelled ones; this list is of registrations that hold
        const tickets = all.filter((ticket) => !isCancelled(ticket))
        return (
          <section className="page registrations-page" data-live={live ? 'connected' : 'offline'}>
            <h1>Your Registrations</h1>
            {tickets.length === 0 ? (
              <p className="empty-text">You haven't registered for any events yet.</p>
            ) : (
              <ul className="ticket-list">
                {tickets.map((registration) => (
                  <li key={registration._id}>
                    <RegistrationCard
                      registration={registration}
                      targeted={target === ticketAnchor(registration._id)}
                    />
                  </li>
                ))}
              </ul>
            )}
          </section>
        )
      }}
    </Fetched>
  )
}

type RegistrationCardProps = {
  registration: Registration
  /** the card a link opened the list on */
  targeted: boolean
}

function RegistrationCard({ registration, targeted }: RegistrationCardProps) {
  const queryClient = useQueryClient()
  const zone = useEventZone()
  const [transferring, setTransferring] = useState(false)
  const [email, setEmail] = useState('')
  const [emailError, setEmailError] = useState<string | null>(null)
  const emailId = `transfer-email-${registration._id}`
  // the list shows what is true now: the ticket gone, or someone else's
  const changed = () => queryClient.invalidateQueries({ queryKey: keys.myTickets })

  const cancel = useMutation({
    mutationFn: () => cancelRegistration(registration._id),
    onSuccess: (message) => {
      notify.success(message)
      return changed()
    },
    onError: () => notify.error('An error occurred while canceling the ticket.'),
  })
  const transfer = useMutation({
    mutationFn: (to: string) => transferTicket(registration._id, to),
    onSuccess: () => {
      notify.success(transferMessages.success)
      setTransferring(false)
      setEmail('')
      return changed()
    },
    onError: () => notify.error(transferMessages.failed),
  })
  const busy = cancel.isPending || transfer.isPending

  const askCancel = () => {
    if (window.confirm('Are you sure you want to cancel this ticket?')) cancel.mutate()
  }

  const askTransfer = () => {
    if (!transferring) {
      setTransferring(true)
      return
    }
    if (email.trim() === '') {
      setEmailError(transferMessages.email)
      return
    }
    transfer.mutate(email.trim())
  }

  return (
    <article
      id={ticketAnchor(registration._id)}
      className={`card ticket-card${targeted ? ' ticket-card-targeted' : ''}`}
      aria-label={registration.eventTitle}
    >
      <div className="ticket-card-body">
        <h2>{registration.eventTitle}</h2>
        <dl className="facts">
          <TicketLines ticket={registration} />
          <dt>Total Amount:</dt>
          <dd>{formatPrice(registration.totalAmount)}</dd>
          <dt>Date:</dt>
          <dd>{formatEventWhenIn(registration.eventDate, registration.eventTime, zone)}</dd>
          <dt>Payment Status:</dt>
          <dd>{registration.paymentStatus}</dd>
        </dl>
        <CancelCutoff cancellableUntil={registration.cancellableUntil} />
        {transferring && (
          <div className="field">
            <label htmlFor={emailId}>New Attendee Email</label>
            <input
              id={emailId}
              type="email"
              value={email}
              disabled={busy}
              onChange={(change) => {
                setEmail(change.target.value)
                setEmailError(null)
              }}
            />
          </div>
        )}
        {emailError && (
          <p className="form-error" role="alert">
            {emailError}
          </p>
        )}
        <div className="ticket-actions">
          <button
            type="button"
            className="button-danger"
            onClick={askCancel}
            disabled={busy || cancellationClosed(registration.cancellableUntil)}
          >
            Cancel Ticket
          </button>
          <button type="button" onClick={askTransfer} disabled={busy}>
            Transfer Ticket
          </button>
          <Link
            to="/ticket/$ticketId"
            params={{ ticketId: registration._id }}
            className="button button-secondary"
          >
            Passes
          </Link>
        </div>
      </div>
    </article>
  )
}
