// Event times as every screen writes them (web/src/ui/format.ts): the event's wall clock as written,
// labelled with its zone (daylight saving included), instants of the event in that zone too, and
// none of it moved by the zone of the browser that shows it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  formatDate,
  formatEventTime,
  formatEventWhen,
  formatEventWhenIn,
  formatInstantIn,
  zoneName,
} from '../../web/src/ui/format.ts'

// a viewer in New York, whose clocks skip 02:00-03:00 on 10 March 2030
const viewerZone = process.env.TZ
beforeAll(() => {
  process.env.TZ = 'America/New_York'
})
afterAll(() => {
  process.env.TZ = viewerZone
})

describe("an event's times", () => {
  it('are written in its zone and labelled: 7:30 pm IST', () => {
    expect(formatEventTime('2030-06-15', '19:30', 'Asia/Kolkata')).toBe('7:30 pm IST')
    expect(formatEventWhenIn('2030-06-15', '19:30', 'Asia/Kolkata')).toBe('15 Jun 2030, 7:30 pm IST')
  })

  it("take the label their zone has on the event's day (daylight saving)", () => {
    expect(formatEventTime('2030-07-01', '19:30', 'Europe/London')).toBe('7:30 pm GMT+1')
    expect(formatEventTime('2030-01-15', '19:30', 'Europe/London')).toBe('7:30 pm GMT')
  })

  it('stay unlabelled while the zone is not known, and as given when they are not times', () => {
    expect(formatEventTime('2030-06-15', '19:30', undefined)).toBe('7:30 pm')
    expect(formatEventWhenIn('2030-06-15', 'evening', 'Asia/Kolkata')).toBe('15 Jun 2030 evening')
  })

  it("are never moved by the viewer's zone, even in an hour the viewer's clocks skip", () => {
    expect(formatEventWhen('2030-03-10', '02:30')).toBe('10 Mar 2030, 2:30 am')
    expect(formatDate('2030-03-10')).toBe('10 Mar 2030')
    expect(formatEventWhenIn('2030-03-10', '02:30', 'Asia/Kolkata')).toBe('10 Mar 2030, 2:30 am IST')
  })
})

describe('an instant of an event (its cancellation cutoff)', () => {
  it("is written in the event's zone, labelled, not the viewer's", () => {
    // 24 hours before 19:30 IST on 15 June 2030
    const cutoff = '2030-06-14T14:00:00.000Z'
    expect(formatInstantIn(cutoff, 'Asia/Kolkata')).toBe('14 Jun 2030, 7:30 pm IST')
  })

  it("is labelled with the viewer's zone when the event's is not known yet", () => {
    expect(formatInstantIn('2030-06-14T14:00:00.000Z')).toBe('14 Jun 2030, 10:00 am GMT-4')
    expect(zoneName(new Date('2030-01-14T14:00:00.000Z'))).toBe('GMT-5')
  })
})

describe("a holder's notice that their event moved", () => {
  it("gives the new time in the event's zone, labelled", async () => {
    const { holderNoticeText } = await import('../../web/src/screens/schedule/notice-listener.tsx')
    const notice = {
      eventId: 'e1',
      eventTitle: 'River Ragas',
      change: 'moved' as const,
      date: '2030-06-16',
      time: '18:00',
      location: 'Assi Ghat, Varanasi',
    }
    expect(holderNoticeText(notice, 'Asia/Kolkata')).toBe(
      'River Ragas has changed: now 16 Jun 2030, 6:00 pm IST, Assi Ghat, Varanasi.',
    )
  })
})
