// Reads of the catalogue; other areas read events only through these.
import { and, asc, desc, eq, getTableColumns, gte, inArray, like, lte, sql } from 'drizzle-orm'
import { type EventView, isCalendarDate } from '../../contracts/catalog.ts'
import type { Db } from '../db/connection.ts'
import { invalid } from '../errors.ts'
import { absoluteMedia } from '../http/media-urls.ts'
import { paiseBound, toRupees } from '../money.ts'
import { eventsSearch, matchQuery, SEARCH_WEIGHTS } from './search-index.ts'
import { events, eventTicketTypes } from './tables.ts'

export type EventRow = typeof events.$inferSelect
export type TicketTypeRow = typeof eventTicketTypes.$inferSelect

/** What other areas add to events' views (booking: live availability and attendees), loaded
 * once for a whole list of events. */
export type EventExtras = (eventIds: string[]) => {
  available: (ticketType: TicketTypeRow) => number
  candidates: (eventId: string) => string[]
}

export const noExtras: EventExtras = () => ({ available: (t) => t.quantity, candidates: () => [] })

const fold = (text: string) => text.normalize('NFKC').toLocaleLowerCase('en-IN').trim()

export function catalogQueries(db: Db) {
  // The reads on the hot paths (listing, detail, booking, pushes) are prepared once.
  const approvedEvents = db
    .select()
    .from(events)
    .where(eq(events.approvalStatus, 'Approved'))
    .orderBy(asc(events.date), asc(events.time))
    .prepare()
  const eventById = db
    .select()
    .from(events)
    .where(eq(events.id, sql.placeholder('id')))
    .prepare()
  const typesOfEvent = db
    .select()
    .from(eventTicketTypes)
    .where(eq(eventTicketTypes.eventId, sql.placeholder('eventId')))
    .orderBy(asc(eventTicketTypes.rank))
    .prepare()
  const typeById = db
    .select()
    .from(eventTicketTypes)
    .where(eq(eventTicketTypes.id, sql.placeholder('id')))
    .prepare()
  const allTypes = db
    .select()
    .from(eventTicketTypes)
    .orderBy(asc(eventTicketTypes.eventId), asc(eventTicketTypes.rank))
    .prepare()
  const approved = (): EventRow[] => approvedEvents.all()
  // Words: the full-text index finds the events, the events table keeps the approved ones; best
  // matches first (bm25 with the title weighted most), then by date.
  const textMatches = db
    .select(getTableColumns(events))
    .from(eventsSearch)
    .innerJoin(events, eq(events.id, eventsSearch.eventId))
    .where(and(sql`${eventsSearch} MATCH ${sql.placeholder('match')}`, eq(events.approvalStatus, 'Approved')))
    .orderBy(
      sql.raw(`bm25("events_search", ${SEARCH_WEIGHTS.join(', ')})`),
      asc(events.date),
      asc(events.time),
    )
    .prepare()
  /** approved events with all the words of `search` (prefixes, any case, accents ignored) */
  const withWords = (search: string): EventRow[] => {
    const match = matchQuery(search)
    return match === null ? [] : textMatches.all({ match })
  }

  const ticketTypesOf = (eventIds: string[]): Map<string, TicketTypeRow[]> => {
    const byEvent = new Map<string, TicketTypeRow[]>()
    if (eventIds.length === 0) return byEvent
    if (eventIds.length === 1) {
      const [eventId] = eventIds as [string]
      byEvent.set(eventId, typesOfEvent.all({ eventId }))
      return byEvent
    }
    // Many events (a listing): one pass over all ticket types beats a long IN list.
    const wanted = new Set(eventIds)
    const rows =
      eventIds.length > 50
        ? allTypes.all().filter((t) => wanted.has(t.eventId))
        : db
            .select()
            .from(eventTicketTypes)
            .where(inArray(eventTicketTypes.eventId, eventIds))
            .orderBy(asc(eventTicketTypes.eventId), asc(eventTicketTypes.rank))
            .all()
    for (const row of rows) {
      const list = byEvent.get(row.eventId) ?? []
      list.push(row)
      byEvent.set(row.eventId, list)
    }
    return byEvent
  }

  /**
   * The event objects of API.md. `mediaBase` (an origin such as https://tickets.example.com) makes
   * the stored /uploads/ URLs absolute, so a client served elsewhere shows them.
   */
  const toViews = (rows: EventRow[], extras: EventExtras = noExtras, mediaBase = ''): EventView[] => {
    const ids = rows.map((r) => r.id)
    const types = ticketTypesOf(ids)
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
        // The original client shows `quantity` as "Available": both carry the live count.
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

  return {
    approved,
    ticketTypesOf,
    toViews,
    byId: (id: string): EventRow | undefined => eventById.get({ id }),
    ticketType: (id: string): TicketTypeRow | undefined => typeById.get({ id }),
    /** every event, for admins: Rejected first, then Pending, then Approved; newest first within */
    all: () =>
      db
        .select()
        .from(events)
        .orderBy(
          sql`CASE ${events.approvalStatus} WHEN 'Rejected' THEN 0 WHEN 'Pending' THEN 1 ELSE 2 END`,
          desc(events.createdAt),
        )
        .all(),
    byOrganizer: (organizerId: string) =>
      db
        .select()
        .from(events)
        .where(eq(events.organizerId, organizerId))
        .orderBy(asc(events.date), asc(events.time))
        .all(),
    withWords,
    /** the SQL of the words search, for EXPLAIN QUERY PLAN (tests) */
    wordsSql: () => textMatches.getQuery().sql,
    /** SPEC's search: approved events only; user text is compared as text, never as a pattern. */
    filtered(filterType: 'text' | 'category' | 'date' | 'location' | 'price', search: string): EventRow[] {
      switch (filterType) {
        case 'text':
          return withWords(search)
        case 'category': {
          const wanted = fold(search)
          return approved().filter((e) => fold(e.category) === wanted)
        }
        case 'location': {
          const wanted = fold(search)
          return approved().filter((e) => fold(e.location).includes(wanted))
        }
        case 'date': {
          const day = /^(\d{4})-(\d{2})-(\d{2})$/.exec(search)
          const month = /^(\d{4})-(\d{2})$/.exec(search)
          const validMonth = (m: string) => Number(m) >= 1 && Number(m) <= 12
          if (day && isCalendarDate(search)) {
            return db
              .select()
              .from(events)
              .where(and(eq(events.approvalStatus, 'Approved'), eq(events.date, search)))
              .orderBy(asc(events.date), asc(events.time))
              .all()
          }
          if (month?.[2] && validMonth(month[2])) {
            return db
              .select()
              .from(events)
              .where(and(eq(events.approvalStatus, 'Approved'), like(events.date, `${search}-%`)))
              .orderBy(asc(events.date), asc(events.time))
              .all()
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
          // Prices are whole paise: a bound with more decimals (99.999) is rounded inwards, exactly.
          const inRange = db
            .selectDistinct({ eventId: eventTicketTypes.eventId })
            .from(eventTicketTypes)
            .where(
              and(
                gte(eventTicketTypes.pricePaise, paiseBound(range[1] ?? '', 'up')),
                lte(eventTicketTypes.pricePaise, paiseBound(range[2] ?? '', 'down')),
              ),
            )
          return db
            .select()
            .from(events)
            .where(and(eq(events.approvalStatus, 'Approved'), inArray(events.id, inRange)))
            .orderBy(asc(events.date), asc(events.time))
            .all()
        }
        default:
          return filterType satisfies never
      }
    },
  }
}

export type CatalogQueries = ReturnType<typeof catalogQueries>
