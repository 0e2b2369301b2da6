// Routes of people who attend: their dashboard and inquiries (role user), booking and their
// tickets (any signed-in account).
import { createRoute, lazyRouteComponent } from '@tanstack/react-router'
import { onlyFor, signedIn } from './guards.ts'
import { rootRoute } from './root.tsx'

export const userDashboardRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/dashboard',
  beforeLoad: onlyFor('user'),
  component: lazyRouteComponent(() => import('../screens/booking/dashboard.tsx'), 'DashboardScreen'),
})

export const inquiryFormRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/inquiryform',
  beforeLoad: onlyFor('user'),
  component: lazyRouteComponent(() => import('../screens/support/inquiry-form.tsx'), 'InquiryFormScreen'),
})

export const bookingRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/booking/$id',
  beforeLoad: signedIn,
  component: lazyRouteComponent(() => import('../screens/booking/booking.tsx'), 'BookingScreen'),
})

/** Where a booking ends (issue 12): the ticket just bought, linking to its card and home. */
export const bookingConfirmedRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/booking/$id/confirmed/$ticketId',
  beforeLoad: signedIn,
  component: lazyRouteComponent(() => import('../screens/booking/confirmation.tsx'), 'ConfirmationScreen'),
})

/** Your Registrations: SPEC §2 leaves its path open; the dashboard links here. */
export const registrationsRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/registrations',
  beforeLoad: signedIn,
  component: lazyRouteComponent(() => import('../screens/booking/registrations.tsx'), 'RegistrationsScreen'),
})

export const transferRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/ticket/transfer/$ticketId',
  beforeLoad: signedIn,
  component: lazyRouteComponent(() => import('../screens/booking/transfer.tsx'), 'TransferScreen'),
})

/** SPEC §2 names the route, not its screen: one ticket with its cancel. */
export const cancelTicketRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/cancelTicket/$id',
  beforeLoad: signedIn,
  component: lazyRouteComponent(() => import('../screens/booking/cancel-ticket.tsx'), 'CancelTicketScreen'),
})

export const attendeeRoutes = [
  userDashboardRoute,
  inquiryFormRoute,
  bookingRoute,
  bookingConfirmedRoute,
  registrationsRoute,
  transferRoute,
  cancelTicketRoute,
] as const
