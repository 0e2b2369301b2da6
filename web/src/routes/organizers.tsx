// Routes of organizers: create event, attendee dashboard, add a session to an event.
import { createRoute, lazyRouteComponent } from '@tanstack/react-router'
import { onlyFor } from './guards.ts'
import { rootRoute } from './root.tsx'

export const eventFormRoute = createRoute({
  getParentRoute: () => rootRoute,
  // The mobile menu links to /EventForm: paths match regardless of case.
  path: '/eventform',
  beforeLoad: onlyFor('organizers'),
  component: lazyRouteComponent(() => import('../screens/catalog/create-event.tsx'), 'CreateEventScreen'),
})

export const organizerDashboardRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/organizers/dashboard',
  beforeLoad: onlyFor('organizers'),
  component: lazyRouteComponent(
    () => import('../screens/organizers/organizer-dashboard.tsx'),
    'OrganizerDashboardScreen',
  ),
})

export const addSessionRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/schedule/$id',
  beforeLoad: onlyFor('organizers'),
  component: lazyRouteComponent(() => import('../screens/schedule/add-session.tsx'), 'AddSessionScreen'),
})

export const organizerRoutes = [eventFormRoute, organizerDashboardRoute, addSessionRoute] as const
