// Wall clocks in a time zone, for tests of what is judged in TIMEZONE (sales and cancellation).

/** The wall clock in `timeZone`, `minutes` from now: its day (YYYY-MM-DD) and time (HH:MM). */
export function wallClockIn(timeZone: string, minutes: number) {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-CA', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
    })
      .formatToParts(new Date(Date.now() + minutes * 60_000))
      .map((p) => [p.type, p.value]),
  )
  const date = `${parts.year}-${parts.month}-${parts.day}`
  const time = `${parts.hour}:${parts.minute}`
  return { date, time, dateTime: `${date}T${time}` }
}
