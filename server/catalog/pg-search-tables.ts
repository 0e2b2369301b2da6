// The catalogue's full-text index on PostgreSQL (SQLite's is FTS5's events_search, search-index.ts):
// a plain table of each event's texts, their tokens as FTS5 makes them, and lexemes for a GIN index.
import { customType, index, pgTable, text } from 'drizzle-orm/pg-core'

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
