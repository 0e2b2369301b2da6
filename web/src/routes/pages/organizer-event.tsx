// The organizer's event page with its seat map section (issue 40): the organizers' screen and the
// seat map's editor meet here, on the route, so that neither imports the other's folder. The editor
// comes with its own code, loaded when its section is opened.
import { Suspense } from 'react'
import { OrganizerEventScreen } from '../../screens/organizers/organizer-event.tsx'
import { Loading } from '../../ui/loading.tsx'
import { lazyRetry } from '../../ui/retry-import.ts'

const SeatMapSection = lazyRetry(() =>
  import('../../screens/seating/plan-editor.tsx').then((module) => ({ default: module.SeatMapSection })),
)

const seatMap = (eventId: string) => (
  <Suspense fallback={<Loading message="Loading the seat map..." />}>
    <SeatMapSection key={eventId} eventId={eventId} />
  </Suspense>
)

export function OrganizerEventPage() {
  return <OrganizerEventScreen seatMap={seatMap} />
}
