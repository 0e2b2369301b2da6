// Event sessions (the schedule) and notices to attendees (API.md /schedule, /notify).
import * as v from 'valibot'
import { isCalendarDate } from './catalog.ts'
import { Id } from './common.ts'

/** A date-time whose date is on the calendar and whose time is on the clock. */
const realTime = (text: string) =>
  isCalendarDate(text.slice(0, 10)) && Number(text.slice(11, 13)) < 24 && Number(text.slice(14, 16)) < 60

/** A local date-time as a datetime-local input gives it (YYYY-MM-DDTHH:MM), or a full ISO time. */
export const DateTime = (label: string) =>
  v.pipe(
    v.string(`${label} is required.`),
    v.trim(),
    v.nonEmpty(`${label} is required.`),
    v.regex(
      /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2})?$/,
      `${label} must be a date and time (YYYY-MM-DDTHH:MM).`,
    ),
    v.check(
      (text) =>
        isCalendarDate(text.slice(0, 10)) &&
        Number(text.slice(11, 13)) < 24 &&
        Number(text.slice(14, 16)) < 60,
      `${label} must be a real date and time.`,
    ),
  )

export const Speaker = v.object({
  name: v.pipe(
    v.string('Please provide both name and bio for the speaker.'),
    v.trim(),
    v.nonEmpty('Please provide both name and bio for the speaker.'),
    v.maxLength(100),
  ),
  bio: v.pipe(
    v.string('Please provide both name and bio for the speaker.'),
    v.trim(),
    v.nonEmpty('Please provide both name and bio for the speaker.'),
    v.maxLength(1000),
  ),
})

export const ScheduleBody = v.pipe(
  v.object({
    eventId: Id,
    sessionTitle: v.pipe(
      v.string('Session title is required.'),
      v.trim(),
      v.nonEmpty('Session title is required.'),
      v.maxLength(150),
    ),
    description: v.optional(v.pipe(v.string(), v.trim(), v.maxLength(2000)), ''),
    startTime: DateTime('Start time'),
    endTime: DateTime('End time'),
    speakers: v.optional(v.pipe(v.array(Speaker), v.maxLength(50, 'At most 50 speakers.')), []),
    location: v.optional(v.pipe(v.string(), v.trim(), v.maxLength(200)), ''),
  }),
  v.forward(
    v.check(
      (s) =>
        !realTime(s.startTime) || !realTime(s.endTime) || Date.parse(s.endTime) > Date.parse(s.startTime),
      'The end time must be after the start time.',
    ),
    ['endTime'],
  ),
)
export type ScheduleBody = v.InferInput<typeof ScheduleBody>

export const SessionView = v.object({
  _id: v.string(),
  eventId: v.string(),
  eventTitle: v.string(),
  sessionTitle: v.string(),
  description: v.string(),
  startTime: v.string(),
  endTime: v.string(),
  speakers: v.array(v.object({ name: v.string(), bio: v.string() })),
  location: v.string(),
})
export type SessionView = v.InferOutput<typeof SessionView>
export const SessionList = v.array(SessionView)

export const ScheduleQuery = v.object({ eventId: v.optional(Id) })

export const NotifyBody = v.pipe(
  v.object({ eventId: Id, startTime: DateTime('Start time'), endTime: DateTime('End time') }),
  v.forward(
    v.check(
      (s) =>
        !realTime(s.startTime) || !realTime(s.endTime) || Date.parse(s.endTime) > Date.parse(s.startTime),
      'The end time must be after the start time.',
    ),
    ['endTime'],
  ),
)
