// The public listing (/home, SPEC §2 Events listing): approved events as cards with their lowest
// price. Watching the 'events' room, it is fetched again when an event is approved or rejected,
// and on every (re)connection so that nothing pushed while offline is missed (live/follow.ts).
import { useQuery } from '@tanstack/react-query'
import { rooms } from '../../../../contracts/live.ts'
import { eventsQuery } from '../../api/queries.ts'
import { useLiveConnected, useLiveRoom } from '../../live/use-live.ts'
import { Fetched } from '../../ui/fetched.tsx'
import { EventGrid } from './event-card.tsx'
import { lowestPrice } from './event-facts.ts'
import './catalog.css'

export function EventsListingScreen() {
  const events = useQuery(eventsQuery())
  const live = useLiveConnected()
  useLiveRoom(rooms.listing)

  return (
    <Fetched
      query={events}
      failed="Error fetching events"
      frame={(content) => (
        <section className="page events-page" data-live={live ? 'connected' : 'offline'}>
          <h1>Events</h1>
          {content}
        </section>
      )}
    >
      {(list) =>
        list.length === 0 ? (
          <p className="empty-text">No events available</p>
        ) : (
          <EventGrid
            events={list.filter((e) => e.approvalStatus === 'Approved')}
            price={lowestPrice}
            level={2}
          />
        )
      }
    </Fetched>
  )
}
