// The seats a buyer has picked (issue 40): one section an order (its ticket type), at most
// MAX_SEATS_PER_ORDER, free seats only, and no more than its type has on sale to the buyer (free
// seats kept for the type's waiting list are not: only an offer of the list's makes them the
// buyer's); a seat taken meanwhile drops out of the selection.

import type { EventView } from '../../../../contracts/catalog.ts'
import {
  MAX_SEATS_PER_ORDER,
  type SeatMapView,
  type SeatNumber,
  seatsKeptForWaitlist,
} from '../../../../contracts/seating.ts'
import type { WaitlistEntryView } from '../../../../contracts/waitlist.ts'
import { seatPlaces } from '../../live/seat-changes.ts'

export type Selection = { section: string | null; ids: readonly string[] }

export const noSelection: Selection = { section: null, ids: [] }

export const selectionTexts = {
  notFree: 'This seat is not available.',
  tooMany: `You can choose at most ${MAX_SEATS_PER_ORDER} seats at once.`,
  otherSection: (section: string) =>
    `Seats of one section per order: your selection now starts in ${section}.`,
  keptForWaitlist: seatsKeptForWaitlist,
  fewOnSale: (section: string, count: number) =>
    `Only ${count === 1 ? '1 seat' : `${count} seats`} of ${section} ${count === 1 ? 'is' : 'are'} on sale now: the others are kept for its waiting list.`,
} as const

/** seats on sale to the buyer by ticket type id (a type left out: as many as are free) */
export type OnSale = ReadonlyMap<string, number>

export type PickedSeat = {
  id: string
  section: string
  ticketType: string
  ticketTypeId: string
  row: string
  number: SeatNumber
  price: number
  status: SeatMapView['sections'][number]['rows'][number]['seats'][number]['status']
}

/** a seat of the map with its section's and row's names and price */
/** seat ids in the plan's order (section, row, seat), those not on it last */
export function inPlanOrder(map: SeatMapView, ids: readonly string[]): string[] {
  const places = seatPlaces(map)
  const order = (id: string) => {
    const place = places.get(id)
    return place ? [place.section, place.row, place.seat] : [Number.POSITIVE_INFINITY, 0, 0]
  }
  return [...ids].sort((a, b) => {
    const [x, y] = [order(a), order(b)]
    for (let i = 0; i < 3; i++) if (x[i] !== y[i]) return (x[i] as number) - (y[i] as number)
    return 0
  })
}

export function pickedSeat(map: SeatMapView, id: string): PickedSeat | null {
  const place = seatPlaces(map).get(id)
  if (!place) return null
  const section = map.sections[place.section]
  const row = section?.rows[place.row]
  const seat = row?.seats[place.seat]
  if (!section || !row || !seat) return null
  return {
    id,
    section: section.name,
    ticketType: section.ticketType,
    ticketTypeId: section.ticketTypeId,
    row: row.label,
    number: seat.number,
    price: section.price,
    status: seat.status,
  }
}

/** seats on sale to the buyer per ticket type: the live count, and what the waiting list offers them */
export function onSaleTo(
  event: Pick<EventView, '_id' | 'ticketTypes'>,
  entries: readonly WaitlistEntryView[],
): OnSale {
  const onSale = new Map(event.ticketTypes.map((type) => [type._id, type.available]))
  for (const entry of entries)
    if (entry.eventId === event._id && entry.status === 'offered')
      onSale.set(entry.ticketTypeId, (onSale.get(entry.ticketTypeId) ?? 0) + entry.quantity)
  return onSale
}

/** the selection with a seat added or taken away, and what to tell the buyer (or null) */
export function toggleSelection(
  selection: Selection,
  map: SeatMapView,
  id: string,
  max = MAX_SEATS_PER_ORDER,
  onSale: OnSale = new Map(),
): { selection: Selection; note: string | null } {
  if (selection.ids.includes(id)) {
    const ids = selection.ids.filter((each) => each !== id)
    return { selection: ids.length === 0 ? noSelection : { ...selection, ids }, note: null }
  }
  const seat = pickedSeat(map, id)
  if (seat?.status !== 'free') return { selection, note: selectionTexts.notFree }
  if (!seat) return { selection, note: selectionTexts.notFree }
  const forSale = onSale.get(seat.ticketTypeId) ?? Number.POSITIVE_INFINITY
  if (forSale <= 0) return { selection, note: selectionTexts.keptForWaitlist(seat.section) }
  if (selection.section !== null && selection.section !== seat.section)
    return {
      selection: { section: seat.section, ids: [id] },
      note: selectionTexts.otherSection(seat.section),
    }
  if (selection.ids.length >= max) return { selection, note: selectionTexts.tooMany }
  if (selection.ids.length >= forSale)
    return { selection, note: selectionTexts.fewOnSale(seat.section, forSale) }
  return { selection: { section: seat.section, ids: [...selection.ids, id] }, note: null }
}

/** the selection without seats that are no longer free (taken by someone else meanwhile) */
export function keepFree(selection: Selection, map: SeatMapView): Selection {
  const ids = selection.ids.filter((id) => pickedSeat(map, id)?.status === 'free')
  if (ids.length === selection.ids.length) return selection
  return ids.length === 0 ? noSelection : { ...selection, ids }
}

/** the rupees the chosen seats cost (before any promo code) */
export const selectionTotal = (seats: readonly PickedSeat[]) =>
  seats.reduce((sum, seat) => sum + seat.price, 0)

/** "Stalls, Row F, Seat 12" */
export const seatLine = (seat: { section: string; row: string; number: SeatNumber }) =>
  `${seat.section}, Row ${seat.row}, Seat ${seat.number}`
