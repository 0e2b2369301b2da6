// What a card or the detail page says about an event: its price in the app's one format
// (ui/format.ts: ₹1,499 or Free) and its cover image.
import type { EventView } from '../../../../contracts/catalog.ts'
import { formatPrice } from '../../ui/format.ts'

export const lowestPrice = (event: EventView): number | null =>
  event.ticketTypes.length === 0 ? null : Math.min(...event.ticketTypes.map((t) => t.price))

export const firstPrice = (event: EventView): number | null => event.ticketTypes[0]?.price ?? null

/** 'Price: ₹1,499', 'Price: Free' for a price of 0, or 'Price: N/A' without ticket types. */
export const priceText = (price: number | null): string =>
  `Price: ${price === null ? 'N/A' : formatPrice(price)}`

/** The first image, or the placeholder shipped with the app. */
export const PLACEHOLDER_IMAGE = '/event-placeholder.svg'
export const coverOf = (event: EventView): string => event.images[0]?.url ?? PLACEHOLDER_IMAGE
