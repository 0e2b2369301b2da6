// The seats a buyer has picked (issue 40): one section an order (its ticket type), at most
// MAX_SEATS_PER_ORDER, free seats only; a seat taken meanwhile drops out of the selection.
import { MAX_SEATS_PER_ORDER, type SeatMapView, type SeatNumber } from '../../../../contracts/seating.ts'
import { seatPlaces } from '../../live/seat-changes.ts'

export type Selection = { section: string | null; ids: readonly string[] }

export const noSelection: Selection = { section: null, ids: [] }

export const selectionTexts = {
  notFree: 'This seat is not available.',
  tooMany: `You can choose at most ${MAX_SEATS_PER_ORDER} seats at once.`,
  otherSection: (section: string) =>
    `Seats of one section per order: your selection now starts in ${section}.`,
} as const

export type PickedSeat = {
  id: string
  section: string
  ticketType: string
  row: string
  number: SeatNumber
  price: number
  status: SeatMapView['sections'][number]['rows'][number]['seats'][number]['status']
}

/** a seat of the map with its section's and row's names and price */
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
    row: row.label,
    number: seat.number,
    price: section.price,
    status: seat.status,
  }
}

/** the selection with a seat added or taken away, and what to tell the buyer (or null) */
export function toggleSelection(
  selection: Selection,
  map: SeatMapView,
  id: string,
  max = MAX_SEATS_PER_ORDER,
): { selection: Selection; note: string | null } {
  if (selection.ids.includes(id)) {
    const ids = selection.ids.filter((each) => each !== id)
    return { selection: ids.length === 0 ? noSelection : { ...selection, ids }, note: null }
  }
  const seat = pickedSeat(map, id)
  if (seat?.status !== 'free') return { selection, note: selectionTexts.notFree }
  if (!seat) return { selection, note: selectionTexts.notFree }
  if (selection.section !== null && selection.section !== seat.section)
    return {
      selection: { section: seat.section, ids: [id] },
      note: selectionTexts.otherSection(seat.section),
    }
  if (selection.ids.length >= max) return { selection, note: selectionTexts.tooMany }
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
