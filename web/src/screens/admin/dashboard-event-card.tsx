// One event under the admin's review: what it is, its status, and Approve / Reject (SPEC §2, §4).
import { useId, useState } from 'react'
import type { EventView } from '../../../../contracts/catalog.ts'
import type { Review } from '../../api/catalog.ts'
import { EventAnalytics } from '../../ui/analytics/event-analytics.tsx'
import { formatDate } from '../../ui/format.ts'

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
  onReview: (event: EventView, status: Review, reason?: string) => void
}) {
  const status = event.approvalStatus
  const [reason, setReason] = useState('')
  const reasonId = useId()
  return (
    <li className="card dashboard-event" aria-label={event.title} data-status={status}>
      <h2>{event.title}</h2>
      <p className="dashboard-event-description">{event.description}</p>
      <dl className="dashboard-event-facts">
        <dt>Date:</dt>
        <dd>{formatDate(event.date)}</dd>
        <dt>Location:</dt>
        <dd>{event.location}</dd>
        <dt>Status:</dt>
        <dd className={`status status-${status.toLowerCase()}`}>{status}</dd>
      </dl>
      {status !== 'Approved' && (
        <p className="dashboard-event-notice">This event has not been approved yet.</p>
      )}
      {event.reviewReason && <p className="dashboard-event-reason">Reason given: {event.reviewReason}</p>}
      <div className="field dashboard-event-reason-field">
        <label htmlFor={reasonId}>Reason for the organizer (optional)</label>
        <input
          id={reasonId}
          type="text"
          maxLength={500}
          value={reason}
          disabled={reviewing}
          onChange={(change) => setReason(change.target.value)}
        />
      </div>
      <div className="dashboard-event-actions">
        <button
          type="button"
          disabled={reviewing || status === 'Approved'}
          onClick={() => onReview(event, 'Approved', reason)}
        >
          Approve
        </button>
        <button
          type="button"
          className="button-danger"
          disabled={reviewing || status === 'Rejected'}
          onClick={() => onReview(event, 'Rejected', reason)}
        >
          Reject
        </button>
      </div>
      {status === 'Approved' && <EventAnalyticsSlot event={event} />}
    </li>
  )
}
