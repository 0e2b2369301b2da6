// Reads of the catalogue; other areas read events only through these.
import {
  and,
  asc,
  desc,
  eq,
  getTableColumns,
  gte,
  inArray,
  isNotNull,
  like,
  lte,
  type SQL,
  sql,
} from 'drizzle-orm'
import type { EventView } from '../../contracts/catalog.ts'
import type { Db } from '../db/connection.ts'
import type { AsyncQueries } from '../db/store.ts'
import { eventsSearch, matchQuery, SEARCH_WEIGHTS } from './search-index.ts'
import { events, eventTicketTypes } from './tables.ts'
import {
  type EventExtra,
  type EventExtras,
  type EventRow,
  eventViews,
  type FilterType,
  fold,
  noExtras,
  readFilter,
  type TicketTypeRow,
} from './views.ts'

export type { EventExtras, EventRow, TicketTypeRow }
export { noExtras }

/**
 * A ticket type's capacity as the event's stream has it now (null: no such type), as a subquery in
 * SQL both stores read (`ticketTypeId`: an expression or parameter of the embedding statement).
 * Booking's seats on sale embed it in the one statement the hold reads under the write lock, with
 * its own seats taken and the waiting list's offers (waitlist/queries.ts): the flash sale's hottest
 * read stays one statement (one round trip on PostgreSQL, under the lock), not three.
 */
export const capacitySql = (ticketTypeId: string) =>
  `(SELECT t.quantity FROM event_ticket_types t WHERE t.id = ${ticketTypeId})`

export function catalogQueries(db: Db) {
  // The reads on the hot paths (listing, detail, booking, pushes) are prepared once.
  const approvedEvents = db
    .select()
    .from(events)
    .where(eq(events.approvalStatus, 'Approved'))
    .orderBy(asc(events.date), asc(events.time), asc(events.id))
    .prepare()
  // a page of them, in the same order (the id settles ties, so pages neither skip nor repeat)
  const approvedEventsPage = db
    .select()
    .from(events)
    .where(eq(events.approvalStatus, 'Approved'))
    .orderBy(asc(events.date), asc(events.time), asc(events.id))
    .limit(sql.placeholder('limit'))
    .offset(sql.placeholder('offset'))
    .prepare()
  const approvedEventsCount = db
    .select({ n: sql<number>`count(*)` })
    .from(events)
    .where(eq(events.approvalStatus, 'Approved'))
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
  const cancelledAt = db
    .select({ at: events.cancelledAt })
    .from(events)
    .where(eq(events.id, sql.placeholder('id')))
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

  /** The event objects of API.md (views.ts), with their ticket types read here. */
  const toViews = (rows: EventRow[], extra: EventExtra = noExtras, mediaBase = ''): EventView[] =>
    eventViews(rows, ticketTypesOf(rows.map((r) => r.id)), extra, mediaBase)

  return {
    approved,
    /** a page of approved(): `limit` events after the first `offset` */
    approvedPage: (limit: number, offset: number): EventRow[] => approvedEventsPage.all({ limit, offset }),
    approvedCount: (): number => approvedEventsCount.get()?.n ?? 0,
    ticketTypesOf,
    toViews,
    byId: (id: string): EventRow | undefined => eventById.get({ id }),
    ticketType: (id: string): TicketTypeRow | undefined => typeById.get({ id }),
    /** whether the event is called off (issue 17): read under the lock, it stops holds and sales */
    cancelled: (eventId: string): boolean => Boolean(cancelledAt.get({ id: eventId })?.at),
    /** the events called off, any time */
    cancelledIds: (): string[] =>
      db
        .select({ id: events.id })
        .from(events)
        .where(isNotNull(events.cancelledAt))
        .all()
        .map((row) => row.id),
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
        .orderBy(asc(events.date), asc(events.time), asc(events.id))
        .all(),
    withWords,
    /** the SQL of the words search, for EXPLAIN QUERY PLAN (tests) */
    wordsSql: () => textMatches.getQuery().sql,
    /** SPEC's search (views.ts reads the user's text): approved events only. */
    filtered(filterType: FilterType, search: string): EventRow[] {
      const filter = readFilter(filterType, search)
      const approvedWhere = (condition: SQL | undefined) =>
        db
          .select()
          .from(events)
          .where(and(eq(events.approvalStatus, 'Approved'), condition))
          .orderBy(asc(events.date), asc(events.time), asc(events.id))
          .all()
      switch (filter.kind) {
        case 'words':
          return withWords(filter.search)
        case 'category':
          return approved().filter((e) => fold(e.category) === filter.wanted)
        case 'location':
          return approved().filter((e) => fold(e.location).includes(filter.wanted))
        case 'day':
          return approvedWhere(eq(events.date, filter.day))
        case 'month':
          return approvedWhere(like(events.date, `${filter.prefix}%`))
        case 'price':
          return approvedWhere(
            inArray(
              events.id,
              db
                .selectDistinct({ eventId: eventTicketTypes.eventId })
                .from(eventTicketTypes)
                .where(
                  and(
                    gte(eventTicketTypes.pricePaise, filter.minPaise),
                    lte(eventTicketTypes.pricePaise, filter.maxPaise),
                  ),
                ),
            ),
          )
        default:
          return filter satisfies never
      }
    },
  }
}

/** the SQLite reads as they answer, at once */
export type CatalogQueriesNow = ReturnType<typeof catalogQueries>
/** the reads on either store, awaited (db/store.ts) */
export type CatalogQueries = AsyncQueries<CatalogQueriesNow>
