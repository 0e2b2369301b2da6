// The waiting room's pure parts on the web (issue 41): waits in words, the live messages checked,
// the sale time form's body on the event's clock, what the buyer is told, and when the booking form
// is offered.
import { QueryClient } from '@tanstack/react-query'
import { describe, expect, it } from 'vitest'
import type { QueuePush, QueueStatsPush } from '../../contracts/queue.ts'
import { ADMISSION_NEEDED, NOT_ON_SALE_YET } from '../../contracts/queue.ts'
import { keys } from '../../web/src/api/keys.ts'
import { followLive } from '../../web/src/live/follow.ts'
import type { Live } from '../../web/src/live/live.ts'
import { placeOfPush, queuePushOf, queueStatsPushOf } from '../../web/src/live/queue-pushes.ts'
import { saleRefusal } from '../../web/src/screens/booking/sale-admission.tsx'
import {
  draftOf,
  emptySaleTime,
  hasOpened,
  onSaleBodyOf,
  SALE_TIME_PASSED,
  typeTimeMissing,
  wallClockIn,
} from '../../web/src/screens/organizers/sale-time-draft.ts'
import { waitingTexts } from '../../web/src/screens/waiting-room/line-texts.ts'
import { backOfLineSeconds, formatCountdown, formatRate, formatWait } from '../../web/src/ui/waits.ts'

describe('waits in words', () => {
  it('rounds an estimated wait as people read one', () => {
    expect(formatWait(20)).toBe('less than a minute')
    expect(formatWait(60)).toBe('about 1 minute')
    expect(formatWait(12 * 60 + 10)).toBe('about 12 minutes')
    expect(formatWait(3600)).toBe('about 1 hour')
    expect(formatWait(3600 + 5 * 60)).toBe('about 1 hour 5 minutes')
    expect(formatWait(2 * 3600 + 60)).toBe('about 2 hours 1 minute')
  })

  it('writes the time left of an admission on a clock, never below zero', () => {
    expect(formatCountdown(9 * 60_000 + 5_000)).toBe('9:05')
    expect(formatCountdown(3_723_000)).toBe('1:02:03')
    expect(formatCountdown(-5)).toBe('0:00')
    expect(formatCountdown(400)).toBe('0:01')
  })

  it('tells the time to the back of the line from the waiting and the rate', () => {
    expect(backOfLineSeconds(0, null)).toBe(0)
    expect(backOfLineSeconds(10, null)).toBeNull()
    expect(backOfLineSeconds(10, 0)).toBeNull()
    expect(backOfLineSeconds(30, 10)).toBe(180)
    expect(backOfLineSeconds(1, 7)).toBe(9)
    expect(formatRate(12)).toBe('12')
    expect(formatRate(2.345)).toBe('2.3')
  })
})

describe('the live messages', () => {
  it('takes a place with its event, and drops what is not one', () => {
    const push = queuePushOf({ eventId: 'e1', state: 'waiting', position: 3, ahead: 2, etaSeconds: 90, x: 1 })
    expect(push).toEqual({ eventId: 'e1', state: 'waiting', position: 3, ahead: 2, etaSeconds: 90 })
    expect(push && placeOfPush(push)).toEqual({ state: 'waiting', position: 3, ahead: 2, etaSeconds: 90 })
    // a paused line is said so (only `true` is one)
    expect(queuePushOf({ eventId: 'e1', state: 'waiting', position: 3, ahead: 2, paused: true })).toEqual({
      eventId: 'e1',
      state: 'waiting',
      position: 3,
      ahead: 2,
      paused: true,
    })
    expect(queuePushOf({ eventId: 'e1', state: 'waiting', paused: 'yes' })).toEqual({
      eventId: 'e1',
      state: 'waiting',
    })
    expect(queuePushOf({ eventId: 'e1', state: 'dancing' })).toBeNull()
    expect(queuePushOf({ state: 'waiting' })).toBeNull()
    expect(queuePushOf(null)).toBeNull()
  })

  it('takes the figures of a line, and drops what is not them', () => {
    const stats = { waiting: 5, admitted: 2, inCheckout: 1, sold: 1, admitPerMinute: null, paused: false }
    expect(queueStatsPushOf({ eventId: 'e1', ...stats })).toEqual({ eventId: 'e1', ...stats })
    expect(queueStatsPushOf({ eventId: 'e1', ...stats, waiting: '5' })).toBeNull()
    expect(queueStatsPushOf({ eventId: 'e1', ...stats, admitPerMinute: 'fast' })).toBeNull()
  })
})

describe('the cache following the live messages', () => {
  it("sets a buyer's place and an organizer's figures as pushed, with no request", () => {
    let onQueue: (push: QueuePush) => void = () => {}
    let onQueueStats: (push: QueueStatsPush) => void = () => {}
    const live = {
      onFact: () => () => {},
      onConnect: () => () => {},
      onSeats: () => () => {},
      onQueue(listener: (push: QueuePush) => void) {
        onQueue = listener
        return () => {}
      },
      onQueueStats(listener: (push: QueueStatsPush) => void) {
        onQueueStats = listener
        return () => {}
      },
    } as unknown as Live
    const client = new QueryClient()
    const stop = followLive(live, client)
    onQueue({ eventId: 'e1', state: 'admitted', admissionExpiresAt: '2026-12-24T10:10:00.000Z' })
    expect(client.getQueryData(keys.queuePlace('e1'))).toEqual({
      state: 'admitted',
      admissionExpiresAt: '2026-12-24T10:10:00.000Z',
    })
    const stats = { waiting: 3, admitted: 1, inCheckout: 1, sold: 0, admitPerMinute: 20, paused: false }
    onQueueStats({ eventId: 'e1', ...stats })
    expect(client.getQueryData(keys.queueStats('e1'))).toEqual(stats)
    stop()
  })
})

describe('the sale time form', () => {
  it("writes the opening on the event's clock and reads it back", () => {
    const made = onSaleBodyOf(
      {
        date: '2026-12-24',
        time: '10:00',
        waitingRoom: true,
        admissions: 'rate',
        perMinute: '50',
        types: [],
      },
      'Asia/Kolkata',
    )
    expect(made).toEqual({
      body: { opensAt: '2026-12-24T04:30:00.000Z', waitingRoom: true, admitPerMinute: 50 },
    })
    expect(wallClockIn('2026-12-24T04:30:00.000Z', 'Asia/Kolkata')).toEqual({
      date: '2026-12-24',
      time: '10:00',
    })
    expect(
      draftOf(
        { opensAt: '2026-12-24T04:30:00.000Z', waitingRoom: true, admitPerMinute: null, ticketTypes: [] },
        'Asia/Kolkata',
      ),
    ).toEqual({
      date: '2026-12-24',
      time: '10:00',
      waitingRoom: true,
      admissions: 'capacity',
      perMinute: '',
      types: [],
    })
  })

  it('keeps the time and the room of a sale that has opened, changing only the rate', () => {
    const opened = { opensAt: '2026-12-24T04:30:00.123Z', waitingRoom: true }
    expect(
      onSaleBodyOf(
        {
          date: '2026-12-25',
          time: '11:00',
          waitingRoom: false,
          admissions: 'rate',
          perMinute: '40',
          types: [],
        },
        'Asia/Kolkata',
        opened,
      ),
    ).toEqual({ body: { opensAt: '2026-12-24T04:30:00.123Z', waitingRoom: true, admitPerMinute: 40 } })
    const view = { ...opened, admitPerMinute: null, ticketTypes: [] }
    expect(hasOpened(view, Date.parse('2026-12-24T04:30:00.123Z'))).toBe(true)
    expect(hasOpened(view, Date.parse('2026-12-24T04:29:00Z'))).toBe(false)
    expect(hasOpened({ ...view, waitingRoom: false }, Date.parse('2026-12-25T00:00:00Z'))).toBe(false)
    expect(hasOpened(null, 0)).toBe(false)
  })

  it('follows capacity without a number, sends no rate without a room, and asks for what is missing', () => {
    const draft = { date: '2026-12-24', time: '10:00', waitingRoom: true, perMinute: '50', types: [] }
    expect(onSaleBodyOf({ ...draft, admissions: 'capacity' }, 'UTC')).toEqual({
      body: { opensAt: '2026-12-24T10:00:00.000Z', waitingRoom: true },
    })
    expect(onSaleBodyOf({ ...draft, waitingRoom: false, admissions: 'rate' }, 'UTC')).toEqual({
      body: { opensAt: '2026-12-24T10:00:00.000Z', waitingRoom: false },
    })
    expect(onSaleBodyOf({ ...draft, admissions: 'rate', perMinute: ' ' }, 'UTC')).toEqual({
      error: 'Give the number of people admitted a minute.',
    })
    expect(onSaleBodyOf({ ...draft, date: '', admissions: 'rate' }, 'UTC')).toEqual({
      error: 'Give the date and time the sale opens.',
    })
  })

  it('refuses a waiting room opening at a time gone by, on the event’s clock; a sale without one may open at once', () => {
    const draft = {
      date: '2026-12-07',
      time: '10:21',
      waitingRoom: true,
      admissions: 'capacity' as const,
      perMinute: '',
      types: [],
    }
    // 10:21 in India is 04:51 UTC: at 10:16 UTC it has passed, at 04:50 UTC it is still to come
    expect(onSaleBodyOf(draft, 'Asia/Kolkata', undefined, Date.parse('2026-12-07T10:16:00Z'))).toEqual({
      error: SALE_TIME_PASSED,
    })
    expect(onSaleBodyOf(draft, 'Asia/Kolkata', undefined, Date.parse('2026-12-07T04:50:00Z'))).toEqual({
      body: { opensAt: '2026-12-07T04:51:00.000Z', waitingRoom: true },
    })
    expect(
      onSaleBodyOf(
        { ...draft, waitingRoom: false },
        'Asia/Kolkata',
        undefined,
        Date.parse('2026-12-07T10:16:00Z'),
      ),
    ).toEqual({ body: { opensAt: '2026-12-07T04:51:00.000Z', waitingRoom: false } })
  })
})

describe('ticket types on sale later', () => {
  const types = [
    { _id: 't1', type: 'Early Bird' },
    { _id: 't2', type: 'Regular' },
  ]
  const saved = {
    opensAt: '2026-12-24T04:30:00.000Z',
    waitingRoom: false,
    admitPerMinute: null,
    ticketTypes: [{ ticketType: 'Regular', ticketTypeId: 't2', opensAt: '2026-12-26T04:30:00.000Z' }],
  }

  it("reads each type's own time on the event's clock, and sends every type ticked with its time", () => {
    const draft = draftOf(saved, 'Asia/Kolkata', types)
    expect(draft.types).toEqual([
      { ticketTypeId: 't1', name: 'Early Bird', later: false, date: '', time: '' },
      { ticketTypeId: 't2', name: 'Regular', later: true, date: '2026-12-26', time: '10:00' },
    ])
    expect(onSaleBodyOf(draft, 'Asia/Kolkata')).toEqual({
      body: {
        opensAt: '2026-12-24T04:30:00.000Z',
        waitingRoom: false,
        ticketTypes: [{ ticketType: 't2', opensAt: '2026-12-26T04:30:00.000Z' }],
      },
    })
    // unticked: on sale with the event (an empty list clears the times saved before)
    const unticked = { ...draft, types: draft.types.map((t) => ({ ...t, later: false })) }
    expect(onSaleBodyOf(unticked, 'Asia/Kolkata')).toMatchObject({ body: { ticketTypes: [] } })
    // ticked without a time: asked for
    const missing = { ...draft, types: draft.types.map((t) => ({ ...t, later: true })) }
    expect(onSaleBodyOf(missing, 'Asia/Kolkata')).toEqual({ error: typeTimeMissing('Early Bird') })
    expect(typeTimeMissing('Early Bird')).toBe('Give the date and time Early Bird goes on sale.')
    // a new form: every type with the event
    expect(emptySaleTime(types).types.map((t) => t.later)).toEqual([false, false])
  })
})

describe("the buyer's place", () => {
  it('says the place, who is ahead and the estimated wait', () => {
    expect(waitingTexts({ state: 'waiting', position: 3, ahead: 2, etaSeconds: 600 })).toEqual({
      place: 'You are number 3 in line.',
      ahead: '2 people are ahead of you.',
      wait: 'Estimated wait: about 10 minutes.',
    })
    expect(waitingTexts({ state: 'waiting', position: 2, ahead: 1 }).ahead).toBe('1 person is ahead of you.')
    expect(waitingTexts({ state: 'waiting', position: 1, ahead: 0 })).toEqual({
      place: 'You are number 1 in line.',
      ahead: 'Nobody is ahead of you.',
      wait: 'Estimated wait: not known yet.',
    })
    // a paused line: why there is no wait to say
    expect(waitingTexts({ state: 'waiting', position: 4, ahead: 3, paused: true }).wait).toBe(
      'The organizer has paused admissions for now: you keep your place.',
    )
  })
})

describe('when the booking form is offered', () => {
  const now = Date.parse('2026-12-24T10:00:00Z')
  const room = { opensAt: '2026-12-24T09:00:00Z', waitingRoom: true }
  const admitted = (until: string) => ({ state: 'admitted', admissionExpiresAt: until })

  it('always without a sale time, and without a room once the sale opened', () => {
    expect(saleRefusal(null, null, now, false)).toBeNull()
    expect(saleRefusal({ ...room, waitingRoom: false }, null, now, false)).toBeNull()
  })

  it('never before the on-sale time', () => {
    expect(saleRefusal({ ...room, opensAt: '2026-12-24T11:00:00Z' }, null, now, false)).toBe(NOT_ON_SALE_YET)
  })

  it('while the room is on, only to the admitted until their admission runs out', () => {
    expect(saleRefusal(room, null, now, false)).toBe(ADMISSION_NEEDED)
    expect(saleRefusal(room, { state: 'waiting' }, now, false)).toBe(ADMISSION_NEEDED)
    expect(saleRefusal(room, admitted('2026-12-24T10:05:00Z'), now, false)).toBeNull()
    expect(saleRefusal(room, admitted('2026-12-24T09:59:00Z'), now, false)).toBe(ADMISSION_NEEDED)
  })

  it('once the room closed, and to someone a waiting list offers seats', () => {
    expect(saleRefusal(room, { state: 'closed' }, now, false)).toBeNull()
    expect(saleRefusal(room, null, now, true)).toBeNull()
  })
})
