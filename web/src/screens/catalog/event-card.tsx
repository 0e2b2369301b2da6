// One event in a grid (listing and search): image, title, day, place, price, and its details link.
import { Link } from '@tanstack/react-router'
import type { EventView } from '../../../../contracts/catalog.ts'
import { formatDate } from '../../ui/format.ts'
import { coverOf, priceText } from './event-facts.ts'

export function EventCard({ event, price }: { event: EventView; price: number | null }) {
  return (
    <li className="card event-card">
      <img className="event-card-image" src={coverOf(event)} alt={event.title} loading="lazy" />
      <div className="event-card-body">
        <h3>{event.title}</h3>
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
}: {
  events: EventView[]
  price: (event: EventView) => number | null
}) {
  return (
    <ul className="event-grid">
      {events.map((event) => (
        <EventCard key={event._id} event={event} price={price(event)} />
      ))}
    </ul>
  )
}
