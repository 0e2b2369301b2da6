// When a session runs, in the one format of ui/format.ts: '20 Dec 2026, 10:00 am – 11:30 am', or
// both instants in full when it ends on another day. A session's times are instants (a local
// date-time as the organizer's browser sent it, or a full ISO time), shown in the viewer's zone as
// the calendar shows them.
import { formatInstant, formatTime } from '../../ui/format.ts'

const pad = (n: number) => String(n).padStart(2, '0')

export function sessionWhen(startTime: string, endTime: string): string {
  const start = new Date(startTime)
  const end = new Date(endTime)
  if (Number.isNaN(start.getTime()) || Number.isNaN(end.getTime()))
    return `${formatInstant(startTime)} – ${formatInstant(endTime)}`
  const sameDay = start.toDateString() === end.toDateString()
  return sameDay
    ? `${formatInstant(start)} – ${formatTime(`${pad(end.getHours())}:${pad(end.getMinutes())}`)}`
    : `${formatInstant(start)} – ${formatInstant(end)}`
}
