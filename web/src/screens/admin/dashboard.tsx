// Admin dashboard (/admin/dashboard, SPEC §2, §4, §8): every event for review, Rejected first, with
// Approve / Reject. The admin's socket is in the 'admins' room: a submission or a review made
// anywhere refetches the list, as does every (re)connection. Above the events, the Activity panel
// follows the ledger live.
import { Link } from '@tanstack/react-router'
import { useState } from 'react'
import type { ApprovalStatus, EventView } from '../../../../contracts/catalog.ts'
import { fetchAllEvents, type Review, reviewEvent } from '../../api/catalog.ts'
import { useLiveConnected, useLiveFacts } from '../../live/use-live.ts'
import { Loading } from '../../ui/loading.tsx'
import { notify } from '../../ui/toasts.ts'
import { useLatestLoad } from '../../ui/use-latest-load.ts'
import { InquiryToasts } from '../support/inquiry-toasts.tsx'
import { ActivityPanel } from './activity-panel.tsx'
import { DashboardEventCard } from './dashboard-event-card.tsx'
import './dashboard.css'

const reviewFacts = new Set(['EventSubmitted', 'EventApproved', 'EventRejected'])

const order: Record<ApprovalStatus, number> = { Rejected: 0, Pending: 1, Approved: 2 }
/** Rejected first (SPEC §2); the server's order is kept within a status */
const forReview = (events: EventView[]) =>
  [...events].sort((a, b) => order[a.approvalStatus] - order[b.approvalStatus])

export function AdminDashboardScreen() {
  const { load, refetch, setValue } = useLatestLoad(fetchAllEvents)
  const [reviewing, setReviewing] = useState<ReadonlySet<string>>(new Set())
  const live = useLiveConnected()

  useLiveFacts({
    onConnect: refetch,
    onFact(push) {
      if (reviewFacts.has(push.type)) refetch()
    },
  })

  const review = async (event: EventView, status: Review, reason?: string) => {
    setReviewing((ids) => new Set(ids).add(event._id))
    try {
      const reviewed = await reviewEvent(event._id, status, event.version, reason)
      setValue((events) => events.map((e) => (e._id === reviewed._id ? reviewed : e)))
      if (status === 'Approved') notify.successShort('Event approved successfully!')
      else notify.errorShort('Event rejected !')
    } catch {
      notify.errorShort('Failed to update event status.')
      // Someone else may have decided first: show what is true now.
      refetch()
    } finally {
      setReviewing((ids) => {
        const left = new Set(ids)
        left.delete(event._id)
        return left
      })
      refetch()
    }
  }

  if (load.state === 'loading') return <Loading />
  return (
    <section className="page admin-dashboard" data-live={live ? 'connected' : 'offline'}>
      <header className="admin-dashboard-header">
        <h1>Admin Dashboard</h1>
        <Link to="/useraccounts" className="button button-secondary">
          User Accounts
        </Link>
      </header>
      <InquiryToasts />
      <ActivityPanel />
      {load.state === 'failed' ? (
        <p className="error-text" role="alert">
          Error fetching events
        </p>
      ) : load.value.length === 0 ? (
        <p className="empty-text">No events available</p>
      ) : (
        <ul className="dashboard-events">
          {forReview(load.value).map((event) => (
            <DashboardEventCard
              key={event._id}
              event={event}
              reviewing={reviewing.has(event._id)}
              onReview={review}
            />
          ))}
        </ul>
      )}
    </section>
  )
}
