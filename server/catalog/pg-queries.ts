// Reads of the catalogue on PostgreSQL: queries.ts's answers, the same rows in the same order,
// awaited (AsyncQueries<CatalogQueries>).
import pg from 'pg'
import type { ApprovalStatus, EventView, TicketTypeName } from '../../contracts/catalog.ts'
import type { AsyncQueries } from '../db/store.ts'
import type { PgTx } from '../ledger/pg-ledger.ts'
import { searchPhrases, wordsSql } from './pg-search.ts'
import type { CatalogQueries } from './queries.ts'
import {
  type EventExtra,
  type EventRow,
  eventViews,
  type FilterType,
  fold,
  noExtras,
  readFilter,
  type TicketTypeRow,
} from './views.ts'

/** events' columns as EventRow names them (images and videos are JSON text, parsed below) */
const EVENT_COLUMNS = `id, organizer_id AS "organizerId", title, description, date, time, location, category,
  approval_status AS "approvalStatus", images, videos, sales_end AS "salesEnd",
  review_reason AS "reviewReason", cancelled_at AS "cancelledAt", cancel_reason AS "cancelReason", version, created_at AS "createdAt", updated_at AS "updatedAt"`
const TYPE_COLUMNS = 'id, event_id AS "eventId", rank, type, price_paise AS "pricePaise", quantity'

/** SQLite compares text byte by byte; so does the "C" collation, whatever the database's default. */
const BY_START = 'ORDER BY date COLLATE "C", time COLLATE "C", id COLLATE "C"'

type StoredEvent = Omit<EventRow, 'images' | 'videos'> & { images: string; videos: string }

const eventRow = (row: StoredEvent): EventRow => ({
  ...row,
  approvalStatus: row.approvalStatus as ApprovalStatus,
  images: JSON.parse(row.images),
  videos: JSON.parse(row.videos),
})

const WORDS = wordsSql(EVENT_COLUMNS)

/** What the reads run on: the pool, or a decision's transaction (PgTx: read under the write lock). */
type PgReader = Pick<PgTx, 'query'>

export function pgCatalogQueries(db: pg.Pool | PgReader): AsyncQueries<CatalogQueries> {
  // the pool answers a result, a transaction its rows
  const reader: PgReader =
    db instanceof pg.Pool
      ? {
          query: async <R extends pg.QueryResultRow>(text: string, values?: unknown[]) =>
            (await db.query<R>(text, values)).rows,
        }
      : db
  const events = async (where: string, values: unknown[] = [], order = BY_START) =>
    (await reader.query<StoredEvent>(`SELECT ${EVENT_COLUMNS} FROM events ${where} ${order}`, values)).map(
      eventRow,
    )
  const ticketTypes = async (where: string, values: unknown[]) =>
    await reader.query<TicketTypeRow & { type: TicketTypeName }>(
      `SELECT ${TYPE_COLUMNS} FROM event_ticket_types ${where} ORDER BY event_id COLLATE "C", rank`,
      values,
    )

  const approved = () => events("WHERE approval_status = 'Approved'")
  const approvedPage = (limit: number, offset: number) =>
    events(`WHERE approval_status = 'Approved'`, [limit, offset], `${BY_START} LIMIT $1 OFFSET $2`)
  const approvedCount = async () =>
    (
      await reader.query<{ n: number }>(
        "SELECT count(*)::int AS n FROM events WHERE approval_status = 'Approved'",
      )
    )[0]?.n ?? 0

  const withWords = async (search: string): Promise<EventRow[]> => {
    const phrases = searchPhrases(search)
    if (phrases === null) return []
    return (await reader.query<StoredEvent>(WORDS, [phrases.phrases, phrases.candidates])).map(eventRow)
  }

  const ticketTypesOf = async (eventIds: string[]): Promise<Map<string, TicketTypeRow[]>> => {
    const byEvent = new Map<string, TicketTypeRow[]>()
    if (eventIds.length === 0) return byEvent
    for (const row of await ticketTypes('WHERE event_id = ANY($1::text[])', [eventIds])) {
      const list = byEvent.get(row.eventId) ?? []
      list.push(row)
      byEvent.set(row.eventId, list)
    }
    return byEvent
  }

  /** The event objects of API.md (views.ts), with their ticket types read here. */
  const toViews = async (
    rows: EventRow[],
    extra: EventExtra = noExtras,
    mediaBase = '',
  ): Promise<EventView[]> => eventViews(rows, await ticketTypesOf(rows.map((r) => r.id)), extra, mediaBase)

  /** SPEC's search (views.ts reads the user's text): approved events only. */
  const filtered = async (filterType: FilterType, search: string): Promise<EventRow[]> => {
    const filter = readFilter(filterType, search)
    switch (filter.kind) {
      case 'words':
        return withWords(filter.search)
      case 'category':
        return (await approved()).filter((e) => fold(e.category) === filter.wanted)
      case 'location':
        return (await approved()).filter((e) => fold(e.location).includes(filter.wanted))
      case 'day':
        return events("WHERE approval_status = 'Approved' AND date = $1", [filter.day])
      case 'month':
        return events("WHERE approval_status = 'Approved' AND date LIKE $1", [`${filter.prefix}%`])
      case 'price':
        return events(
          `WHERE approval_status = 'Approved' AND id IN (
             SELECT event_id FROM event_ticket_types WHERE price_paise >= $1 AND price_paise <= $2)`,
          [filter.minPaise, filter.maxPaise],
        )
      default:
        return filter satisfies never
    }
  }

  return {
    approved,
    approvedPage,
    approvedCount,
    ticketTypesOf,
    toViews,
    byId: async (id: string) => (await events('WHERE id = $1', [id], ''))[0],
    ticketType: async (id: string) => (await ticketTypes('WHERE id = $1', [id]))[0],
    cancelled: async (eventId: string) =>
      (await reader.query('SELECT 1 FROM events WHERE id = $1 AND cancelled_at IS NOT NULL', [eventId]))
        .length > 0,
    cancelledIds: async () =>
      (await reader.query<{ id: string }>('SELECT id FROM events WHERE cancelled_at IS NOT NULL')).map(
        (row) => row.id,
      ),
    all: () =>
      events(
        '',
        [],
        `ORDER BY CASE approval_status WHEN 'Rejected' THEN 0 WHEN 'Pending' THEN 1 ELSE 2 END,
           created_at COLLATE "C" DESC`,
      ),
    byOrganizer: (organizerId: string) => events('WHERE organizer_id = $1', [organizerId]),
    withWords,
    wordsSql: async () => WORDS,
    filtered,
  }
}
