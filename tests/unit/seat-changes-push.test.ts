// A seat map follows its live room (issue 40): the changes of `seats` messages are gathered for a
// frame and set in the cached map in place (no request); a map not cached, or an event without one,
// is left alone.
import { QueryClient } from '@tanstack/react-query'
import { describe, expect, it } from 'vitest'
import type { SeatChanges, SeatMapView } from '../../contracts/seating.ts'
import { keys } from '../../web/src/api/keys.ts'
import { followLive } from '../../web/src/live/follow.ts'
import type { Live } from '../../web/src/live/live.ts'

function fakeLive() {
  const listeners = new Set<(changes: SeatChanges) => void>()
  const live = {
    onFact: () => () => {},
    onConnect: () => () => {},
    onQueue: () => () => {},
    onQueueStats: () => () => {},
    onSeats(listener: (changes: SeatChanges) => void) {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
  } as unknown as Live
  const send = (changes: SeatChanges) => {
    for (const listener of listeners) listener(changes)
  }
  return { live, send }
}

const map: SeatMapView = {
  eventId: 'evt_1',
  version: 1,
  stage: null,
  sections: [
    {
      name: 'Stalls',
      ticketType: 'Stalls',
      ticketTypeId: 't1',
      price: 1500,
      rows: [
        {
          label: 'F',
          seats: [
            { id: 'f11', number: 11, x: 0, y: 0, status: 'free', accessible: false },
            { id: 'f12', number: 12, x: 10, y: 0, status: 'free', accessible: false },
          ],
        },
      ],
    },
  ],
}

const frame = () => new Promise((resolve) => setTimeout(resolve, 40))
const statuses = (client: QueryClient, eventId: string) =>
  client
    .getQueryData<SeatMapView | null>(keys.seatMap(eventId))
    ?.sections[0]?.rows[0]?.seats.map((seat) => seat.status)

describe('a seats message', () => {
  it("sets the seats' statuses in the cached map, the messages of a frame together", async () => {
    const client = new QueryClient()
    client.setQueryData(keys.seatMap('evt_1'), map)
    client.setQueryData(keys.seatMap('evt_2'), null)
    const { live, send } = fakeLive()
    const stop = followLive(live, client)
    send({ eventId: 'evt_1', changes: [{ id: 'f12', status: 'held' }] })
    send({ eventId: 'evt_1', changes: [{ id: 'f11', status: 'sold' }] })
    send({ eventId: 'evt_2', changes: [{ id: 'x1', status: 'sold' }] })
    // nothing yet: the changes wait for the next frame
    expect(statuses(client, 'evt_1')).toEqual(['free', 'free'])
    await frame()
    expect(statuses(client, 'evt_1')).toEqual(['sold', 'held'])
    expect(client.getQueryData(keys.seatMap('evt_2'))).toBeNull()
    expect(client.getQueryData(keys.seatMap('evt_3'))).toBeUndefined()
    send({ eventId: 'evt_1', changes: [{ id: 'f12', status: 'free' }] })
    await frame()
    expect(statuses(client, 'evt_1')).toEqual(['sold', 'free'])
    stop()
  })
})
