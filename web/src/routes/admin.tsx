// Routes of admins: dashboard, organizer accounts, support inbox, user accounts.
import { createRoute } from '@tanstack/react-router'
import { lazyScreen } from '../ui/retry-import.ts'
import { adminArea } from './layouts.ts'
import { prefetchFirstDashboardPage } from './prefetch.ts'

export const adminDashboardRoute = createRoute({
  getParentRoute: () => adminArea,
  path: '/admin/dashboard',
  loader: prefetchFirstDashboardPage,
  staticData: { atBoot: prefetchFirstDashboardPage },
  component: lazyScreen(() => import('../screens/admin/dashboard.tsx'), 'AdminDashboardScreen'),
})

export const createOrganizerRoute = createRoute({
  getParentRoute: () => adminArea,
  path: '/createorganizer',
  component: lazyScreen(() => import('../screens/admin/create-organizer.tsx'), 'CreateOrganizerScreen'),
})

export const inquiryReplyRoute = createRoute({
  getParentRoute: () => adminArea,
  path: '/inquiryreplay',
  component: lazyScreen(() => import('../screens/support/inquiry-replay.tsx'), 'InquiryReplayScreen'),
})

export const userAccountsRoute = createRoute({
  getParentRoute: () => adminArea,
  path: '/useraccounts',
  component: lazyScreen(() => import('../screens/admin/user-accounts.tsx'), 'UserAccountsScreen'),
})

export const adminRoutes = [
  adminDashboardRoute,
  createOrganizerRoute,
  inquiryReplyRoute,
  userAccountsRoute,
] as const
