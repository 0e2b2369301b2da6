// What a screen reader says of a seat, and the words for its status (issue 40): "Row F, seat 12,
// ₹1,500, free", with ", wheelchair space" or ", companion seat" when the seat is kept for one.
import type { SeatStatus, SeatView } from '../../../../contracts/seating.ts'
import { formatRupees } from '../../ui/rupees.ts'

export const statusWords: Record<SeatStatus, string> = {
  free: 'free',
  held: 'held',
  sold: 'sold',
  blocked: 'not for sale',
}

const accessibleWords = { wheelchair: ', wheelchair space', companion: ', companion seat' } as const

// a plan names thousands of seats at a few prices: each price is written once
const priceTexts = new Map<number, string>()
const priceText = (price: number) => {
  let text = priceTexts.get(price)
  if (text === undefined) {
    text = formatRupees(price)
    priceTexts.set(price, text)
  }
  return text
}

/** a seat's accessible name; `price` in rupees (the section's) */
export function seatName(
  row: string,
  seat: Pick<SeatView, 'number' | 'status' | 'accessible'>,
  price: number,
): string {
  const kept = seat.accessible ? accessibleWords[seat.accessible] : ''
  return `Row ${row}, seat ${seat.number}, ${priceText(price)}, ${statusWords[seat.status]}${kept}`
}
