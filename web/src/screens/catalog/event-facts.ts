// What a card or the detail page says about an event: its day in the viewer's locale, its price.
import type { EventView } from '../../../../contracts/catalog.ts'
import { formatRupees } from '../../ui/rupees.ts'

/**
 * The API's date is a calendar day ('YYYY-MM-DD'). `new Date('2025-06-01')` would read it as UTC
 * midnight and show the day before west of Greenwich, so the day is built in local time.
 */
export function formatEventDate(day: string): string {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day)
  if (!match) return day
  const [, year, month, date] = match.map(Number) as [number, number, number, number]
  return new Date(year, month - 1, date).toLocaleDateString()
}

export const lowestPrice = (event: EventView): number | null =>
  event.ticketTypes.length === 0 ? null : Math.min(...event.ticketTypes.map((t) => t.price))

export const firstPrice = (event: EventView): number | null => event.ticketTypes[0]?.price ?? null

/** 'Price: ₹499' (the rupee helper's grouping after the label's sign), or 'Price: N/A'. */
export const priceText = (price: number | null): string =>
  price === null ? 'Price: N/A' : `Price: ₹${formatRupees(price).replace(/^₹\s*/, '')}`

/** The first image, or the placeholder shipped with the app. */
export const PLACEHOLDER_IMAGE = '/event-placeholder.svg'
export const coverOf = (event: EventView): string => event.images[0]?.url ?? PLACEHOLDER_IMAGE
