// The event page: the catalogue's event detail with its sale time and waiting room (issue 41) in
// place of Book Now, the seat map's picker (issue 40) and the schedule's sessions of that event
// below its tickets. The areas meet here, on the route, so that
// no screen imports another's folder.
import { useParams } from '@tanstack/react-router'
import type { EventView } from '../../../../contracts/catalog.ts'
import { EventDetailScreen } from '../../screens/catalog/event-detail.tsx'
import { EventSessions } from '../../screens/schedule/event-sessions.tsx'
import { EventSeating } from '../../screens/seating/seat-picker.tsx'
import { EventSale, useSaleAllowsBooking } from '../../screens/waiting-room/event-sale.tsx'

export function EventPage() {
  const { id } = useParams({ from: '/event/$id' })
  return (
    <EventDetailScreen
      sessions={<EventSessions key={id} eventId={id} />}
      seating={(event) => <SaleSeating event={event} />}
      sale={(event, booking) => <EventSale event={event} booking={booking} />}
    />
  )
}

/** the seat map's picker, its seats offered only while the sale lets this person book */
function SaleSeating({ event }: { event: EventView }) {
  return <EventSeating event={event} bookable={useSaleAllowsBooking(event)} />
}
