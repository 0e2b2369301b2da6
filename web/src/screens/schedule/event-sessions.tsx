// The 'Sessions' section of an event's page: its sessions (GET /schedule?eventId=) by start, each
// with its time, title and location; a title opens the session's details. Watching the event's
// room, a new session (SessionScheduled) appears without a reload; refetched on every connection.
import { useCallback, useState } from 'react'
import { rooms } from '../../../../contracts/live.ts'
import { fetchSessions } from '../../api/schedule.ts'
import { useLiveFacts } from '../../live/use-live.ts'
import { useLatestLoad } from '../../ui/use-latest-load.ts'
import { SessionDialog } from './session-dialog.tsx'
import { sessionWhen } from './session-when.ts'
import './schedule.css'

export function EventSessions({ eventId }: { eventId: string }) {
  const fetchThese = useCallback(() => fetchSessions(eventId), [eventId])
  const { load, refetch } = useLatestLoad(fetchThese)
  const [openId, setOpenId] = useState<string | null>(null)

  useLiveFacts({
    room: rooms.event(eventId),
    onConnect: refetch,
    onFact(push) {
      if (push.type === 'SessionScheduled' && push.data.eventId === eventId) refetch()
    },
  })

  const sessions = load.state === 'loaded' ? load.value : []
  const open = sessions.find((session) => session._id === openId)
  return (
    <section aria-labelledby="sessions-heading" className="event-sessions">
      <h2 id="sessions-heading">Sessions</h2>
      {load.state === 'loading' && <p className="form-hint">Loading sessions…</p>}
      {load.state === 'failed' && (
        <p className="error-text" role="alert">
          Error fetching the sessions
        </p>
      )}
      {load.state === 'loaded' && sessions.length === 0 && (
        <p className="form-hint">No sessions scheduled yet.</p>
      )}
      {sessions.length > 0 && (
        <ul className="session-list" aria-label="Sessions">
          {sessions.map((session) => (
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
      )}
      {open && <SessionDialog session={open} onClose={() => setOpenId(null)} />}
    </section>
  )
}
