// The sale time read again once the event's live room is joined (web/src/api/queue.ts, issue 41):
// kept when the join's answer says it is what the page read, read again when the join says it
// changed meanwhile (a save made between the page's read and the join was pushed to nobody there).
import { QueryClient, QueryObserver } from '@tanstack/react-query'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { type OnSaleView, saleTimeTag } from '../../contracts/queue.ts'
import { keys } from '../../web/src/api/keys.ts'
import { onSaleQuery, recheckOnSale } from '../../web/src/api/queue.ts'

const sale = (opensAt: string): OnSaleView => ({
  opensAt,
  waitingRoom: false,
  admitPerMinute: null,
  ticketTypes: [],
})

/** what the server answers now: a sale time, or none (404) */
let now: OnSaleView | null
let asked: number

beforeEach(() => {
  now = null
  asked = 0
  vi.stubGlobal(
    'fetch',
    vi.fn(async () => {
      asked++
      return now
        ? new Response(JSON.stringify(now), { status: 200 })
        : new Response(JSON.stringify({ message: 'This event has no sale time.' }), { status: 404 })
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

const observe = (client: QueryClient, eventId: string) =>
  new QueryObserver(client, { ...onSaleQuery(eventId), staleTime: Number.POSITIVE_INFINITY }).subscribe(
    () => {},
  )

describe('once the event room is joined', () => {
  it('keeps the sale time read when the join says the same, and reads it again when not', async () => {
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } })
    const stop = observe(client, 'e1')
    await client.prefetchQuery(onSaleQuery('e1'))
    expect(asked).toBe(1)

    recheckOnSale(client, 'e1', null)
    await settled(client)
    expect(asked).toBe(1)

    // saved after the page read "none", before the room was joined
    now = sale('2030-01-01T10:00:00.000Z')
    recheckOnSale(client, 'e1', saleTimeTag(now))
    await settled(client)
    expect(asked).toBe(2)
    expect(client.getQueryData(keys.onSale('e1'))).toEqual(now)

    recheckOnSale(client, 'e1', saleTimeTag(now))
    await settled(client)
    expect(asked).toBe(2)
    stop()
  })

  it('compares an answer still on its way once it has come', async () => {
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } })
    now = sale('2030-01-01T10:00:00.000Z')
    const stop = observe(client, 'e2')
    recheckOnSale(client, 'e2', saleTimeTag(sale('2030-02-01T10:00:00.000Z')))
    await settled(client)
    expect(asked).toBe(2)
    stop()
  })
})
