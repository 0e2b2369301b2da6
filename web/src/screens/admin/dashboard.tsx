// Admin dashboard (/admin/dashboard, SPEC §2, §4, §8): the site's totals, then every event for
// review, Rejected first, then Pending, then Approved (the server's order), 25 to a page, filtered
// by status, with Approve / Reject. A card opens on its description and, when approved, its
// analytics; with at most five events every card is open. The admin's socket is in the 'admins'
// room: every sale and review pushes the event's row, set in place, and a page whose rows or order
// that changes is fetched again, at most once a second (live/follow.ts); every (re)connection
// fetches what is shown. Above the events, the Activity panel follows the ledger live.
import { useMutation, useMutationState, useQueryClient } from '@tanstack/react-query'
import { Link } from '@tanstack/react-router'
import { useCallback, useId } from 'react'
import type { EventView } from '../../../../contracts/catalog.ts'
import type { DashboardEventsPage, EventFigures } from '../../../../contracts/dashboards.ts'
import { type Review, reviewEvent } from '../../api/catalog.ts'
import { type DashboardQuery, keys } from '../../api/queries.ts'
import { useLiveConnected } from '../../live/use-live.ts'
import { DashboardTotals } from '../../ui/dashboard/dashboard-totals.tsx'
import { Pager } from '../../ui/dashboard/pager.tsx'
import { SearchBox } from '../../ui/dashboard/search-box.tsx'
import { useDashboardPage } from '../../ui/dashboard/use-dashboard-page.ts'
import '../../ui/dashboard/dashboard.css'
import { Fetched } from '../../ui/fetched.tsx'
import { notify } from '../../ui/toasts.ts'
import { ActivityPanel } from './activity-panel.tsx'
import { DashboardEventCard } from './dashboard-event-card.tsx'
import './dashboard.css'

type StatusFilter = NonNullable<DashboardQuery['status']>
const statusFilters: { value: StatusFilter | ''; label: string }[] = [
  { value: '', label: 'All' },
  { value: 'Pending', label: 'Pending' },
  { value: 'Approved', label: 'Approved' },
  { value: 'Rejected', label: 'Rejected' },
]

type ReviewAsked = { row: EventFigures; status: Review; reason?: string | undefined }
const reviewKey = ['review-event']

/** the reviewed event's status and reason in a cached row (its figures come with the push) */
const reviewedIn = (page: DashboardEventsPage, reviewed: EventView): DashboardEventsPage => ({
  ...page,
  events: page.events.map((row) =>
    row._id === reviewed._id
      ? { ...row, approvalStatus: reviewed.approvalStatus, reviewReason: reviewed.reviewReason ?? null }
      : row,
  ),
})

export function AdminDashboardScreen() {
  const queryClient = useQueryClient()
  const { asked, setAsked, events, onSearch, onPage, isOpen, toggle } = useDashboardPage()
  const live = useLiveConnected()
  const statusId = useId()
  const onStatus = (value: string) =>
    setAsked(({ status: _, ...rest }) => {
      const status = statusFilters.find((filter) => filter.value === value)?.value
      return { ...rest, page: 1, ...(status ? { status } : {}) }
    })

  const review = useMutation({
    mutationKey: reviewKey,
    mutationFn: ({ row, status, reason }: ReviewAsked) => {
      // The version of the event as the card shows it (its row, kept live; or the event's own read
      // when newer): another admin's decision the card has not shown yet is a 409.
      const read = queryClient.getQueryState<EventView>(keys.event(row._id))
      const fresh = read && !read.isInvalidated ? read.data?.version : undefined
      const version = Math.max(fresh ?? 0, row.version) || undefined
      return reviewEvent(row._id, status, version, reason)
    },
    onSuccess: (reviewed, { status }) => {
      queryClient.setQueryData(keys.event(reviewed._id), reviewed)
      for (const [key, page] of queryClient.getQueriesData<DashboardEventsPage>({
        queryKey: keys.dashboardEvents(),
      }))
        if (page) queryClient.setQueryData(key, reviewedIn(page, reviewed))
      if (status === 'Approved') notify.successShort('Event approved successfully!')
      else notify.errorShort('Event rejected !')
    },
    onError: () => notify.errorShort('Failed to update event status.'),
    // Someone else may have decided first, and the order and filter follow the status: show what
    // is true now.
    onSettled: (_, __, { row }) => {
      void queryClient.invalidateQueries({ queryKey: keys.dashboardEvents() })
      void queryClient.invalidateQueries({ queryKey: keys.event(row._id) })
    },
  })
  const { mutate } = review
  const onReview = useCallback(
    (row: EventFigures, status: Review, reason?: string) => mutate({ row, status, reason }),
    [mutate],
  )
  /** the events whose review is on its way (several cards may be reviewed at once) */
  const reviewing = new Set(
    useMutationState({
      filters: { mutationKey: reviewKey, status: 'pending' },
      select: (mutation) => (mutation.state.variables as ReviewAsked).row._id,
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
            <nav className="admin-dashboard-links" aria-label="Account">
              <Link to="/useraccounts" className="button button-secondary">
                User Accounts
              </Link>
              <Link to="/account/tokens" className="button button-secondary">
                API tokens
              </Link>
              <Link to="/admin/booking-fee" className="button button-secondary">
                Booking fee
              </Link>
              <Link to="/admin/invoices" className="button button-secondary">
                Booking fee invoices
              </Link>
            </nav>
          </header>
          <ActivityPanel />
          {content}
        </section>
      )}
    >
      {(shown) => (
        <>
          <DashboardTotals totals={shown.totals} />
          <div className="dashboard-filters">
            <div className="field">
              <label htmlFor={statusId}>Status</label>
              <select
                id={statusId}
                value={asked.status ?? ''}
                onChange={(change) => onStatus(change.target.value)}
              >
                {statusFilters.map((filter) => (
                  <option key={filter.value} value={filter.value}>
                    {filter.label}
                  </option>
                ))}
              </select>
            </div>
            <SearchBox label="Search events" placeholder="Words of the title" onSearch={onSearch} />
          </div>
          {shown.events.length === 0 ? (
            <p className="empty-text">No events available</p>
          ) : (
            <ul className="dashboard-events" aria-busy={events.isPlaceholderData}>
              {shown.events.map((row) => {
                const open = isOpen(row._id)
                return (
                  <DashboardEventCard
                    key={row._id}
                    row={row}
                    open={open}
                    onToggle={toggle}
                    reviewing={reviewing.has(row._id)}
                    onReview={onReview}
                  />
                )
              })}
            </ul>
          )}
          <Pager
            label="Pages of events"
            page={asked.page}
            limit={shown.limit}
            total={shown.total}
            onPage={onPage}
          />
        </>
      )}
    </Fetched>
  )
}
