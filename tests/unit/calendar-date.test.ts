// Which YYYY-MM-DD texts name a day on the calendar (contracts/common.ts): event dates and the
// invoice registers' from and to are checked with it.
import { describe, expect, it } from 'vitest'
import { isCalendarDate } from '../../contracts/common.ts'

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
