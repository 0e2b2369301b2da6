// What a dashboard push (contracts/live.ts FiguresPush, AttendeePush) does to a cached page, in
// place and without a request when it can be worked out, or says that the page must be fetched
// again: pure, so follow.ts stays a switch and these are tested alone. A push below the position a
// page shows changes nothing (rows and attendee pages carry the ledger position they are as of);
// one at that position is applied: pushes of one thing come at non-decreasing positions in the
// order their data was read (server/live/socket.ts), so one at the same position is as new or
// newer, and an answer's position covers only facts it shows.
import type {
  AttendeeRow,
  AttendeesPage,
  DashboardEventsPage,
  DashboardTotals,
  EventFigures,
} from '../../../contracts/dashboards.ts'

export type Applied<Page> = {
  /** the page with the push applied (the same object when nothing changed) */
  page: Page
  /** the page cannot be told from the push alone: which rows it holds, its order or its count */
  refetch: boolean
}

/** rupees to the paisa: sums of decimal rupees never drift */
const rupees = (amount: number) => Math.round(amount * 100) / 100

/**
 * An event's row as of a push. A row on the page is replaced and the totals moved by the change;
 * a row whose status, title or date changed may belong elsewhere (the admin's order and filter,
 * the organizer's by date, a title search), and an event not on the page may belong on it and
 * moves totals the page cannot compute: both mean fetching the page again.
 */
export function withFigures(
  page: DashboardEventsPage,
  figures: EventFigures,
  /** what the push says besides the row (FiguresPush): only sales moved it; the totals come whole */
  push: { salesOnly?: boolean; totals?: DashboardTotals } = {},
): Applied<DashboardEventsPage> {
  const at = page.events.findIndex((row) => row._id === figures._id)
  const shown = page.events[at]
  // A sale of an event not on the page changes none of its rows, their order or their count: only
  // the totals, which such a push carries whole (withTotals).
  if (!shown) return { page, refetch: !(push.salesOnly && push.totals) }
  if (figures.position < shown.position) return { page, refetch: false }
  const moved =
    shown.approvalStatus !== figures.approvalStatus ||
    shown.title !== figures.title ||
    shown.date !== figures.date
  return {
    page: {
      ...page,
      events: page.events.map((row, index) => (index === at ? figures : row)),
      // whole when the push carries them (withTotals sets them), else moved by the row's change
      totals: push.totals
        ? page.totals
        : {
            ...page.totals,
            sold: page.totals.sold + figures.sold - shown.sold,
            revenue: rupees(page.totals.revenue + figures.revenue - shown.revenue),
          },
    },
    refetch: moved,
  }
}

/** the position a page is as of: its rows were read together (each carries the read's position) */
const asOf = (page: DashboardEventsPage) => Math.max(-1, ...page.events.map((row) => row.position))

/** a page's totals as a push at `position` carries them, unless the push is below the page */
export function withTotals(
  page: DashboardEventsPage,
  totals: DashboardTotals,
  position: number,
): DashboardEventsPage {
  if (position < asOf(page)) return page
  const same =
    page.totals.events === totals.events &&
    page.totals.sold === totals.sold &&
    page.totals.revenue === totals.revenue
  return same ? page : { ...page, totals }
}

/** one event's row as of a push, unless the push is below it */
export const newerFigures = (shown: EventFigures, figures: EventFigures): EventFigures =>
  figures.position >= shown.position ? figures : shown

/**
 * One person's attendance as of a push (at `position`). Someone on the page whose ticket count
 * changed is updated in place. Someone leaving the page shortens it and shifts the pages after it,
 * someone new may belong on it: the page is fetched again, unless it is the last one (nothing
 * shifts into it) or it holds every attendee and they are not on it (nothing to remove).
 */
export function withAttendee(
  page: AttendeesPage,
  attendee: AttendeeRow,
  position: number,
  searching: boolean,
): Applied<AttendeesPage> {
  if (position < page.position) return { page, refetch: false }
  const at = page.attendees.findIndex((row) => row._id === attendee._id)
  const shown = page.attendees[at]
  const holdsEveryone = !searching && page.page === 1 && page.total <= page.limit
  if (!shown) return { page, refetch: !(attendee.tickets === 0 && holdsEveryone) }
  if (attendee.tickets > 0) {
    const same =
      shown.tickets === attendee.tickets &&
      shown.username === attendee.username &&
      shown.email === attendee.email
    if (same) return { page, refetch: false }
    return {
      page: { ...page, attendees: page.attendees.map((row, index) => (index === at ? attendee : row)) },
      refetch: false,
    }
  }
  const lastPage = page.page * page.limit >= page.total
  return {
    page: {
      ...page,
      attendees: page.attendees.filter((_, index) => index !== at),
      total: Math.max(0, page.total - 1),
    },
    refetch: !lastPage,
  }
}
