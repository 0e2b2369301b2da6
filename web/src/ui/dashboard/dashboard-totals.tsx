// The account's totals over all its events (the organizer's) or the whole site's (the admin's),
// whatever page or search is shown: kept live by the rows' pushes (live/dashboards.ts).
import type { DashboardEventsPage, EventFigures } from '../../../../contracts/dashboards.ts'
import { Figure } from '../figure.tsx'
import { LiveCountsNote } from '../live-status.tsx'
import { formatRupees } from '../rupees.ts'

export function DashboardTotals({ totals }: { totals: DashboardEventsPage['totals'] }) {
  return (
    <>
      <fieldset
        className="dashboard-totals"
        aria-label="Totals"
        data-dashboard-totals
        data-sold={totals.sold}
      >
        <Figure label="Events" value={totals.events} />
        <Figure label="Tickets Sold" value={totals.sold} />
        <Figure label="Total Revenue" value={formatRupees(totals.revenue)} />
      </fieldset>
      <LiveCountsNote />
    </>
  )
}

/** one row's sale at a glance: seats sold of the capacity, revenue, people attending */
/** an event's sales as its row shows them */
export function RowFigures({
  row: { title, sold, capacity, revenue, attendees },
}: {
  row: Pick<EventFigures, 'title' | 'sold' | 'capacity' | 'revenue' | 'attendees'>
}) {
  return (
    <fieldset className="row-figures" aria-label={`Sales of ${title}`}>
      <Figure label="Sold" value={`${sold} / ${capacity}`} />
      <Figure label="Revenue" value={formatRupees(revenue)} />
      <Figure label="Attendees" value={attendees} />
    </fieldset>
  )
}
