// One event under the admin's review: what it is, its status, and Approve / Reject (SPEC §2, §4);
// a pending event says it has not been approved yet (SPEC), a rejected one that it was rejected;
// for an approved event, how its sale stands (sold, revenue, attendees: the event's candidates).
// The description comes with the row; an approved event's card opens on its analytics panel: only
// opened cards fetch it, so a page of 25 cards costs one request and a sale none but open panels'.
import { memo, useId, useState } from 'react'
import type { EventFigures } from '../../../../contracts/dashboards.ts'
import type { Review } from '../../api/catalog.ts'
import { EventAnalytics } from '../../ui/analytics/event-analytics.tsx'
import { RowFigures } from '../../ui/dashboard/dashboard-totals.tsx'
import { formatDate } from '../../ui/format.ts'

/** memo: a push changes one row of the page, and only that card renders again (not 25, with their
 * links) */
export const DashboardEventCard = memo(function DashboardEventCard({
  row,
  open,
  onToggle,
  reviewing,
  onReview,
}: {
  row: EventFigures
  open: boolean
  /** opens or closes the card of this event (stable: the card is memoised) */
  onToggle: (eventId: string, open: boolean) => void
  reviewing: boolean
  onReview: (row: EventFigures, status: Review, reason?: string) => void
}) {
  const status = row.approvalStatus
  const [reason, setReason] = useState('')
  const reasonId = useId()
  const descriptionId = useId()
  const analyticsId = useId()
  const approved = status === 'Approved'
  return (
    <li
      className="card dashboard-event"
      aria-label={row.title}
      data-status={status}
      data-open={open}
      data-dashboard-row
    >
      <h2>{row.title}</h2>
      <p id={descriptionId} className="dashboard-event-description">
        {row.description}
      </p>
      <dl className="dashboard-event-facts">
        <dt>Date:</dt>
        <dd>{formatDate(row.date)}</dd>
        <dt>Location:</dt>
        <dd>{row.location}</dd>
        <dt>Status:</dt>
        <dd className={`status status-${status.toLowerCase()}`}>{status}</dd>
      </dl>
      {/* SPEC's notice on every event not approved; a rejection is said as one too (with the reason
          below, when one was given) */}
      {status !== 'Approved' && (
        <p className="dashboard-event-notice">This event has not been approved yet.</p>
      )}
      {status === 'Rejected' && <p className="dashboard-event-notice">This event has been rejected.</p>}
      {row.reviewReason && <p className="dashboard-event-reason">Reason given: {row.reviewReason}</p>}
      {approved && <RowFigures row={row} />}
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
          onClick={() => onReview(row, 'Approved', reason)}
        >
          Approve
        </button>
        <button
          type="button"
          className="button-danger"
          disabled={reviewing || status === 'Rejected'}
          onClick={() => onReview(row, 'Rejected', reason)}
        >
          Reject
        </button>
        <button
          type="button"
          className="button-secondary dashboard-event-toggle"
          aria-expanded={open}
          aria-controls={open ? (approved ? `${descriptionId} ${analyticsId}` : descriptionId) : undefined}
          onClick={() => onToggle(row._id, open)}
        >
          Details
        </button>
      </div>
      {open && approved && (
        <div id={analyticsId} className="dashboard-event-analytics">
          <EventAnalytics eventId={row._id} title={row.title} showAttendees />
        </div>
      )}
    </li>
  )
})
