import { describe, expect, it } from 'vitest'
import { instantIn } from '../../server/wall-clock.ts'

describe('instantIn: an event date and time as a wall clock in a zone', () => {
  it.each([
    ['2026-12-01', '18:30', 'Asia/Kolkata', '2026-12-01T13:00:00.000Z'],
    ['2026-12-01', '00:15', 'Asia/Kolkata', '2026-11-30T18:45:00.000Z'],
    ['2026-07-04', '20:00', 'America/New_York', '2026-07-05T00:00:00.000Z'],
    ['2026-12-24', '20:00', 'America/New_York', '2026-12-25T01:00:00.000Z'],
    ['2026-03-29', '03:30', 'Europe/London', '2026-03-29T02:30:00.000Z'],
    ['2026-06-01', '09:00', 'UTC', '2026-06-01T09:00:00.000Z'],
  ])('%s %s in %s is %s', (date, time, zone, expected) => {
    expect(instantIn(date, time, zone).toISOString()).toBe(expected)
  })
})
