// Routes open to everyone: landing, listing, search, schedule, event detail.
import { createRoute, lazyRouteComponent } from '@tanstack/react-router'
import { rootRoute } from './root.tsx'

export const landingRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/',
  component: lazyRouteComponent(() => import('../screens/landing/landing.tsx'), 'LandingScreen'),
})

export const homeRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/home',
  component: lazyRouteComponent(() => import('../screens/catalog/events-listing.tsx'), 'EventsListingScreen'),
})

export const searchRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/search',
  component: lazyRouteComponent(() => import('../screens/catalog/event-search.tsx'), 'EventSearchScreen'),
})

export const scheduleRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/schedule',
  // FullCalendar comes with this screen only.
  component: lazyRouteComponent(
    () => import('../screens/schedule/event-schedule.tsx'),
    'EventScheduleScreen',
  ),
})

export const eventRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/event/$id',
  component: lazyRouteComponent(() => import('./pages/event.tsx'), 'EventPage'),
})

export const publicRoutes = [landingRoute, homeRoute, searchRoute, scheduleRoute, eventRoute] as const
