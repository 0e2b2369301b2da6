// The event page's waiting lists (issue 17): a sold-out ticket type says "Sold out — join the
// waiting list" and takes a request for a number of seats; someone on a list sees their place in
// line, live (every change to the list is pushed to the event's room, and their places fetched
// again), and can leave; someone offered seats sees until when they are held, and books them.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { Link } from '@tanstack/react-router'
import { type FormEvent, useState } from 'react'
import type { EventView, TicketTypeView } from '../../../../contracts/catalog.ts'
import { WAITLIST_RULE } from '../../../../contracts/waitlist.ts'
import { keys, myWaitlistQuery } from '../../api/queries.ts'
import { joinWaitlist, leaveWaitlist, type WaitlistEntryView } from '../../api/waitlist.ts'
import { useSession } from '../../session/use-session.ts'
import { messageOr } from '../../ui/fetched.tsx'
import { formatInstant } from '../../ui/format.ts'
import { notify } from '../../ui/toasts.ts'

export const waitlistTexts = {
  soldOut: 'Sold out — join the waiting list',
  join: 'Join the waiting list',
  joining: 'Joining...',
  leave: 'Leave the waiting list',
  logIn: 'Log in to join the waiting list',
  seats: 'Seats',
  joinFailed: 'Could not join the waiting list.',
  leaveFailed: 'Could not leave the waiting list.',
  left: 'You have left the waiting list.',
} as const

export const placeText = (entry: WaitlistEntryView) =>
  `You are number ${entry.position} on the waiting list for ${entry.quantity} × ${entry.ticketType}.`
export const offerText = (entry: WaitlistEntryView) =>
  `${entry.quantity} × ${entry.ticketType} held for you until ${formatInstant(entry.offerUntil ?? '')}.`

export function Waitlists({ event }: { event: EventView }) {
  const { user } = useSession()
  const mine = useQuery({ ...myWaitlistQuery(), enabled: user !== null })
  if (event.cancelledAt) return null
  const entries = (mine.data ?? []).filter((e) => e.eventId === event._id)
  const shown = event.ticketTypes.filter(
    (t) => t.available === 0 || entries.some((e) => e.ticketTypeId === t._id),
  )
  if (shown.length === 0) return null
  return (
    <section className="waitlists" aria-label="Waiting lists">
      {shown.map((type) => (
        <Waitlist
          key={type._id}
          event={event}
          type={type}
          entry={entries.find((e) => e.ticketTypeId === type._id)}
          signedIn={user !== null}
        />
      ))}
      <p className="waitlist-rule">{WAITLIST_RULE}</p>
    </section>
  )
}

function Waitlist({
  event,
  type,
  entry,
  signedIn,
}: {
  event: EventView
  type: TicketTypeView
  entry: WaitlistEntryView | undefined
  signedIn: boolean
}) {
  const queryClient = useQueryClient()
  const [seats, setSeats] = useState('1')
  const [error, setError] = useState<string | null>(null)
  const settle = () => queryClient.invalidateQueries({ queryKey: keys.myWaitlist })
  const join = useMutation({
    mutationFn: () => joinWaitlist(event._id, type.type, Number(seats)),
    onSuccess: settle,
    onError: (failure) => setError(messageOr(waitlistTexts.joinFailed)(failure)),
  })
  const leave = useMutation({
    mutationFn: () => leaveWaitlist(event._id, type.type),
    onSuccess: () => {
      notify.success(waitlistTexts.left)
      return settle()
    },
    onError: (failure) => notify.error(messageOr(waitlistTexts.leaveFailed)(failure)),
  })
  const submit = (form: FormEvent) => {
    form.preventDefault()
    setError(null)
    join.mutate()
  }

  if (entry?.status === 'offered') {
    return (
      <div className="card waitlist waitlist-offer" data-ticket-type={type.type} role="status">
        <p>{offerText(entry)}</p>
        <Link to="/booking/$id" params={{ id: event._id }} className="button">
          Book Now
        </Link>
      </div>
    )
  }
  if (entry) {
    return (
      <div className="card waitlist" data-ticket-type={type.type}>
        <p className="waitlist-place" role="status">
          {placeText(entry)}
        </p>
        <button
          type="button"
          className="button-secondary"
          onClick={() => leave.mutate()}
          disabled={leave.isPending}
        >
          {waitlistTexts.leave}
        </button>
      </div>
    )
  }
  return (
    <div className="card waitlist" data-ticket-type={type.type}>
      <p className="waitlist-sold-out">
        <strong>{type.type}:</strong> {waitlistTexts.soldOut}
      </p>
      {signedIn ? (
        <form className="waitlist-form" onSubmit={submit} noValidate>
          <label>
            {waitlistTexts.seats}
            <input
              type="number"
              min={1}
              step={1}
              value={seats}
              onChange={(change) => setSeats(change.target.value)}
              disabled={join.isPending}
            />
          </label>
          <button type="submit" disabled={join.isPending}>
            {join.isPending ? waitlistTexts.joining : waitlistTexts.join}
          </button>
          {error && (
            <p className="form-error" role="alert">
              {error}
            </p>
          )}
        </form>
      ) : (
        <Link to="/login">{waitlistTexts.logIn}</Link>
      )}
    </div>
  )
}
