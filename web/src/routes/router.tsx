// The route tree (every path of SPEC §2) and the router, code-based: the pages open to everyone,
// the visitors' pages, and every signed-in page under one layout with an area per role
// (layouts.ts).
import type { QueryClient } from '@tanstack/react-query'
import { createRouter } from '@tanstack/react-router'
import type { Session } from '../session/session.ts'
import { Loading } from '../ui/loading.tsx'
import { passwordRoutes, profileRoute, visitorRoutes } from './accounts.ts'
import { adminRoutes } from './admin.tsx'
import { attendeeRoutes, userRoutes } from './attendees.tsx'
import { checkinRoutes } from './checkin.ts'
import { integrationRoutes, organizerIntegrationRoutes } from './integrations.ts'
import {
  adminArea,
  organizersAndAdminArea,
  organizersArea,
  signedInLayout,
  userArea,
  visitorsLayout,
} from './layouts.ts'
import { organizerRoutes } from './organizers.tsx'
import { publicRoutes } from './public.tsx'
import { rootRoute } from './root.tsx'

export const routeTree = rootRoute.addChildren([
  ...publicRoutes,
  ...passwordRoutes,
  ...checkinRoutes,
  visitorsLayout.addChildren([...visitorRoutes]),
  signedInLayout.addChildren([
    profileRoute,
    ...attendeeRoutes,
    userArea.addChildren([...userRoutes]),
    organizersArea.addChildren([...organizerRoutes, ...organizerIntegrationRoutes]),
    adminArea.addChildren([...adminRoutes]),
    organizersAndAdminArea.addChildren([...integrationRoutes]),
  ]),
])

export function createAppRouter(session: Session, queryClient: QueryClient) {
  return createRouter({
    routeTree,
    context: { session, queryClient },
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
