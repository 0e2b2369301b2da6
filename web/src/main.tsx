// Entry: the session (token checked), the live connection, the router, and the service worker.
import { RouterProvider } from '@tanstack/react-router'
import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import { fetchProfile } from './api/accounts.ts'
import { ApiError } from './api/client.ts'
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
session.start()

const live = createLive()
// Connect once the stored token is checked, then follow every login and logout.
void session.resolved().then(({ token }) => {
  live.setToken(token)
  session.subscribe(() => live.setToken(session.current().token))
})

const router = createAppRouter(session)

const root = document.getElementById('root')
if (!root) throw new Error('index.html has no #root element')
createRoot(root).render(
  <StrictMode>
    <SessionContext.Provider value={session}>
      <LiveContext.Provider value={live}>
        <RouterProvider router={router} />
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
