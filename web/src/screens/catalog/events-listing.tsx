// The public listing (/home, SPEC §2 Events listing): approved events as cards with their lowest
// price. Watching the 'events' room, it refetches when an event is approved or rejected, and on
// every (re)connection so that nothing pushed while offline is missed.
import { rooms } from '../../../../contracts/live.ts'
import { fetchEvents } from '../../api/catalog.ts'
import { useLiveConnected, useLiveFacts } from '../../live/use-live.ts'
import { Loading } from '../../ui/loading.tsx'
import { useLatestLoad } from '../../ui/use-latest-load.ts'
import { EventGrid } from './event-card.tsx'
import { lowestPrice } from './event-facts.ts'
import './catalog.css'

const reviewFacts = new Set(['EventApproved', 'EventRejected'])

export function EventsListingScreen() {
  const { load, refetch } = useLatestLoad(fetchEvents)
  const live = useLiveConnected()

  useLiveFacts({
    room: rooms.listing,
    onConnect: refetch,
    onFact(push) {
      if (reviewFacts.has(push.type)) refetch()
    },
  })

  if (load.state === 'loading') return <Loading />
  return (
    <section className="page events-page" data-live={live ? 'connected' : 'offline'}>
      <h1>Events</h1>
      {load.state === 'failed' ? (
        <p className="error-text" role="alert">
          Error fetching events
        </p>
      ) : load.value.length === 0 ? (
        <p className="empty-text">No events available</p>
      ) : (
        <EventGrid events={load.value.filter((e) => e.approvalStatus === 'Approved')} price={lowestPrice} />
      )}
    </section>
  )
}
