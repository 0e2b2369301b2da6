// The root route: typed context {session}, the page frame (navigation, content, toasts), and the
// wait for the session to be known before any guard below decides.
import { createRootRouteWithContext, Link, Outlet } from '@tanstack/react-router'
import { ToastContainer } from 'react-toastify'
import type { Session } from '../session/session.ts'
import { NavBar } from '../ui/nav-bar.tsx'
import { TOAST_DEFAULT_MS } from '../ui/toasts.ts'

export type RouterContext = { session: Session }

function Frame() {
  return (
    <>
      <NavBar />
      <main>
        <Outlet />
      </main>
      <ToastContainer position="top-right" autoClose={TOAST_DEFAULT_MS} newestOnTop />
    </>
  )
}

function PageNotFound() {
  return (
    <section className="page not-available">
      <h1>Page not found</h1>
      <p>There is nothing at this address.</p>
      <Link to="/home" className="button">
        Explore Events
      </Link>
    </section>
  )
}

export const rootRoute = createRootRouteWithContext<RouterContext>()({
  beforeLoad: async ({ context }) => {
    await context.session.resolved()
  },
  component: Frame,
  notFoundComponent: PageNotFound,
})
