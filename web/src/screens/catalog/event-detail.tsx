// Event detail (/event/{id}, SPEC §2): the event, its tickets with live availability, Book Now and
// the first video. Watching 'event-<id>', it applies each availability push and refetches when the
// event is reviewed and on every (re)connection.
import { Link, useParams } from '@tanstack/react-router'
import { useCallback } from 'react'
import type { EventView } from '../../../../contracts/catalog.ts'
import { type AvailabilityPush, rooms } from '../../../../contracts/live.ts'
import { fetchEvent } from '../../api/catalog.ts'
import { useLiveConnected, useLiveFacts } from '../../live/use-live.ts'
import { formatDate, formatEventWhen, formatPrice, formatTime } from '../../ui/format.ts'
import { LiveCountsNote } from '../../ui/live-status.tsx'
import { Loading } from '../../ui/loading.tsx'
import { useLatestLoad } from '../../ui/use-latest-load.ts'
import { EventSessions } from '../schedule/event-sessions.tsx'
import { coverOf } from './event-facts.ts'
import './catalog.css'

const isAvailability = (data: Record<string, unknown>): data is AvailabilityPush =>
  typeof data.ticketTypeId === 'string' && typeof data.available === 'number'

const withAvailability = (event: EventView, push: AvailabilityPush): EventView =>
  push.eventId !== event._id
    ? event
    : {
        ...event,
        ticketTypes: event.ticketTypes.map((t) =>
          t._id === push.ticketTypeId ? { ...t, available: push.available, quantity: push.available } : t,
        ),
      }

function EventDetail({ id }: { id: string }) {
  const fetchThis = useCallback(() => fetchEvent(id), [id])
  const { load, refetch, setValue } = useLatestLoad(fetchThis)
  const live = useLiveConnected()

  useLiveFacts({
    room: rooms.event(id),
    onConnect: refetch,
    onFact(push) {
      if (push.data.eventId !== id) return
      if (isAvailability(push.data)) {
        const availability = push.data
        setValue((event) => withAvailability(event, availability))
      } else if (push.type === 'EventApproved' || push.type === 'EventRejected') {
        refetch()
      }
    },
  })

  if (load.state === 'loading') return <Loading />
  if (load.state === 'failed') {
    return (
      <section className="page">
        <p className="error-text" role="alert">
          Error fetching event details.
        </p>
      </section>
    )
  }
  const event = load.value
  const video = event.videos[0]
  const [salesEndDate = '', salesEndTime = ''] = event.salesEnd?.split('T') ?? []
  return (
    <article className="page event-detail" data-live={live ? 'connected' : 'offline'}>
      <h1>{event.title}</h1>
      <img className="event-detail-image" src={coverOf(event)} alt={event.title} />
      <p className="event-description">{event.description}</p>
      <dl className="event-facts">
        <dt>Date:</dt>
        <dd>{formatDate(event.date)}</dd>
        <dt>Time:</dt>
        <dd>{formatTime(event.time)}</dd>
        <dt>Location:</dt>
        <dd>{event.location}</dd>
        {event.salesEnd && (
          <>
            <dt>Sales end:</dt>
            <dd>{formatEventWhen(salesEndDate, salesEndTime)}</dd>
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
        <Link to="/booking/$id" params={{ id: event._id }} className="button">
          Book Now
        </Link>
      </section>

      <EventSessions eventId={event._id} />

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

export function EventDetailScreen() {
  const { id } = useParams({ from: '/event/$id' })
  // a new id is a new page: nothing of the previous event's load or room carries over
  return <EventDetail key={id} id={id} />
}
