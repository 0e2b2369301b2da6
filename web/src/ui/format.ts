// Dates, times and prices in one format on every screen (en-IN: 20 Dec 2026, 7:30 pm; ₹1,499;
// Free). An event's date and time are a wall clock where it happens, so they are shown as written,
// never shifted to the viewer's zone, and labelled with that zone once it is known (7:30 pm IST);
// an instant that belongs to an event (its cancellation cutoff) is written in the event's zone too,
// labelled, so a card never mixes two zones; other instants (a payment, a scan) in the viewer's.
import { instantIn } from '../../../contracts/wall-clock.ts'
import { formatRupees } from './rupees.ts'

const dayParts = { day: 'numeric', month: 'short', year: 'numeric' } as const
const clockParts = { hour: 'numeric', minute: '2-digit', hour12: true } as const
const day = new Intl.DateTimeFormat('en-IN', dayParts)
const dayAndClock = new Intl.DateTimeFormat('en-IN', { ...dayParts, ...clockParts })
// A wall clock is held as that reading in UTC and written in UTC: the viewer's zone never shifts it
// (nor skips an hour that the viewer's daylight saving leaves out).
const wallDay = new Intl.DateTimeFormat('en-IN', { ...dayParts, timeZone: 'UTC' })
const wallClockTime = new Intl.DateTimeFormat('en-IN', { ...clockParts, timeZone: 'UTC' })
const wallDayAndClock = new Intl.DateTimeFormat('en-IN', { ...dayParts, ...clockParts, timeZone: 'UTC' })

/** A wall clock (YYYY-MM-DD and optional HH:MM) as that reading in UTC. */
function wallClock(date: string, time = '00:00'): Date | null {
  const d = /^(\d{4})-(\d{2})-(\d{2})/.exec(date)
  const t = /^(\d{2}):(\d{2})/.exec(time)
  if (!d) return null
  return new Date(
    Date.UTC(Number(d[1]), Number(d[2]) - 1, Number(d[3]), Number(t?.[1] ?? 0), Number(t?.[2] ?? 0)),
  )
}

/** An event's day: 20 Dec 2026 (the text as given when it is not a date). */
export function formatDate(date: string): string {
  const at = wallClock(date)
  return at ? wallDay.format(at) : date
}

/** An event's time of day: 7:30 pm. */
export function formatTime(time: string): string {
  const at = wallClock('2000-01-01', time)
  return at && /^\d{2}:\d{2}/.test(time) ? wallClockTime.format(at) : time
}

/** An event's day and time: 20 Dec 2026, 7:30 pm. */
export function formatEventWhen(date: string, time: string): string {
  const at = wallClock(date, time)
  return at && /^\d{2}:\d{2}/.test(time) ? wallDayAndClock.format(at) : `${formatDate(date)} ${time}`.trim()
}

const zoneNames = new Map<string, Intl.DateTimeFormat>()

/** The short name of a zone at an instant, as en-IN writes it: IST, GMT-4 (daylight saving included). */
export function zoneName(instant: Date, timeZone?: string): string {
  const key = timeZone ?? ''
  let format = zoneNames.get(key)
  if (!format) {
    format = new Intl.DateTimeFormat('en-IN', { timeZone, timeZoneName: 'short' })
    zoneNames.set(key, format)
  }
  return format.formatToParts(instant).find((part) => part.type === 'timeZoneName')?.value ?? ''
}

const labelled = (text: string, date: string, time: string, timeZone: string | undefined): string =>
  timeZone && /^\d{4}-\d{2}-\d{2}$/.test(date) && /^\d{2}:\d{2}$/.test(time)
    ? `${text} ${zoneName(instantIn(date, time, timeZone), timeZone)}`
    : text

/** An event's time of day in its zone, labelled: 7:30 pm IST (unlabelled while the zone is unknown). */
export const formatEventTime = (date: string, time: string, timeZone: string | undefined): string =>
  labelled(formatTime(time), date, time, timeZone)

/** An event's day and time in its zone, labelled: 20 Dec 2026, 7:30 pm IST. */
export const formatEventWhenIn = (date: string, time: string, timeZone: string | undefined): string =>
  labelled(formatEventWhen(date, time), date, time, timeZone)

const dayAndClockIn = new Map<string, Intl.DateTimeFormat>()

/**
 * An instant in a zone (an event's, or the viewer's when none is given), labelled: 20 Dec 2026,
 * 7:30 pm IST. For the instants of an event, shown beside its own times.
 */
export function formatInstantIn(instant: string | Date, timeZone?: string): string {
  const at = typeof instant === 'string' ? new Date(instant) : instant
  if (Number.isNaN(at.getTime())) return String(instant)
  const key = timeZone ?? ''
  let format = dayAndClockIn.get(key)
  if (!format) {
    format = new Intl.DateTimeFormat('en-IN', { ...dayParts, ...clockParts, timeZone })
    dayAndClockIn.set(key, format)
  }
  return `${format.format(at)} ${zoneName(at, timeZone)}`
}

/** An instant's day in the viewer's zone: 20 Dec 2026 (when a refund was paid out). */
export function formatDay(instant: string | Date): string {
  const at = typeof instant === 'string' ? new Date(instant) : instant
  return Number.isNaN(at.getTime()) ? String(instant) : day.format(at)
}

/** An instant (ISO text or Date) in the viewer's zone: 20 Dec 2026, 7:30 pm. */
export function formatInstant(instant: string | Date): string {
  const at = typeof instant === 'string' ? new Date(instant) : instant
  return Number.isNaN(at.getTime()) ? String(instant) : dayAndClock.format(at)
}

const clockWithSeconds = new Intl.DateTimeFormat('en-IN', {
  hour: 'numeric',
  minute: '2-digit',
  second: '2-digit',
  hour12: true,
})

/** An instant's time of day in the viewer's zone, to the second: 7:30:05 pm (a scan at the door). */
export function formatClock(instant: string | Date): string {
  const at = typeof instant === 'string' ? new Date(instant) : instant
  return Number.isNaN(at.getTime()) ? String(instant) : clockWithSeconds.format(at)
}

/** A price: ₹1,499, or Free. */
export const formatPrice = (amount: number): string => (amount === 0 ? 'Free' : formatRupees(amount))
