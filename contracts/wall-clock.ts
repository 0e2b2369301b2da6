// Wall-clock times in a zone: an event's date and time are a wall clock in TIMEZONE, turned into an instant
// (daylight saving included), so "has it started?" or "have sales closed?" is judged the same from
// anywhere, and the web app writes event times in their own zone wherever the viewer is.
const formats = new Map<string, Intl.DateTimeFormat>()

function wallClockOf(instant: number, timeZone: string): number {
  let format = formats.get(timeZone)
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    })
    formats.set(timeZone, format)
  }
  const part = Object.fromEntries(format.formatToParts(instant).map((p) => [p.type, Number(p.value)]))
  return Date.UTC(part.year ?? 0, (part.month ?? 1) - 1, part.day, part.hour, part.minute, part.second)
}

// Every hold asks when its event starts: the answers are kept (a few per event).
const known = new Map<string, number>()
const KEEP = 10_000

/** The instant at which the wall clock in `timeZone` reads `date` (YYYY-MM-DD) `time` (HH:MM). */
export function instantIn(date: string, time: string, timeZone: string): Date {
  const key = `${timeZone} ${date} ${time}`
  let instant = known.get(key)
  if (instant === undefined) {
    const [year = 0, month = 1, day = 1] = date.split('-').map(Number)
    const [hour = 0, minute = 0] = time.split(':').map(Number)
    const wanted = Date.UTC(year, month - 1, day, hour, minute)
    // The zone's offset at a first guess, then again at the answer (it may differ across a change).
    instant = wanted - (wallClockOf(wanted, timeZone) - wanted)
    instant = wanted - (wallClockOf(instant, timeZone) - instant)
    if (known.size >= KEEP) known.clear()
    known.set(key, instant)
  }
  return new Date(instant)
}
