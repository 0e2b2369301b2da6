// One event of the organizer's (/organizers/events/{id}, reached from its dashboard row): what it
// is and how its sale stands, its attendees a page at a time and searchable, its analytics panel,
// its door (check-in figures and door staff, issue 16), its changes and cancellation (issue 17) and
// the 'Add Schedule' link. Live as the
// dashboard: the row's figures are pushed and set in place, the attendees and the check-in summary
// likewise, the analytics fetched again at most once a second (live/follow.ts).
import { useQuery } from '@tanstack/react-query'
import { getRouteApi, Link } from '@tanstack/react-router'
import { eventFiguresQuery } from '../../api/queries.ts'
import { useLiveConnected } from '../../live/use-live.ts'
import { EventAnalytics } from '../../ui/analytics/event-analytics.tsx'
import { RowFigures } from '../../ui/dashboard/dashboard-totals.tsx'
import '../../ui/dashboard/dashboard.css'
import { Fetched, messageOr } from '../../ui/fetched.tsx'
import { formatDate, formatTime } from '../../ui/format.ts'
import { LiveCountsNote } from '../../ui/live-status.tsx'
import { ApprovalNote, ApprovalPill } from './approval.tsx'
import { EventAttendees } from './event-attendees.tsx'
import { EventChangesPanel } from './event-changes.tsx'
import { EventCheckin } from './event-checkin.tsx'
import { PromoCodes } from './promo-codes.tsx'
import './organizers.css'

const eventRoute = getRouteApi('/_signed-in/_organizers/organizers/events/$eventId')

export function OrganizerEventScreen() {
  const { eventId } = eventRoute.useParams()
  const figures = useQuery(eventFiguresQuery(eventId))
  const live = useLiveConnected()
  return (
    <Fetched
      query={figures}
      failed={messageOr('Error fetching event details.')}
      frame={(content) => (
        <section className="page organizer-event-page" data-live={live ? 'connected' : 'offline'}>
          <p className="organizer-event-back">
            <Link to="/organizers/dashboard">← Attendees by Event</Link>
          </p>
          {content}
        </section>
      )}
    >
      {(row) => (
        <article className="card organizer-event" aria-labelledby="organizer-event-title">
          <header className="organizer-event-row">
            <div className="organizer-event-what">
              <h1 id="organizer-event-title">{row.title}</h1>
              <p className="organizer-event-when">
                {formatDate(row.date)} {formatTime(row.time)} <ApprovalPill status={row.approvalStatus} />
              </p>
            </div>
            <RowFigures row={row} />
            <div className="organizer-event-actions">
              <Link to="/schedule/$id" params={{ id: row._id }} className="button button-secondary">
                Add Schedule
              </Link>
            </div>
          </header>
          <LiveCountsNote />
          <dl className="organizer-event-facts">
            <dt>Category:</dt>
            <dd>{row.category}</dd>
            <dt>Location:</dt>
            <dd>{row.location}</dd>
            <dt>Review:</dt>
            <dd>
              <ApprovalNote row={row} />
            </dd>
          </dl>
          <EventChangesPanel eventId={row._id} />
          <EventAttendees eventId={row._id} title={row.title} />
          <EventAnalytics eventId={row._id} title={row.title} />
          <PromoCodes eventId={row._id} />
          <EventCheckin eventId={row._id} />
        </article>
      )}
    </Fetched>
  )
}
