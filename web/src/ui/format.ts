// Dates, times and prices in one format on every screen (en-IN: 20 Dec 2026, 7:30 pm; ₹1,499;
// Free). An event's date and time are a wall clock where it happens, so they are shown as written,
// never shifted to the viewer's zone; instants (a cutoff, a payment) are shown in the viewer's.
import { formatRupees } from './rupees.ts'

const day = new Intl.DateTimeFormat('en-IN', { day: 'numeric', month: 'short', year: 'numeric' })
const clock = new Intl.DateTimeFormat('en-IN', { hour: 'numeric', minute: '2-digit', hour12: true })
const dayAndClock = new Intl.DateTimeFormat('en-IN', {
  day: 'numeric',
  month: 'short',
  year: 'numeric',
  hour: 'numeric',
  minute: '2-digit',
  hour12: true,
})

/** A wall clock (YYYY-MM-DD and optional HH:MM) as a local Date, without any zone shift. */
function wallClock(date: string, time = '00:00'): Date | null {
  const d = /^(\d{4})-(\d{2})-(\d{2})/.exec(date)
  const t = /^(\d{2}):(\d{2})/.exec(time)
  if (!d) return null
  return new Date(Number(d[1]), Number(d[2]) - 1, Number(d[3]), Number(t?.[1] ?? 0), Number(t?.[2] ?? 0))
}

/** An event's day: 20 Dec 2026 (the text as given when it is not a date). */
export function formatDate(date: string): string {
  const at = wallClock(date)
  return at ? day.format(at) : date
}

/** An event's time of day: 7:30 pm. */
export function formatTime(time: string): string {
  const at = wallClock('2000-01-01', time)
  return at && /^\d{2}:\d{2}/.test(time) ? clock.format(at) : time
}

/** An event's day and time: 20 Dec 2026, 7:30 pm. */
export function formatEventWhen(date: string, time: string): string {
  const at = wallClock(date, time)
  return at && /^\d{2}:\d{2}/.test(time) ? dayAndClock.format(at) : `${formatDate(date)} ${time}`.trim()
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
