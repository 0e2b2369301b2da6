// Event search (/search, SPEC §2, §5, §8): opens on every approved event; the search box finds
// events by words (title, description, location, category: the server's full-text search), and
// 'Filter by' adds a Category, Date, Location or Price (Min Price / Max Price) filter, any of
// them together with the words. Each criterion is one GET /event/filter; an event is shown when
// every criterion finds it, in the order of the first (the words' best matches first). Cards are
// priced by their first ticket type.
import { type FormEvent, useEffect, useId, useRef, useState } from 'react'
import type { EventView } from '../../../../contracts/catalog.ts'
import { type FilterType, fetchEvents, searchEvents } from '../../api/catalog.ts'
import { ApiError } from '../../api/client.ts'
import { EventGrid } from './event-card.tsx'
import { firstPrice } from './event-facts.ts'
import './catalog.css'
import './event-search.css'

type Filter = Exclude<FilterType, 'text'>

const filters: { value: Filter; label: string }[] = [
  { value: 'category', label: 'Category' },
  { value: 'date', label: 'Date' },
  { value: 'location', label: 'Location' },
  { value: 'price', label: 'Price' },
]
const labelOf = (filter: Filter) => filters.find((f) => f.value === filter)?.label ?? filter

const placeholders: Record<Exclude<Filter, 'price'>, string> = {
  category: 'e.g. Music',
  date: 'YYYY-MM-DD or YYYY-MM',
  location: 'e.g. Mumbai',
}

type Values = Record<Exclude<Filter, 'price'> | 'min' | 'max', string>
const noValues: Values = { category: '', date: '', location: '', min: '', max: '' }

type Outcome =
  | { state: 'loading' }
  /** every approved event: nothing searched yet */
  | { state: 'all'; events: EventView[] }
  | { state: 'found'; events: EventView[] }
  | { state: 'failed'; message: string }

const PRICES_NEEDED = 'Please enter valid min and max prices.'
const TERM_NEEDED = 'Please enter a search term and select a filter type.'
const FAILED = 'Failed to fetch events. Please try again later.'

type Criterion = { filterType: FilterType; search: string }

/** The searches a submitted form asks for, or the message saying what is missing. */
function criteriaOf(words: string, added: Filter[], values: Values): Criterion[] | string {
  const criteria: Criterion[] = []
  if (words.trim() !== '') criteria.push({ filterType: 'text', search: words.trim() })
  for (const filter of added) {
    if (filter === 'price') {
      const low = Number(values.min)
      const high = Number(values.max)
      const given = values.min.trim() !== '' && values.max.trim() !== ''
      if (!given || !Number.isFinite(low) || !Number.isFinite(high) || low < 0 || low > high)
        return PRICES_NEEDED
      criteria.push({ filterType: 'price', search: `${low}-${high}` })
      continue
    }
    const value = values[filter].trim()
    if (value === '') return TERM_NEEDED
    criteria.push({ filterType: filter, search: value })
  }
  return criteria.length === 0 ? TERM_NEEDED : criteria
}

/** The events every list holds, in the first list's order. */
function intersect(lists: EventView[][]): EventView[] {
  const [first = [], ...rest] = lists
  const others = rest.map((list) => new Set(list.map((e) => e._id)))
  return first.filter((event) => others.every((ids) => ids.has(event._id)))
}

export function EventSearchScreen() {
  const ids = {
    term: useId(),
    filter: useId(),
    category: useId(),
    date: useId(),
    location: useId(),
    min: useId(),
    max: useId(),
  }
  const [term, setTerm] = useState('')
  const [added, setAdded] = useState<Filter[]>([])
  const [values, setValues] = useState<Values>(noValues)
  const [problem, setProblem] = useState<string | null>(null)
  const [outcome, setOutcome] = useState<Outcome>({ state: 'loading' })
  const [busy, setBusy] = useState(false)
  /** only the newest request's answer is shown */
  const latest = useRef(0)
  /** the field to focus once a filter just added is on screen */
  const focusNext = useRef<string | null>(null)

  const showAll = () => {
    const ticket = ++latest.current
    setBusy(false)
    setOutcome({ state: 'loading' })
    fetchEvents().then(
      (events) => {
        if (ticket === latest.current)
          setOutcome({ state: 'all', events: events.filter((e) => e.approvalStatus === 'Approved') })
      },
      () => {
        if (ticket === latest.current) setOutcome({ state: 'failed', message: FAILED })
      },
    )
  }

  // biome-ignore lint/correctness/useExhaustiveDependencies: once, on opening
  useEffect(() => {
    showAll()
    return () => {
      latest.current++ // answers arriving after leaving the page are dropped
    }
  }, [])

  useEffect(() => {
    if (!focusNext.current) return
    document.getElementById(focusNext.current)?.focus()
    focusNext.current = null
  })

  const setValue = (name: keyof Values, value: string) =>
    setValues((previous) => ({ ...previous, [name]: value }))

  const addFilter = (filter: Filter | '') => {
    if (!filter || added.includes(filter)) return
    focusNext.current = filter === 'price' ? ids.min : ids[filter]
    setAdded((previous) => [...previous, filter])
  }

  const removeFilter = (filter: Filter) => {
    setAdded((previous) => previous.filter((f) => f !== filter))
    if (filter === 'price') setValues((previous) => ({ ...previous, min: '', max: '' }))
    else setValue(filter, '')
    setProblem(null)
  }

  const clear = () => {
    setTerm('')
    setAdded([])
    setValues(noValues)
    setProblem(null)
    showAll()
  }

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    const criteria = criteriaOf(term, added, values)
    if (typeof criteria === 'string') {
      setProblem(criteria)
      return
    }
    setProblem(null)
    const ticket = ++latest.current
    setBusy(true)
    try {
      const lists = await Promise.all(criteria.map((c) => searchEvents(c.filterType, c.search)))
      if (ticket === latest.current) setOutcome({ state: 'found', events: intersect(lists) })
    } catch (error) {
      // A refused term (a date that is not a date) is the server's to explain.
      const message = error instanceof ApiError && error.status === 400 ? error.message : FAILED
      if (ticket === latest.current) setOutcome({ state: 'failed', message })
    } finally {
      if (ticket === latest.current) setBusy(false)
    }
  }

  const searched = term !== '' || added.length > 0 || outcome.state === 'found'

  return (
    <section className="page events-page">
      <h1>Event Search</h1>
      <form className="card event-search-form" onSubmit={submit} noValidate>
        <div className="event-search-bar">
          <div className="field event-search-words">
            <label htmlFor={ids.term}>Search term</label>
            <input
              id={ids.term}
              type="search"
              value={term}
              placeholder="Search events by title, place, category…"
              onChange={(e) => setTerm(e.target.value)}
            />
          </div>
          <div className="field">
            <label htmlFor={ids.filter}>Filter by</label>
            <select id={ids.filter} value="" onChange={(e) => addFilter(e.target.value as Filter | '')}>
              <option value="">Add a filter</option>
              {filters.map((filter) => (
                <option key={filter.value} value={filter.value} disabled={added.includes(filter.value)}>
                  {filter.label}
                </option>
              ))}
            </select>
          </div>
          <div className="event-search-actions">
            <button type="submit" disabled={busy}>
              Search
            </button>
            {searched && (
              <button type="button" className="button-secondary" onClick={clear}>
                Clear
              </button>
            )}
          </div>
        </div>

        {added.length > 0 && (
          <ul className="event-search-filters">
            {added.map((filter) => (
              <li key={filter} className="event-search-filter">
                {filter === 'price' ? (
                  <>
                    <div className="field">
                      <label htmlFor={ids.min}>Min Price</label>
                      <input
                        id={ids.min}
                        type="number"
                        min={0}
                        step="any"
                        inputMode="decimal"
                        value={values.min}
                        onChange={(e) => setValue('min', e.target.value)}
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
                        value={values.max}
                        onChange={(e) => setValue('max', e.target.value)}
                      />
                    </div>
                  </>
                ) : (
                  <div className="field">
                    <label htmlFor={ids[filter]}>{labelOf(filter)}</label>
                    <input
                      id={ids[filter]}
                      type="text"
                      value={values[filter]}
                      placeholder={placeholders[filter]}
                      onChange={(e) => setValue(filter, e.target.value)}
                    />
                  </div>
                )}
                <button
                  type="button"
                  className="button-secondary event-search-remove"
                  aria-label={`Remove the ${labelOf(filter)} filter`}
                  onClick={() => removeFilter(filter)}
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
        {!busy && outcome.state === 'failed' && (
          <p className="error-text" role="alert">
            {outcome.message}
          </p>
        )}
        {!busy && outcome.state === 'all' && outcome.events.length === 0 && (
          <p className="empty-text">No events available</p>
        )}
        {!busy && outcome.state === 'found' && outcome.events.length === 0 && (
          <p className="empty-text">No events found for the selected criteria.</p>
        )}
        {!busy && (outcome.state === 'all' || outcome.state === 'found') && outcome.events.length > 0 && (
          <EventGrid events={outcome.events} price={firstPrice} />
        )}
      </section>
    </section>
  )
}
