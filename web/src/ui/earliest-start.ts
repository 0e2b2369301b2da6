// The earliest start an event may be given: now, on the wall clock of the zone in which the server
// judges it (the site's TIMEZONE), or the organizer's own until the site's settings are read. The
// pickers offer nothing earlier; the server refuses it whatever is sent.
import { useSite } from './use-site.ts'

/** the wall clock in `timeZone` (the device's own when absent): its day and its minute */
export function wallClockNow(timeZone?: string): { date: string; time: string } {
  const part = Object.fromEntries(
    new Intl.DateTimeFormat('en-CA', {
      ...(timeZone ? { timeZone } : {}),
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
    })
      .formatToParts(new Date())
      .map((p) => [p.type, p.value]),
  )
  return { date: `${part.year}-${part.month}-${part.day}`, time: `${part.hour}:${part.minute}` }
}

/** The date and time pickers' lower bounds for a start on `date`: today, and now when it is today. */
export function useEarliestStart(date: string): { date: string; time: string | undefined } {
  const now = wallClockNow(useSite()?.timeZone)
  return { date: now.date, time: date === now.date ? now.time : undefined }
}
