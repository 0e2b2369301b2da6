// Event Schedule (/schedule, SPEC §2, §9): every session of the approved events on a calendar,
// fetched on every visit. Watching the 'schedule' room, it is fetched again when a session is
// added, and on every (re)connection (live/follow.ts). The calendar itself (FullCalendar) is
// loaded only here.
import { useQuery } from '@tanstack/react-query'
import { Suspense, useEffect, useState } from 'react'
import { rooms } from '../../../../contracts/live.ts'
import type { SessionView } from '../../../../contracts/schedule.ts'
import { sessionsQuery } from '../../api/queries.ts'
import { useLiveConnected, useLiveRoom } from '../../live/use-live.ts'
import { FetchError } from '../../ui/fetched.tsx'
import { Loading } from '../../ui/loading.tsx'
import { lazyRetry } from '../../ui/retry-import.ts'
import './schedule.css'

const ScheduleCalendar = lazyRetry(() => import('./schedule-calendar.tsx'))

const noSessions: SessionView[] = []

/** the start of the first session not over yet (the calendar opens on its day), else none */
export function nextSessionStart(sessions: SessionView[], now = Date.now()): string | undefined {
  let next: SessionView | undefined
  for (const session of sessions)
    if (
      Date.parse(session.endTime) >= now &&
      (!next || Date.parse(session.startTime) < Date.parse(next.startTime))
    )
      next = session
  return next?.startTime
}

export function EventScheduleScreen() {
  const sessions = useQuery(sessionsQuery())
  const live = useLiveConnected()
  useLiveRoom(rooms.schedule)
  // the day the calendar opens on, fixed by the first answer (later pushes do not move the view)
  const [opening, setOpening] = useState<{ date: string | undefined } | null>(null)
  const answered = sessions.data !== undefined || sessions.isError
  useEffect(() => {
    if (answered) setOpening((known) => known ?? { date: sessions.data && nextSessionStart(sessions.data) })
  }, [answered, sessions.data])

  useEffect(() => {
    if (sessions.error) console.error('The schedule could not be fetched', sessions.error)
  }, [sessions.error])

  return (
    <section className="page schedule-page" data-live={live ? 'connected' : 'offline'}>
      <h1>Event Schedule</h1>
      {sessions.isError && <FetchError message="Error fetching the schedule" />}
      <div className="card schedule-calendar">
        <Suspense fallback={<Loading />}>
          {opening ? (
            <ScheduleCalendar sessions={sessions.data ?? noSessions} initialDate={opening.date} />
          ) : (
            <Loading />
          )}
        </Suspense>
      </div>
    </section>
  )
}
