// When an event's door opens: CHECKIN_OPENS_HOURS before its start (its date and time, a wall clock
// in TIMEZONE). Scans before then are answered too-early; the manifest tells offline doors.
import { instantIn } from '../wall-clock.ts'

export type DoorOpening = (event: { date: string; time: string }) => string

export const doorOpening =
  (timeZone: string, opensHours: number): DoorOpening =>
  (event) =>
    new Date(instantIn(event.date, event.time, timeZone).getTime() - opensHours * 3_600_000).toISOString()
