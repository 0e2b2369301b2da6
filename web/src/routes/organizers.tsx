// Routes of organizers: create event, attendee dashboard, one event's own page (its attendees and
// analytics), add a session to an event.
import { createRoute, lazyRouteComponent } from '@tanstack/react-router'
import { organizersArea } from './layouts.ts'
import { prefetchFirstDashboardPage } from './prefetch.ts'

export const eventFormRoute = createRoute({
  getParentRoute: () => organizersArea,
  // The mobile menu links to /EventForm: paths match regardless of case.
  path: '/eventform',
  component: lazyRouteComponent(() => import('../screens/catalog/create-event.tsx'), 'CreateEventScreen'),
})

export const organizerDashboardRoute = createRoute({
  getParentRoute: () => organizersArea,
  path: '/organizers/dashboard',
  loader: prefetchFirstDashboardPage,
  component: lazyRouteComponent(
    () => import('../screens/organizers/organizer-dashboard.tsx'),
    'OrganizerDashboardScreen',
  ),
})

/** One event of the organizer's, beyond SPEC: its attendees paged and searchable, its analytics. */
export const organizerEventRoute = createRoute({
  getParentRoute: () => organizersArea,
  path: '/organizers/events/$eventId',
  component: lazyRouteComponent(
    () => import('../screens/organizers/organizer-event.tsx'),
    'OrganizerEventScreen',
  ),
})

export const addSessionRoute = createRoute({
  getParentRoute: () => organizersArea,
  path: '/schedule/$id',
  component: lazyRouteComponent(() => import('../screens/schedule/add-session.tsx'), 'AddSessionScreen'),
})

export const organizerRoutes = [
  eventFormRoute,
  organizerDashboardRoute,
  organizerEventRoute,
  addSessionRoute,
] as const
