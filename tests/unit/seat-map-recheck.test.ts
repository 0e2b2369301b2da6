// The seat map asked for again once its live room is joined (web/src/api/seating.ts, issue 40): a
// map read before the join is asked again (conditionally); an event's "none" (its 404) is kept when
// the join's answer says the event still has no map, and asked again when it says one came meanwhile
// (or says nothing).
import { QueryClient, QueryObserver } from '@tanstack/react-query'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { SeatMapView } from '../../contracts/seating.ts'
import { keys } from '../../web/src/api/keys.ts'
import { recheckSeatMap, seatMapQuery } from '../../web/src/api/seating.ts'

const mapOf = (eventId: string): SeatMapView => ({
  eventId,
  version: 1,
  stage: null,
  sections: [
    {
      name: 'Stalls',
      ticketType: 'Stalls',
      ticketTypeId: 't1',
      price: 900,
      rows: [{ label: 'A', seats: [{ id: 'a1', number: 1, x: 0, y: 0, status: 'free', accessible: false }] }],
    },
  ],
})

/** the requests made, and each one's If-None-Match */
let asked: { path: string; tag: string | null }[]
/** the events that have a map (answered 200 with an ETag; any other: 404) */
let mapped: Set<string>

beforeEach(() => {
  asked = []
  mapped = new Set()
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit = {}) => {
      const path = String(url)
      const tag = new Headers(init.headers).get('if-none-match')
      asked.push({ path, tag })
      const eventId = /\/event\/([^/]+)\/seatmap$/.exec(path)?.[1] ?? ''
      if (!mapped.has(eventId))
        return new Response(JSON.stringify({ message: 'This event has no seat map.' }), { status: 404 })
      if (tag === '"v1"') return new Response(null, { status: 304, headers: { etag: '"v1"' } })
      return new Response(JSON.stringify(mapOf(eventId)), { status: 200, headers: { etag: '"v1"' } })
    }),
  )
})

afterEach(() => {
  vi.unstubAllGlobals()
})

const settled = async (client: QueryClient) => {
  for (let i = 0; i < 10 && client.isFetching() > 0; i++)
    await new Promise((resolve) => setTimeout(resolve, 5))
  await new Promise((resolve) => setTimeout(resolve, 5))
}

/** a screen's observer of the map, as the picker's useQuery is */
const observe = (client: QueryClient, eventId: string) =>
  new QueryObserver(client, { ...seatMapQuery(eventId), staleTime: Number.POSITIVE_INFINITY }).subscribe(
    () => {},
  )

describe('once the map room is joined', () => {
  it('an event without a map is not asked again while the join says it has none', async () => {
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } })
    const stop = observe(client, 'none1')
    await client.prefetchQuery(seatMapQuery('none1'))
    expect(client.getQueryData(keys.seatMap('none1'))).toBeNull()
    expect(asked).toHaveLength(1)

    recheckSeatMap(client, 'none1', performance.now(), null)
    await settled(client)
    expect(asked).toHaveLength(1)

    // a join that does not say (an older server): asked again, as any map read before the join
    recheckSeatMap(client, 'none1', performance.now())
    await settled(client)
    expect(asked).toHaveLength(2)
    stop()
  })

  it('a "none" read before the join is asked again when the join says a map came meanwhile', async () => {
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } })
    const stop = observe(client, 'late1')
    await client.prefetchQuery(seatMapQuery('late1'))
    expect(client.getQueryData(keys.seatMap('late1'))).toBeNull()
    // the organizer saved a map after the page read "none" and before its room was joined
    mapped.add('late1')
    recheckSeatMap(client, 'late1', performance.now(), 1)
    await settled(client)
    expect(asked).toHaveLength(2)
    expect(client.getQueryData<SeatMapView>(keys.seatMap('late1'))?.version).toBe(1)
    stop()
  })

  it('a map read before the join is asked again, whether it changed', async () => {
    mapped.add('map1')
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } })
    const stop = observe(client, 'map1')
    await client.prefetchQuery(seatMapQuery('map1'))
    recheckSeatMap(client, 'map1', performance.now())
    await settled(client)
    expect(asked.map((each) => each.tag)).toEqual([null, '"v1"'])
    expect(client.getQueryData<SeatMapView>(keys.seatMap('map1'))?.version).toBe(1)
    stop()
  })
})
