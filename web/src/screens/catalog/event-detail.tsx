// Event detail (/event/{id}, SPEC §2): the event, its tickets with live availability, Book Now and
// the first video; the page puts the event's sessions (another area's) below the tickets. Watching
// 'event-<id>', each availability push is applied to it as it is, and it is fetched again when the
// event is reviewed, changed or cancelled, and on every (re)connection (live/follow.ts). A cancelled
// event says so, and offers no booking (issue 17). One way to book at a time: Book Now while seats
// are on sale; an event with none left says it is sold out and shows its waiting lists; someone
// offered seats from a list books through the offer's own Book Now.
import { useQuery } from '@tanstack/react-query'
import { Link, useParams } from '@tanstack/react-router'
import type { ReactNode } from 'react'
import type { EventView } from '../../../../contracts/catalog.ts'
import { eventQuery, myWaitlistQuery } from '../../api/queries.ts'
import { useEventRoom } from '../../live/use-event-room.ts'
import { useLiveConnected } from '../../live/use-live.ts'
import { useSession } from '../../session/use-session.ts'
import { Fetched } from '../../ui/fetched.tsx'
import { formatDate, formatEventTime, formatEventWhenIn, formatPrice } from '../../ui/format.ts'
import { LiveCountsNote } from '../../ui/live-status.tsx'
import { useEventZone } from '../../ui/use-site.ts'
import { coverOf } from './event-facts.ts'
import { Waitlists } from './waitlist.tsx'
import './catalog.css'

/** what the page shows of another area below the tickets: the event's sessions, its seat map; and
 * `sale`: its sale time and waiting room (issue 41), given the page's Book Now to show when booking
 * is allowed */
type Slots = {
  sessions: ReactNode
  seating?: ((event: EventView) => ReactNode) | undefined
  sale?: ((event: EventView, booking: ReactNode) => ReactNode) | undefined
}

function EventDetail({ id, sessions, seating, sale }: { id: string } & Slots) {
  // one fetched a moment ago (at boot: routes/prefetch.ts) is not fetched again
  const event = useQuery({
    ...eventQuery(id),
    refetchOnMount: (cached) => Date.now() - cached.state.dataUpdatedAt > 2000,
  })
  useEventRoom(id)
  return (
    <Fetched query={event} failed="Error fetching event details.">
      {(shown) => <EventArticle event={shown} sessions={sessions} seating={seating} sale={sale} />}
    </Fetched>
  )
}

function EventArticle({ event, sessions, seating, sale }: { event: EventView } & Slots) {
  const live = useLiveConnected()
  const zone = useEventZone()
  const video = event.videos[0]
  const [salesEndDate = '', salesEndTime = ''] = event.salesEnd?.split('T') ?? []
  return (
    <article className="page event-detail" data-live={live ? 'connected' : 'offline'}>
      <h1>{event.title}</h1>
      {event.cancelledAt && (
        <p className="event-cancelled form-error" role="status">
          This event has been cancelled.{event.cancelReason ? ` ${event.cancelReason}` : ''} Every paid ticket
          is refunded.
        </p>
      )}
      <img className="event-detail-image" src={coverOf(event)} alt={event.title} />
      <p className="event-description">{event.description}</p>
      <dl className="event-facts">
        <dt>Date:</dt>
        <dd>{formatDate(event.date)}</dd>
        <dt>Time:</dt>
        <dd>{formatEventTime(event.date, event.time, zone)}</dd>
        <dt>Location:</dt>
        <dd>{event.location}</dd>
        {event.salesEnd && (
          <>
            <dt>Sales end:</dt>
            <dd>{formatEventWhenIn(salesEndDate, salesEndTime, zone)}</dd>
          </>
        )}
      </dl>

      <section aria-labelledby="tickets-heading">
        <h2 id="tickets-heading">Tickets</h2>
        <LiveCountsNote />
        <ul className="ticket-list">
          {event.ticketTypes.map((ticket) => (
            <li key={ticket._id} className="card ticket-row">
              <span className="ticket-type">{ticket.type}</span>
              <span className="ticket-price">{formatPrice(ticket.price)}</span>
              <span className="ticket-available">Available: {ticket.available}</span>
            </li>
          ))}
        </ul>
        {sale ? sale(event, <BookingAction event={event} />) : <BookingAction event={event} />}
        <Waitlists event={event} />
      </section>

      {seating?.(event)}

      {sessions}

      {video && (
        <section aria-labelledby="video-heading">
          <h2 id="video-heading">Event Video</h2>
          {/* biome-ignore lint/a11y/useMediaCaption: organizers upload no caption tracks */}
          <video className="event-video" src={video.url} controls preload="metadata" />
        </section>
      )}
    </article>
  )
}

export const SOLD_OUT =
  'Sold out: every ticket has been sold. Join a waiting list below to be offered seats that come back.'

/** The page's one way to book: Book Now, or the news that it is sold out (the waiting lists follow). */
function BookingAction({ event }: { event: EventView }) {
  const { user } = useSession()
  const mine = useQuery({ ...myWaitlistQuery(), enabled: user !== null })
  if (event.cancelledAt) return null
  // seats held for this person: the offer's own Book Now is the one
  if ((mine.data ?? []).some((entry) => entry.eventId === event._id && entry.status === 'offered'))
    return null
  const soldOut = event.ticketTypes.length > 0 && event.ticketTypes.every((type) => type.available === 0)
  if (soldOut) {
    return (
      <p className="event-sold-out" role="status">
        {SOLD_OUT}
      </p>
    )
  }
  return (
    <Link to="/booking/$id" params={{ id: event._id }} className="button">
      Book Now
    </Link>
  )
}

/** `sessions`: what the page shows of the event's schedule, below its tickets; `seating`: its seat
 * map, when it has one (issue 40) */
export function EventDetailScreen({ sessions, seating, sale }: Slots) {
  const { id } = useParams({ from: '/event/$id' })
  // a new id is a new page: nothing of the previous event's room carries over
  return <EventDetail key={id} id={id} sessions={sessions} seating={seating} sale={sale} />
}
