// The dashboards' pushes applied to the query cache (the rules are dashboards.ts'): an event's row
// to every cached page holding it and to its own query, one person's attendance to the cached
// pages of that event's attendees; a page that cannot be worked out is refetched (throttled by the
// caller). A refetch that was under way when a push arrived may answer with what was true before
// it: the newest push of each row and person is kept, and applied again to what a fetch brings.
import type { Query, QueryClient, QueryKey } from '@tanstack/react-query'
import type {
  AttendeeRow,
  AttendeesPage,
  DashboardEventsPage,
  DashboardTotals,
  EventFigures,
} from '../../../contracts/dashboards.ts'
import { type AttendeesQuery, keys } from '../api/keys.ts'
import { newerFigures, withAttendee, withFigures, withTotals } from './dashboards.ts'

/** one person's attendance of an event, as an AttendeePush carries it for each of them */
type OneAttendee = { eventId: string; attendee: AttendeeRow }
type Pushed = { attendee: AttendeeRow; position: number }

/** the attendance pushes remembered per event, at most this many (the oldest are forgotten) */
const REMEMBERED_PER_EVENT = 2000

/** what a row's push says besides the row (FiguresPush) */
type PushedTotals = { salesOnly?: boolean; totals?: DashboardTotals }

export type DashboardPushes = {
  figures(figures: EventFigures, push?: PushedTotals): void
  attendee(push: OneAttendee, position: number): void
  stop(): void
}

const searchingIn = (key: QueryKey) => Boolean((key[2] as AttendeesQuery | undefined)?.search?.trim())

export function followDashboards(client: QueryClient, refetch: (key: QueryKey) => void): DashboardPushes {
  const cache = client.getQueryCache()
  const latestFigures = new Map<string, EventFigures>()
  /** what came with each row's newest push: applied again with it */
  const latestPush = new Map<string, PushedTotals>()
  /** the newest totals pushed (this account's: the organizer's own, or the site's for an admin) */
  let latestTotals: { totals: DashboardTotals; position: number } | null = null
  const latestAttendance = new Map<string, Map<string, Pushed>>()

  /** a query with nothing to update yet: if it is being fetched, that fetch may predate the push */
  const unknown = (query: Query) => {
    if (query.state.fetchStatus === 'fetching') refetch(query.queryKey)
  }

  const applyFigures = (figures: EventFigures, asked: boolean, push: PushedTotals = {}) => {
    for (const query of cache.findAll({ queryKey: keys.dashboardEvents() })) {
      const page = query.state.data as DashboardEventsPage | undefined
      if (!page) {
        if (asked) unknown(query)
        continue
      }
      // the totals first: the row's own position would make them look old once it is set
      const totalled = push.totals ? withTotals(page, push.totals, figures.position) : page
      const applied = withFigures(totalled, figures, push)
      if (applied.page !== page) client.setQueryData(query.queryKey, applied.page)
      if (applied.refetch && asked) refetch(query.queryKey)
    }
    const single = cache.find({ queryKey: keys.eventFigures(figures._id), exact: true })
    if (!single) return
    const shown = single.state.data as EventFigures | undefined
    if (!shown) {
      if (asked) unknown(single)
    } else if (newerFigures(shown, figures) !== shown) client.setQueryData(single.queryKey, figures)
  }

  const applyAttendance = (eventId: string, pushed: Pushed, asked: boolean) => {
    for (const query of cache.findAll({ queryKey: keys.attendees(eventId) })) {
      const page = query.state.data as AttendeesPage | undefined
      if (!page) {
        if (asked) unknown(query)
        continue
      }
      const applied = withAttendee(page, pushed.attendee, pushed.position, searchingIn(query.queryKey))
      if (applied.page !== page) client.setQueryData(query.queryKey, applied.page)
      if (applied.refetch) refetch(query.queryKey)
    }
  }

  // What a fetch brings is as of when it was read: the pushes since are applied to it again.
  const stopCache = cache.subscribe((event) => {
    if (event.type !== 'updated' || event.action.type !== 'success' || event.action.manual) return
    const [kind, eventId] = event.query.queryKey
    if (kind === keys.dashboardEvents()[0]) {
      const page = event.query.state.data as DashboardEventsPage | undefined
      if (page && latestTotals) {
        const totalled = withTotals(page, latestTotals.totals, latestTotals.position)
        if (totalled !== page) client.setQueryData(event.query.queryKey, totalled)
      }
      for (const row of page?.events ?? []) {
        const newer = latestFigures.get(row._id)
        if (newer && newer.position >= row.position) applyFigures(newer, false, latestPush.get(row._id))
      }
    } else if (kind === keys.eventFigures('')[0] && typeof eventId === 'string') {
      const newer = latestFigures.get(eventId)
      if (newer) applyFigures(newer, false, latestPush.get(eventId))
    } else if (kind === keys.attendees('')[0] && typeof eventId === 'string') {
      const page = event.query.state.data as AttendeesPage | undefined
      for (const pushed of latestAttendance.get(eventId)?.values() ?? [])
        if (page && pushed.position >= page.position) applyAttendance(eventId, pushed, false)
    }
  })

  return {
    figures(figures, push = {}) {
      const known = latestFigures.get(figures._id)
      if (known && known.position > figures.position) return
      latestFigures.set(figures._id, figures)
      latestPush.set(figures._id, push)
      if (push.totals && figures.position >= (latestTotals?.position ?? -1))
        latestTotals = { totals: push.totals, position: figures.position }
      applyFigures(figures, true, push)
    },
    attendee({ eventId, attendee }, position) {
      // Only a list being shown or fetched can miss a push; one fetched later reads it.
      if (cache.findAll({ queryKey: keys.attendees(eventId) }).length === 0) return
      const pushed = { attendee, position }
      const remembered = latestAttendance.get(eventId) ?? new Map<string, Pushed>()
      latestAttendance.set(eventId, remembered)
      remembered.delete(attendee._id)
      remembered.set(attendee._id, pushed)
      if (remembered.size > REMEMBERED_PER_EVENT) {
        const oldest = remembered.keys().next().value
        if (oldest !== undefined) remembered.delete(oldest)
      }
      applyAttendance(eventId, pushed, true)
    },
    stop: stopCache,
  }
}
