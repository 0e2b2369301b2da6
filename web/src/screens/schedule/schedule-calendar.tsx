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
import { useMemo, useState } from 'react'
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

function Entry({ event, timeText }: EventContentArg) {
  const { eventTitle, location } = event.extendedProps as { eventTitle?: string; location?: string }
  const details = [eventTitle, location].filter(Boolean).join(' · ')
  return (
    <div className="schedule-entry" title={details ? `${event.title} (${details})` : event.title}>
      {timeText && <span className="schedule-entry-time">{timeText}</span>}{' '}
      <span className="schedule-entry-title">{event.title}</span>
      {location && <span className="schedule-entry-location">{location}</span>}
    </div>
  )
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
  return (
    <>
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
        eventDidMount={({ el, event }: EventMountArg) => {
          // FullCalendar makes a clickable entry focusable; it is a button that opens a dialog
          el.setAttribute('role', 'button')
          el.setAttribute('aria-haspopup', 'dialog')
          const { start, end } = event
          const when = start ? `, ${sessionWhen(start.toISOString(), (end ?? start).toISOString())}` : ''
          el.setAttribute('aria-label', `${event.title}${when}`)
        }}
      />
      {open && <SessionDialog session={open} onClose={() => setOpenId(null)} />}
    </>
  )
}
