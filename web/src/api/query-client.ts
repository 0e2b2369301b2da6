// The one cache of server state. Its defaults keep what screens did before it: a failure shows its
// message at once (no silent retries), a request is made whatever the browser says of the network
// (a failure is shown rather than a fetch paused while offline), and only the live connection
// decides when something is fetched again (live/follow.ts), not a window's focus or the browser
// coming back online. A screen opened again shows what it showed last while it refetches.
import { hashKey, type Query, QueryClient, type QueryKey, type QueryState } from '@tanstack/react-query'

export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        retry: false,
        networkMode: 'always',
        refetchOnWindowFocus: false,
        refetchOnReconnect: false,
      },
      mutations: { retry: false, networkMode: 'always' },
    },
  })
}

/**
 * What a query may say of the live connection's first connect, which reads again whatever is on
 * screen (live/follow.ts: a push may have come before the connection could hear it):
 * `keptAtFirstConnect` true for an answer no push could have changed, read as the page opened a
 * moment before, which is then not asked for again (a 404 each time on the console when it is
 * "none"). Every later reconnection reads it again, as it reads everything shown.
 */
export type LiveQueryMeta = { keptAtFirstConnect?: (data: unknown) => boolean }

/** whether the query's answer, as it is now, is kept at the live connection's first connect */
export function keptAtFirstConnect(query: Query): boolean {
  const keep = (query.meta as LiveQueryMeta | undefined)?.keptAtFirstConnect
  return query.state.status === 'success' && typeof keep === 'function' && keep(query.state.data)
}

/**
 * `check` once the query of `key` has an answer (now, or when the one on its way has come): what a
 * live room's join compares its answer with (api/seating.ts, api/queue.ts). Nothing when the query
 * is not cached. Answers what stops the wait.
 */
export function onceAnswered<T>(
  client: QueryClient,
  key: QueryKey,
  check: (state: QueryState<T>) => void,
): () => void {
  let done = false
  const answered = () => {
    if (done) return true
    const state = client.getQueryState<T>(key)
    if (!state || state.status === 'pending' || state.fetchStatus !== 'idle') return false
    done = true
    check(state)
    return true
  }
  if (!client.getQueryState(key) || answered()) return () => {}
  const hash = hashKey(key)
  const stop = client.getQueryCache().subscribe((event) => {
    if (event.type === 'updated' && event.query.queryHash === hash && answered()) stop()
  })
  return stop
}
