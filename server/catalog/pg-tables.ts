// The catalogue's read models on PostgreSQL (issue 15): tables.ts's tables with the same names,
// columns and indexes, and the search index (SQLite's FTS5 events_search) as a plain table.
// JSON (images, videos) is kept as text, byte for byte what SQLite holds.
import { bigint, customType, index, integer, pgTable, text } from 'drizzle-orm/pg-core'
import type { ApprovalStatus, TicketTypeName } from '../../contracts/catalog.ts'

export const pgEvents = pgTable(
  'events',
  {
    id: text().primaryKey(),
    organizerId: text().notNull(),
    title: text().notNull(),
    description: text().notNull(),
    date: text().notNull(),
    time: text().notNull(),
    location: text().notNull(),
    category: text().notNull(),
    approvalStatus: text().notNull().$type<ApprovalStatus>(),
    images: text().notNull(),
    videos: text().notNull(),
    salesEnd: text(),
    reviewReason: text(),
    /** when the event was called off (issue 17), and the reason given */
    cancelledAt: text(),
    cancelReason: text(),
    version: integer().notNull(),
    createdAt: text().notNull(),
    updatedAt: text().notNull(),
  },
  (t) => [
    index('events_status_date').on(t.approvalStatus, t.date, t.time),
    index('events_organizer').on(t.organizerId),
  ],
)

export const pgEventTicketTypes = pgTable(
  'event_ticket_types',
  {
    id: text().primaryKey(),
    eventId: text().notNull(),
    rank: integer().notNull(),
    type: text().notNull().$type<TicketTypeName>(),
    /** integer paise; bigint as SQLite's integer is (read as a number, see pg-connection.ts) */
    pricePaise: bigint({ mode: 'number' }).notNull(),
    quantity: integer().notNull(),
  },
  (t) => [
    index('event_ticket_types_event').on(t.eventId, t.rank),
    index('event_ticket_types_price').on(t.pricePaise),
  ],
)

const tsvector = customType<{ data: string }>({ dataType: () => 'tsvector' })

/**
 * Every event's words, written once when it is submitted (as SQLite's events_search): the texts as
 * they were, each column's tokens as FTS5 makes them (pg-search.ts), and their lexemes for the GIN
 * index that finds candidate rows for a search. The four text columns equal SQLite's row for row.
 */
export const pgEventsSearch = pgTable(
  'events_search',
  {
    eventId: text().primaryKey(),
    title: text().notNull(),
    description: text().notNull(),
    location: text().notNull(),
    category: text().notNull(),
    titleTokens: text().array().notNull(),
    descriptionTokens: text().array().notNull(),
    locationTokens: text().array().notNull(),
    categoryTokens: text().array().notNull(),
    /** the distinct tokens of all four columns (each cut at LEXEME_CHARS), for candidates only */
    lexemes: tsvector().notNull(),
  },
  (t) => [index('events_search_lexemes').using('gin', t.lexemes)],
)
