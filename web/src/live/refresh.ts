// Refetches asked for by live pushes, coalesced per set of queries: while one refetch is under way,
// any number of further asks make exactly one more after it (a burst of sales is one or two
// requests, not one per sale). A fetch already under way when asked (a screen's first one) may have
// left before the fact, so it too is followed by one more. A failed refetch keeps the cached data,
// so what is on screen stays.
import { hashKey, type QueryClient, type QueryKey } from '@tanstack/react-query'

export type RefreshFilters = {
  queryKey: QueryKey
  /** only queries whose data may be out of date (not settings read once) */
  stale?: boolean
}

export type Refresh = (filters: RefreshFilters) => void

export function coalescedRefresh(client: QueryClient): Refresh {
  /** the refreshes under way, and whether they were asked for again meanwhile */
  const running = new Map<string, { again: boolean }>()

  return (filters) => {
    const id = hashKey([filters.queryKey, filters.stale ?? null])
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
          refresh.again = false
          const fetching = client.getQueryCache().findAll({ ...filters, fetchStatus: 'fetching' })
          await Promise.allSettled(fetching.map((query) => query.promise))
          // A fetch that starts now starts after the fact: the screens showing these fetch once
          // more (joining, not cancelling, one a screen has just started itself).
          await client.invalidateQueries(filters, { cancelRefetch: false })
        } while (refresh.again)
      } finally {
        running.delete(id)
      }
    })()
  }
}
