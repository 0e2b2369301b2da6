// Transfer Ticket (SPEC §2 /ticket/transfer/{ticketId}): which ticket it is (from the account's
// tickets: its event, number, type, quantity, seats and date), the new attendee's e-mail, the
// transfer machine's states on screen, and the dashboard 500 ms after a success.
import { getRouteApi, useNavigate } from '@tanstack/react-router'
import { useMachine } from '@xstate/react'
import { type FormEvent, useMemo, useState } from 'react'
import { fromPromise } from 'xstate'
import type { Registration } from '../../../../contracts/booking.ts'
import { transferTicket } from '../../api/booking.ts'
import { transferMachine } from '../../machines/transfer.ts'
import { Field } from '../../ui/field.tsx'
import { formatEventWhenIn } from '../../ui/format.ts'
import { useEventZone } from '../../ui/use-site.ts'
import { TicketLines } from './ticket-lines.tsx'
import { useMyTickets } from './use-my-tickets.ts'
import './booking.css'

const transferRoute = getRouteApi('/_signed-in/ticket/transfer/$ticketId')

export function TransferScreen() {
  const { ticketId } = transferRoute.useParams()
  const navigate = useNavigate()
  const machine = useMemo(
    () =>
      transferMachine.provide({
        actors: {
          transfer: fromPromise(({ input }) => transferTicket(input.ticketId, input.newAttendeeEmail)),
        },
        actions: {
          goToDashboard: () => {
            void navigate({ to: '/dashboard' })
          },
        },
      }),
    [navigate],
  )
  const [snapshot, send] = useMachine(machine, { input: { ticketId } })
  const found = useMyTickets().data?.tickets.find((t) => t._id === ticketId)
  // kept once seen: given away, the ticket leaves the list before the page leaves for the dashboard,
  // and the page still says which it gave
  const [seen, setSeen] = useState<Registration | undefined>(undefined)
  if (found && found !== seen) setSeen(found)
  const ticket = found ?? seen
  const busy = snapshot.matches('submitting')
  const done = snapshot.matches('success') || snapshot.matches('redirected')
  const { message, error } = snapshot.context

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    send({ type: 'SUBMIT', email: String(new FormData(event.currentTarget).get('newAttendeeEmail') ?? '') })
  }

  return (
    <section className="page form-page">
      <form className="card form" onSubmit={submit} aria-busy={busy}>
        <h1>Transfer Ticket</h1>
        {ticket && <TicketBeingTransferred ticket={ticket} />}
        <Field
          label="New Attendee Email"
          name="newAttendeeEmail"
          type="email"
          autoComplete="off"
          required
          disabled={busy || done}
          onChange={() => send({ type: 'EDIT' })}
        />
        {done && message && (
          <p className="success-text" role="status">
            {message}
          </p>
        )}
        {error && (
          <p className="form-error" role="alert">
            {error}
          </p>
        )}
        <div className="form-actions">
          <button type="submit" disabled={busy || done}>
            {busy ? 'Transferring...' : 'Transfer Ticket'}
          </button>
          <button
            type="button"
            className="button-secondary"
            onClick={() => {
              void navigate({ to: '/dashboard' })
            }}
          >
            Cancel
          </button>
        </div>
      </form>
    </section>
  )
}

/** the ticket the form gives away, as its card names it (the page may be opened from a link) */
function TicketBeingTransferred({ ticket }: { ticket: Registration }) {
  const zone = useEventZone()
  return (
    <section className="transfer-ticket" aria-label="The ticket">
      <h2>{ticket.eventTitle}</h2>
      <dl className="facts">
        <TicketLines ticket={ticket} />
        <dt>Date:</dt>
        <dd>{formatEventWhenIn(ticket.eventDate, ticket.eventTime, zone)}</dd>
      </dl>
    </section>
  )
}
