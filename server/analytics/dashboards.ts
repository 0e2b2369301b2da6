// The dashboards' reads (contracts/dashboards.ts), on either store: a page of events with their
// figures, one event's figures, a page of one event's attendees. Each reads the rows of its page and
// no more: the events through the catalogue's indexes, their figures from this area's event_sales
// (one row per event, folded as sales happen) and the seats from the ticket types and booking's
// inventory (a row or two per event); the attendees from this area's attendance. Statements written
// once: these answer every dashboard view and every refetch during a sale.
// Where SQLite's answer depends on its text rules, PostgreSQL spells the same rules out:
// - order: text byte by byte (d.bytes: SQLite's BINARY, PostgreSQL's collate "C"); the attendees'
//   NOCASE order is their ASCII-lowercased name, byte by byte;
// - search: SQLite's LIKE ignores the case of ASCII letters; PostgreSQL's ILIKE that of every letter
//   (a search for "é" also finds "É" there, where SQLite finds only "é").
import { type SQL, sql } from 'drizzle-orm'
import { after, type DialectKit, type Params, type Sql, statement } from '../db/sql.ts'
import type { AsyncQueries, Awaitable } from '../db/store.ts'
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

const figures = sql`e.id AS id, e.organizer_id AS "organizerId", e.title AS title,
  e.description AS description, e.category AS category, e.version AS version,
  e.location AS location, e.date AS date, e.time AS time, e.approval_status AS "approvalStatus",
  e.review_reason AS "reviewReason", e.cancelled_at AS "cancelledAt",
  (SELECT CAST(coalesce(sum(t.quantity), 0) AS bigint) FROM event_ticket_types t WHERE t.event_id = e.id) AS capacity,
  (SELECT CAST(coalesce(sum(i.held), 0) AS bigint) FROM inventory i WHERE i.event_id = e.id) AS held,
  (SELECT CAST(coalesce(sum(i.sold), 0) AS bigint) FROM inventory i WHERE i.event_id = e.id) AS "seatsSold",
  coalesce(s.tickets_sold, 0) AS "ticketsSold", coalesce(s.revenue_paise, 0) AS "revenuePaise",
  coalesce(s.attendees, 0) AS attendees, coalesce(s.pending, 0) AS pending,
  coalesce(s.completed, 0) AS completed, coalesce(s.failed, 0) AS failed`

/** `text LIKE pattern` ignoring case as each store always has (the header's note) */
const like = (d: DialectKit, text: SQL, pattern: SQL) =>
  d.dialect === 'sqlite'
    ? sql`${text} LIKE ${pattern} ESCAPE '\\'`
    : sql`${text} ILIKE ${pattern} ESCAPE '\\'`

/** SQLite's NOCASE order: ASCII capitals as small letters, then byte by byte */
const asciiNocase = (d: DialectKit, text: SQL) =>
  d.dialect === 'sqlite'
    ? sql`${text} COLLATE NOCASE`
    : d.bytes(sql`translate(${text}, 'ABCDEFGHIJKLMNOPQRSTUVWXYZ', 'abcdefghijklmnopqrstuvwxyz')`)

type Matching = { organizer: string | null; status: string | null; search: string | null }

// organizer and status are null when not asked; search is a LIKE pattern or null.
const matching = (p: Params<Matching>, d: DialectKit) => sql`
  FROM events e LEFT JOIN event_sales s ON s.event_id = e.id
  WHERE (CAST(${p.organizer} AS text) IS NULL OR e.organizer_id = ${p.organizer})
    AND (CAST(${p.status} AS text) IS NULL OR e.approval_status = ${p.status})
    AND (CAST(${p.search} AS text) IS NULL OR ${like(d, sql`e.title`, sql`${p.search}`)})`

const latestFirst = (d: DialectKit) =>
  sql`${d.bytes(sql`e.date`)} DESC, ${d.bytes(sql`e.time`)} DESC, ${d.bytes(sql`e.id`)}`

type Page = { limit: number; offset: number }

// Admins review: rejected first, then pending, then approved (SPEC); within, latest date first.
const pageForAdmin = statement<Matching & Page, FiguresRow>(
  (p, d) => sql`SELECT ${figures} ${matching(p, d)}
    ORDER BY CASE e.approval_status WHEN 'Rejected' THEN 0 WHEN 'Pending' THEN 1 ELSE 2 END, ${latestFirst(d)}
    LIMIT ${p.limit} OFFSET ${p.offset}`,
)
const pageForOrganizer = statement<Matching & Page, FiguresRow>(
  (p, d) =>
    sql`SELECT ${figures} ${matching(p, d)} ORDER BY ${latestFirst(d)} LIMIT ${p.limit} OFFSET ${p.offset}`,
)
const count = statement<Matching, { n: number }>((p, d) => sql`SELECT count(*) AS n ${matching(p, d)}`)
const one = statement<{ eventId: string }, FiguresRow>(
  (p) =>
    sql`SELECT ${figures} FROM events e LEFT JOIN event_sales s ON s.event_id = e.id WHERE e.id = ${p.eventId}`,
)
const totals = statement<{ organizerId: string }, { ticketsSold: number; revenuePaise: number }>(
  (p) => sql`SELECT tickets_sold AS "ticketsSold", revenue_paise AS "revenuePaise" FROM sales_totals
    WHERE organizer_id = ${p.organizerId}`,
)
const eventsOf = statement<{ organizer: string | null }, { n: number }>(
  (p) => sql`SELECT count(*) AS n FROM events
    WHERE CAST(${p.organizer} AS text) IS NULL OR organizer_id = ${p.organizer}`,
)

type Attending = { eventId: string; search: string | null }

// search is a LIKE pattern or null
const attending = (p: Params<Attending>, d: DialectKit) => sql`
  FROM attendance a JOIN accounts acc ON acc.id = a.account_id
  WHERE a.event_id = ${p.eventId} AND a.tickets > 0
    AND (CAST(${p.search} AS text) IS NULL OR ${like(d, sql`acc.username`, sql`${p.search}`)}
      OR ${like(d, sql`acc.email`, sql`${p.search}`)})`

const attendeesPage = statement<Attending & Page, AttendeeFigures>(
  (p, d) => sql`SELECT a.account_id AS id, acc.username AS username, acc.email AS email, a.tickets AS tickets
    ${attending(p, d)}
    ORDER BY ${asciiNocase(d, sql`acc.username`)}, ${d.bytes(sql`a.account_id`)}
    LIMIT ${p.limit} OFFSET ${p.offset}`,
)
const attendeesCount = statement<Attending, { n: number }>(
  (p, d) => sql`SELECT count(*) AS n ${attending(p, d)}`,
)
const attendeesOf = statement<{ eventId: string }, { n: number }>(
  (p) => sql`SELECT coalesce((SELECT attendees FROM event_sales WHERE event_id = ${p.eventId}), 0) AS n`,
)
const oneAttendee = statement<{ eventId: string; accountId: string }, AttendeeFigures>(
  (p) => sql`SELECT acc.id AS id, acc.username AS username, acc.email AS email,
      coalesce((SELECT tickets FROM attendance WHERE event_id = ${p.eventId} AND account_id = acc.id), 0) AS tickets
    FROM accounts acc WHERE acc.id = ${p.accountId}`,
)

/** a LIKE pattern matching the text anywhere, its own % and _ taken literally */
const containing = (text: string | undefined) =>
  text ? `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%` : null

/** two answers of one store: both now (SQLite), or both at once (PostgreSQL) */
const both = <A, B>(a: Awaitable<A>, b: Awaitable<B>): Awaitable<[A, B]> =>
  a instanceof Promise || b instanceof Promise ? Promise.all([a, b]) : [a, b]

export const dashboardQueries = (x: Sql) => ({
  /** a page of events with their figures, and how many events match */
  eventsPage(filter: EventsFilter): Awaitable<{ rows: FiguresRow[]; total: number }> {
    const params = {
      organizer: filter.organizerId,
      status: filter.status ?? null,
      search: containing(filter.search),
    }
    const page = filter.organizerId === null ? pageForAdmin : pageForOrganizer
    return after(
      both(
        x.all(page, { ...params, limit: filter.limit, offset: (filter.page - 1) * filter.limit }),
        x.get(count, params),
      ),
      ([rows, total]) => ({ rows, total: total?.n ?? 0 }),
    )
  },
  figuresOf: (eventId: string) => x.get(one, { eventId }),
  /** tickets sold and revenue of an organizer's events, or of the whole site (null) */
  totals: (organizerId: string | null) =>
    after(
      both(x.get(totals, { organizerId: organizerId ?? SITE }), x.get(eventsOf, { organizer: organizerId })),
      ([row, events]) => ({
        events: events?.n ?? 0,
        ticketsSold: row?.ticketsSold ?? 0,
        revenuePaise: row?.revenuePaise ?? 0,
      }),
    ),
  attendeesPage(eventId: string, page: number, limit: number, search?: string) {
    const pattern = containing(search)
    return after(
      both(
        x.all(attendeesPage, { eventId, search: pattern, limit, offset: (page - 1) * limit }),
        // without a search, the count the projection keeps (no scan of the event's attendance)
        pattern ? x.get(attendeesCount, { eventId, search: pattern }) : x.get(attendeesOf, { eventId }),
      ),
      ([rows, total]) => ({ rows, total: total?.n ?? 0 }),
    )
  },
  /** one person's attendance of an event, as the attendee list shows it (tickets 0: gone) */
  attendee: (eventId: string, accountId: string) => x.get(oneAttendee, { eventId, accountId }),
})

/** the reads on either store, awaited (db/store.ts) */
export type DashboardQueries = AsyncQueries<ReturnType<typeof dashboardQueries>>

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
