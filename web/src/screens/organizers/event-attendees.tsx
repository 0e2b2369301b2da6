// One event's attendees (SPEC §2: a table of attendee name and e-mail, 'No attendees found for this
// event.'), a page at a time and searchable by name or e-mail, so an event of 10,000 people is as
// light as one of ten. Live while shown: the list's room is watched, each person's attendance is
// pushed to it and set in place; a page that shifts is fetched again, at most once a second
// (live/follow.ts).
import { useQuery } from '@tanstack/react-query'
import { useCallback, useEffect, useId, useState } from 'react'
import { rooms } from '../../../../contracts/live.ts'
import { type AttendeesQuery, attendeesQuery } from '../../api/queries.ts'
import { useLiveRoom } from '../../live/use-live.ts'
import { Pager } from '../../ui/dashboard/pager.tsx'
import { SearchBox } from '../../ui/dashboard/search-box.tsx'
import { FetchError } from '../../ui/fetched.tsx'
import { AttendeeRefund } from './attendee-refund.tsx'

export const ATTENDEES_PER_PAGE = 50

export function EventAttendees({ eventId, title }: { eventId: string; title: string }) {
  const headingId = useId()
  const [asked, setAsked] = useState<AttendeesQuery>({ page: 1, limit: ATTENDEES_PER_PAGE })
  const query = useQuery(attendeesQuery(eventId, asked))
  useLiveRoom(rooms.attendees(eventId))
  const onSearch = useCallback(
    (words: string) =>
      setAsked((now) =>
        (now.search ?? '') === words
          ? now
          : { page: 1, limit: now.limit, ...(words ? { search: words } : {}) },
      ),
    [],
  )

  const shown = query.data
  // People who left can empty the last page: show the one that is last now.
  useEffect(() => {
    if (!shown || query.isPlaceholderData) return
    const last = Math.max(1, Math.ceil(shown.total / shown.limit))
    if (asked.page > last) setAsked((now) => ({ ...now, page: last }))
  }, [shown, query.isPlaceholderData, asked.page])

  // named for its event: a dashboard with two rows open has two of these regions
  return (
    <section className="event-attendees" aria-label={`Attendees of ${title}`} aria-busy={query.isFetching}>
      <div className="event-attendees-header">
        <h3 id={headingId}>Attendees</h3>
        {(shown?.total ?? 0) > 0 || asked.search ? (
          <SearchBox label="Search attendees" placeholder="Name or email" onSearch={onSearch} />
        ) : null}
      </div>
      {shown === undefined ? (
        query.isError ? (
          <FetchError message="Error fetching attendees" />
        ) : (
          <p className="empty-text">Loading attendees...</p>
        )
      ) : shown.total === 0 && !asked.search ? (
        <p className="empty-text">No attendees found for this event.</p>
      ) : shown.attendees.length === 0 ? (
        <p className="empty-text">No attendees match “{asked.search}”.</p>
      ) : (
        <div className="table-scroll">
          <table aria-label={`Attendees of ${title}`}>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Email</th>
                <th scope="col">Tickets</th>
                <th scope="col">Refund</th>
              </tr>
            </thead>
            <tbody>
              {shown.attendees.map((person) => (
                <tr key={person._id}>
                  <td>{person.username}</td>
                  <td>{person.email}</td>
                  <td>{person.tickets}</td>
                  <td>
                    <AttendeeRefund eventId={eventId} attendee={person} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {shown && (
        <Pager
          label={`Pages of attendees of ${title}`}
          page={asked.page}
          limit={shown.limit}
          total={shown.total}
          onPage={(page) => setAsked((now) => ({ ...now, page }))}
        />
      )}
    </section>
  )
}
