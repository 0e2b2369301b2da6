// An attendee's refund, from the organizer's attendee list: the person's tickets to the event are
// read when asked for, one is chosen, and a confirmation in the page (its amount, an optional reason
// told to the holder) cancels it and refunds its payment (POST /ticket/{id}/refund), also once it
// has been used at the door, when its holder can no longer cancel it. The list follows by its push.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { useId, useState } from 'react'
import type { TicketView } from '../../../../contracts/booking.ts'
import { fetchAttendeeTickets, refundTicket } from '../../api/organizers.ts'
import { keys } from '../../api/queries.ts'
import { FetchError, messageOr } from '../../ui/fetched.tsx'
import { formatPrice } from '../../ui/format.ts'
import { notify } from '../../ui/toasts.ts'
import './attendee-refund.css'

export const refundTexts = {
  open: 'Refund',
  close: 'Close',
  loading: 'Loading tickets...',
  failed: 'Error fetching tickets',
  none: 'No valid tickets left to refund.',
  reason: 'Reason (optional, sent to the attendee)',
  keep: 'Keep ticket',
  refunding: 'Refunding...',
  refundFailed: 'Could not refund the ticket.',
} as const

const ticketText = (ticket: TicketView) =>
  `${ticket.quantity} × ${ticket.ticketType} · ${formatPrice(ticket.totalAmount)}`

/** what the confirmation asks, in the amount's words */
export const refundQuestion = (ticket: TicketView, name: string) =>
  ticket.totalAmount > 0
    ? `Refund ${formatPrice(ticket.totalAmount)} to ${name} and cancel this ticket (${ticket.quantity} × ${ticket.ticketType})? Its passes stop working, also if it was already used at the door.`
    : `Cancel ${name}'s free ticket (${ticket.quantity} × ${ticket.ticketType})? Its passes stop working.`

const confirmText = (ticket: TicketView) =>
  ticket.totalAmount > 0 ? `Yes, refund ${formatPrice(ticket.totalAmount)}` : 'Yes, cancel it'

export function AttendeeRefund(props: { eventId: string; attendee: { _id: string; username: string } }) {
  const { eventId, attendee } = props
  const [open, setOpen] = useState(false)
  const panelId = useId()
  return (
    <div className="attendee-refund">
      <button
        type="button"
        className="button-secondary"
        aria-expanded={open}
        aria-controls={open ? panelId : undefined}
        aria-label={`${open ? refundTexts.close : refundTexts.open} ${attendee.username}`}
        onClick={() => setOpen((now) => !now)}
      >
        {open ? refundTexts.close : refundTexts.open}
      </button>
      {open && (
        <RefundPanel id={panelId} eventId={eventId} attendee={attendee} onDone={() => setOpen(false)} />
      )}
    </div>
  )
}

function RefundPanel(props: {
  id: string
  eventId: string
  attendee: { _id: string; username: string }
  onDone(): void
}) {
  const { eventId, attendee } = props
  const queryClient = useQueryClient()
  const reasonId = useId()
  const tickets = useQuery({
    queryKey: keys.attendeeTickets(eventId, attendee._id),
    queryFn: () => fetchAttendeeTickets(eventId, attendee._id),
  })
  const [chosen, setChosen] = useState<TicketView | null>(null)
  const [reason, setReason] = useState('')
  const [error, setError] = useState<string | null>(null)

  const refund = useMutation({
    mutationFn: (ticket: TicketView) => refundTicket(ticket._id, reason.trim()),
    onSuccess: (message) => {
      notify.success(message)
      setChosen(null)
      setReason('')
      // the attendee list and the figures follow by their pushes; these are read again now
      void queryClient.invalidateQueries({ queryKey: keys.attendeeTickets(eventId, attendee._id) })
      void queryClient.invalidateQueries({ queryKey: keys.attendees(eventId) })
      void queryClient.invalidateQueries({ queryKey: keys.analytics(eventId) })
      props.onDone()
    },
    onError: (failure) => setError(messageOr(refundTexts.refundFailed)(failure)),
  })

  return (
    <section id={props.id} className="attendee-refund-panel" aria-label={`Refund ${attendee.username}`}>
      {tickets.data === undefined ? (
        tickets.isError ? (
          <FetchError message={refundTexts.failed} />
        ) : (
          <p className="analytics-empty">{refundTexts.loading}</p>
        )
      ) : tickets.data.length === 0 ? (
        <p className="analytics-empty">{refundTexts.none}</p>
      ) : chosen === null ? (
        <ul className="attendee-refund-tickets">
          {tickets.data.map((ticket) => (
            <li key={ticket._id}>
              <span>{ticketText(ticket)}</span>{' '}
              <button
                type="button"
                className="button-secondary"
                onClick={() => {
                  setError(null)
                  setChosen(ticket)
                }}
              >
                {ticket.totalAmount > 0 ? `Refund ${formatPrice(ticket.totalAmount)}` : 'Cancel ticket'}
              </button>
            </li>
          ))}
        </ul>
      ) : (
        <form
          className="attendee-refund-confirm"
          onSubmit={(submit) => {
            submit.preventDefault()
            setError(null)
            refund.mutate(chosen)
          }}
        >
          <p role="status">{refundQuestion(chosen, attendee.username)}</p>
          <div className="field">
            <label htmlFor={reasonId}>{refundTexts.reason}</label>
            <input
              id={reasonId}
              value={reason}
              maxLength={500}
              autoComplete="off"
              disabled={refund.isPending}
              onChange={(change) => setReason(change.target.value)}
            />
          </div>
          <div className="attendee-refund-actions">
            <button type="submit" className="button-danger" disabled={refund.isPending}>
              {refund.isPending ? refundTexts.refunding : confirmText(chosen)}
            </button>
            <button
              type="button"
              className="button-secondary"
              disabled={refund.isPending}
              onClick={() => {
                setChosen(null)
                setError(null)
              }}
            >
              {refundTexts.keep}
            </button>
          </div>
          {error && (
            <p className="form-error" role="alert">
              {error}
            </p>
          )}
        </form>
      )}
    </section>
  )
}
