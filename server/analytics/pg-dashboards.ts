// The dashboards' reads on PostgreSQL (issue 15): what dashboards.ts answers, for the same rows, each
// reading the rows of its page and no more (events through the catalogue's tables, their figures
// from event_sales, the seats from the ticket types and booking's inventory, the attendees from
// attendance). Where SQLite's answer depends on its text rules, the same rules are spelled out:
// - search: SQLite's LIKE ignores case (ASCII letters); here ILIKE (which ignores the case of every
//   letter, so a search for "é" also finds "É", where SQLite finds only "é");
// - order: SQLite compares text byte by byte (BINARY); here COLLATE "C", the same, whatever the
//   database's own collation; the attendees' NOCASE order is their ASCII-lowercased name in "C".
import type { PgReader } from '../booking/pg-queries.ts'
import type { AsyncQueries } from '../db/store.ts'
import type { AttendeeFigures, DashboardQueries, FiguresRow } from './dashboards.ts'
import { SITE } from './project.ts'

const figures = `
  e.id AS id, e.organizer_id AS "organizerId", e.title AS title, e.description AS description,
  e.category AS category, e.version AS version,
  e.location AS location, e.date AS date, e.time AS time, e.approval_status AS "approvalStatus",
  e.review_reason AS "reviewReason", e.cancelled_at AS "cancelledAt",
  (SELECT coalesce(sum(t.quantity), 0)::bigint FROM event_ticket_types t WHERE t.event_id = e.id) AS capacity,
  (SELECT coalesce(sum(i.held), 0)::bigint FROM inventory i WHERE i.event_id = e.id) AS held,
  (SELECT coalesce(sum(i.sold), 0)::bigint FROM inventory i WHERE i.event_id = e.id) AS "seatsSold",
  coalesce(s.tickets_sold, 0) AS "ticketsSold", coalesce(s.revenue_paise, 0) AS "revenuePaise",
  coalesce(s.attendees, 0) AS attendees, coalesce(s.pending, 0) AS pending,
  coalesce(s.completed, 0) AS completed, coalesce(s.failed, 0) AS failed`

// $1 organizer and $2 status are null when not asked; $3 is an ILIKE pattern or null.
const matching = `
  FROM events e LEFT JOIN event_sales s ON s.event_id = e.id
  WHERE ($1::text IS NULL OR e.organizer_id = $1::text)
    AND ($2::text IS NULL OR e.approval_status = $2::text)
    AND ($3::text IS NULL OR e.title ILIKE $3::text ESCAPE '\\')`

const latestFirst = 'e.date COLLATE "C" DESC, e.time COLLATE "C" DESC, e.id COLLATE "C"'

/** SQLite's NOCASE: ASCII capitals as small letters, then byte order */
const nocase = (column: string) =>
  `translate(${column}, 'ABCDEFGHIJKLMNOPQRSTUVWXYZ', 'abcdefghijklmnopqrstuvwxyz') COLLATE "C"`

// $1 event, $2 ILIKE pattern or null
const attending = `
  FROM attendance a JOIN accounts acc ON acc.id = a.account_id
  WHERE a.event_id = $1 AND a.tickets > 0
    AND ($2::text IS NULL OR acc.username ILIKE $2::text ESCAPE '\\' OR acc.email ILIKE $2::text ESCAPE '\\')`

/** a LIKE pattern matching the text anywhere, its own % and _ taken literally */
const containing = (text: string | undefined) =>
  text ? `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%` : null

export function pgDashboardQueries(db: PgReader): AsyncQueries<DashboardQueries> {
  const count = async (text: string, values: unknown[]) =>
    (await db.query<{ n: number }>(text, values))[0]?.n ?? 0
  return {
    /** a page of events with their figures, and how many events match */
    async eventsPage(filter) {
      const params = [filter.organizerId, filter.status ?? null, containing(filter.search)]
      // Admins review: rejected first, then pending, then approved (SPEC); within, latest date first.
      const order =
        filter.organizerId === null
          ? `CASE e.approval_status WHEN 'Rejected' THEN 0 WHEN 'Pending' THEN 1 ELSE 2 END, ${latestFirst}`
          : latestFirst
      const [rows, total] = await Promise.all([
        db.query<FiguresRow>(`SELECT ${figures} ${matching} ORDER BY ${order} LIMIT $4 OFFSET $5`, [
          ...params,
          filter.limit,
          (filter.page - 1) * filter.limit,
        ]),
        count(`SELECT count(*) AS n ${matching}`, params),
      ])
      return { rows, total }
    },
    figuresOf: async (eventId) =>
      (
        await db.query<FiguresRow>(
          `SELECT ${figures} FROM events e LEFT JOIN event_sales s ON s.event_id = e.id WHERE e.id = $1`,
          [eventId],
        )
      )[0],
    /** tickets sold and revenue of an organizer's events, or of the whole site (null) */
    async totals(organizerId) {
      const [[row], events] = await Promise.all([
        db.query<{ ticketsSold: number; revenuePaise: number }>(
          'SELECT tickets_sold AS "ticketsSold", revenue_paise AS "revenuePaise" FROM sales_totals WHERE organizer_id = $1',
          [organizerId ?? SITE],
        ),
        count('SELECT count(*) AS n FROM events WHERE $1::text IS NULL OR organizer_id = $1::text', [
          organizerId,
        ]),
      ])
      return { events, ticketsSold: row?.ticketsSold ?? 0, revenuePaise: row?.revenuePaise ?? 0 }
    },
    async attendeesPage(eventId, page, limit, search) {
      const pattern = containing(search)
      const [rows, total] = await Promise.all([
        db.query<AttendeeFigures>(
          `SELECT a.account_id AS id, acc.username AS username, acc.email AS email, a.tickets AS tickets
           ${attending}
           ORDER BY ${nocase('acc.username')}, a.account_id COLLATE "C"
           LIMIT $3 OFFSET $4`,
          [eventId, pattern, limit, (page - 1) * limit],
        ),
        // without a search, the count the projection keeps (no scan of the event's attendance)
        pattern
          ? count(`SELECT count(*) AS n ${attending}`, [eventId, pattern])
          : count('SELECT coalesce((SELECT attendees FROM event_sales WHERE event_id = $1), 0) AS n', [
              eventId,
            ]),
      ])
      return { rows, total }
    },
    /** one person's attendance of an event, as the attendee list shows it (tickets 0: gone) */
    attendee: async (eventId, accountId) =>
      (
        await db.query<AttendeeFigures>(
          `SELECT acc.id AS id, acc.username AS username, acc.email AS email,
             coalesce((SELECT tickets FROM attendance WHERE event_id = $1 AND account_id = acc.id), 0) AS tickets
           FROM accounts acc WHERE acc.id = $2`,
          [eventId, accountId],
        )
      )[0],
  }
}
