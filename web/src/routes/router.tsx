// The route tree (every path of SPEC §2) and the router, code-based.
import { createRouter } from '@tanstack/react-router'
import type { Session } from '../session/session.ts'
import { Loading } from '../ui/loading.tsx'
import { accountRoutes } from './accounts.ts'
import { adminRoutes } from './admin.tsx'
import { attendeeRoutes } from './attendees.tsx'
import { organizerRoutes } from './organizers.tsx'
import { publicRoutes } from './public.tsx'
import { rootRoute } from './root.tsx'

export const routeTree = rootRoute.addChildren([
  ...publicRoutes,
  ...accountRoutes,
  ...organizerRoutes,
  ...attendeeRoutes,
  ...adminRoutes,
])

export function createAppRouter(session: Session) {
  return createRouter({
    routeTree,
    context: { session },
    // Paths match regardless of case (the mobile menu's /EventForm opens /eventform).
    caseSensitive: false,
    defaultPreload: 'intent',
    defaultPendingComponent: () => <Loading />,
    scrollRestoration: true,
  })
}

export type AppRouter = ReturnType<typeof createAppRouter>

declare module '@tanstack/react-router' {
  interface Register {
    router: AppRouter
  }
}
