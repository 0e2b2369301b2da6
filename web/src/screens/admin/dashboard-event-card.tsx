// One event under the admin's review: what it is, its status, and Approve / Reject (SPEC §2, §4).
import type { EventView } from '../../../../contracts/catalog.ts'
import type { Review } from '../../api/catalog.ts'
import { formatEventDate } from '../catalog/event-facts.ts'
import { EventAnalytics } from '../organizers/event-analytics.tsx'

/**
 * Each approved event's analytics with its candidates (SPEC §2, Admin dashboard): how many attend,
 * and the analytics panel, both live (the admins' room hears every ticket push).
 */
function EventAnalyticsSlot({ event }: { event: EventView }) {
  return <EventAnalytics eventId={event._id} title={event.title} showAttendees />
}

export function DashboardEventCard({
  event,
  reviewing,
  onReview,
}: {
  event: EventView
  reviewing: boolean
  onReview: (event: EventView, status: Review) => void
}) {
  const status = event.approvalStatus
  return (
    <li className="card dashboard-event" aria-label={event.title} data-status={status}>
      <h2>{event.title}</h2>
      <p className="dashboard-event-description">{event.description}</p>
      <dl className="dashboard-event-facts">
        <dt>Date:</dt>
        <dd>{formatEventDate(event.date)}</dd>
        <dt>Location:</dt>
        <dd>{event.location}</dd>
        <dt>Status:</dt>
        <dd className={`status status-${status.toLowerCase()}`}>{status}</dd>
      </dl>
      {status !== 'Approved' && (
        <p className="dashboard-event-notice">This event has not been approved yet.</p>
      )}
      <div className="dashboard-event-actions">
        <button
          type="button"
          disabled={reviewing || status === 'Approved'}
          onClick={() => onReview(event, 'Approved')}
        >
          Approve
        </button>
        <button
          type="button"
          className="button-danger"
          disabled={reviewing || status === 'Rejected'}
          onClick={() => onReview(event, 'Rejected')}
        >
          Reject
        </button>
      </div>
      {status === 'Approved' && <EventAnalyticsSlot event={event} />}
    </li>
  )
}
