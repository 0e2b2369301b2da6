// Organizer dashboard (/organizers/dashboard, SPEC §2): each of the organizer's events with its
// attendees (name, e-mail), an 'Add Schedule' link and its analytics panel, and the export of every
// attendee as attendees_by_events.csv. The organizer's socket is in its own room: a sale, failure,
// cancel or transfer of one of its tickets, or a review of one of its events, fetches the list
// again (live/follow.ts).
import { useQuery } from '@tanstack/react-query'
import { Link } from '@tanstack/react-router'
import { useId, useState } from 'react'
import type { AttendeesByEvent } from '../../../../contracts/analytics.ts'
import { CSV_FILE_NAME, fetchAttendeesCsv } from '../../api/organizers.ts'
import { attendeesByEventQuery } from '../../api/queries.ts'
import { useLiveConnected } from '../../live/use-live.ts'
import { EventAnalytics } from '../../ui/analytics/event-analytics.tsx'
import { Fetched } from '../../ui/fetched.tsx'
import { formatDate } from '../../ui/format.ts'
import { notify } from '../../ui/toasts.ts'
import './organizers.css'

type OrganizerEvent = AttendeesByEvent[number]

/** a browser download of a blob under the given name */
function saveFile(blob: Blob, name: string) {
  const url = URL.createObjectURL(blob)
  const link = document.createElement('a')
  link.href = url
  link.download = name
  link.hidden = true
  document.body.append(link)
  link.click()
  link.remove()
  // the download has started from the URL; it may go once the click is handled
  setTimeout(() => URL.revokeObjectURL(url), 30_000)
}

/** what the organizer reads of an admin's review (the list refetches when one is made) */
const approvalNote: Record<string, string> = {
  Pending: "Waiting for an admin's review: not public yet.",
  Approved: 'Public: visitors can find and book it.',
  Rejected: 'Not public: an admin rejected it.',
}

/** one row per person: someone holding two tickets to the event attends it once */
const peopleOf = (event: OrganizerEvent) => [
  ...new Map(event.attendees.map((attendee) => [attendee._id, attendee])).values(),
]

function OrganizerEventCard({ event }: { event: OrganizerEvent }) {
  const headingId = useId()
  const people = peopleOf(event)
  return (
    <article className="card organizer-event" aria-labelledby={headingId}>
      <header className="organizer-event-header">
        <h2 id={headingId}>{event.title}</h2>
        <Link to="/schedule/$id" params={{ id: event._id }} className="button button-secondary">
          Add Schedule
        </Link>
      </header>
      <dl className="organizer-event-facts">
        <dt>Category:</dt>
        <dd>{event.category}</dd>
        <dt>Location:</dt>
        <dd>{event.location}</dd>
        <dt>Date:</dt>
        <dd>{formatDate(event.date)}</dd>
        <dt>Status:</dt>
        <dd>
          <span
            className={`approval approval-${event.approvalStatus.toLowerCase()}`}
            data-status={event.approvalStatus}
          >
            {event.approvalStatus}
          </span>{' '}
          <span className="approval-note">{approvalNote[event.approvalStatus] ?? ''}</span>
          {event.reviewReason && <span className="approval-reason">Reason: {event.reviewReason}</span>}
        </dd>
      </dl>
      {people.length === 0 ? (
        <p className="empty-text">No attendees found for this event.</p>
      ) : (
        <div className="table-scroll">
          <table aria-label={`Attendees of ${event.title}`}>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Email</th>
              </tr>
            </thead>
            <tbody>
              {people.map((person) => (
                <tr key={person._id}>
                  <td>{person.username}</td>
                  <td>{person.email}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <EventAnalytics eventId={event._id} title={event.title} />
    </article>
  )
}

export function OrganizerDashboardScreen() {
  const events = useQuery(attendeesByEventQuery())
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
            <button type="button" onClick={() => void exportCsv()} disabled={exporting} aria-busy={exporting}>
              Export All as CSV
            </button>
          </header>
          {content}
        </section>
      )}
    >
      {(list) =>
        list.length === 0 ? (
          <p className="empty-text">No events available</p>
        ) : (
          <ul className="organizer-events">
            {list.map((event) => (
              <li key={event._id}>
                <OrganizerEventCard event={event} />
              </li>
            ))}
          </ul>
        )
      }
    </Fetched>
  )
}
