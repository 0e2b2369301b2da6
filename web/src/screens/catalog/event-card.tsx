// One event in a grid (listing and search): image, title, day, place, price, and its details link.
import { Link } from '@tanstack/react-router'
import type { EventView } from '../../../../contracts/catalog.ts'
import { formatDate } from '../../ui/format.ts'
import { coverOf, priceText } from './event-facts.ts'

/** `level`: the title's heading level, one below the page's heading over the grid */
export function EventCard({
  event,
  price,
  level = 3,
}: {
  event: EventView
  price: number | null
  level?: 2 | 3
}) {
  const Title = level === 2 ? 'h2' : 'h3'
  return (
    <li className="card event-card">
      <img className="event-card-image" src={coverOf(event)} alt={event.title} loading="lazy" />
      <div className="event-card-body">
        <Title className="event-card-title">{event.title}</Title>
        <p>Date: {formatDate(event.date)}</p>
        <p>Location: {event.location}</p>
        <p>{priceText(price)}</p>
        {event.cancelledAt && <p className="event-card-cancelled">Cancelled</p>}
        <Link to="/event/$id" params={{ id: event._id }} className="button">
          View Details
        </Link>
      </div>
    </li>
  )
}

export function EventGrid({
  events,
  price,
  level,
}: {
  events: EventView[]
  price: (event: EventView) => number | null
  /** the cards' title level: 2 under the page's title (the listing), 3 under a results heading */
  level?: 2 | 3
}) {
  return (
    <ul className="event-grid">
      {events.map((event) => (
        <EventCard key={event._id} event={event} price={price(event)} level={level} />
      ))}
    </ul>
  )
}
