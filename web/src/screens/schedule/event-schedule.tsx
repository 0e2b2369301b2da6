// Event Schedule (/schedule, SPEC §2, §9): every session of the approved events on a calendar,
// fetched on every visit. Watching the 'schedule' room, it refetches when a session is added, and
// on every (re)connection. The calendar itself (FullCalendar) is loaded only here.
import { lazy, Suspense, useCallback, useEffect, useRef, useState } from 'react'
import { rooms } from '../../../../contracts/live.ts'
import type { SessionView } from '../../../../contracts/schedule.ts'
import { fetchSessions } from '../../api/schedule.ts'
import { useLiveConnected, useLiveFacts } from '../../live/use-live.ts'
import { Loading } from '../../ui/loading.tsx'
import './schedule.css'

const ScheduleCalendar = lazy(() => import('./schedule-calendar.tsx'))

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
  const [sessions, setSessions] = useState<SessionView[]>([])
  // the day the calendar opens on, fixed by the first answer (later pushes do not move the view)
  const [opening, setOpening] = useState<{ date: string | undefined } | null>(null)
  const [failed, setFailed] = useState(false)
  const live = useLiveConnected()
  const latest = useRef(0)

  const refetch = useCallback(() => {
    const ticket = ++latest.current
    fetchSessions().then(
      (fetched) => {
        if (ticket !== latest.current) return
        setSessions(fetched)
        setOpening((known) => known ?? { date: nextSessionStart(fetched) })
        setFailed(false)
      },
      (error: unknown) => {
        if (ticket !== latest.current) return
        console.error('The schedule could not be fetched', error)
        setOpening((known) => known ?? { date: undefined })
        setFailed(true)
      },
    )
  }, [])

  useEffect(() => {
    refetch()
    return () => {
      latest.current++ // answers arriving after leaving are dropped
    }
  }, [refetch])

  useLiveFacts({
    room: rooms.schedule,
    onConnect: refetch,
    onFact(push) {
      if (push.type === 'SessionScheduled') refetch()
    },
  })

  return (
    <section className="page schedule-page" data-live={live ? 'connected' : 'offline'}>
      <h1>Event Schedule</h1>
      {failed && (
        <p className="error-text" role="alert">
          Error fetching the schedule
        </p>
      )}
      <div className="card schedule-calendar">
        <Suspense fallback={<Loading />}>
          {opening ? <ScheduleCalendar sessions={sessions} initialDate={opening.date} /> : <Loading />}
        </Suspense>
      </div>
    </section>
  )
}
