// Routes of organizers: create event, attendee dashboard, add a session to an event.
import { createRoute, lazyRouteComponent } from '@tanstack/react-router'
import { NotAvailable } from '../ui/not-available.tsx'
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
  component: () => <NotAvailable title="Attendees by Event" />,
})

export const addSessionRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/schedule/$id',
  beforeLoad: onlyFor('organizers'),
  component: () => <NotAvailable title="Add Session" />,
})

export const organizerRoutes = [eventFormRoute, organizerDashboardRoute, addSessionRoute] as const
