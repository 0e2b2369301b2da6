// User dashboard (SPEC §2 /dashboard): the account, then 'Ticket Data' with a card per ticket;
// Cancel needs no confirmation (SPEC §5) but is held for 5 s behind an Undo toast before it is
// sent (held-cancels.ts says what happens when the buyer leaves meanwhile; the toast's Undo is the
// one way back, the card says it is being cancelled); Transfer opens the transfer screen. A
// cancelled ticket stays, under 'Cancelled tickets', saying who cancelled it and its refund. Event
// times are in the event's zone, labelled. Live: fetched again when one of the account's tickets
// changes (a refund paid out included). A paid ticket's invoice, and a refunded one's credit note,
// download from its card. Below the tickets, the page puts the account's inquiries
// (another area's: routes/pages/user-dashboard.tsx).
import { useQueryClient } from '@tanstack/react-query'
import { Link } from '@tanstack/react-router'
import { type ReactNode, useEffect, useId, useRef } from 'react'
import type { Profile } from '../../../../contracts/accounts.ts'
import type { Registration } from '../../../../contracts/booking.ts'
import { cancelTicket, cancelTicketOnLeave } from '../../api/booking.ts'
import { keys } from '../../api/queries.ts'
import { useLiveConnected } from '../../live/use-live.ts'
import { useSession } from '../../session/use-session.ts'
import { Fetched, messageOr } from '../../ui/fetched.tsx'
import { focusLost, focusWhenAble } from '../../ui/focus.ts'
import { formatEventWhenIn, formatPrice } from '../../ui/format.ts'
import { ticketNumber } from '../../ui/ticket-number.ts'
import { notify, toastify } from '../../ui/toasts.ts'
import { useEventZone } from '../../ui/use-site.ts'
import { CancelCutoff, cancellationClosed } from './cancel-cutoff.tsx'
import { type CancelPhase, holdCancel, UNDO_MS, undoCancel, useHeldCancels } from './held-cancels.ts'
import { TicketDocumentButtons } from './ticket-document-buttons.tsx'
import { documentsOf } from './ticket-documents.ts'
import { cancelledText, endingTexts, isCancelled, refundText } from './ticket-ending.ts'
import { ticketAnchor, useScrollToTicket } from './ticket-number.ts'
import { useMyTickets } from './use-my-tickets.ts'
import './booking.css'
import { SeatFacts } from '../../ui/seat-lines.tsx'

export const cancelMessages = {
  success: 'Ticket canceled successfully.',
  failed: 'An error occurred while deleting the ticket.',
  kept: 'Cancel undone: your ticket is kept.',
} as const

const undoToastId = (ticketId: string) => `cancel-${ticketId}`

function UndoToast({ eventTitle, onUndo }: { eventTitle: string; onUndo(): void }) {
  // the card's Cancel is off while the cancel is held, and the focus it had is lost: Undo takes it,
  // so a keyboard user has the way back at hand within its 5 s (not five Tabs away)
  const undoButton = useRef<HTMLButtonElement>(null)
  useEffect(() => {
    if (focusLost()) undoButton.current?.focus()
  }, [])
  return (
    <div className="undo-toast">
      <span>Cancelling your ticket for {eventTitle}…</span>
      <button ref={undoButton} type="button" className="button-link" onClick={onUndo}>
        Undo
      </button>
    </div>
  )
}

/** `inquiries`: what the page shows of the account's inquiries, below its tickets */
export function DashboardScreen({ inquiries }: { inquiries: ReactNode }) {
  const queryClient = useQueryClient()
  const mine = useMyTickets()
  const live = useLiveConnected()
  const { token } = useSession()
  const held = useHeldCancels()
  const target = useScrollToTicket(mine.data !== undefined)
  const cancelledHeading = useId()

  const cancel = (ticket: Registration) => {
    const toastId = undoToastId(ticket._id)
    holdCancel(ticket._id, (reason) => {
      void toastify().then(({ toast }) => toast.dismiss(toastId))
      if (reason === 'leaving') {
        cancelTicketOnLeave(ticket._id, token)
        return
      }
      return cancelTicket(ticket._id, token).then(
        () => {
          notify.success(cancelMessages.success)
          return queryClient.invalidateQueries({ queryKey: keys.myTickets })
        },
        () => notify.error(cancelMessages.failed),
      )
    })
    void toastify().then(({ toast }) =>
      toast(<UndoToast eventTitle={ticket.eventTitle} onUndo={() => undo(ticket._id)} />, {
        toastId,
        autoClose: UNDO_MS,
        closeOnClick: false,
        // its Undo is the one way back (the card only says it is being cancelled): nothing may
        // hide the toast before its time, no close button, no swipe
        closeButton: false,
        draggable: false,
        pauseOnHover: false,
        pauseOnFocusLoss: false,
      }),
    )
  }

  const undo = (ticketId: string) => {
    void toastify().then(({ toast }) => toast.dismiss(undoToastId(ticketId)))
    if (undoCancel(ticketId)) {
      notify.info(cancelMessages.kept)
      // back to the card's Cancel once it is on again, where the toast's Undo took the focus from
      focusWhenAble(
        () => document.querySelector<HTMLElement>(`#${ticketAnchor(ticketId)} .ticket-cancel`),
        () => focusLost() || document.activeElement?.closest('.Toastify') !== null,
      )
    }
  }

  return (
    <Fetched query={mine} failed={messageOr('An error occurred while fetching data.')}>
      {({ profile, tickets: all }) => {
        const tickets = all.filter((ticket) => !isCancelled(ticket))
        const cancelled = all.filter(isCancelled)
        return (
          <section className="page dashboard-page" data-live={live ? 'connected' : 'offline'}>
            <header className="card dashboard-account">
              <h1>My Dashboard</h1>
              <p className="dashboard-username">{profile.username}</p>
              <p className="dashboard-email">{profile.email}</p>
              <p className="dashboard-links">
                <Link to="/registrations">Your Registrations</Link>
                {' · '}
                <Link to="/account/invoices">Your invoices</Link>
              </p>
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
                      cancelling={held.get(ticket._id) ?? null}
                      targeted={target === ticketAnchor(ticket._id)}
                      onCancel={() => cancel(ticket)}
                    />
                  </li>
                ))}
              </ul>
            )}
            {cancelled.length > 0 && (
              <section className="cancelled-tickets" aria-labelledby={cancelledHeading}>
                <h2 id={cancelledHeading}>{endingTexts.heading}</h2>
                <ul className="ticket-list">
                  {cancelled.map((ticket) => (
                    <li key={ticket._id}>
                      <CancelledTicketCard
                        ticket={ticket}
                        profile={profile}
                        targeted={target === ticketAnchor(ticket._id)}
                      />
                    </li>
                  ))}
                </ul>
              </section>
            )}
            {inquiries}
          </section>
        )
      }}
    </Fetched>
  )
}

type TicketCardProps = {
  ticket: Registration
  profile: Profile
  /** its cancel is held (it goes out unless undone) or on its way */
  cancelling: CancelPhase | null
  /** the card a link opened the dashboard on */
  targeted: boolean
  onCancel(): void
}

/** What a card says of its ticket, live or cancelled (SPEC §2's fields, its number first). */
function TicketFacts({ ticket, profile }: { ticket: Registration; profile: Profile }) {
  const zone = useEventZone()
  return (
    <dl className="facts">
      <dt>Ticket No.</dt>
      <dd className="ticket-number">{ticketNumber(ticket._id)}</dd>
      <dt>Candidate Name:</dt>
      <dd>{profile.username}</dd>
      <dt>Ticket Type:</dt>
      <dd>{ticket.ticketType}</dd>
      <dt>Quantity:</dt>
      <dd>{ticket.quantity}</dd>
      <SeatFacts ticket={ticket} />
      <dt>Total Amount:</dt>
      <dd>{formatPrice(ticket.totalAmount)}</dd>
      <dt>Date:</dt>
      <dd>{formatEventWhenIn(ticket.eventDate, ticket.eventTime, zone)}</dd>
      <dt>Location:</dt>
      <dd>{ticket.eventLocation}</dd>
    </dl>
  )
}

function TicketCard({ ticket, profile, cancelling, targeted, onCancel }: TicketCardProps) {
  return (
    <article
      id={ticketAnchor(ticket._id)}
      className={`card ticket-card${cancelling ? ' ticket-card-cancelling' : ''}${targeted ? ' ticket-card-targeted' : ''}`}
      aria-label={ticket.eventTitle}
      aria-busy={cancelling !== null}
    >
      {ticket.image && <img src={ticket.image} alt={ticket.eventTitle} />}
      <div className="ticket-card-body">
        <h3>{ticket.eventTitle}</h3>
        <TicketFacts ticket={ticket} profile={profile} />
        {cancelling ? (
          <p className="ticket-cancelling" role="status">
            Being cancelled…
          </p>
        ) : (
          <CancelCutoff cancellableUntil={ticket.cancellableUntil} />
        )}
        <div className="ticket-actions">
          <button
            type="button"
            className="button-danger ticket-cancel"
            onClick={onCancel}
            disabled={cancelling !== null || cancellationClosed(ticket.cancellableUntil)}
          >
            Cancel
          </button>
          <Link to="/ticket/transfer/$ticketId" params={{ ticketId: ticket._id }} className="button">
            Transfer
          </Link>
          <Link to="/ticket/$ticketId" params={{ ticketId: ticket._id }} className="button button-secondary">
            Passes
          </Link>
          <TicketDocumentButtons ticket={ticket} />
        </div>
      </div>
    </article>
  )
}

/** A ticket that was cancelled: what it was, who cancelled it and its refund; nothing to do with it. */
function CancelledTicketCard({
  ticket,
  profile,
  targeted,
}: {
  ticket: Registration
  profile: Profile
  targeted: boolean
}) {
  const refund = refundText(ticket)
  return (
    <article
      id={ticketAnchor(ticket._id)}
      className={`card ticket-card ticket-card-cancelled${targeted ? ' ticket-card-targeted' : ''}`}
      aria-label={ticket.eventTitle}
    >
      {ticket.image && <img src={ticket.image} alt={ticket.eventTitle} />}
      <div className="ticket-card-body">
        <h3>{ticket.eventTitle}</h3>
        <TicketFacts ticket={ticket} profile={profile} />
        <p className="ticket-ended">{cancelledText(ticket)}</p>
        {refund && <p className="ticket-refund">{refund}</p>}
        {documentsOf(ticket).length > 0 && (
          <div className="ticket-actions">
            <TicketDocumentButtons ticket={ticket} />
          </div>
        )}
      </div>
    </article>
  )
}
