// The 'Sessions' section of an event's page: its sessions (GET /schedule?eventId=) by start, each
// with its time, title and location; a title opens the session's details. Watching the event's
// room, a new session (SessionScheduled) appears without a reload; fetched again on every
// connection (live/follow.ts).
import { useQuery } from '@tanstack/react-query'
import { useState } from 'react'
import { rooms } from '../../../../contracts/live.ts'
import { sessionsQuery } from '../../api/queries.ts'
import { useLiveRoom } from '../../live/use-live.ts'
import { Fetched } from '../../ui/fetched.tsx'
import { SessionDialog } from './session-dialog.tsx'
import { sessionWhen } from './session-when.ts'
import './schedule.css'

export function EventSessions({ eventId }: { eventId: string }) {
  const sessions = useQuery(sessionsQuery(eventId))
  const [openId, setOpenId] = useState<string | null>(null)
  useLiveRoom(rooms.event(eventId))

  const open = sessions.data?.find((session) => session._id === openId)
  return (
    <section aria-labelledby="sessions-heading" className="event-sessions">
      <h2 id="sessions-heading">Sessions</h2>
      <Fetched
        query={sessions}
        loading={<p className="form-hint">Loading sessions…</p>}
        failed="Error fetching the sessions"
        frame={(content) => content}
      >
        {(list) =>
          list.length === 0 ? (
            <p className="form-hint">No sessions scheduled yet.</p>
          ) : (
            <ul className="session-list" aria-label="Sessions">
              {list.map((session) => (
                <li key={session._id} className="card session-row" aria-label={session.sessionTitle}>
                  <span className="session-row-time">{sessionWhen(session.startTime, session.endTime)}</span>
                  <button
                    type="button"
                    className="session-row-title"
                    aria-haspopup="dialog"
                    onClick={() => setOpenId(session._id)}
                  >
                    {session.sessionTitle}
                  </button>
                  {session.location && <span className="session-row-location">{session.location}</span>}
                </li>
              ))}
            </ul>
          )
        }
      </Fetched>
      {open && <SessionDialog session={open} onClose={() => setOpenId(null)} />}
    </section>
  )
}
