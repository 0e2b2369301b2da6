// Routes of admins: dashboard, organizer accounts, support inbox, user accounts, the platform's
// booking fee and its invoices.
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

/** The platform's invoices and credit notes for booking fees (issue 42), between two days, and as CSV. */
export const platformInvoicesRoute = createRoute({
  getParentRoute: () => adminArea,
  path: '/admin/invoices',
  component: lazyScreen(() => import('../screens/billing/invoices.tsx'), 'PlatformInvoicesScreen'),
})

/** The platform's booking fee on paid orders (issue 42): what admins set, charged from then on. */
export const bookingFeeRoute = createRoute({
  getParentRoute: () => adminArea,
  path: '/admin/booking-fee',
  component: lazyScreen(() => import('../screens/billing/booking-fee.tsx'), 'BookingFeeScreen'),
})

export const adminRoutes = [
  adminDashboardRoute,
  createOrganizerRoute,
  inquiryReplyRoute,
  userAccountsRoute,
  platformInvoicesRoute,
  bookingFeeRoute,
] as const
