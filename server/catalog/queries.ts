// Reads of the catalogue, on either store; other areas read events only through these.
import { type SQL, sql } from 'drizzle-orm'
import type { EventView } from '../../contracts/catalog.ts'
import { after, type DialectKit, type Now, type Sql, statement } from '../db/sql.ts'
import type { AsyncQueries, Awaitable } from '../db/store.ts'
import { searchPhrases, wordsSql } from './pg-search.ts'
import { matchQuery, SEARCH_WEIGHTS } from './search-index.ts'
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

/** by date and time, the id settling ties (text compared byte by byte, as SQLite does) */
const byStart = (d: DialectKit, alias = '') =>
  sql.join(
    ['date', 'time', 'id'].map((column) => d.bytes(sql.raw(`${alias}${column}`))),
    sql`, `,
  )

const approvedWhere = (condition: (p: Record<string, SQL>, d: DialectKit) => SQL) =>
  statement<Record<string, unknown>, EventRow>(
    (p, d) =>
      sql`SELECT ${events.columns()} FROM events WHERE approval_status = 'Approved' AND ${condition(
        p as unknown as Record<string, SQL>,
        d,
      )} ORDER BY ${byStart(d)}`,
  )

const approvedEvents = approvedWhere(() => sql`1 = 1`)
// a page of them, in the same order (the id settles ties, so pages neither skip nor repeat)
const approvedEventsPage = statement<{ limit: number; offset: number }, EventRow>(
  (p, d) => sql`SELECT ${events.columns()} FROM events WHERE approval_status = 'Approved'
    ORDER BY ${byStart(d)} LIMIT ${p.limit} OFFSET ${p.offset}`,
)
const approvedEventsCount = statement<Record<string, never>, { n: number }>(
  () => sql`SELECT CAST(count(*) AS integer) AS n FROM events WHERE approval_status = 'Approved'`,
)
const onDay = approvedWhere((p) => sql`date = ${p.day}`)
const inMonth = approvedWhere((p) => sql`date LIKE ${p.prefix}`)
const priced = approvedWhere(
  (p) =>
    sql`id IN (SELECT event_id FROM event_ticket_types WHERE price_paise >= ${p.min} AND price_paise <= ${p.max})`,
)
const eventById = statement<{ id: string }, EventRow>(
  (p) => sql`SELECT ${events.columns()} FROM events WHERE id = ${p.id}`,
)
/** every event, for admins: Rejected first, then Pending, then Approved; newest first within */
const everyEvent = statement<Record<string, never>, EventRow>(
  (_, d) => sql`SELECT ${events.columns()} FROM events
    ORDER BY CASE approval_status WHEN 'Rejected' THEN 0 WHEN 'Pending' THEN 1 ELSE 2 END,
      ${d.bytes(sql`created_at`)} DESC, ${d.bytes(sql`id`)}`,
)
const ofOrganizer = statement<{ organizerId: string }, EventRow>(
  (p, d) =>
    sql`SELECT ${events.columns()} FROM events WHERE organizer_id = ${p.organizerId} ORDER BY ${byStart(d)}`,
)
const typesOfEvent = statement<{ eventId: string }, TicketTypeRow>(
  (p) =>
    sql`SELECT ${eventTicketTypes.columns()} FROM event_ticket_types WHERE event_id = ${p.eventId} ORDER BY rank`,
)
const typesOfEvents = statement<{ eventIds: string[] }, TicketTypeRow>(
  (p, d) => sql`SELECT ${eventTicketTypes.columns()} FROM event_ticket_types
    WHERE ${d.inList(sql`event_id`, p.eventIds)} ORDER BY ${d.bytes(sql`event_id`)}, rank`,
)
const cancelledAt = statement<{ id: string }, { at: string | null }>(
  (p) => sql`SELECT cancelled_at AS at FROM events WHERE id = ${p.id}`,
)
const cancelledEvents = statement<Record<string, never>, { id: string }>(
  (_, d) => sql`SELECT id FROM events WHERE cancelled_at IS NOT NULL ORDER BY ${d.bytes(sql`id`)}`,
)
const typeById = statement<{ id: string }, TicketTypeRow>(
  (p) => sql`SELECT ${eventTicketTypes.columns()} FROM event_ticket_types WHERE id = ${p.id}`,
)

// Words, each store's own index (words.ts). SQLite: FTS5 finds the events, the events table keeps
// the approved ones; best matches first (bm25 with the title weighted most), then by date.
const ftsWords = statement<{ match: string }, EventRow>(
  (p) => sql`SELECT ${events.columns('events')} FROM events_search
    JOIN events ON events.id = events_search.event_id
    WHERE events_search MATCH ${p.match} AND events.approval_status = 'Approved'
    ORDER BY ${sql.raw(`bm25("events_search", ${SEARCH_WEIGHTS.join(', ')})`)}, events.date, events.time`,
)
// PostgreSQL: the same score, step for step (pg-search.ts)
const [beforePhrases, afterPhrases = ''] = wordsSql('\u0000').split('$1::text[]')
const [beforeCandidates, afterCandidates = ''] = afterPhrases.split('$2::text[]')
const pgWords = statement<{ phrases: string[]; candidates: string[] }, EventRow>((p) => {
  const [head, tail = ''] = (afterCandidates ?? '').split('\u0000')
  return sql`${sql.raw(beforePhrases ?? '')}${p.phrases}::text[]${sql.raw(beforeCandidates ?? '')}${p.candidates}::text[]${sql.raw(
    head ?? '',
  )}${events.columns('e')}${sql.raw(tail)}`
})

export function catalogQueries(x: Sql) {
  const eventRow = events.decode(x.dialect)
  const typeRow = eventTicketTypes.decode(x.dialect)
  const eventRows = (rows: Awaitable<EventRow[]>) => after(rows, (list) => list.map(eventRow))
  const approved = () => eventRows(x.all(approvedEvents, {}))

  /** approved events with all the words of `search` (prefixes, any case, accents ignored) */
  const withWords = (search: string): Awaitable<EventRow[]> => {
    if (x.dialect === 'sqlite') {
      const match = matchQuery(search)
      return match === null ? [] : eventRows(x.all(ftsWords, { match }))
    }
    const phrases = searchPhrases(search)
    return phrases === null ? [] : eventRows(x.all(pgWords, phrases))
  }

  const ticketTypesOf = (eventIds: string[]): Awaitable<Map<string, TicketTypeRow[]>> => {
    if (eventIds.length === 0) return new Map()
    const rows =
      eventIds.length === 1
        ? x.all(typesOfEvent, { eventId: eventIds[0] as string })
        : x.all(typesOfEvents, { eventIds })
    return after(rows, (list) => {
      const byEvent = new Map<string, TicketTypeRow[]>()
      for (const raw of list) {
        const row = typeRow(raw)
        const ofEvent = byEvent.get(row.eventId)
        if (ofEvent) ofEvent.push(row)
        else byEvent.set(row.eventId, [row])
      }
      return byEvent
    })
  }

  /** The event objects of API.md (views.ts), with their ticket types read here. */
  const toViews = (rows: EventRow[], extra: EventExtra = noExtras, mediaBase = ''): Awaitable<EventView[]> =>
    after(ticketTypesOf(rows.map((r) => r.id)), (types) => eventViews(rows, types, extra, mediaBase))

  return {
    approved,
    /** a page of approved(): `limit` events after the first `offset` */
    approvedPage: (limit: number, offset: number) => eventRows(x.all(approvedEventsPage, { limit, offset })),
    approvedCount: () => after(x.get(approvedEventsCount, {}), (row) => Number(row?.n ?? 0)),
    ticketTypesOf,
    toViews,
    byId: (id: string) => after(x.get(eventById, { id }), (row) => (row ? eventRow(row) : undefined)),
    ticketType: (id: string) => after(x.get(typeById, { id }), (row) => (row ? typeRow(row) : undefined)),
    /** whether the event is called off (issue 17): read under the lock, it stops holds and sales */
    cancelled: (eventId: string) => after(x.get(cancelledAt, { id: eventId }), (row) => Boolean(row?.at)),
    /** the events called off, any time */
    cancelledIds: () => after(x.all(cancelledEvents, {}), (rows) => rows.map((row) => row.id)),
    all: () => eventRows(x.all(everyEvent, {})),
    byOrganizer: (organizerId: string) => eventRows(x.all(ofOrganizer, { organizerId })),
    withWords,
    /** the SQL of the words search, for EXPLAIN QUERY PLAN (tests) */
    wordsSql: () => (x.dialect === 'sqlite' ? ftsWords : pgWords).compile(x.dialect).text,
    /** SPEC's search (views.ts reads the user's text): approved events only. */
    filtered(filterType: FilterType, search: string): Awaitable<EventRow[]> {
      const filter = readFilter(filterType, search)
      switch (filter.kind) {
        case 'words':
          return withWords(filter.search)
        case 'category':
          return after(approved(), (rows) => rows.filter((e) => fold(e.category) === filter.wanted))
        case 'location':
          return after(approved(), (rows) => rows.filter((e) => fold(e.location).includes(filter.wanted)))
        case 'day':
          return eventRows(x.all(onDay, { day: filter.day }))
        case 'month':
          return eventRows(x.all(inMonth, { prefix: `${filter.prefix}%` }))
        case 'price':
          return eventRows(x.all(priced, { min: filter.minPaise, max: filter.maxPaise }))
        default:
          return filter satisfies never
      }
    },
  }
}

/** the reads on SQLite, as they answer: at once */
export type CatalogQueriesNow = Now<ReturnType<typeof catalogQueries>>
/** the reads on either store, awaited (db/store.ts) */
export type CatalogQueries = AsyncQueries<ReturnType<typeof catalogQueries>>
