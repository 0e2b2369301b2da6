// Reads of the catalogue on PostgreSQL: queries.ts's answers, the same rows in the same order,
// awaited (AsyncQueries<CatalogQueries>).
import type pg from 'pg'
import {
  type ApprovalStatus,
  type EventView,
  isCalendarDate,
  type TicketTypeName,
} from '../../contracts/catalog.ts'
import type { AsyncQueries } from '../db/store.ts'
import { invalid } from '../errors.ts'
import { absoluteMedia } from '../http/media-urls.ts'
import { paiseBound, toRupees } from '../money.ts'
import { searchPhrases, wordsSql } from './pg-search.ts'
import {
  type CatalogQueries,
  type EventExtras,
  type EventRow,
  noExtras,
  type TicketTypeRow,
} from './queries.ts'

/** events' columns as EventRow names them (images and videos are JSON text, parsed below) */
const EVENT_COLUMNS = `id, organizer_id AS "organizerId", title, description, date, time, location, category,
  approval_status AS "approvalStatus", images, videos, sales_end AS "salesEnd",
  review_reason AS "reviewReason", version, created_at AS "createdAt", updated_at AS "updatedAt"`
const TYPE_COLUMNS = 'id, event_id AS "eventId", rank, type, price_paise AS "pricePaise", quantity'

/** SQLite compares text byte by byte; so does the "C" collation, whatever the database's default. */
const BY_START = 'ORDER BY date COLLATE "C", time COLLATE "C"'

type StoredEvent = Omit<EventRow, 'images' | 'videos'> & { images: string; videos: string }

const eventRow = (row: StoredEvent): EventRow => ({
  ...row,
  approvalStatus: row.approvalStatus as ApprovalStatus,
  images: JSON.parse(row.images),
  videos: JSON.parse(row.videos),
})

const WORDS = wordsSql(EVENT_COLUMNS)

const fold = (text: string) => text.normalize('NFKC').toLocaleLowerCase('en-IN').trim()

export function pgCatalogQueries(pool: pg.Pool): AsyncQueries<CatalogQueries> {
  const events = async (where: string, values: unknown[] = [], order = BY_START) =>
    (await pool.query<StoredEvent>(`SELECT ${EVENT_COLUMNS} FROM events ${where} ${order}`, values)).rows.map(
      eventRow,
    )
  const ticketTypes = async (where: string, values: unknown[]) =>
    (
      await pool.query<TicketTypeRow & { type: TicketTypeName }>(
        `SELECT ${TYPE_COLUMNS} FROM event_ticket_types ${where} ORDER BY event_id COLLATE "C", rank`,
        values,
      )
    ).rows

  const approved = () => events("WHERE approval_status = 'Approved'")

  const withWords = async (search: string): Promise<EventRow[]> => {
    const phrases = searchPhrases(search)
    if (phrases === null) return []
    return (await pool.query<StoredEvent>(WORDS, [phrases.phrases, phrases.candidates])).rows.map(eventRow)
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

  /** The event objects of API.md (queries.ts's toViews, its rows read from here). */
  const toViews = async (
    rows: EventRow[],
    extras: EventExtras = noExtras,
    mediaBase = '',
  ): Promise<EventView[]> => {
    const ids = rows.map((r) => r.id)
    const types = await ticketTypesOf(ids)
    const extra = extras(ids)
    const media = (list: { url: string }[]) => list.map((m) => ({ url: absoluteMedia(m.url, mediaBase) }))
    return rows.map((row) => ({
      _id: row.id,
      title: row.title,
      description: row.description,
      date: row.date,
      time: row.time,
      location: row.location,
      category: row.category,
      approvalStatus: row.approvalStatus,
      organizer: row.organizerId,
      images: media(row.images),
      videos: media(row.videos),
      candidates: extra.candidates(row.id),
      ticketTypes: (types.get(row.id) ?? []).map((t) => {
        const available = extra.available(t)
        return {
          _id: t.id,
          type: t.type,
          price: toRupees(t.pricePaise),
          quantity: available,
          available,
          capacity: t.quantity,
        }
      }),
      createdAt: row.createdAt,
      salesEnd: row.salesEnd,
      reviewReason: row.reviewReason,
      version: row.version,
    }))
  }

  const filtered = async (
    filterType: 'text' | 'category' | 'date' | 'location' | 'price',
    search: string,
  ): Promise<EventRow[]> => {
    switch (filterType) {
      case 'text':
        return withWords(search)
      case 'category': {
        const wanted = fold(search)
        return (await approved()).filter((e) => fold(e.category) === wanted)
      }
      case 'location': {
        const wanted = fold(search)
        return (await approved()).filter((e) => fold(e.location).includes(wanted))
      }
      case 'date': {
        const day = /^(\d{4})-(\d{2})-(\d{2})$/.exec(search)
        const month = /^(\d{4})-(\d{2})$/.exec(search)
        const validMonth = (m: string) => Number(m) >= 1 && Number(m) <= 12
        if (day && isCalendarDate(search)) {
          return events("WHERE approval_status = 'Approved' AND date = $1", [search])
        }
        if (month?.[2] && validMonth(month[2])) {
          // the month is digits only (checked above): nothing in it is a pattern
          return events("WHERE approval_status = 'Approved' AND date LIKE $1", [`${search}-%`])
        }
        throw invalid('Date must be YYYY-MM-DD (a day) or YYYY-MM (a month).', [
          { field: 'search', message: 'Date must be YYYY-MM-DD (a day) or YYYY-MM (a month).' },
        ])
      }
      case 'price': {
        const range = /^\s*(\d+(?:\.\d+)?)\s*-\s*(\d+(?:\.\d+)?)\s*$/.exec(search)
        const min = Number(range?.[1])
        const max = Number(range?.[2])
        if (!range || !(min <= max)) {
          throw invalid('Please enter valid min and max prices.', [
            { field: 'search', message: 'Price must be min-max with min not above max, e.g. 100-500.' },
          ])
        }
        return events(
          `WHERE approval_status = 'Approved' AND id IN (
             SELECT event_id FROM event_ticket_types WHERE price_paise >= $1 AND price_paise <= $2)`,
          [paiseBound(range[1] ?? '', 'up'), paiseBound(range[2] ?? '', 'down')],
        )
      }
      default:
        return filterType satisfies never
    }
  }

  return {
    approved,
    ticketTypesOf,
    toViews,
    byId: async (id: string) => (await events('WHERE id = $1', [id], ''))[0],
    ticketType: async (id: string) => (await ticketTypes('WHERE id = $1', [id]))[0],
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
