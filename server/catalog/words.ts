// Each store's own full-text index of the events' words, kept by the catalogue's projection: FTS5
// on SQLite (search-index.ts), tokens and a GIN-indexed tsvector on PostgreSQL (pg-search.ts), both
// scoring as FTS5's bm25 does. The one place the projection asks which store it writes to.
import { sql } from 'drizzle-orm'
import type { AnyReadModel } from '../db/read-model.ts'
import { type Sql, statement } from '../db/sql.ts'
import type { Awaitable } from '../db/store.ts'
import { LEXEME_CHARS, searchTokens } from './pg-search.ts'
import { pgEventsSearch } from './pg-search-tables.ts'
import { eventsSearch } from './search-index.ts'

/** an event's words, as its row holds them */
export type Words = {
  eventId: string
  title: string
  description: string
  location: string
  category: string
}

/** the index as a projection's table: emptied and refilled by a rebuild, on either store */
export const searchIndex: AnyReadModel = { name: 'events_search', sqlite: eventsSearch, pg: pgEventsSearch }

const ftsInsert = statement<Words>(
  (p) => sql`INSERT INTO events_search (event_id, title, description, location, category)
    VALUES (${p.eventId}, ${p.title}, ${p.description}, ${p.location}, ${p.category})`,
)
/** FTS5 has no UPDATE of a row found by an unindexed column that would be cheaper */
const ftsDelete = statement<{ eventId: string }>(
  (p) => sql`DELETE FROM events_search WHERE event_id = ${p.eventId}`,
)

type Tokens = Words & {
  titleTokens: string[]
  descriptionTokens: string[]
  locationTokens: string[]
  categoryTokens: string[]
  lexemes: string[]
}
const pgInsert = statement<Tokens>(
  (p) => sql`INSERT INTO events_search (event_id, title, description, location, category,
      title_tokens, description_tokens, location_tokens, category_tokens, lexemes)
    VALUES (${p.eventId}, ${p.title}, ${p.description}, ${p.location}, ${p.category}, ${p.titleTokens},
      ${p.descriptionTokens}, ${p.locationTokens}, ${p.categoryTokens}, array_to_tsvector(${p.lexemes}::text[]))`,
)
const pgUpdate = statement<Tokens>(
  (p) => sql`UPDATE events_search SET title = ${p.title}, description = ${p.description},
      location = ${p.location}, category = ${p.category}, title_tokens = ${p.titleTokens},
      description_tokens = ${p.descriptionTokens}, location_tokens = ${p.locationTokens},
      category_tokens = ${p.categoryTokens}, lexemes = array_to_tsvector(${p.lexemes}::text[])
    WHERE event_id = ${p.eventId}`,
)

function tokensOf(words: Words): Tokens {
  const [titleTokens, descriptionTokens, locationTokens, categoryTokens] = [
    words.title,
    words.description,
    words.location,
    words.category,
  ].map(searchTokens) as [string[], string[], string[], string[]]
  const all = [titleTokens, descriptionTokens, locationTokens, categoryTokens].flat()
  const lexemes = [...new Set(all.map((t) => [...t].slice(0, LEXEME_CHARS).join('')))]
  return { ...pick(words), titleTokens, descriptionTokens, locationTokens, categoryTokens, lexemes }
}

const pick = ({ eventId, title, description, location, category }: Words): Words => ({
  eventId,
  title,
  description,
  location,
  category,
})

/** a submitted event's words into the index */
export function indexWords(x: Sql, words: Words): Awaitable<void> {
  return x.dialect === 'sqlite' ? x.run(ftsInsert, pick(words)) : x.run(pgInsert, tokensOf(words))
}

/** an edited event's words in place of its old ones */
export function reindexWords(x: Sql, words: Words): Awaitable<void> {
  if (x.dialect === 'postgres') return x.run(pgUpdate, tokensOf(words))
  // SQLite answers at once: nothing to wait for
  void x.run(ftsDelete, { eventId: words.eventId })
  return x.run(ftsInsert, pick(words))
}
