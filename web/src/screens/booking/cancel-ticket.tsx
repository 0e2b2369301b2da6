// /cancelTicket/{id} (SPEC §2 names the route, not its screen): one ticket and its cancel, with the
// registrations screen's confirmation, then back to the dashboard.
import { getRouteApi, useNavigate } from '@tanstack/react-router'
import { useEffect, useState } from 'react'
import type { TicketView } from '../../../../contracts/booking.ts'
import { cancelTicket, fetchEvent, fetchTicket } from '../../api/booking.ts'
import { Loading } from '../../ui/loading.tsx'
import { formatRupees } from '../../ui/rupees.ts'
import { notify } from '../../ui/toasts.ts'
import './booking.css'

const cancelRoute = getRouteApi('/cancelTicket/$id')

type Load =
  | { state: 'loading' }
  | { state: 'loaded'; ticket: TicketView; eventTitle: string | null }
  | { state: 'failed'; error: string }

export function CancelTicketScreen() {
  const { id } = cancelRoute.useParams()
  const navigate = useNavigate()
  const [load, setLoad] = useState<Load>({ state: 'loading' })
  const [busy, setBusy] = useState(false)

  useEffect(() => {
    let current = true
    fetchTicket(id)
      .then(async (ticket) => {
        const eventTitle = await fetchEvent(ticket.eventId).then(
          (event) => event.title,
          () => null,
        )
        if (current) setLoad({ state: 'loaded', ticket, eventTitle })
      })
      .catch((error: unknown) => {
        if (current)
          setLoad({
            state: 'failed',
            error: error instanceof Error ? error.message : 'An error occurred while fetching data.',
          })
      })
    return () => {
      current = false
    }
  }, [id])

  const cancel = async () => {
    if (!window.confirm('Are you sure you want to cancel this ticket?')) return
    setBusy(true)
    try {
      notify.success(await cancelTicket(id))
      void navigate({ to: '/dashboard' })
    } catch {
      notify.error('An error occurred while canceling the ticket.')
      setBusy(false)
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
  const { ticket, eventTitle } = load
  return (
    <section className="page form-page">
      <article className="card form">
        <h1>Cancel Ticket</h1>
        <dl className="facts">
          {eventTitle && (
            <>
              <dt>Event:</dt>
              <dd>{eventTitle}</dd>
            </>
          )}
          <dt>Ticket Type:</dt>
          <dd>{ticket.ticketType}</dd>
          <dt>Quantity:</dt>
          <dd>{ticket.quantity}</dd>
          <dt>Total Amount:</dt>
          <dd>{formatRupees(ticket.totalAmount)}</dd>
          <dt>Payment Status:</dt>
          <dd>{ticket.paymentStatus}</dd>
        </dl>
        <div className="form-actions">
          <button
            type="button"
            className="button-danger"
            onClick={() => void cancel()}
            disabled={busy || ticket.paymentStatus !== 'Completed'}
          >
            Cancel Ticket
          </button>
          <button
            type="button"
            className="button-secondary"
            onClick={() => {
              void navigate({ to: '/dashboard' })
            }}
          >
            Back
          </button>
        </div>
      </article>
    </section>
  )
}
