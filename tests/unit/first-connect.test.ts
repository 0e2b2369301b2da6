// The live connection's first connect, without a browser (web/src/live/follow.ts): what is on screen
// is read again, but an event's sale time and a buyer's "not in line" read as the page opened are
// kept (GET /onsale and /queue/me answer 404 for "none": each a line on the console); every later
// reconnection reads them again; a place in line is read again at the first connect too. Refreshes
// with different predicates are not merged into one another (web/src/live/refresh.ts).
import { type QueryClient, QueryObserver, type QueryObserverOptions } from '@tanstack/react-query'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { keys } from '../../web/src/api/keys.ts'
import { createQueryClient } from '../../web/src/api/query-client.ts'
import { myPlaceQuery, onSaleQuery } from '../../web/src/api/queue.ts'
import { followLive } from '../../web/src/live/follow.ts'
import type { Live } from '../../web/src/live/live.ts'
import { coalescedRefresh } from '../../web/src/live/refresh.ts'

/** a live connection whose connects the test makes */
function fakeLive() {
  const listeners = new Set<() => void>()
  const live = {
    onFact: () => () => {},
    onSeats: () => () => {},
    onQueue: () => () => {},
    onQueueStats: () => () => {},
    onConnect(listener: () => void) {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
  } as unknown as Live
  const connect = () => {
    for (const listener of listeners) listener()
  }
  return { live, connect }
}

/** an observed query (as a screen shows it), with its answer and a count of its fetches */
function shown<T>(client: QueryClient, options: { queryKey: readonly unknown[] }, answer: () => Promise<T>) {
  const queryFn = vi.fn(answer)
  const observer = new QueryObserver<T>(client, { ...options, queryFn } as QueryObserverOptions<T>)
  const stop = observer.subscribe(() => {})
  return { queryFn, stop }
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 20))

afterEach(() => {
  vi.useRealTimers()
})

describe("the live connection's first connect", () => {
  it('keeps a sale time and a "not in line" read as the page opened, reads the rest again, and reads everything at a reconnection', async () => {
    const client = createQueryClient()
    const { live, connect } = fakeLive()
    const stopFollowing = followLive(live, client)
    const none = shown(client, onSaleQuery('e1'), async () => null)
    const saleTime = shown(client, onSaleQuery('e2'), async () => ({
      opensAt: '2031-01-01T10:00:00.000Z',
      waitingRoom: true,
      admitPerMinute: null,
      ticketTypes: [],
    }))
    const notInLine = shown(client, myPlaceQuery('e2'), async () => null)
    const inLine = shown(client, myPlaceQuery('e3'), async () => ({ state: 'pre-queue' }))
    const event = shown(client, { queryKey: keys.event('e1') }, async () => ({ _id: 'e1' }))
    await settle()
    const all = [none, saleTime, notInLine, inLine, event]
    for (const query of all) expect(query.queryFn).toHaveBeenCalledTimes(1)

    connect()
    await vi.waitFor(() => expect(event.queryFn).toHaveBeenCalledTimes(2))
    await vi.waitFor(() => expect(inLine.queryFn).toHaveBeenCalledTimes(2))
    await settle()
    expect(none.queryFn).toHaveBeenCalledTimes(1)
    expect(saleTime.queryFn).toHaveBeenCalledTimes(1)
    expect(notInLine.queryFn).toHaveBeenCalledTimes(1)

    // a reconnection (after time offline) reads again all that is shown
    connect()
    for (const [query, times] of [
      [none, 2],
      [saleTime, 2],
      [notInLine, 2],
      [inLine, 3],
      [event, 3],
    ] as const)
      await vi.waitFor(() => expect(query.queryFn).toHaveBeenCalledTimes(times))
    for (const query of all) query.stop()
    stopFollowing()
  })

  it('judges a sale time on its way at the first connect once it has come: asked for once', async () => {
    const client = createQueryClient()
    const { live, connect } = fakeLive()
    const stopFollowing = followLive(live, client)
    let answer: (value: null) => void = () => {}
    const none = shown(client, onSaleQuery('e1'), () => new Promise<null>((resolve) => (answer = resolve)))
    await settle()
    connect()
    await settle()
    answer(null)
    await settle()
    await settle()
    expect(none.queryFn).toHaveBeenCalledTimes(1)
    expect(client.getQueryState(keys.onSale('e1'))?.status).toBe('success')
    none.stop()
    stopFollowing()
  })
})

describe('the refreshes of the live connection', () => {
  it('are not merged into a running one with another predicate', async () => {
    const client = createQueryClient()
    let answer: (value: string) => void = () => {}
    const first = new Promise<string>((resolve) => {
      answer = resolve
    })
    // the first fetch waits for the test; the later ones answer at once
    let fetches = 0
    const slow = shown(client, { queryKey: ['slow'] }, async () => (++fetches > 1 ? 'slow' : first))
    const other = shown(client, { queryKey: ['other'] }, async () => 'other')
    await settle()
    const refresh = coalescedRefresh(client)
    const notOther = (query: { queryKey: readonly unknown[] }) => query.queryKey[0] !== 'other'
    // the first waits for the slow fetch under way; the second, for everything, is not one more
    // round of the first (which would leave out `other`)
    refresh({ queryKey: [], stale: true, predicate: notOther })
    refresh({ queryKey: [], stale: true })
    await settle()
    answer('slow')
    await vi.waitFor(() => expect(other.queryFn).toHaveBeenCalledTimes(2))
    await vi.waitFor(() => expect(fetches).toBeGreaterThanOrEqual(2))
    slow.stop()
    other.stop()
  })
})
