// Which YYYY-MM-DD texts name a day on the calendar (contracts/common.ts): event dates and the
// invoice registers' from and to are checked with it; instants (tokens' expiry, sale times) on such a day.
import { describe, expect, it } from 'vitest'
import { isCalendarDate, isInstant } from '../../contracts/common.ts'

describe('isCalendarDate', () => {
  it('takes every real day, leap days by the Gregorian rule, of any year from 0000', () => {
    for (const day of [
      '2026-01-31',
      '2028-02-29',
      '2000-02-29',
      '2026-12-31',
      '0000-01-01',
      '0001-01-01',
      '0099-12-31',
      '0004-02-29',
    ])
      expect(isCalendarDate(day), day).toBe(true)
  })

  it('refuses days the calendar has not, and other texts', () => {
    for (const text of [
      '2026-02-29',
      '1900-02-29',
      '2026-02-30',
      '2026-04-31',
      '2026-13-01',
      '2026-00-10',
      '2026-01-00',
      '2026-1-01',
      '26-01-01',
      '2026-01-01T00:00',
      '',
    ])
      expect(isCalendarDate(text), text).toBe(false)
  })
})

describe('isInstant', () => {
  it('takes a date and time on a real day, in UTC or with an offset', () => {
    for (const text of ['2030-01-01T00:00:00Z', '2028-02-29T23:59:59.999Z', '2030-06-30T10:00:00+05:30'])
      expect(isInstant(text), text).toBe(true)
  })

  it('refuses a day the calendar has not, which Date would roll into the next month, and non-dates', () => {
    for (const text of [
      '2030-02-30T00:00:00Z',
      '2026-02-29T12:00:00Z',
      '2026-04-31T00:00:00+05:30',
      'tomorrow',
      '',
    ])
      expect(isInstant(text), text).toBe(false)
  })
})
