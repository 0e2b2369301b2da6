// Routes of people who attend: their dashboard and inquiries (role user), booking and their
// tickets (any signed-in account).
import { createRoute } from '@tanstack/react-router'
import { NotAvailable } from '../ui/not-available.tsx'
import { onlyFor, signedIn } from './guards.ts'
import { rootRoute } from './root.tsx'

export const userDashboardRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/dashboard',
  beforeLoad: onlyFor('user'),
  component: () => <NotAvailable title="My Dashboard" />,
})

export const inquiryFormRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/inquiryform',
  beforeLoad: onlyFor('user'),
  component: () => <NotAvailable title="Support Inquiry" />,
})

export const bookingRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/booking/$id',
  beforeLoad: signedIn,
  component: () => <NotAvailable title="Book Tickets" />,
})

export const transferRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/ticket/transfer/$ticketId',
  beforeLoad: signedIn,
  component: () => <NotAvailable title="Ticket Transfer" />,
})

export const cancelTicketRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/cancelTicket/$id',
  beforeLoad: signedIn,
  component: () => <NotAvailable title="Ticket Cancellation" />,
})

export const attendeeRoutes = [
  userDashboardRoute,
  inquiryFormRoute,
  bookingRoute,
  transferRoute,
  cancelTicketRoute,
] as const
