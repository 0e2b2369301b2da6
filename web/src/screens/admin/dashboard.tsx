// Admin dashboard (/admin/dashboard, SPEC §2, §4, §8): every event for review, Rejected first, with
// Approve / Reject. The admin's socket is in the 'admins' room: a submission or a review made
// anywhere fetches the list again, as does every (re)connection (live/follow.ts). Above the
// events, the Activity panel follows the ledger live.
import { useMutation, useMutationState, useQuery, useQueryClient } from '@tanstack/react-query'
import { Link } from '@tanstack/react-router'
import type { ApprovalStatus, EventView } from '../../../../contracts/catalog.ts'
import { type Review, reviewEvent } from '../../api/catalog.ts'
import { eventsForReviewQuery, keys } from '../../api/queries.ts'
import { useLiveConnected } from '../../live/use-live.ts'
import { Fetched } from '../../ui/fetched.tsx'
import { notify } from '../../ui/toasts.ts'
import { ActivityPanel } from './activity-panel.tsx'
import { DashboardEventCard } from './dashboard-event-card.tsx'
import './dashboard.css'

const order: Record<ApprovalStatus, number> = { Rejected: 0, Pending: 1, Approved: 2 }
/** Rejected first (SPEC §2); the server's order is kept within a status */
const forReview = (events: EventView[]) =>
  [...events].sort((a, b) => order[a.approvalStatus] - order[b.approvalStatus])

type ReviewAsked = { event: EventView; status: Review; reason?: string | undefined }
const reviewKey = ['review-event']

export function AdminDashboardScreen() {
  const queryClient = useQueryClient()
  const events = useQuery(eventsForReviewQuery())
  const live = useLiveConnected()

  const review = useMutation({
    mutationKey: reviewKey,
    mutationFn: ({ event, status, reason }: ReviewAsked) =>
      reviewEvent(event._id, status, event.version, reason),
    onSuccess: (reviewed, { status }) => {
      queryClient.setQueryData<EventView[]>(keys.eventsForReview, (known) =>
        known?.map((e) => (e._id === reviewed._id ? reviewed : e)),
      )
      if (status === 'Approved') notify.successShort('Event approved successfully!')
      else notify.errorShort('Event rejected !')
    },
    onError: () => notify.errorShort('Failed to update event status.'),
    // Someone else may have decided first, or more has changed since: show what is true now.
    onSettled: () => queryClient.invalidateQueries({ queryKey: keys.eventsForReview }),
  })
  /** the events whose review is on its way (several cards may be reviewed at once) */
  const reviewing = new Set(
    useMutationState({
      filters: { mutationKey: reviewKey, status: 'pending' },
      select: (mutation) => (mutation.state.variables as ReviewAsked).event._id,
    }),
  )

  return (
    <Fetched
      query={events}
      failed="Error fetching events"
      frame={(content) => (
        <section className="page admin-dashboard" data-live={live ? 'connected' : 'offline'}>
          <header className="admin-dashboard-header">
            <h1>Admin Dashboard</h1>
            <Link to="/useraccounts" className="button button-secondary">
              User Accounts
            </Link>
          </header>
          <ActivityPanel />
          {content}
        </section>
      )}
    >
      {(list) =>
        list.length === 0 ? (
          <p className="empty-text">No events available</p>
        ) : (
          <ul className="dashboard-events">
            {forReview(list).map((event) => (
              <DashboardEventCard
                key={event._id}
                event={event}
                reviewing={reviewing.has(event._id)}
                onReview={(event, status, reason) => review.mutate({ event, status, reason })}
              />
            ))}
          </ul>
        )
      }
    </Fetched>
  )
}
