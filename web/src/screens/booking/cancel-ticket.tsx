// /cancelTicket/{id} (SPEC §2 names the route, not its screen): one ticket and its cancel, with the
// registrations screen's confirmation, then back to the dashboard.
import { useMutation, useQuery } from '@tanstack/react-query'
import { getRouteApi, useNavigate } from '@tanstack/react-router'
import type { TicketView } from '../../../../contracts/booking.ts'
import { cancelTicket } from '../../api/booking.ts'
import { ticketQuery } from '../../api/queries.ts'
import { Fetched, messageOr } from '../../ui/fetched.tsx'
import { formatRupees } from '../../ui/rupees.ts'
import { notify } from '../../ui/toasts.ts'
import './booking.css'
import { SeatFacts } from '../../ui/seat-lines.tsx'

const cancelRoute = getRouteApi('/_signed-in/cancelTicket/$id')

export function CancelTicketScreen() {
  const { id } = cancelRoute.useParams()
  const ticket = useQuery(ticketQuery(id))
  return (
    <Fetched query={ticket} failed={messageOr('An error occurred while fetching data.')}>
      {(shown) => <CancelTicket ticket={shown.ticket} eventTitle={shown.eventTitle} />}
    </Fetched>
  )
}

function CancelTicket({ ticket, eventTitle }: { ticket: TicketView; eventTitle: string | null }) {
  const navigate = useNavigate()
  const cancel = useMutation({
    mutationFn: () => cancelTicket(ticket._id),
    onSuccess: (message) => {
      notify.success(message)
      void navigate({ to: '/dashboard' })
    },
    onError: () => notify.error('An error occurred while canceling the ticket.'),
  })
  const ask = () => {
    if (window.confirm('Are you sure you want to cancel this ticket?')) cancel.mutate()
  }
  // once cancelled it stays disabled: the dashboard is on its way
  const busy = cancel.isPending || cancel.isSuccess

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
          <SeatFacts ticket={ticket} />
          <dt>Total Amount:</dt>
          <dd>{formatRupees(ticket.totalAmount)}</dd>
          <dt>Payment Status:</dt>
          <dd>{ticket.paymentStatus}</dd>
        </dl>
        <div className="form-actions">
          <button
            type="button"
            className="button-danger"
            onClick={ask}
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
