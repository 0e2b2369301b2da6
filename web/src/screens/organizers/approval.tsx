// An event's review by an admin, as its organizer reads it (issue 12, screen 6): a pill with the
// status, and a line on what it means with the admin's reason when one was given.
import type { EventFigures } from '../../../../contracts/dashboards.ts'

const approvalNote: Record<string, string> = {
  Pending: "Waiting for an admin's review: not public yet.",
  Approved: 'Public: visitors can find and book it.',
  Rejected: 'Not public: an admin rejected it.',
}

export function ApprovalPill({ status }: { status: string }) {
  return (
    <span className={`approval approval-${status.toLowerCase()}`} data-status={status}>
      {status}
    </span>
  )
}

export function ApprovalNote({ row }: { row: Pick<EventFigures, 'approvalStatus' | 'reviewReason'> }) {
  return (
    <>
      <span className="approval-note">{approvalNote[row.approvalStatus] ?? ''}</span>
      {row.reviewReason && <span className="approval-reason">Reason: {row.reviewReason}</span>}
    </>
  )
}
