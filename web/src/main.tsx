// Entry: the session (token checked), the live connection, the cache of server state that follows
// it, the router, and the service worker.
import { QueryClientProvider } from '@tanstack/react-query'
import { RouterProvider } from '@tanstack/react-router'
import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import { fetchProfile } from './api/accounts.ts'
import { ApiError } from './api/client.ts'
import { createQueryClient } from './api/query-client.ts'
import { followLive } from './live/follow.ts'
import { createLive } from './live/live.ts'
import { LiveContext } from './live/use-live.ts'
import { createAppRouter } from './routes/router.tsx'
import { createSession } from './session/session.ts'
import { SessionContext } from './session/use-session.ts'
import './styles.css'

const session = createSession({
  storage: window.localStorage,
  fetchProfile,
  isRejection: (error) => error instanceof ApiError && error.status === 401,
})
void session.start()

const queryClient = createQueryClient()
const live = createLive()
followLive(live, queryClient)
// Connect once the stored token is checked, then follow every login and logout.
void session.resolved().then(({ token }) => {
  live.setToken(token)
  let shownTo = token
  session.subscribe(() => {
    const next = session.current().token
    live.setToken(next)
    if (next === shownTo) return
    shownTo = next
    // Another account (or a visitor) is never shown what was fetched for the previous one.
    void queryClient.resetQueries()
  })
})

const router = createAppRouter(session, queryClient)
// The first page's code starts loading now, beside the session check, instead of once the guards
// have waited for it (measured: the dashboards' code came 150 ms after the check). The guards still
// decide what is shown: a page of another role is loaded for nothing, never shown.
// Its data too, when it needs only the stored token (staticData.atBoot).
const [bootRoutes, bootParams] = router.getMatchedRoutes(router.latestLocation.pathname)
for (const route of bootRoutes) {
  void router.loadRouteChunk(route)?.catch(() => {
    // the router loads it again, and retries, when the page is shown
  })
  route.options.staticData?.atBoot?.({ context: { session, queryClient }, params: bootParams, live })
}

const root = document.getElementById('root')
if (!root) throw new Error('index.html has no #root element')
createRoot(root).render(
  <StrictMode>
    <SessionContext.Provider value={session}>
      <LiveContext.Provider value={live}>
        <QueryClientProvider client={queryClient}>
          <RouterProvider router={router} />
        </QueryClientProvider>
      </LiveContext.Provider>
    </SessionContext.Provider>
  </StrictMode>,
)

if ('serviceWorker' in navigator && import.meta.env.PROD) {
  window.addEventListener('load', () => {
    navigator.serviceWorker.register('/sw.js').catch(() => {
      // the app works the same without it
    })
  })
}
