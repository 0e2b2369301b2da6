// The organizer's check-in figures follow the door live: a `checkin-summary` push is set as the
// event's summary in place (no request), and one older than the summary already set is ignored.
import { QueryClient } from '@tanstack/react-query'
import { describe, expect, it } from 'vitest'
import type { CheckinSummaryPush, FactPush } from '../../contracts/live.ts'
import { keys } from '../../web/src/api/keys.ts'
import { followLive } from '../../web/src/live/follow.ts'
import type { Live } from '../../web/src/live/live.ts'

function fakeLive() {
  const listeners = new Set<(push: FactPush) => void>()
  const live = {
    onFact(listener: (push: FactPush) => void) {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
    onConnect: () => () => {},
    onSeats: () => () => {},
    onQueue: () => () => {},
    onQueueStats: () => () => {},
  } as unknown as Live
  const push = (fact: FactPush) => {
    for (const listener of listeners) listener(fact)
  }
  return { live, push }
}

const summary = (admitted: number): CheckinSummaryPush => ({
  eventId: 'evt_1',
  ticketTypes: [{ ticketType: 'VIP', admitted, expected: 10 }],
  perMinute: [{ minute: '2031-01-01T18:00', admitted }],
  doubleEntries: [],
})

const pushOf = (data: CheckinSummaryPush, position: number): FactPush => ({
  type: 'checkin-summary',
  position,
  stream: 'order-ord_a',
  at: '2031-01-01T18:00:30.000Z',
  data,
})

describe('a checkin-summary push', () => {
  it("sets the event's summary, and never an older one over a newer", () => {
    const client = new QueryClient()
    const { live, push } = fakeLive()
    const stop = followLive(live, client)
    push(pushOf(summary(3), 20))
    expect(client.getQueryData(keys.checkinSummary('evt_1'))).toEqual(summary(3))
    push(pushOf(summary(2), 19))
    expect(client.getQueryData(keys.checkinSummary('evt_1'))).toEqual(summary(3))
    push(pushOf(summary(4), 21))
    expect(client.getQueryData(keys.checkinSummary('evt_1'))).toEqual(summary(4))
    expect(client.getQueryData(keys.checkinSummary('evt_2'))).toBeUndefined()
    stop()
  })
})
