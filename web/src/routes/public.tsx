// Routes open to everyone: landing, listing, search, schedule, event detail.
import { createRoute } from '@tanstack/react-router'
import { lazyScreen } from '../ui/retry-import.ts'
import { prefetchEventPage } from './prefetch.ts'
import { rootRoute } from './root.tsx'

export const landingRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/',
  component: lazyScreen(() => import('../screens/landing/landing.tsx'), 'LandingScreen'),
})

export const homeRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/home',
  component: lazyScreen(() => import('../screens/catalog/events-listing.tsx'), 'EventsListingScreen'),
})

export const searchRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/search',
  component: lazyScreen(() => import('../screens/catalog/event-search.tsx'), 'EventSearchScreen'),
})

export const scheduleRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/schedule',
  // FullCalendar comes with this screen only.
  component: lazyScreen(() => import('../screens/schedule/event-schedule.tsx'), 'EventScheduleScreen'),
})

export const eventRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/event/$id',
  component: lazyScreen(() => import('./pages/event.tsx'), 'EventPage'),
  staticData: { atBoot: prefetchEventPage },
})

export const publicRoutes = [landingRoute, homeRoute, searchRoute, scheduleRoute, eventRoute] as const
