// An event's date (YYYY-MM-DD, a calendar day) in the viewer's locale format. Read as a local
// day: `new Date('2026-03-01')` would be UTC midnight, the previous day west of Greenwich.
export function localEventDate(date: string): string {
  const match = /^(\d{4})-(\d{2})-(\d{2})/.exec(date)
  if (!match) return date
  const [, year, month, day] = match
  return new Date(Number(year), Number(month) - 1, Number(day)).toLocaleDateString()
}
