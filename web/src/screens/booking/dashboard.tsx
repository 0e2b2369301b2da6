// User dashboard (SPEC §2 /dashboard): the account, then 'Ticket Data' with a card per ticket;
// Cancel needs no confirmation, Transfer opens the transfer screen. Live: reloads when one of the
// account's tickets changes. Below the tickets, 'My Inquiries' with the admins' replies, also live.
import { Link } from '@tanstack/react-router'
import { useState } from 'react'
import type { Profile } from '../../../../contracts/accounts.ts'
import type { Registration } from '../../../../contracts/booking.ts'
import { cancelTicket } from '../../api/booking.ts'
import { Loading } from '../../ui/loading.tsx'
import { formatRupees } from '../../ui/rupees.ts'
import { notify } from '../../ui/toasts.ts'
import { MyInquiries } from '../support/my-inquiries.tsx'
import { CancelCutoff, cancellationClosed } from './cancel-cutoff.tsx'
import { localEventDate } from './event-date.ts'
import { useMyTickets } from './use-my-tickets.ts'
import './booking.css'

const FETCH_FAILED = 'An error occurred while fetching data.'

export function DashboardScreen() {
  const { load, reload, live } = useMyTickets(FETCH_FAILED)
  const [cancelling, setCancelling] = useState<string | null>(null)

  const cancel = async (ticketId: string) => {
    setCancelling(ticketId)
    try {
      await cancelTicket(ticketId)
      notify.success('Ticket canceled successfully.')
      await reload()
    } catch {
      notify.error('An error occurred while deleting the ticket.')
    } finally {
      setCancelling(null)
    }
  }

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
  const { profile, tickets } = load
  return (
    <section className="page dashboard-page" data-live={live ? 'connected' : 'offline'}>
      <header className="card dashboard-account">
        <h1>My Dashboard</h1>
        <p className="dashboard-username">{profile.username}</p>
        <p className="dashboard-email">{profile.email}</p>
        <Link to="/registrations">Your Registrations</Link>
      </header>
      <h2>Ticket Data</h2>
      {tickets.length === 0 ? (
        <p className="empty-text">No ticket data available.</p>
      ) : (
        <ul className="ticket-list">
          {tickets.map((ticket) => (
            <li key={ticket._id}>
              <TicketCard
                ticket={ticket}
                profile={profile}
                cancelling={cancelling === ticket._id}
                onCancel={() => void cancel(ticket._id)}
              />
            </li>
          ))}
        </ul>
      )}
      <MyInquiries />
    </section>
  )
}

type TicketCardProps = { ticket: Registration; profile: Profile; cancelling: boolean; onCancel(): void }

function TicketCard({ ticket, profile, cancelling, onCancel }: TicketCardProps) {
  return (
    <article className="card ticket-card" aria-label={ticket.eventTitle}>
      {ticket.image && <img src={ticket.image} alt={ticket.eventTitle} />}
      <div className="ticket-card-body">
        <h3>{ticket.eventTitle}</h3>
        <dl className="facts">
          <dt>Candidate Name:</dt>
          <dd>{profile.username}</dd>
          <dt>Ticket Type:</dt>
          <dd>{ticket.ticketType}</dd>
          <dt>Quantity:</dt>
          <dd>{ticket.quantity}</dd>
          <dt>Total Amount:</dt>
          <dd>{formatRupees(ticket.totalAmount)}</dd>
          <dt>Date:</dt>
          <dd>{localEventDate(ticket.eventDate)}</dd>
          <dt>Location:</dt>
          <dd>{ticket.eventLocation}</dd>
        </dl>
        <CancelCutoff cancellableUntil={ticket.cancellableUntil} />
        <div className="ticket-actions">
          <button
            type="button"
            className="button-danger"
            onClick={onCancel}
            disabled={cancelling || cancellationClosed(ticket.cancellableUntil)}
          >
            Cancel
          </button>
          <Link to="/ticket/transfer/$ticketId" params={{ ticketId: ticket._id }} className="button">
            Transfer
          </Link>
        </div>
      </div>
    </article>
  )
}
