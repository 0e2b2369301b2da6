// Routes of admins: dashboard, organizer accounts, support inbox, user accounts.
import { createRoute, lazyRouteComponent } from '@tanstack/react-router'
import { onlyFor } from './guards.ts'
import { rootRoute } from './root.tsx'

export const adminDashboardRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/admin/dashboard',
  beforeLoad: onlyFor('admin'),
  component: lazyRouteComponent(() => import('../screens/admin/dashboard.tsx'), 'AdminDashboardScreen'),
})

export const createOrganizerRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/createorganizer',
  beforeLoad: onlyFor('admin'),
  component: lazyRouteComponent(
    () => import('../screens/admin/create-organizer.tsx'),
    'CreateOrganizerScreen',
  ),
})

export const inquiryReplyRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/inquiryreplay',
  beforeLoad: onlyFor('admin'),
  component: lazyRouteComponent(() => import('../screens/support/inquiry-replay.tsx'), 'InquiryReplayScreen'),
})

export const userAccountsRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/useraccounts',
  beforeLoad: onlyFor('admin'),
  component: lazyRouteComponent(() => import('../screens/admin/user-accounts.tsx'), 'UserAccountsScreen'),
})

export const adminRoutes = [
  adminDashboardRoute,
  createOrganizerRoute,
  inquiryReplyRoute,
  userAccountsRoute,
] as const
