// Data a page's route starts fetching while the page's code loads, instead of once the page has
// mounted: the two then overlap, and the first view waits for the slower of them, not their sum.
import type { RouterContext } from './root.tsx'

/**
 * A dashboard's first page of rows (both dashboards open on it). Not awaited: the page shows its
 * loading indicator if the rows come after its code, and a failure is the page's to show. Also run
 * at boot (the route's staticData.atBoot), beside the session check: rows fetched under 2 s ago
 * (the page's own refetch rule) are not fetched again by the loader.
 */
export function prefetchFirstDashboardPage({ context }: { context: RouterContext }): void {
  void Promise.all([import('../api/keys.ts'), import('../api/queries.ts')]).then(([keys, queries]) =>
    context.queryClient.prefetchQuery({
      ...queries.dashboardEventsQuery(keys.FIRST_DASHBOARD_PAGE),
      staleTime: 2000,
    }),
  )
}
