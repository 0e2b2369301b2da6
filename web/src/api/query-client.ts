// The one cache of server state. Its defaults keep what screens did before it: a failure shows its
// message at once (no silent retries), a request is made whatever the browser says of the network
// (a failure is shown rather than a fetch paused while offline), and only the live connection
// decides when something is fetched again (live/follow.ts), not a window's focus or the browser
// coming back online. A screen opened again shows what it showed last while it refetches.
import { QueryClient } from '@tanstack/react-query'

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
