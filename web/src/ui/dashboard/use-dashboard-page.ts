// The state both dashboards keep over GET /dashboard/events: the page asked (page, search, status),
// the rows opened or closed by hand, and whether rows start open (an account of at most
// OPEN_ALL_UP_TO events sees every row open, as SPEC shows it; decided once, on the first answer,
// so rows do not close when a sixth event arrives). A page left past the last one (events gone
// under a search, a filter or a review) moves back to the last.
import { useQuery } from '@tanstack/react-query'
import { useCallback, useEffect, useState } from 'react'
import { type DashboardQuery, FIRST_DASHBOARD_PAGE } from '../../api/keys.ts'
import { dashboardEventsQuery } from '../../api/queries.ts'

/** with at most this many events every row is open */
export const OPEN_ALL_UP_TO = 5

export function useDashboardPage() {
  const [asked, setAsked] = useState<DashboardQuery>(FIRST_DASHBOARD_PAGE)
  const events = useQuery(dashboardEventsQuery(asked))
  const [toggled, setToggled] = useState<ReadonlyMap<string, boolean>>(new Map())
  const [small, setSmall] = useState<boolean | null>(null)
  const openByDefault = small ?? (events.data ? events.data.totals.events <= OPEN_ALL_UP_TO : false)
  useEffect(() => {
    if (small === null && events.data) setSmall(events.data.totals.events <= OPEN_ALL_UP_TO)
  }, [small, events.data])

  const shownPage = events.isPlaceholderData ? undefined : events.data
  useEffect(() => {
    if (!shownPage) return
    const last = Math.max(1, Math.ceil(shownPage.total / shownPage.limit))
    if (asked.page > last) setAsked((now) => ({ ...now, page: last }))
  }, [shownPage, asked.page])

  /** a new search starts again from the first page */
  const onSearch = useCallback(
    (words: string) =>
      setAsked((now) => {
        if ((now.search ?? '') === words) return now
        const { search: _, ...rest } = now
        return { ...rest, page: 1, ...(words ? { search: words } : {}) }
      }),
    [],
  )

  /** stable, so that memoised rows do not render again for it */
  const toggle = useCallback(
    (eventId: string, open: boolean) => setToggled((now) => new Map(now).set(eventId, !open)),
    [],
  )

  return {
    asked,
    setAsked,
    events,
    onSearch,
    onPage: (page: number) => setAsked((now) => ({ ...now, page })),
    isOpen: (eventId: string) => toggled.get(eventId) ?? openByDefault,
    toggle,
  }
}
