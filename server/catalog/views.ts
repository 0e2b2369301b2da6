// What both stores' catalogue queries share (queries.ts on SQLite, pg-queries.ts on PostgreSQL):
// the event objects of API.md built from rows, and SPEC's search filters read from the user's text,
// with the same refusals, before either store is asked.
import { type EventView, isCalendarDate } from '../../contracts/catalog.ts'
import { invalid } from '../errors.ts'
import { absoluteMedia } from '../http/media-urls.ts'
import { paiseBound, toRupees } from '../money.ts'
import type { EventRow, TicketTypeRow } from './tables.ts'

export type { EventRow, TicketTypeRow }

/** What other areas add to a list of events' views (booking: live availability and attendees). */
export type EventExtra = {
  available: (ticketType: TicketTypeRow) => number
  candidates: (eventId: string) => string[]
}

/** Loads the extras of a whole list of events at once (now on SQLite, later on PostgreSQL). */
export type EventExtras = (eventIds: string[]) => EventExtra | Promise<EventExtra>

/** every ticket type as its capacity, nobody attending */
export const noExtras: EventExtra = { available: (t) => t.quantity, candidates: () => [] }

/** text as the category and location filters compare it */
export const fold = (text: string) => text.normalize('NFKC').toLocaleLowerCase('en-IN').trim()

/**
 * The event objects of API.md, from the events' rows and their ticket types. `mediaBase` (an
 * origin such as https://tickets.example.com) makes the stored /uploads/ URLs absolute, so a client
 * served elsewhere shows them.
 */
export function eventViews(
  rows: EventRow[],
  types: ReadonlyMap<string, TicketTypeRow[]>,
  extra: EventExtra,
  mediaBase: string,
): EventView[] {
  const media = (list: { url: string }[]) => list.map((m) => ({ url: absoluteMedia(m.url, mediaBase) }))
  return rows.map((row) => ({
    _id: row.id,
    title: row.title,
    description: row.description,
    date: row.date,
    time: row.time,
    location: row.location,
    category: row.category,
    approvalStatus: row.approvalStatus,
    organizer: row.organizerId,
    images: media(row.images),
    videos: media(row.videos),
    candidates: extra.candidates(row.id),
    ticketTypes: (types.get(row.id) ?? []).map((t) => {
      // The original client shows `quantity` as "Available": both carry the live count (none on
      // sale once the event is called off).
      const available = row.cancelledAt ? 0 : extra.available(t)
      return {
        _id: t.id,
        type: t.type,
        price: toRupees(t.pricePaise),
        quantity: available,
        available,
        capacity: t.quantity,
        taxRate: t.taxRateBp / 100,
      }
    }),
    createdAt: row.createdAt,
    salesEnd: row.salesEnd,
    reviewReason: row.reviewReason,
    cancelledAt: row.cancelledAt,
    cancelReason: row.cancelReason,
    state: row.state,
    pricesIncludeTax: row.pricesIncludeTax,
    version: row.version,
  }))
}

export type FilterType = 'text' | 'category' | 'date' | 'location' | 'price'

/** What a search asks of the approved events, read from the user's text (refused when it cannot be). */
export type Filter =
  | { kind: 'words'; search: string }
  | { kind: 'category'; wanted: string }
  | { kind: 'location'; wanted: string }
  | { kind: 'day'; day: string }
  /** events whose date starts with `prefix` (YYYY-MM-, digits only: nothing in it is a pattern) */
  | { kind: 'month'; prefix: string }
  /** events with a ticket type priced within these whole paise */
  | { kind: 'price'; minPaise: number; maxPaise: number }

/** SPEC's search: approved events only; user text is compared as text, never as a pattern. */
export function readFilter(filterType: FilterType, search: string): Filter {
  switch (filterType) {
    case 'text':
      return { kind: 'words', search }
    case 'category':
      return { kind: 'category', wanted: fold(search) }
    case 'location':
      return { kind: 'location', wanted: fold(search) }
    case 'date': {
      const day = /^(\d{4})-(\d{2})-(\d{2})$/.exec(search)
      const month = /^(\d{4})-(\d{2})$/.exec(search)
      if (day && isCalendarDate(search)) return { kind: 'day', day: search }
      if (month?.[2] && Number(month[2]) >= 1 && Number(month[2]) <= 12)
        return { kind: 'month', prefix: `${search}-` }
      throw invalid('Date must be YYYY-MM-DD (a day) or YYYY-MM (a month).', [
        { field: 'search', message: 'Date must be YYYY-MM-DD (a day) or YYYY-MM (a month).' },
      ])
    }
    case 'price': {
      const range = /^\s*(\d+(?:\.\d+)?)\s*-\s*(\d+(?:\.\d+)?)\s*$/.exec(search)
      const min = Number(range?.[1])
      const max = Number(range?.[2])
      if (!range || !(min <= max)) {
        throw invalid('Please enter valid min and max prices.', [
          { field: 'search', message: 'Price must be min-max with min not above max, e.g. 100-500.' },
        ])
      }
      // Prices are whole paise: a bound with more decimals (99.999) is rounded inwards, exactly.
      return {
        kind: 'price',
        minPaise: paiseBound(range[1] ?? '', 'up'),
        maxPaise: paiseBound(range[2] ?? '', 'down'),
      }
    }
    default:
      return filterType satisfies never
  }
}
