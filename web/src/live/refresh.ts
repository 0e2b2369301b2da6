// Refetches asked for by live pushes, coalesced per set of queries: while one refetch is under way
// or waiting, any number of further asks make exactly one more after it (a burst of sales is one or
// two requests, not one per sale). A fetch already under way when asked (a screen's first one) may
// have left before the fact, so it too is followed by one more. With a minimum interval, a set of
// queries is refetched at most that often: an ask sooner than that waits for the interval's end,
// then the one refetch carries every ask made meanwhile (a sale of thousands of tickets is one
// request a second per open list, whatever the rate of sales). A failed refetch keeps the cached
// data, so what is on screen stays.
import { hashKey, type Query, type QueryClient, type QueryKey } from '@tanstack/react-query'

export type RefreshFilters = {
  queryKey: QueryKey
  /** only queries whose data may be out of date (not settings read once) */
  stale?: boolean
  /**
   * only the queries it is true of, as they are when the refetch starts (one fetching when asked is
   * judged once it has come); refreshes with another predicate (by identity) are coalesced apart
   */
  predicate?: (query: Query) => boolean
  /** the least time between the starts of two refetches of these queries, in ms (default none) */
  minInterval?: number
}

export type Refresh = (filters: RefreshFilters) => void

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms))

export function coalescedRefresh(client: QueryClient, now: () => number = Date.now): Refresh {
  /** the refreshes under way or waiting, and whether they were asked for again meanwhile */
  const running = new Map<string, { again: boolean }>()
  /** when each set of queries was last refetched, for the ones with a minimum interval */
  const lastStarted = new Map<string, { at: number; interval: number }>()
  /** a number for each predicate given, to tell their refreshes apart */
  const predicates = new Map<(query: Query) => boolean, number>()
  const predicateId = (predicate: ((query: Query) => boolean) | undefined) => {
    if (!predicate) return null
    const known = predicates.get(predicate)
    if (known !== undefined) return known
    predicates.set(predicate, predicates.size)
    return predicates.size - 1
  }

  return ({ minInterval = 0, ...filters }) => {
    const id = hashKey([filters.queryKey, filters.stale ?? null, predicateId(filters.predicate)])
    const under = running.get(id)
    if (under) {
      under.again = true
      return
    }
    const refresh = { again: false }
    running.set(id, refresh)
    void (async () => {
      try {
        do {
          const last = lastStarted.get(id)?.at ?? Number.NEGATIVE_INFINITY
          const wait = last + minInterval - now()
          if (wait > 0) await sleep(wait)
          refresh.again = false
          const fetching = client.getQueryCache().findAll({ ...filters, fetchStatus: 'fetching' })
          await Promise.allSettled(fetching.map((query) => query.promise))
          if (minInterval > 0) lastStarted.set(id, { at: now(), interval: minInterval })
          // A fetch that starts now starts after the fact: the screens showing these fetch once
          // more (joining, not cancelling, one a screen has just started itself).
          await client.invalidateQueries(filters, { cancelRefetch: false })
        } while (refresh.again)
      } finally {
        running.delete(id)
        // what no longer restrains the next ask need not be remembered
        for (const [known, { at, interval }] of lastStarted)
          if (now() - at >= interval) lastStarted.delete(known)
      }
    })()
  }
}
