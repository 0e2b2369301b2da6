// The event page's sale (issue 41): before its on-sale time, when it opens; with a waiting room, the
// line: joining it (signed in), the pre-queue, the place with how many are ahead and the estimated
// wait, the admission with the time left, an admission run out, and the room closed by a sell-out
// (the page's waiting lists follow). Places come live as the message `queue` (live/follow.ts sets
// them in the cache), so nothing is polled; a place kept across a closed tab is read on load.
// Booking is offered only when the sale allows it: the page hands in its Book Now as `booking`.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { Link, useLocation } from '@tanstack/react-router'
import { type ReactNode, useEffect, useState } from 'react'
import type { EventView } from '../../../../contracts/catalog.ts'
import { ROOM_CLOSED } from '../../../../contracts/queue.ts'
import { keys } from '../../api/keys.ts'
import { joinQueue, myPlaceQuery, type OnSaleView, onSaleQuery, type QueuePlace } from '../../api/queue.ts'
import { useSession } from '../../session/use-session.ts'
import { messageOr } from '../../ui/fetched.tsx'
import { formatInstantIn } from '../../ui/format.ts'
import { useNowPast } from '../../ui/use-now-past.ts'
import { useEventZone } from '../../ui/use-site.ts'
import { formatCountdown } from '../../ui/waits.ts'
import {
  admittedText,
  lineTexts,
  onSaleText,
  preQueueText,
  typeOnSaleText,
  waitingTexts,
} from './line-texts.ts'
import './waiting-room.css'

/** the time now, read again every second while `ticking` */
function useNow(ticking: boolean): number {
  const [now, setNow] = useState(() => Date.now())
  useEffect(() => {
    if (!ticking) return
    setNow(Date.now())
    const timer = setInterval(() => setNow(Date.now()), 1000)
    return () => clearInterval(timer)
  }, [ticking])
  return now
}

/**
 * Whether the sale lets this person book now, as EventSale offers Book Now: no sale time, or its
 * time come and, with a waiting room, admitted (until the admission runs out) or the room closed. The
 * seat map's picker offers its seats only then (the booking page would refuse them).
 */
export function useSaleAllowsBooking(event: EventView): boolean {
  const onsale = useQuery(onSaleQuery(event._id))
  const { user } = useSession()
  const room = onsale.data?.waitingRoom === true
  const place = useQuery({ ...myPlaceQuery(event._id), enabled: user !== null && room })
  const opensAt = onsale.data ? Date.parse(onsale.data.opensAt) : 0
  const admittedUntil = place.data?.admissionExpiresAt ? Date.parse(place.data.admissionExpiresAt) : 0
  const now = useNowPast([opensAt, admittedUntil])
  if (event.cancelledAt || onsale.isPending) return false
  if (onsale.isError || !onsale.data) return true
  if (!room) return now >= opensAt
  const state = place.data?.state
  return (state === 'admitted' && admittedUntil > now) || state === 'closed'
}

export function EventSale({ event, booking }: { event: EventView; booking: ReactNode }) {
  const onsale = useQuery(onSaleQuery(event._id))
  if (event.cancelledAt) return booking
  // the sale's rules unknown yet: no Book Now that might not be allowed
  if (onsale.isPending) return null
  if (onsale.isError || !onsale.data) return booking
  return <Sale event={event} onsale={onsale.data} booking={booking} />
}

function Sale({ event, onsale, booking }: { event: EventView; onsale: OnSaleView; booking: ReactNode }) {
  const zone = useEventZone()
  const opensAt = Date.parse(onsale.opensAt)
  const now = useNow(true)
  const opened = now >= opensAt
  const when = formatInstantIn(onsale.opensAt, zone)
  // the ticket types on sale later than the event, each with its time, until it comes
  const later = onsale.ticketTypes.filter((type) => now < Date.parse(type.opensAt))
  const laterTypes = later.length > 0 && (
    <ul className="sale-opens-types" aria-label={lineTexts.laterTypes}>
      {later.map((type) => (
        <li key={type.ticketTypeId}>
          {typeOnSaleText(type.ticketType, formatInstantIn(type.opensAt, zone))}
        </li>
      ))}
    </ul>
  )
  if (!onsale.waitingRoom) {
    return opened ? (
      <>
        {laterTypes}
        {booking}
      </>
    ) : (
      <>
        <p className="sale-opens">{onSaleText(when)}</p>
        {laterTypes}
      </>
    )
  }
  return (
    <section className="card waiting-room" aria-labelledby="waiting-room-heading">
      <h3 id="waiting-room-heading">{lineTexts.heading}</h3>
      {!opened && <p className="sale-opens">{onSaleText(when)}</p>}
      {laterTypes}
      <Line eventId={event._id} opened={opened} when={when} now={now} booking={booking} />
    </section>
  )
}

function Line(props: { eventId: string; opened: boolean; when: string; now: number; booking: ReactNode }) {
  const { eventId, opened, when, now, booking } = props
  const { user } = useSession()
  const place = useQuery({ ...myPlaceQuery(eventId), enabled: user !== null })
  if (user === null) {
    return (
      <>
        <p>{opened ? lineTexts.openRoom : lineTexts.room}</p>
        <LogIn />
      </>
    )
  }
  if (place.isPending) return null
  if (!place.data) return <JoinLine eventId={eventId} opened={opened} />
  return <Place place={place.data} when={when} now={now} booking={booking} />
}

function LogIn() {
  const here = useLocation({ select: (location) => location.href })
  return (
    <Link to="/login" search={{ redirect: here }}>
      {lineTexts.logIn}
    </Link>
  )
}

function JoinLine({ eventId, opened }: { eventId: string; opened: boolean }) {
  const queryClient = useQueryClient()
  const [error, setError] = useState<string | null>(null)
  const join = useMutation({
    mutationFn: () => joinQueue(eventId),
    onSuccess: (place) => queryClient.setQueryData(keys.queuePlace(eventId), place),
    onError: (failure) => setError(messageOr(lineTexts.joinFailed)(failure)),
  })
  return (
    <>
      <p>{opened ? lineTexts.openRoom : lineTexts.room}</p>
      <button
        type="button"
        onClick={() => {
          setError(null)
          join.mutate()
        }}
        disabled={join.isPending}
      >
        {join.isPending ? lineTexts.joining : lineTexts.join}
      </button>
      {error && (
        <p className="form-error" role="alert">
          {error}
        </p>
      )}
    </>
  )
}

/** where the buyer stands; what changes is said in a polite live region */
function Place(props: { place: QueuePlace; when: string; now: number; booking: ReactNode }) {
  const { place, when, now, booking } = props
  const zone = useEventZone()
  const expiresAt = place.admissionExpiresAt ? Date.parse(place.admissionExpiresAt) : Number.NaN
  // an admission runs out on its own: no message comes when it does
  const state = place.state === 'admitted' && !(expiresAt > now) ? 'expired' : place.state
  const waiting = state === 'waiting' ? waitingTexts(place) : null
  return (
    <>
      <div className="waiting-room-place" aria-live="polite" data-state={state}>
        {state === 'pre-queue' && <p>{preQueueText(when)}</p>}
        {waiting && (
          <>
            <p className="waiting-room-position">{waiting.place}</p>
            <p>{waiting.ahead}</p>
            <p>{waiting.wait}</p>
          </>
        )}
        {state === 'admitted' && (
          <p className="waiting-room-admitted">
            {admittedText(formatInstantIn(place.admissionExpiresAt ?? '', zone))}
          </p>
        )}
        {state === 'expired' && <p>{lineTexts.expired}</p>}
        {state === 'closed' && <p className="event-sold-out">{ROOM_CLOSED}</p>}
      </div>
      {state === 'admitted' && (
        <>
          <p className="waiting-room-countdown">
            {lineTexts.timeLeft} <span role="timer">{formatCountdown(expiresAt - now)}</span>
          </p>
          {booking}
        </>
      )}
      {/* the room closed: the sale goes on without it (seats coming back go to the waiting lists) */}
      {state === 'closed' && booking}
    </>
  )
}
