// Routes of people who attend: their dashboard and inquiries (role user), booking and their
// tickets and their passes (any signed-in account).
import { createRoute } from '@tanstack/react-router'
import { lazyScreen } from '../ui/retry-import.ts'
import { BookingSearch } from './booking-search.ts'
import { signedInLayout, userArea } from './layouts.ts'

export const userDashboardRoute = createRoute({
  getParentRoute: () => userArea,
  path: '/dashboard',
  component: lazyScreen(() => import('./pages/user-dashboard.tsx'), 'UserDashboardPage'),
})

export const inquiryFormRoute = createRoute({
  getParentRoute: () => userArea,
  path: '/inquiryform',
  component: lazyScreen(() => import('../screens/support/inquiry-form.tsx'), 'InquiryFormScreen'),
})

export const bookingRoute = createRoute({
  getParentRoute: () => signedInLayout,
  path: '/booking/$id',
  // the seats chosen on a seat map, or a type and a number (issue 40)
  validateSearch: BookingSearch,
  component: lazyScreen(() => import('../screens/booking/booking.tsx'), 'BookingScreen'),
})

/** Where a booking ends (issue 12): the ticket just bought, linking to its card and home. */
export const bookingConfirmedRoute = createRoute({
  getParentRoute: () => signedInLayout,
  path: '/booking/$id/confirmed/$ticketId',
  component: lazyScreen(() => import('../screens/booking/confirmation.tsx'), 'ConfirmationScreen'),
})

/** Your Registrations: SPEC §2 leaves its path open; the dashboard links here. */
export const registrationsRoute = createRoute({
  getParentRoute: () => signedInLayout,
  path: '/registrations',
  component: lazyScreen(() => import('../screens/booking/registrations.tsx'), 'RegistrationsScreen'),
})

export const transferRoute = createRoute({
  getParentRoute: () => signedInLayout,
  path: '/ticket/transfer/$ticketId',
  component: lazyScreen(() => import('../screens/booking/transfer.tsx'), 'TransferScreen'),
})

/** SPEC §2 names the route, not its screen: one ticket with its cancel. */
export const cancelTicketRoute = createRoute({
  getParentRoute: () => signedInLayout,
  path: '/cancelTicket/$id',
  component: lazyScreen(() => import('../screens/booking/cancel-ticket.tsx'), 'CancelTicketScreen'),
})

/** The account's invoices and credit notes as a buyer (issue 42), kept after a transfer. */
export const myInvoicesRoute = createRoute({
  getParentRoute: () => signedInLayout,
  path: '/account/invoices',
  component: lazyScreen(() => import('../screens/billing/my-invoices.tsx'), 'MyInvoicesScreen'),
})

/** A ticket's passes (issue 16): a QR code per admission, printable one to a page. */
export const ticketRoute = createRoute({
  getParentRoute: () => signedInLayout,
  path: '/ticket/$ticketId',
  component: lazyScreen(() => import('../screens/booking/ticket-passes.tsx'), 'TicketPassesScreen'),
})

export const userRoutes = [userDashboardRoute, inquiryFormRoute] as const

export const attendeeRoutes = [
  bookingRoute,
  bookingConfirmedRoute,
  registrationsRoute,
  transferRoute,
  cancelTicketRoute,
  ticketRoute,
  myInvoicesRoute,
] as const
