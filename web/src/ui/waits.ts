// Waits in words (issue 41): a buyer's estimated wait in a waiting room, the time left of an
// admission, and the organizer's time to the back of the line.

/** an estimate, rounded as people read one: less than a minute, about 12 minutes, about 1 hour 5 minutes */
export function formatWait(seconds: number): string {
  if (!Number.isFinite(seconds) || seconds < 60) return 'less than a minute'
  const minutes = Math.round(seconds / 60)
  if (minutes < 60) return `about ${minutes} ${minutes === 1 ? 'minute' : 'minutes'}`
  const hours = Math.floor(minutes / 60)
  const rest = minutes % 60
  const hourText = `${hours} ${hours === 1 ? 'hour' : 'hours'}`
  return rest === 0 ? `about ${hourText}` : `about ${hourText} ${rest} ${rest === 1 ? 'minute' : 'minutes'}`
}

/** time left on a clock: 9:05, 1:02:03 (none left: 0:00) */
export function formatCountdown(ms: number): string {
  const total = Math.max(0, Math.ceil(ms / 1000))
  const hours = Math.floor(total / 3600)
  const minutes = Math.floor((total % 3600) / 60)
  const seconds = String(total % 60).padStart(2, '0')
  return hours > 0 ? `${hours}:${String(minutes).padStart(2, '0')}:${seconds}` : `${minutes}:${seconds}`
}

/** seconds until the last person waiting is admitted at this rate a minute (null: no rate known) */
export function backOfLineSeconds(waiting: number, perMinute: number | null): number | null {
  if (waiting <= 0) return 0
  if (perMinute === null || !(perMinute > 0)) return null
  return Math.ceil((waiting * 60) / perMinute)
}

/** a rate a minute as shown: whole when it is, else to one decimal */
export const formatRate = (perMinute: number): string =>
  Number.isInteger(perMinute) ? String(perMinute) : perMinute.toFixed(1)
