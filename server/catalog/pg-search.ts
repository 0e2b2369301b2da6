// The catalogue's search by words on PostgreSQL, made to answer as SQLite's FTS5 index does
// (search-index.ts): the same words taken from the user's text (matchQuery), the same tokens
// (unicode61 with remove_diacritics 2, reproduced here), the same matching (each word a phrase of
// its tokens, the last one a prefix; every word needed) and the same order (FTS5's bm25, computed
// in SQL with FTS5's formula and the same weights, then date and time).
//
// PostgreSQL's own text search would not do: its parser keeps e-mails, hosts, file paths and
// decimals whole (FTS5 splits them into words), and ts_rank knows nothing of how rare a word is
// (bm25's IDF) or how long a row is. So each event's tokens are made here, stored per column in
// text arrays (events_search's *_tokens), and a GIN-indexed tsvector of them (lexemes) only finds
// the candidate rows; the arrays decide matches and frequencies exactly.
//
// Known differences, at the edges of Unicode only: the tokens follow Node's Unicode tables where
// SQLite's are older, so a letter added to Unicode since (Greek Ϳ, U+037F) or a case pair added
// since (outside Cherokee and Georgian, kept as SQLite keeps them) is folded here and not there.
// Every code point of U+00A0–024F, U+0370–04FF, U+0900–097F, U+0B80–0BFF and U+1E00–1EFF gives
// FTS5's tokens (checked against fts5vocab), and tests/integration/pg-catalog.test.ts holds a
// corpus's tokens against FTS5's.
import { matchQuery, SEARCH_WEIGHTS } from './search-index.ts'

/** unicode61's token characters: letters, numbers, private use (and code points it knows nothing
 * of, as unicode61 does); combining diacritics (U+0300–036F)
 * belong to the token and are removed from it (remove_diacritics). Other marks (Devanagari vowel
 * signs, …) separate tokens, as they do in unicode61. */
const TOKEN_RUN = /(?:[\p{L}\p{N}\p{Co}\p{Cn}]|[\u0300-\u036f])+/gu
const COMBINING_DIACRITICS = /[\u0300-\u036f]/g

/** unicode61's remove_diacritics applies to Latin letters only (Greek ί stays ί). */
const isLatin = (code: number) => (code >= 0xc0 && code <= 0x24f) || (code >= 0x1e00 && code <= 0x1eff)

/** A Latin letter's base, when that is an ASCII letter (unicode61 keeps ǣ, ǿ, ǯ and ǡ whole). */
function withoutDiacritics(letter: string): string {
  const decomposed = letter.normalize('NFD').replace(/^ſ/, 's')
  return /^[a-z]/.test(decomposed) && letter !== 'ǡ' ? decomposed : letter
}

/** Case folding beyond lowercasing (Unicode's CaseFolding.txt, which unicode61 follows): final
 * sigma, long s, the Greek symbol variants, micro. */
const FOLDED: Record<string, string> = {
  ς: 'σ',
  ſ: 's',
  ϐ: 'β',
  ϑ: 'θ',
  ϕ: 'φ',
  ϖ: 'π',
  ϰ: 'κ',
  ϱ: 'ρ',
  ϵ: 'ε',
  µ: 'μ',
}
const SPECIAL_FOLDS = new RegExp(`[${Object.keys(FOLDED).join('')}]`, 'gu')

/** Scripts whose case pairs came after SQLite's Unicode tables: unicode61 leaves them as they are. */
const unfoldedScript = (code: number) =>
  (code >= 0x13a0 && code <= 0x13ff) || (code >= 0x1c90 && code <= 0x1cbf)

function fold(run: string): string {
  let folded = ''
  for (const char of run) {
    const code = char.codePointAt(0) ?? 0
    if (unfoldedScript(code)) {
      folded += char
      continue
    }
    // per character: no context-sensitive lowercasing (FTS5 folds Σ to σ, never to final ς)
    const lower = char.toLowerCase()
    folded += isLatin(code) || isLatin(lower.codePointAt(0) ?? 0) ? withoutDiacritics(lower) : lower
  }
  return folded.replace(COMBINING_DIACRITICS, '').replace(SPECIAL_FOLDS, (c) => FOLDED[c] ?? c)
}

/** A text's tokens, as FTS5's unicode61 tokenizer (remove_diacritics 2) makes them. */
export function searchTokens(text: string): string[] {
  const tokens: string[] = []
  for (const run of text.match(TOKEN_RUN) ?? []) {
    const token = fold(run)
    if (token !== '') tokens.push(token)
  }
  return tokens
}

/** The longest lexeme put in the tsvector (PostgreSQL refuses lexemes over 2 KB); longer tokens are
 * cut there, and the candidate search asks for the same cut prefix, so it still finds them. */
export const LEXEME_CHARS = 400

const lexeme = (token: string) => `'${[...token].slice(0, LEXEME_CHARS).join('')}':*`

/**
 * The user's words as phrases of tokens (each phrase's tokens joined by spaces), with the
 * tsquery that finds its candidate rows; null when nothing searchable is left (no event matches).
 * The words are matchQuery's own (the SQLite search's), so both stores read the user's text alike.
 * A word without tokens (a lone combining mark) is dropped, as FTS5 ignores an empty phrase.
 */
export function searchPhrases(search: string): { phrases: string[]; candidates: string[] } | null {
  const match = matchQuery(search)
  if (match === null) return null
  const words = [...match.matchAll(/"([^"]*)"\*/g)].map((m) => m[1] ?? '')
  const phrases = words.map(searchTokens).filter((tokens) => tokens.length > 0)
  if (phrases.length === 0) return null
  return {
    phrases: phrases.map((tokens) => tokens.join(' ')),
    // tokens hold letters and digits only: nothing in them needs quoting in a tsquery
    candidates: phrases.map((tokens) => tokens.map(lexeme).join(' & ')),
  }
}

/** bm25's weights of events_search's columns, SQLite's (SEARCH_WEIGHTS: event_id, title,
 * description, location, category). */
const [, TITLE, DESCRIPTION, LOCATION, CATEGORY] = SEARCH_WEIGHTS

/** How often a phrase (ph.t, ph.k tokens, the last one a prefix) occurs in one token column. */
const instances = (column: string) =>
  `(SELECT count(*) FROM generate_subscripts(s.${column}, 1) AS i
     WHERE s.${column}[i:i + ph.k - 2] = ph.t[1:ph.k - 1] AND starts_with(s.${column}[i + ph.k - 1], ph.t[ph.k]))`

const rowSize =
  'cardinality(s.title_tokens) + cardinality(s.description_tokens) + cardinality(s.location_tokens) + cardinality(s.category_tokens)'

/**
 * Approved events' `columns` (of events, scored's are event_id, matched and score) holding every
 * phrase ($1: phrases, $2: their candidate tsqueries), best first.
 * The score is FTS5's bm25 (fts5_aux.c) step for step, in double precision and in the same order of
 * operations, so that equal scores on SQLite are equal here and the order by date and time after
 * them is the same: IDF per phrase from how many rows (all events, as FTS5 indexes all) hold it,
 * each phrase's frequency the sum of its instances' column weights, k1 = 1.2, b = 0.75.
 */
export const wordsSql = (columns: string) => `
WITH phrase AS (
  SELECT x.n, string_to_array(x.p, ' ') AS t, cardinality(string_to_array(x.p, ' ')) AS k, x.q::tsquery AS q
  FROM unnest($1::text[], $2::text[]) WITH ORDINALITY AS x(p, q, n)
),
corpus AS (
  SELECT count(*)::float8 AS n_row, coalesce(sum(${rowSize}), 0)::float8 AS n_token FROM events_search s
),
found AS (
  SELECT s.event_id, ph.n, f.freq::float8 AS freq, (${rowSize})::float8 AS size
  FROM phrase ph
  JOIN events_search s ON s.lexemes @@ ph.q
  CROSS JOIN LATERAL (
    SELECT ${TITLE} * ${instances('title_tokens')} + ${DESCRIPTION} * ${instances('description_tokens')}
         + ${LOCATION} * ${instances('location_tokens')} + ${CATEGORY} * ${instances('category_tokens')} AS freq
  ) f
  WHERE f.freq > 0
),
idf AS (
  SELECT ph.n, ln((((SELECT n_row FROM corpus) - h.hits) + 0.5::float8) / (h.hits + 0.5::float8)) AS idf
  FROM phrase ph
  CROSS JOIN LATERAL (SELECT count(*)::float8 AS hits FROM found WHERE found.n = ph.n) h
),
scored AS (
  SELECT found.event_id, count(*) AS matched, sum(
    (CASE WHEN idf.idf <= 0 THEN 1e-6::float8 ELSE idf.idf END) * (
      (found.freq * (1.2::float8 + 1.0::float8)) /
      (found.freq + 1.2::float8 * (1::float8 - 0.75::float8 + 0.75::float8 * found.size / (corpus.n_token / corpus.n_row)))
    ) ORDER BY found.n
  ) AS score
  FROM found JOIN idf USING (n) CROSS JOIN corpus
  GROUP BY found.event_id
)
SELECT ${columns} FROM scored JOIN events e ON e.id = scored.event_id
WHERE scored.matched = (SELECT count(*) FROM phrase) AND e.approval_status = 'Approved'
ORDER BY -scored.score, e.date COLLATE "C", e.time COLLATE "C"`
