// The event page: the catalogue's event detail with the schedule's sessions of that event below its
// tickets. Two areas meet here, on the route, so that neither screen imports the other's folder.
import { useParams } from '@tanstack/react-router'
import { EventDetailScreen } from '../../screens/catalog/event-detail.tsx'
import { EventSessions } from '../../screens/schedule/event-sessions.tsx'

export function EventPage() {
  const { id } = useParams({ from: '/event/$id' })
  return <EventDetailScreen sessions={<EventSessions key={id} eventId={id} />} />
}
