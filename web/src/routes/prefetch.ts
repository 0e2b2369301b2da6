// Data a page's route starts fetching while the page's code loads, instead of once the page has
// mounted: the two then overlap, and the first view waits for the slower of them, not their sum.
import { rooms } from '../../../contracts/live.ts'
import { keys } from '../api/keys.ts'
import type { Live } from '../live/live.ts'
import type { RouterContext } from './root.tsx'

/** how long the boot's watch of a seat map's room waits for the picker to watch it instead */
const SEAT_ROOM_HANDOVER_MS = 60_000

/**
 * A dashboard's first page of rows (both dashboards open on it). Not awaited: the page shows its
 * loading indicator if the rows come after its code, and a failure is the page's to show. Also run
 * at boot (the route's staticData.atBoot), beside the session check: rows fetched under 2 s ago
 * (the page's own refetch rule) are not fetched again by the loader.
 */
export function prefetchFirstDashboardPage({ context }: { context: RouterContext }): void {
  if (!context.session.current().token) return
  void Promise.all([import('../api/keys.ts'), import('../api/queries.ts')]).then(([keys, queries]) =>
    context.queryClient.prefetchQuery({
      ...queries.dashboardEventsQuery(keys.FIRST_DASHBOARD_PAGE),
      staleTime: 2000,
    }),
  )
}

/**
 * The event page's event and seat map, asked for at boot beside the page's code instead of once the
 * page has shown the event (the map then came a second later on a phone); both were asked for
 * already by web/public/early.js, whose replies the requests take (api/early.ts). The map, asked for
 * before the room of its changes is joined, is asked for again once it is joined, conditionally
 * (api/seating.ts's recheckSeatMap: kept when no seat moved), as the picker would; this watch of the
 * room is let go once the picker watches it (a minute at most: the visitor may have gone elsewhere).
 * The event page's queries do not fetch again what was fetched a moment ago. An event without a
 * map gets a 404 that reads as "none", asked for once: the room's join answers that there is still
 * no map (a map placed later is pushed there with its version: live/follow.ts).
 */
export function prefetchEventPage(args: {
  context: RouterContext
  params: Record<string, string>
  live: Live
}): void {
  const { context, params, live } = args
  const id = params.id
  if (!id) return
  const { queryClient, session } = context
  void import('../api/queries.ts').then((queries) => queryClient.prefetchQuery(queries.eventQuery(id)))
  const seating = import('../api/seating.ts')
  void seating.then(({ seatMapQuery }) => queryClient.prefetchQuery(seatMapQuery(id)))
  // the live connection starts with the session's token, as every watch after boot does
  void session.resolved().then(() => {
    let recheck = () => {}
    const unwatch = live.watch(rooms.seats(id), (at, ack) => {
      void seating.then(({ recheckSeatMap }) => {
        if (released) return
        recheck()
        recheck = recheckSeatMap(queryClient, id, at, ack.seatMap)
      })
    })
    const cache = queryClient.getQueryCache()
    let released = false
    const release = () => {
      if (released) return
      released = true
      clearTimeout(timer)
      stopListening()
      unwatch()
      recheck()
    }
    const timer = setTimeout(release, SEAT_ROOM_HANDOVER_MS)
    const stopListening = cache.subscribe((event) => {
      // the picker's query observes the map right after its own watch of the room (same commit)
      if (event.type === 'observerAdded' && sameKey(event.query.queryKey, keys.seatMap(id)))
        setTimeout(release, 0)
    })
  })
}

const sameKey = (a: readonly unknown[], b: readonly unknown[]) =>
  a.length === b.length && a.every((part, i) => part === b[i])
