// Routes of admins: dashboard, organizer accounts, support inbox, user accounts.
import { createRoute, lazyRouteComponent } from '@tanstack/react-router'
import { adminArea } from './layouts.ts'
import { prefetchFirstDashboardPage } from './prefetch.ts'

export const adminDashboardRoute = createRoute({
  getParentRoute: () => adminArea,
  path: '/admin/dashboard',
  loader: prefetchFirstDashboardPage,
  component: lazyRouteComponent(() => import('../screens/admin/dashboard.tsx'), 'AdminDashboardScreen'),
})

export const createOrganizerRoute = createRoute({
  getParentRoute: () => adminArea,
  path: '/createorganizer',
  component: lazyRouteComponent(
    () => import('../screens/admin/create-organizer.tsx'),
    'CreateOrganizerScreen',
  ),
})

export const inquiryReplyRoute = createRoute({
  getParentRoute: () => adminArea,
  path: '/inquiryreplay',
  component: lazyRouteComponent(() => import('../screens/support/inquiry-replay.tsx'), 'InquiryReplayScreen'),
})

export const userAccountsRoute = createRoute({
  getParentRoute: () => adminArea,
  path: '/useraccounts',
  component: lazyRouteComponent(() => import('../screens/admin/user-accounts.tsx'), 'UserAccountsScreen'),
})

export const adminRoutes = [
  adminDashboardRoute,
  createOrganizerRoute,
  inquiryReplyRoute,
  userAccountsRoute,
] as const
