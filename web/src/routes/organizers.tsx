// Routes of organizers: create event, attendee dashboard, one event's own page (in sections: its
// overview, attendees, analytics, promo codes, door and seat map), add a session to an event, and
// their billing profile and invoices.
import { createRoute } from '@tanstack/react-router'
import { lazyScreen } from '../ui/retry-import.ts'
import { OrganizerEventSearch } from './event-sections.ts'
import { organizersArea } from './layouts.ts'
import { prefetchFirstDashboardPage } from './prefetch.ts'

export const eventFormRoute = createRoute({
  getParentRoute: () => organizersArea,
  // The mobile menu links to /EventForm: paths match regardless of case.
  path: '/eventform',
  component: lazyScreen(() => import('../screens/catalog/create-event.tsx'), 'CreateEventScreen'),
})

export const organizerDashboardRoute = createRoute({
  getParentRoute: () => organizersArea,
  path: '/organizers/dashboard',
  loader: prefetchFirstDashboardPage,
  staticData: { atBoot: prefetchFirstDashboardPage },
  component: lazyScreen(
    () => import('../screens/organizers/organizer-dashboard.tsx'),
    'OrganizerDashboardScreen',
  ),
})

/** One event of the organizer's, beyond SPEC, in sections (?section=): its overview and changes,
 * its attendees paged and searchable, its analytics, promo codes and door. */
export const organizerEventRoute = createRoute({
  getParentRoute: () => organizersArea,
  path: '/organizers/events/$eventId',
  validateSearch: OrganizerEventSearch,
  component: lazyScreen(() => import('./pages/organizer-event.tsx'), 'OrganizerEventPage'),
})

export const addSessionRoute = createRoute({
  getParentRoute: () => organizersArea,
  path: '/schedule/$id',
  component: lazyScreen(() => import('../screens/schedule/add-session.tsx'), 'AddSessionScreen'),
})

/** The billing profile that invoices carry (issue 42): legal name, GSTIN, address, state, prefix. */
export const billingProfileRoute = createRoute({
  getParentRoute: () => organizersArea,
  path: '/organizer/billing',
  component: lazyScreen(() => import('../screens/billing/billing-profile.tsx'), 'BillingProfileScreen'),
})

/** The invoices and credit notes issued for the organizer's tickets, between two days, and as CSV. */
export const invoicesRoute = createRoute({
  getParentRoute: () => organizersArea,
  path: '/organizer/invoices',
  component: lazyScreen(() => import('../screens/billing/invoices.tsx'), 'InvoicesScreen'),
})

export const organizerRoutes = [
  eventFormRoute,
  organizerDashboardRoute,
  organizerEventRoute,
  addSessionRoute,
  billingProfileRoute,
  invoicesRoute,
] as const
