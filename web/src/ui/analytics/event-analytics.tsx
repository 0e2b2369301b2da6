// Event analytics panel (SPEC §2, §8), on the organizer's and the admin's dashboards: tickets sold,
// revenue, payment status counts, ticket types with their quantity, and the charts (loaded apart,
// only once there are sales to draw). Every figure follows the sales live: a push of this event's
// figures fetches them again, at most once a second however fast it sells (live/follow.ts); the
// dashboards mount the panel only for the events opened, so a closed row costs nothing. A failed
// fetch is logged and shows empty analytics.
import { useQuery } from '@tanstack/react-query'
import { Suspense, useId } from 'react'
import type { AnalyticsReply } from '../../../../contracts/analytics.ts'
import { analyticsQuery } from '../../api/queries.ts'
import { Figure } from '../figure.tsx'
import { lazyRetry } from '../retry-import.ts'
import { formatRupees } from '../rupees.ts'
import './analytics.css'

const AnalyticsCharts = lazyRetry(() => import('./analytics-charts.tsx'))

type Totals = AnalyticsReply['totals']
const noTotals: Totals = { ticketsSold: 0, revenue: 0, attendees: 0, Pending: 0, Completed: 0, Failed: 0 }

export function EventAnalytics({
  eventId,
  title,
  showAttendees = false,
}: {
  eventId: string
  title: string
  /** the admin's dashboard shows how many people attend (the event's candidates) */
  showAttendees?: boolean
}) {
  const headingId = useId()
  const query = useQuery(analyticsQuery(eventId))

  const reply = query.data ?? null
  const analytics = reply?.analytics ?? []
  const timeline = reply?.timeline ?? []
  const totals = reply?.totals ?? noTotals
  const hasSales = analytics.some((row) => row.totalTicketsSold > 0 || row.totalRevenue > 0)

  return (
    <section
      className="event-analytics"
      aria-labelledby={headingId}
      aria-busy={query.isPending}
      data-state={reply ? 'loaded' : query.isError ? 'failed' : 'loading'}
    >
      <h3 id={headingId}>Event Analytics for {reply?.event.title ?? title}</h3>
      <div className="analytics-figures analytics-totals">
        {showAttendees && <Figure label="Attendees" value={totals.attendees} />}
        <Figure label="Tickets Sold" value={totals.ticketsSold} />
        <Figure label="Total Revenue" value={formatRupees(totals.revenue)} />
      </div>
      <h4>Payment Status</h4>
      <div className="analytics-figures">
        <Figure label="Pending" value={totals.Pending} />
        <Figure label="Completed" value={totals.Completed} />
        <Figure label="Failed" value={totals.Failed} />
      </div>
      <h4>Ticket Types</h4>
      {analytics.length === 0 ? (
        <p className="analytics-empty">No ticket types.</p>
      ) : (
        <div className="analytics-figures">
          {analytics.map((row) => (
            <Figure key={row.ticketType} label={row.ticketType} value={row.totalTicketsSold} />
          ))}
        </div>
      )}
      {hasSales && (
        <Suspense fallback={<p className="analytics-empty">Loading charts...</p>}>
          <AnalyticsCharts analytics={analytics} timeline={timeline} />
        </Suspense>
      )}
    </section>
  )
}
