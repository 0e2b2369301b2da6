// Event search (/search, SPEC §2, §5, §8): a term and a filter type, or a min and max price;
// results as cards priced by their first ticket type.
import { type FormEvent, useId, useState } from 'react'
import type { EventView } from '../../../../contracts/catalog.ts'
import { type FilterType, searchEvents } from '../../api/catalog.ts'
import { ApiError } from '../../api/client.ts'
import { EventGrid } from './event-card.tsx'
import { firstPrice } from './event-facts.ts'
import './catalog.css'

const filters: { value: FilterType; label: string }[] = [
  { value: 'category', label: 'Category' },
  { value: 'date', label: 'Date' },
  { value: 'location', label: 'Location' },
  { value: 'price', label: 'Price' },
]

const placeholders: Record<FilterType, string> = {
  category: 'e.g. Music',
  date: 'YYYY-MM-DD or YYYY-MM',
  location: 'e.g. Mumbai',
  price: '',
}

type Outcome =
  | { state: 'idle' }
  | { state: 'searching' }
  | { state: 'found'; events: EventView[] }
  | { state: 'failed'; message: string }

const PRICES_NEEDED = 'Please enter valid min and max prices.'
const TERM_NEEDED = 'Please enter a search term and select a filter type.'
const FAILED = 'Failed to fetch events. Please try again later.'

/** The query of a valid search, or the message saying what is missing. */
function queryOf(
  filterType: FilterType | '',
  term: string,
  min: string,
  max: string,
): { search: string; filterType: FilterType } | string {
  if (filterType === 'price') {
    const low = Number(min)
    const high = Number(max)
    const given = min.trim() !== '' && max.trim() !== ''
    if (!given || !Number.isFinite(low) || !Number.isFinite(high) || low < 0 || low > high)
      return PRICES_NEEDED
    return { search: `${low}-${high}`, filterType }
  }
  if (!filterType || term.trim() === '') return TERM_NEEDED
  return { search: term.trim(), filterType }
}

export function EventSearchScreen() {
  const ids = { term: useId(), filter: useId(), min: useId(), max: useId() }
  const [filterType, setFilterType] = useState<FilterType | ''>('')
  const [term, setTerm] = useState('')
  const [min, setMin] = useState('')
  const [max, setMax] = useState('')
  const [problem, setProblem] = useState<string | null>(null)
  const [outcome, setOutcome] = useState<Outcome>({ state: 'idle' })

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    const query = queryOf(filterType, term, min, max)
    if (typeof query === 'string') {
      setProblem(query)
      return
    }
    setProblem(null)
    setOutcome({ state: 'searching' })
    try {
      setOutcome({ state: 'found', events: await searchEvents(query.filterType, query.search) })
    } catch (error) {
      // A refused term (a date that is not a date) is the server's to explain.
      const message = error instanceof ApiError && error.status === 400 ? error.message : FAILED
      setOutcome({ state: 'failed', message })
    }
  }

  return (
    <section className="page events-page">
      <h1>Event Search</h1>
      <form className="card search-form" onSubmit={submit} noValidate>
        {filterType === 'price' ? (
          <>
            <div className="field">
              <label htmlFor={ids.min}>Min Price</label>
              <input
                id={ids.min}
                type="number"
                min={0}
                step="any"
                inputMode="decimal"
                value={min}
                onChange={(e) => setMin(e.target.value)}
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
                value={max}
                onChange={(e) => setMax(e.target.value)}
              />
            </div>
          </>
        ) : (
          <div className="field search-term">
            <label htmlFor={ids.term}>Search term</label>
            <input
              id={ids.term}
              type="search"
              value={term}
              placeholder={filterType ? placeholders[filterType] : 'Search events...'}
              onChange={(e) => setTerm(e.target.value)}
            />
          </div>
        )}
        <div className="field">
          <label htmlFor={ids.filter}>Filter by</label>
          <select
            id={ids.filter}
            value={filterType}
            onChange={(e) => setFilterType(e.target.value as FilterType | '')}
          >
            <option value="">Select a filter</option>
            {filters.map((filter) => (
              <option key={filter.value} value={filter.value}>
                {filter.label}
              </option>
            ))}
          </select>
        </div>
        <button type="submit" disabled={outcome.state === 'searching'}>
          Search
        </button>
        {problem && (
          <p className="form-error search-problem" role="alert">
            {problem}
          </p>
        )}
      </form>

      <section className="search-results" aria-live="polite" aria-busy={outcome.state === 'searching'}>
        <h2>Events</h2>
        {outcome.state === 'idle' && <p className="empty-text">No events available</p>}
        {outcome.state === 'searching' && <p className="empty-text">Searching...</p>}
        {outcome.state === 'failed' && (
          <p className="error-text" role="alert">
            {outcome.message}
          </p>
        )}
        {outcome.state === 'found' &&
          (outcome.events.length === 0 ? (
            <p className="empty-text">No events found for the selected criteria.</p>
          ) : (
            <EventGrid events={outcome.events} price={firstPrice} />
          ))}
      </section>
    </section>
  )
}
