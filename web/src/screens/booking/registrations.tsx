// Your Registrations (SPEC §2, §5): each ticket's event, type and payment status, with its number,
// quantity, amount and date to tell two orders apart, a confirmed cancel and an in-place transfer
// (the first click asks for the new attendee's e-mail).
import { useState } from 'react'
import type { Registration } from '../../../../contracts/booking.ts'
import { cancelRegistration, transferTicket } from '../../api/booking.ts'
import { transferMessages } from '../../machines/transfer.ts'
import { formatDate, formatPrice } from '../../ui/format.ts'
import { Loading } from '../../ui/loading.tsx'
import { notify } from '../../ui/toasts.ts'
import { CancelCutoff, cancellationClosed } from './cancel-cutoff.tsx'
import { ticketAnchor, ticketNumber, useScrollToTicket } from './ticket-number.ts'
import { useMyTickets } from './use-my-tickets.ts'
import './booking.css'

export function RegistrationsScreen() {
  const { load, reload, live } = useMyTickets('An error occurred while fetching data.')
  const target = useScrollToTicket(load.state === 'loaded')

  if (load.state === 'loading') return <Loading />
  if (load.state === 'failed') {
    return (
      <section className="page">
        <p className="error-text" role="alert">
          {load.error}
        </p>
      </section>
    )
  }
  return (
    <section className="page registrations-page" data-live={live ? 'connected' : 'offline'}>
      <h1>Your Registrations</h1>
      {load.tickets.length === 0 ? (
        <p className="empty-text">You haven't registered for any events yet.</p>
      ) : (
        <ul className="ticket-list">
          {load.tickets.map((registration) => (
            <li key={registration._id}>
              <RegistrationCard
                registration={registration}
                targeted={target === ticketAnchor(registration._id)}
                onChanged={() => void reload()}
              />
            </li>
          ))}
        </ul>
      )}
    </section>
  )
}

type RegistrationCardProps = {
  registration: Registration
  /** the card a link opened the list on */
  targeted: boolean
  onChanged(): void
}

function RegistrationCard({ registration, targeted, onChanged }: RegistrationCardProps) {
  const [busy, setBusy] = useState(false)
  const [transferring, setTransferring] = useState(false)
  const [email, setEmail] = useState('')
  const [emailError, setEmailError] = useState<string | null>(null)
  const emailId = `transfer-email-${registration._id}`

  const cancel = async () => {
    if (!window.confirm('Are you sure you want to cancel this ticket?')) return
    setBusy(true)
    try {
      notify.success(await cancelRegistration(registration._id))
      onChanged()
    } catch {
      notify.error('An error occurred while canceling the ticket.')
    } finally {
      setBusy(false)
    }
  }

  const transfer = async () => {
    if (!transferring) {
      setTransferring(true)
      return
    }
    if (email.trim() === '') {
      setEmailError(transferMessages.email)
      return
    }
    setBusy(true)
    try {
      await transferTicket(registration._id, email.trim())
      notify.success(transferMessages.success)
      setTransferring(false)
      setEmail('')
      onChanged()
    } catch {
      notify.error(transferMessages.failed)
    } finally {
      setBusy(false)
    }
  }

  return (
    <article
      id={ticketAnchor(registration._id)}
      className={`card ticket-card${targeted ? ' ticket-card-targeted' : ''}`}
      aria-label={registration.eventTitle}
    >
      <div className="ticket-card-body">
        <h3>{registration.eventTitle}</h3>
        <dl className="facts">
          <dt>Ticket No.</dt>
          <dd className="ticket-number">{ticketNumber(registration._id)}</dd>
          <dt>Ticket Type:</dt>
          <dd>{registration.ticketType}</dd>
          <dt>Quantity:</dt>
          <dd>{registration.quantity}</dd>
          <dt>Total Amount:</dt>
          <dd>{formatPrice(registration.totalAmount)}</dd>
          <dt>Date:</dt>
          <dd>{formatDate(registration.eventDate)}</dd>
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
            onClick={() => void cancel()}
            disabled={busy || cancellationClosed(registration.cancellableUntil)}
          >
            Cancel Ticket
          </button>
          <button type="button" onClick={() => void transfer()} disabled={busy}>
            Transfer Ticket
          </button>
        </div>
      </div>
    </article>
  )
}
