// The catalogue's full-text index (SQLite FTS5): every event's words, kept by the catalogue
// projection, searched by GET /event/filter with filterType absent or 'text'.
//
// drizzle-kit cannot make a virtual table, so the table is created by a hand-written migration
// (migrations/0009_events_search.sql) and declared here, outside the schema files drizzle-kit
// reads (server/*/tables.ts), only so that the projection can name it among its tables: a rebuild
// empties it (DELETE FROM works on an FTS5 table) and the replay fills it again.
import { sqliteTable, text } from 'drizzle-orm/sqlite-core'

/**
 * CREATE VIRTUAL TABLE events_search USING fts5(event_id UNINDEXED, title, description, location,
 * category, tokenize = 'unicode61 remove_diacritics 2', prefix = '2 3')
 */
export const eventsSearch = sqliteTable('events_search', {
  eventId: text('event_id').notNull(),
  title: text('title').notNull(),
  description: text('description').notNull(),
  location: text('location').notNull(),
  category: text('category').notNull(),
})

/** bm25 weights by column (event_id, title, description, location, category): the title counts
 * most, then category and location, the description least. */
export const SEARCH_WEIGHTS = [0, 10, 1, 3, 3] as const

/** At most this many words of a search are used. */
const MAX_TERMS = 12

/**
 * The user's words as an FTS5 query that cannot be anything else: each run of letters and digits
 * becomes a quoted prefix term ("jazz"*), all must match; quotes, operators' punctuation
 * (* ^ : + - ( ) and the like) are dropped, and AND/OR/NOT/NEAR inside quotes are plain words.
 * null when nothing searchable is left.
 */
export function matchQuery(search: string): string | null {
  const words = search.normalize('NFKC').match(/[\p{L}\p{N}\p{M}]+/gu) ?? []
  const unique = [...new Set(words.map((w) => w.toLocaleLowerCase('en-IN')))].slice(0, MAX_TERMS)
  if (unique.length === 0) return null
  return unique.map((word) => `"${word}"*`).join(' ')
}
