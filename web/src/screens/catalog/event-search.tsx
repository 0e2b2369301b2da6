// Event search (/search, SPEC §2, §5, §8; issue 12): opens on every approved event. One row as
// SPEC has it: a text box, 'Filter by' (Words, the default, then Category, Date, Location, Price)
// and Search; Price puts Min Price and Max Price in the text box's place. The text box is labelled
// by what it takes (Search term for words, else the filter type) and starts empty when the type
// changes: a term typed for one type means nothing to another. 'Add filter', explained beside it,
// keeps the row's criterion as a chip and empties the row, so words, category, date, location and
// price can be combined. Search runs every criterion (the chips, then the row when it is filled), one
// GET /event/filter each, and shows the events every one found, in the first one's order. Cards
// are priced by their first ticket type.
import { hashKey, queryOptions, type UseQueryResult, useQuery } from '@tanstack/react-query'
import { type FormEvent, useEffect, useId, useRef, useState } from 'react'
import type { EventView } from '../../../../contracts/catalog.ts'
import { type FilterType, searchEvents } from '../../api/catalog.ts'
import { ApiError } from '../../api/client.ts'
import { eventsQuery, keys } from '../../api/queries.ts'
import { FetchError } from '../../ui/fetched.tsx'
import { formatPrice } from '../../ui/format.ts'
import { EventGrid } from './event-card.tsx'
import { firstPrice } from './event-facts.ts'
import './catalog.css'
import './event-search.css'

const filters: { value: FilterType; label: string }[] = [
  { value: 'text', label: 'Words' },
  { value: 'category', label: 'Category' },
  { value: 'date', label: 'Date' },
  { value: 'location', label: 'Location' },
  { value: 'price', label: 'Price' },
]
const labelOf = (filter: FilterType) => filters.find((f) => f.value === filter)?.label ?? filter

/** the text box's label: what it takes */
const termLabels: Record<Exclude<FilterType, 'price'>, string> = {
  text: 'Search term',
  category: 'Category',
  date: 'Date',
  location: 'Location',
}

export const ADD_FILTER_HINT =
  'Add filter keeps this criterion and empties the row for another; Search finds the events that match every one.'

const placeholders: Record<Exclude<FilterType, 'price'>, string> = {
  text: 'Search events by title, place, category…',
  category: 'e.g. Music',
  date: 'YYYY-MM-DD or YYYY-MM',
  location: 'e.g. Mumbai',
}

const PRICES_NEEDED = 'Please enter valid min and max prices.'
const TERM_NEEDED = 'Please enter a search term and select a filter type.'
const FAILED = 'Failed to fetch events. Please try again later.'

/** one search: what is sent, and how its chip reads */
type Criterion = { filterType: FilterType; search: string; shown: string }

type Row = { filter: FilterType; term: string; min: string; max: string }
const emptyRow: Row = { filter: 'text', term: '', min: '', max: '' }

/** The row's criterion, null when nothing is in it, or the message saying what is missing. */
function criterionOf(row: Row): Criterion | null | string {
  if (row.filter === 'price') {
    if (row.min.trim() === '' && row.max.trim() === '') return null
    const low = Number(row.min)
    const high = Number(row.max)
    const given = row.min.trim() !== '' && row.max.trim() !== ''
    if (!given || !Number.isFinite(low) || !Number.isFinite(high) || low < 0 || low > high)
      return PRICES_NEEDED
    const shown = low === 0 ? `up to ${formatPrice(high)}` : `${formatPrice(low)} – ${formatPrice(high)}`
    return { filterType: 'price', search: `${low}-${high}`, shown: `Price: ${shown}` }
  }
  const term = row.term.trim()
  if (term === '') return null
  return { filterType: row.filter, search: term, shown: `${labelOf(row.filter)}: ${term}` }
}

/** SPEC's message for a row that is empty where something is needed. */
const missing = (row: Row) => (row.filter === 'price' ? PRICES_NEEDED : TERM_NEEDED)

/** The events every list holds, in the first list's order. */
function intersect(lists: EventView[][]): EventView[] {
  const [first = [], ...rest] = lists
  const others = rest.map((list) => new Set(list.map((e) => e._id)))
  return first.filter((event) => others.every((ids) => ids.has(event._id)))
}

/** the events every criterion finds: one GET /event/filter each */
const searchQuery = (criteria: Criterion[]) =>
  queryOptions({
    queryKey: keys.search(criteria.map(({ filterType, search }) => ({ filterType, search }))),
    queryFn: async () =>
      intersect(await Promise.all(criteria.map((c) => searchEvents(c.filterType, c.search)))),
  })

/** A refused term (a date that is not a date) is the server's to explain. */
const failureOf = (error: unknown) =>
  error instanceof ApiError && error.status === 400 ? error.message : FAILED

type Outcome =
  | { state: 'loading' }
  | { state: 'shown'; events: EventView[] }
  | { state: 'failed'; message: string }

/** what the results say: every approved event (nothing searched yet), or what a search found */
function outcomeOf(query: UseQueryResult<EventView[]>, searching: boolean): Outcome {
  // a search that failed says so even over an earlier answer: it was asked for just now
  if (query.isError && (searching || query.data === undefined))
    return { state: 'failed', message: searching ? failureOf(query.error) : FAILED }
  if (query.data === undefined) return { state: 'loading' }
  return {
    state: 'shown',
    events: searching ? query.data : query.data.filter((e) => e.approvalStatus === 'Approved'),
  }
}

export function EventSearchScreen() {
  const ids = { term: useId(), filter: useId(), min: useId(), max: useId(), hint: useId() }
  const [row, setRow] = useState<Row>(emptyRow)
  const [chips, setChips] = useState<Criterion[]>([])
  const [problem, setProblem] = useState<string | null>(null)
  /** what was searched last; null: nothing yet (every approved event shows) */
  const [searched, setSearched] = useState<Criterion[] | null>(null)
  const all = useQuery(eventsQuery())
  const found = useQuery({ ...searchQuery(searched ?? []), enabled: searched !== null })
  /** the row's first field, focused again once its criterion became a chip */
  const refocus = useRef(false)

  useEffect(() => {
    if (!refocus.current) return
    refocus.current = false
    document.getElementById(ids.term)?.focus()
  })

  const change = (part: Partial<Row>) => setRow((previous) => ({ ...previous, ...part }))

  const addFilter = () => {
    const criterion = criterionOf(row)
    if (criterion === null || typeof criterion === 'string') {
      setProblem(criterion ?? missing(row))
      return
    }
    setProblem(null)
    setChips((previous) =>
      previous.some((c) => c.filterType === criterion.filterType && c.search === criterion.search)
        ? previous
        : [...previous, criterion],
    )
    setRow(emptyRow)
    refocus.current = true
  }

  const removeChip = (index: number) => {
    setChips((previous) => previous.filter((_, i) => i !== index))
    setProblem(null)
  }

  const clear = () => {
    setRow(emptyRow)
    setChips([])
    setProblem(null)
    setSearched(null)
  }

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    const current = criterionOf(row)
    if (typeof current === 'string') {
      setProblem(current)
      return
    }
    // Nothing to search by: SPEC's message for the row as it stands.
    if (current === null && chips.length === 0) {
      setProblem(missing(row))
      return
    }
    const criteria = current === null ? chips : [...chips, current]
    setProblem(null)
    // the same search again is sent again (the answer may have changed)
    if (searched && hashKey(searchQuery(searched).queryKey) === hashKey(searchQuery(criteria).queryKey))
      void found.refetch()
    else setSearched(criteria)
  }

  const busy = searched !== null && found.isFetching
  const outcome = outcomeOf(searched === null ? all : found, searched !== null)

  const filled = row.term !== '' || row.min !== '' || row.max !== '' || row.filter !== 'text'
  const clearable = filled || chips.length > 0 || searched !== null || problem !== null

  return (
    <section className="page events-page">
      <h1>Event Search</h1>
      <form className="card event-search-form" onSubmit={submit} noValidate>
        <div className="event-search-bar">
          {row.filter === 'price' ? (
            <div className="event-search-prices">
              <div className="field">
                <label htmlFor={ids.min}>Min Price</label>
                <input
                  id={ids.min}
                  type="number"
                  min={0}
                  step="any"
                  inputMode="decimal"
                  placeholder="Min Price"
                  value={row.min}
                  onChange={(e) => change({ min: e.target.value })}
                />
              </div>
              <div className="field">
                <label htmlFor={ids.max}>Max Price</label>
                <input
                  id={ids.max}
                  type="number"
                  min={0}
                  step="any"
                  inputMode="decimal"
                  placeholder="Max Price"
                  value={row.max}
                  onChange={(e) => change({ max: e.target.value })}
                />
              </div>
            </div>
          ) : (
            <div className="field">
              <label htmlFor={ids.term}>{termLabels[row.filter]}</label>
              <input
                id={ids.term}
                type="text"
                value={row.term}
                placeholder={placeholders[row.filter]}
                onChange={(e) => change({ term: e.target.value })}
              />
            </div>
          )}
          <div className="field">
            <label htmlFor={ids.filter}>Filter by</label>
            <select
              id={ids.filter}
              value={row.filter}
              onChange={(e) => {
                // a new type of filter starts from an empty box
                setRow({ ...emptyRow, filter: e.target.value as FilterType })
                setProblem(null)
              }}
            >
              {filters.map((filter) => (
                <option key={filter.value} value={filter.value}>
                  {filter.label}
                </option>
              ))}
            </select>
          </div>
          <div className="event-search-actions">
            <button type="submit" disabled={busy}>
              Search
            </button>
            <button
              type="button"
              className="button-secondary"
              onClick={addFilter}
              aria-describedby={ids.hint}
            >
              Add filter
            </button>
            {clearable && (
              <button type="button" className="button-secondary" onClick={clear}>
                Clear
              </button>
            )}
          </div>
        </div>

        <p id={ids.hint} className="event-search-hint">
          {ADD_FILTER_HINT}
        </p>

        {chips.length > 0 && (
          <ul className="event-search-chips" aria-label="Filters added">
            {chips.map((chip, index) => (
              <li
                key={`${chip.filterType}:${chip.search}`}
                className="event-search-chip"
                aria-label={chip.shown}
              >
                <span>{chip.shown}</span>
                <button
                  type="button"
                  className="button-secondary event-search-remove"
                  onClick={() => removeChip(index)}
                >
                  Remove
                </button>
              </li>
            ))}
          </ul>
        )}

        {problem && (
          <p className="form-error" role="alert">
            {problem}
          </p>
        )}
      </form>

      <section className="search-results" aria-live="polite" aria-busy={busy || outcome.state === 'loading'}>
        <h2>Events</h2>
        {(busy || outcome.state === 'loading') && (
          <p className="empty-text" role="status">
            {busy ? 'Searching...' : 'Loading...'}
          </p>
        )}
        {!busy && outcome.state === 'failed' && <FetchError message={outcome.message} />}
        {!busy && outcome.state === 'shown' && outcome.events.length === 0 && (
          <>
            {/* SPEC: the results say 'No events available'; a search that found nothing says why too */}
            <p className="empty-text">No events available</p>
            {searched !== null && <p className="empty-text">No events found for the selected criteria.</p>}
          </>
        )}
        {!busy && outcome.state === 'shown' && outcome.events.length > 0 && (
          <EventGrid events={outcome.events} price={firstPrice} />
        )}
      </section>
    </section>
  )
}
