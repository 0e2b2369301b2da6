// One event of the organizer's (/organizers/events/{id}, reached from its dashboard row): what it
// is and how its sale stands, with the 'Add Schedule' link, above sections of their own, each at
// its own address (?section=, routes/event-sections.ts) as organizers know them from other
// ticketing tools: the overview (its details, changes and cancellation, issue 17), its attendees a
// page at a time and searchable, its analytics panel, its promo codes, its door (check-in figures,
// double entries and door staff, issue 16), its seat map (issue 40), its sale time and waiting room (issue 41). Only the section shown is mounted, so only its data is
// fetched and followed. Live as the dashboard: the row's figures are pushed and set in place, the
// attendees and the check-in summary likewise, the analytics fetched again at most once a second
// (live/follow.ts).
import { useQuery } from '@tanstack/react-query'
import { getRouteApi, Link } from '@tanstack/react-router'
import type { ReactNode } from 'react'
import { eventFiguresQuery } from '../../api/queries.ts'
import { useLiveConnected } from '../../live/use-live.ts'
import { EventAnalytics } from '../../ui/analytics/event-analytics.tsx'
import { RowFigures } from '../../ui/dashboard/dashboard-totals.tsx'
import '../../ui/dashboard/dashboard.css'
import type { EventSectionId } from '../../routes/event-sections.ts'
import { Fetched, messageOr } from '../../ui/fetched.tsx'
import { formatDate, formatEventTime } from '../../ui/format.ts'
import { LiveCountsNote } from '../../ui/live-status.tsx'
import { useEventZone } from '../../ui/use-site.ts'
import { ApprovalNote, ApprovalPill } from './approval.tsx'
import { EventAttendees } from './event-attendees.tsx'
import { EventChangesPanel } from './event-changes.tsx'
import { EventCheckin } from './event-checkin.tsx'
import { PromoCodes } from './promo-codes.tsx'
import { SaleTime } from './sale-time.tsx'
import './organizers.css'

const eventRoute = getRouteApi('/_signed-in/_organizers/organizers/events/$eventId')

/** the sections in the order of their bar; the overview is the page's plain address */
export const eventSections: ReadonlyArray<{ id: EventSectionId | undefined; label: string }> = [
  { id: undefined, label: 'Overview' },
  { id: 'attendees', label: 'Attendees' },
  { id: 'analytics', label: 'Analytics' },
  { id: 'promo-codes', label: 'Promo codes' },
  { id: 'check-in', label: 'Check-in' },
  { id: 'seat-map', label: 'Seat map' },
  { id: 'sale-time', label: 'Sale time' },
]

export const sectionNavLabel = 'Event sections'

/** `seatMap`: the event's seat map and its editor (issue 40), another area's, handed in by the page */
export function OrganizerEventScreen({ seatMap }: { seatMap?: (eventId: string) => ReactNode } = {}) {
  const { eventId } = eventRoute.useParams()
  const { section } = eventRoute.useSearch()
  const figures = useQuery(eventFiguresQuery(eventId))
  const live = useLiveConnected()
  const zone = useEventZone()
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
                {formatDate(row.date)} {formatEventTime(row.date, row.time, zone)}{' '}
                <ApprovalPill status={row.approvalStatus} />
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
          <SectionNav eventId={row._id} />
          <SectionPanel shown={section}>
            {section === 'attendees' ? (
              <EventAttendees eventId={row._id} title={row.title} />
            ) : section === 'analytics' ? (
              <EventAnalytics eventId={row._id} title={row.title} />
            ) : section === 'promo-codes' ? (
              <PromoCodes eventId={row._id} />
            ) : section === 'check-in' ? (
              <EventCheckin eventId={row._id} />
            ) : section === 'seat-map' ? (
              seatMap?.(row._id)
            ) : section === 'sale-time' ? (
              <SaleTime eventId={row._id} />
            ) : (
              <>
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
              </>
            )}
          </SectionPanel>
        </article>
      )}
    </Fetched>
  )
}

/** The sections' bar: links, the one shown marked current. The page keeps its scroll position: the
 * bar stays where it was clicked, the section opening under it. */
function SectionNav({ eventId }: { eventId: string }) {
  return (
    <nav className="section-nav" aria-label={sectionNavLabel}>
      <ul>
        {eventSections.map(({ id, label }) => (
          <li key={label}>
            <Link
              to="/organizers/events/$eventId"
              params={{ eventId }}
              search={id ? { section: id } : {}}
              resetScroll={false}
              // current (aria-current="page") only with exactly its own search: the overview's empty
              // one would otherwise match every section's
              activeOptions={{ exact: true }}
            >
              {label}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  )
}

/** The section shown, under a heading of its name (for the page's outline and screen readers: the
 * bar shows the name already) that each section's own headings follow. */
function SectionPanel({ shown, children }: { shown: EventSectionId | undefined; children: ReactNode }) {
  const label = eventSections.find(({ id }) => id === shown)?.label ?? 'Overview'
  return (
    <div className="organizer-event-section" data-section={shown ?? 'overview'}>
      <h2 className="visually-hidden">{label}</h2>
      {children}
    </div>
  )
}
