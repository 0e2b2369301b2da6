// The schedule's calendar with SPEC §9's settings: opens on the day view, on the day of the next
// session (issue 12); prev, next and Today,
// the title, and Month / Week / Day; each entry shows its time and title (and, where there is
// room, its location); automatic height, 30-minute slots, at most 5 entries in a day cell or the
// all-day row, 1-hour default duration, scrolled to 06:00, aspect ratio 1.35. An entry is a button
// (click, Enter or Space) that opens the session's details in a dialog.
import type { EventClickArg, EventContentArg, EventInput, EventMountArg } from '@fullcalendar/core'
import dayGridPlugin from '@fullcalendar/daygrid'
import FullCalendar from '@fullcalendar/react'
import timeGridPlugin from '@fullcalendar/timegrid'
import { type RefObject, useEffect, useMemo, useRef, useState } from 'react'
import type { SessionView } from '../../../../contracts/schedule.ts'
import { SessionDialog } from './session-dialog.tsx'
import { sessionWhen } from './session-when.ts'

const plugins = [dayGridPlugin, timeGridPlugin]

const toolbar = {
  left: 'prev,next today',
  center: 'title',
  right: 'dayGridMonth,timeGridWeek,timeGridDay',
}

const buttonText = { today: 'Today', month: 'Month', week: 'Week', day: 'Day' }

const entryOf = (session: SessionView): EventInput => ({
  id: session._id,
  title: session.sessionTitle,
  start: session.startTime,
  end: session.endTime,
  extendedProps: { eventTitle: session.eventTitle, location: session.location },
})

/** An entry: what it shows is its button's name (so a voice command of what is seen works), then,
 * for screen readers, its day and times in full. */
function Entry({ event, timeText }: EventContentArg) {
  const { eventTitle, location } = event.extendedProps as { eventTitle?: string; location?: string }
  const details = [eventTitle, location].filter(Boolean).join(' · ')
  const { start, end } = event
  return (
    <div className="schedule-entry" title={details ? `${event.title} (${details})` : event.title}>
      {timeText && <span className="schedule-entry-time">{timeText}</span>}{' '}
      <span className="schedule-entry-title">{event.title}</span>
      {location && <span className="schedule-entry-location">{location}</span>}
      {start && (
        <span className="visually-hidden">
          , {sessionWhen(start.toISOString(), (end ?? start).toISOString())}
        </span>
      )}
    </div>
  )
}

/**
 * FullCalendar draws its arrows as <span role="img"> without a name inside buttons named by their
 * title ('Previous day'): an image without a text alternative to assistive technology. They are
 * decoration; hidden from it, as FullCalendar redraws them.
 */
function useDecorativeIcons(root: RefObject<HTMLElement | null>) {
  useEffect(() => {
    const frame = root.current
    if (!frame) return
    const hide = () => {
      for (const icon of frame.querySelectorAll('.fc-icon[role="img"]')) {
        icon.removeAttribute('role')
        icon.setAttribute('aria-hidden', 'true')
      }
    }
    hide()
    const redrawn = new MutationObserver(hide)
    redrawn.observe(frame, { childList: true, subtree: true, attributes: true, attributeFilter: ['role'] })
    return () => redrawn.disconnect()
  }, [root])
}

export default function ScheduleCalendar({
  sessions,
  initialDate,
}: {
  sessions: SessionView[]
  /** the next session's start: the day view opens on its day (today when there is none) */
  initialDate?: string
}) {
  const events = useMemo(() => sessions.map(entryOf), [sessions])
  const [openId, setOpenId] = useState<string | null>(null)
  const open = sessions.find((session) => session._id === openId)
  const frame = useRef<HTMLDivElement>(null)
  useDecorativeIcons(frame)
  return (
    <div ref={frame}>
      <FullCalendar
        plugins={plugins}
        initialView="timeGridDay"
        initialDate={initialDate}
        headerToolbar={toolbar}
        buttonText={buttonText}
        events={events}
        eventContent={(arg: EventContentArg) => <Entry {...arg} />}
        height="auto"
        slotDuration="00:30:00"
        dayMaxEvents={5}
        defaultTimedEventDuration="01:00:00"
        scrollTime="06:00:00"
        aspectRatio={1.35}
        nowIndicator
        eventColor="#2e7d5b"
        eventClick={(arg: EventClickArg) => {
          arg.jsEvent.preventDefault()
          setOpenId(arg.event.id)
        }}
        eventDidMount={({ el }: EventMountArg) => {
          // FullCalendar makes a clickable entry focusable; it is a button that opens a dialog
          // (named by its content: Entry)
          el.setAttribute('role', 'button')
          el.setAttribute('aria-haspopup', 'dialog')
        }}
      />
      {open && <SessionDialog session={open} onClose={() => setOpenId(null)} />}
    </div>
  )
}
