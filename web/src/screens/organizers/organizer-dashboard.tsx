import { Link } from '@tanstack/react-router'
import { memo, useId, useState } from 'react'
import type { EventFigures } from '../../../../contracts/dashboards.ts'
import { CSV_FILE_NAME, fetchAttendeesCsv } from '../../api/organizers.ts'
import { useLiveConnected } from '../../live/use-live.ts'
import { EventAnalytics } from '../../ui/analytics/event-analytics.tsx'
import { DashboardTotals, RowFigures } from '../../ui/dashboard/dashboard-totals.tsx'
import { Pager } from '../../ui/dashboard/pager.tsx'
import { SearchBox } from '../../ui/dashboard/search-box.tsx'
import { useDashboardPage } from '../../ui/dashboard/use-dashboard-page.ts'
import '../../ui/dashboard/dashboard.css'
import { Fetched } from '../../ui/fetched.tsx'
import { formatDate } from '../../ui/format.ts'
import { saveFile } from '../../ui/save-file.ts'
import { notify } from '../../ui/toasts.ts'
import { ApprovalNote, ApprovalPill } from './approval.tsx'
import { EventAttendees } from './event-attendees.tsx'
import './organizers.css'

/** what an opened row shows: SPEC's per-event block */
function EventDetails({ id, row }: { id: string; row: EventFigures }) {
  return (
    <div id={id} className="organizer-event-details">
      <dl className="organizer-event-facts">
        <dt>Category:</dt>
        <dd>{row.category}</dd>
        <dt>Location:</dt>
        <dd>{row.location}</dd>
        <dt>Date:</dt>
        <dd>{formatDate(row.date)}</dd>
        <dt>Review:</dt>
        <dd>
          <ApprovalNote row={row} />
        </dd>
      </dl>
      <EventAttendees eventId={row._id} title={row.title} />
      <EventAnalytics eventId={row._id} title={row.title} />
    </div>
  )
}

/** memo: a push changes one row of the page, and only that row renders again (not 25, with their
 * links) */
const OrganizerEventRow = memo(function OrganizerEventRow({
  row,
  open,
  onToggle,
}: {
  row: EventFigures
  open: boolean
  /** opens or closes the row of this event (stable: the row is memoised) */
  onToggle: (eventId: string, open: boolean) => void
}) {
  const headingId = useId()
  const detailsId = useId()
  return (
    <article className="card organizer-event" aria-labelledby={headingId} data-open={open} data-dashboard-row>
      <header className="organizer-event-row">
        <div className="organizer-event-what">
          <h2 id={headingId}>
            <Link to="/organizers/events/$eventId" params={{ eventId: row._id }}>
              {row.title}
            </Link>
          </h2>
          <p className="organizer-event-when">
            {formatDate(row.date)} <ApprovalPill status={row.approvalStatus} />
          </p>
        </div>
        <RowFigures row={row} />
        <div className="organizer-event-actions">
          <Link to="/schedule/$id" params={{ id: row._id }} className="button button-secondary">
            Add Schedule
          </Link>
          <button
            type="button"
            className="button-secondary"
            aria-expanded={open}
            aria-controls={open ? detailsId : undefined}
            onClick={() => onToggle(row._id, open)}
          >
            Details
          </button>
        </div>
      </header>
      {open && <EventDetails id={detailsId} row={row} />}
    </article>
  )
})

export function OrganizerDashboardScreen() {
  const { asked, events, onSearch, onPage, isOpen, toggle } = useDashboardPage()
  const live = useLiveConnected()
  const [exporting, setExporting] = useState(false)

  const exportCsv = async () => {
    setExporting(true)
    try {
      saveFile(await fetchAttendeesCsv(), CSV_FILE_NAME)
    } catch (error) {
      console.error('The attendee export failed', error)
      notify.error('Failed to export the attendees. Please try again.')
    } finally {
      setExporting(false)
    }
  }

  return (
    <Fetched
      query={events}
      failed="Error fetching events"
      frame={(content) => (
        <section className="page organizer-dashboard" data-live={live ? 'connected' : 'offline'}>
          <header className="organizer-dashboard-header">
            <h1>Attendees by Event</h1>
            <nav className="organizer-dashboard-links" aria-label="Account">
              <Link to="/organizer/billing">Billing</Link>
              <Link to="/organizer/invoices">Invoices</Link>
              <Link to="/account/tokens">API tokens</Link>
              <Link to="/account/webhooks">Webhooks</Link>
            </nav>
            <button type="button" onClick={() => void exportCsv()} disabled={exporting} aria-busy={exporting}>
              Export All as CSV
            </button>
          </header>
          {content}
        </section>
      )}
    >
      {(shown) =>
        shown.totals.events === 0 ? (
          <p className="empty-text">No events available</p>
        ) : (
          <>
            <DashboardTotals totals={shown.totals} />
            <div className="dashboard-filters">
              <SearchBox label="Search events" placeholder="Words of the title" onSearch={onSearch} />
            </div>
            {shown.events.length === 0 ? (
              <p className="empty-text">No events match “{asked.search}”.</p>
            ) : (
              <ul className="organizer-events" aria-busy={events.isPlaceholderData}>
                {shown.events.map((row) => {
                  const open = isOpen(row._id)
                  return (
                    <li key={row._id}>
                      <OrganizerEventRow row={row} open={open} onToggle={toggle} />
                    </li>
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
        )
      }
    </Fetched>
  )
}
