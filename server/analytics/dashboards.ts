// The dashboards' reads (contracts/dashboards.ts): a page of events with their figures, one
// event's figures, a page of one event's attendees. Each reads the rows of its page and no more:
// the events through the catalogue's indexes, their figures from this area's event_sales (one row
// per event, folded as sales happen) and the seats from the ticket types and booking's inventory
// (a row or two per event); the attendees from this area's attendance. Raw statements, prepared
// once: these answer every dashboard view and every refetch during a sale.
import type { Db } from '../db/connection.ts'
import type { AsyncQueries } from '../db/store.ts'
import { toRupees } from '../money.ts'
import { SITE } from './project.ts'

export type FiguresRow = {
  id: string
  organizerId: string
  title: string
  description: string
  category: string
  location: string
  date: string
  time: string
  approvalStatus: 'Pending' | 'Approved' | 'Rejected'
  reviewReason: string | null
  cancelledAt: string | null
  version: number
  capacity: number
  held: number
  seatsSold: number
  ticketsSold: number
  revenuePaise: number
  attendees: number
  pending: number
  completed: number
  failed: number
}

export type EventsFilter = {
  /** an organizer's own events; null: every event (an admin) */
  organizerId: string | null
  status?: 'Pending' | 'Approved' | 'Rejected'
  search?: string
  page: number
  limit: number
}

export type AttendeeFigures = { id: string; username: string; email: string; tickets: number }

const figures = `
  e.id AS id, e.organizer_id AS organizerId, e.title AS title, e.description AS description,
  e.category AS category, e.version AS version,
  e.location AS location, e.date AS date, e.time AS time, e.approval_status AS approvalStatus,
  e.review_reason AS reviewReason, e.cancelled_at AS cancelledAt,
  (SELECT coalesce(sum(t.quantity), 0) FROM event_ticket_types t WHERE t.event_id = e.id) AS capacity,
  (SELECT coalesce(sum(i.held), 0) FROM inventory i WHERE i.event_id = e.id) AS held,
  (SELECT coalesce(sum(i.sold), 0) FROM inventory i WHERE i.event_id = e.id) AS seatsSold,
  coalesce(s.tickets_sold, 0) AS ticketsSold, coalesce(s.revenue_paise, 0) AS revenuePaise,
  coalesce(s.attendees, 0) AS attendees, coalesce(s.pending, 0) AS pending,
  coalesce(s.completed, 0) AS completed, coalesce(s.failed, 0) AS failed`

// @organizer and @status are null when not asked; @search is a LIKE pattern or null.
const matching = `
  FROM events e LEFT JOIN event_sales s ON s.event_id = e.id
  WHERE (@organizer IS NULL OR e.organizer_id = @organizer)
    AND (@status IS NULL OR e.approval_status = @status)
    AND (@search IS NULL OR e.title LIKE @search ESCAPE '\\')`

/** a LIKE pattern matching the text anywhere, its own % and _ taken literally */
const containing = (text: string | undefined) =>
  text ? `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%` : null

export function dashboardQueries(db: Db) {
  const sqlite = db.$client
  // Admins review: rejected first, then pending, then approved (SPEC); within, latest date first.
  const pageForAdmin = sqlite.prepare<Record<string, unknown>, FiguresRow>(
    `SELECT ${figures} ${matching}
     ORDER BY CASE e.approval_status WHEN 'Rejected' THEN 0 WHEN 'Pending' THEN 1 ELSE 2 END,
       e.date DESC, e.time DESC, e.id
     LIMIT @limit OFFSET @offset`,
  )
  const pageForOrganizer = sqlite.prepare<Record<string, unknown>, FiguresRow>(
    `SELECT ${figures} ${matching} ORDER BY e.date DESC, e.time DESC, e.id LIMIT @limit OFFSET @offset`,
  )
  const count = sqlite.prepare<Record<string, unknown>, { n: number }>(`SELECT count(*) AS n ${matching}`)
  const one = sqlite.prepare<[string], FiguresRow>(
    `SELECT ${figures} FROM events e LEFT JOIN event_sales s ON s.event_id = e.id WHERE e.id = ?`,
  )
  const totals = sqlite.prepare<[string], { ticketsSold: number; revenuePaise: number }>(
    'SELECT tickets_sold AS ticketsSold, revenue_paise AS revenuePaise FROM sales_totals WHERE organizer_id = ?',
  )
  const eventsOf = sqlite.prepare<{ organizer: string | null }, { n: number }>(
    'SELECT count(*) AS n FROM events WHERE @organizer IS NULL OR organizer_id = @organizer',
  )
  const attendeesPage = sqlite.prepare<Record<string, unknown>, AttendeeFigures>(
    `SELECT a.account_id AS id, acc.username AS username, acc.email AS email, a.tickets AS tickets
     FROM attendance a JOIN accounts acc ON acc.id = a.account_id
     WHERE a.event_id = @eventId AND a.tickets > 0
       AND (@search IS NULL OR acc.username LIKE @search ESCAPE '\\' OR acc.email LIKE @search ESCAPE '\\')
     ORDER BY acc.username COLLATE NOCASE, a.account_id
     LIMIT @limit OFFSET @offset`,
  )
  const attendeesCount = sqlite.prepare<Record<string, unknown>, { n: number }>(
    `SELECT count(*) AS n FROM attendance a JOIN accounts acc ON acc.id = a.account_id
     WHERE a.event_id = @eventId AND a.tickets > 0
       AND (@search IS NULL OR acc.username LIKE @search ESCAPE '\\' OR acc.email LIKE @search ESCAPE '\\')`,
  )
  const attendeesOf = sqlite.prepare<[string], { n: number }>(
    'SELECT coalesce((SELECT attendees FROM event_sales WHERE event_id = ?), 0) AS n',
  )
  const oneAttendee = sqlite.prepare<[string, string], AttendeeFigures>(
    `SELECT acc.id AS id, acc.username AS username, acc.email AS email,
       coalesce((SELECT tickets FROM attendance WHERE event_id = ? AND account_id = acc.id), 0) AS tickets
     FROM accounts acc WHERE acc.id = ?`,
  )

  return {
    /** a page of events with their figures, and how many events match */
    eventsPage(filter: EventsFilter): { rows: FiguresRow[]; total: number } {
      const params = {
        organizer: filter.organizerId,
        status: filter.status ?? null,
        search: containing(filter.search),
      }
      const statement = filter.organizerId === null ? pageForAdmin : pageForOrganizer
      const rows = statement.all({ ...params, limit: filter.limit, offset: (filter.page - 1) * filter.limit })
      return { rows, total: count.get(params)?.n ?? 0 }
    },
    figuresOf: (eventId: string): FiguresRow | undefined => one.get(eventId),
    /** tickets sold and revenue of an organizer's events, or of the whole site (null) */
    totals(organizerId: string | null) {
      const row = totals.get(organizerId ?? SITE)
      return {
        events: eventsOf.get({ organizer: organizerId })?.n ?? 0,
        ticketsSold: row?.ticketsSold ?? 0,
        revenuePaise: row?.revenuePaise ?? 0,
      }
    },
    attendeesPage(eventId: string, page: number, limit: number, search?: string) {
      const pattern = containing(search)
      const rows = attendeesPage.all({ eventId, search: pattern, limit, offset: (page - 1) * limit })
      // without a search, the count the projection keeps (no scan of the event's attendance)
      const total = pattern
        ? (attendeesCount.get({ eventId, search: pattern })?.n ?? 0)
        : (attendeesOf.get(eventId)?.n ?? 0)
      return { rows, total }
    },
    /** one person's attendance of an event, as the attendee list shows it (tickets 0: gone) */
    attendee: (eventId: string, accountId: string): AttendeeFigures | undefined =>
      oneAttendee.get(eventId, accountId),
  }
}
/** the SQLite reads as they answer, at once */
export type DashboardQueriesNow = ReturnType<typeof dashboardQueries>
/** the reads on either store, awaited (db/store.ts) */
export type DashboardQueries = AsyncQueries<DashboardQueriesNow>

/** A figures row as the dashboards show it (contracts/dashboards.ts EventFigures): rupees. */
export const figuresView = (row: FiguresRow, position: number) => ({
  _id: row.id,
  organizerId: row.organizerId,
  title: row.title,
  description: row.description,
  category: row.category,
  location: row.location,
  date: row.date,
  time: row.time,
  approvalStatus: row.approvalStatus,
  reviewReason: row.reviewReason,
  cancelledAt: row.cancelledAt,
  version: row.version,
  capacity: row.capacity,
  sold: row.ticketsSold,
  available: row.capacity - row.held - row.seatsSold,
  revenue: toRupees(row.revenuePaise),
  attendees: row.attendees,
  Pending: row.pending,
  Completed: row.completed,
  Failed: row.failed,
  position,
})

export const attendeeView = (row: AttendeeFigures) => ({
  _id: row.id,
  username: row.username,
  email: row.email,
  tickets: row.tickets,
})
