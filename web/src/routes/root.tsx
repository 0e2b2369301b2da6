// The root route: typed context {session}, the page frame (navigation, content, toasts), and the
// wait for the session to be known before any layout below (layouts.ts) decides. During that wait
// (a slow profile call) the frame is already there, with the navigation and a loading indicator.
import type { QueryClient } from '@tanstack/react-query'
import { createRootRouteWithContext, Link, Outlet } from '@tanstack/react-router'
import { Suspense } from 'react'
import type { Session } from '../session/session.ts'
import { useSession } from '../session/use-session.ts'
import { LiveStatusBadge } from '../ui/live-status.tsx'
import { Loading } from '../ui/loading.tsx'
import { NavBar } from '../ui/nav-bar.tsx'
import { lazyRetry } from '../ui/retry-import.ts'
import { TestModeBanner } from '../ui/test-mode-banner.tsx'
import { ToastHost } from '../ui/toast-host.tsx'
import { usePageFocus } from '../ui/use-page-focus.ts'

export type RouterContext = { session: Session; queryClient: QueryClient }

// Loaded only for signed-in accounts, so a visitor's first page carries no socket code.
const InquiryToasts = lazyRetry(() =>
  import('../screens/support/inquiry-toasts.tsx').then((m) => ({ default: m.InquiryToasts })),
)
const ScheduleNoticeListener = lazyRetry(() =>
  import('../screens/schedule/notice-listener.tsx').then((m) => ({ default: m.ScheduleNoticeListener })),
)

function Frame() {
  const { user } = useSession()
  usePageFocus()
  return (
    <>
      <TestModeBanner />
      <NavBar />
      <main>
        <Outlet />
      </main>
      <ToastHost />
      <LiveStatusBadge />
      {user && (
        <Suspense fallback={null}>
          {(user.role === 'admin' || user.role === 'user') && <InquiryToasts />}
          <ScheduleNoticeListener />
        </Suspense>
      )}
    </>
  )
}

/** The frame while the session is checked: the navigation (without account links yet), Loading. */
function FrameLoading() {
  return (
    <>
      <TestModeBanner />
      <NavBar />
      <main>
        <Loading />
      </main>
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
  pendingComponent: FrameLoading,
  pendingMs: 0,
  // Shown at once, and gone as soon as the session is known: the router's default keeps a pending
  // screen up for at least 500 ms, which alone made every first view of a page take over half a
  // second however fast its data came.
  pendingMinMs: 0,
  notFoundComponent: PageNotFound,
})
