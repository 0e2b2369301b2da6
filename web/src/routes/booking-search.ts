// What the booking page may be opened with (issue 40): the seats chosen on the event's seat map, or
// a ticket type and a number of seats to book (the best available of a seated type). Anything
// malformed is dropped: the page then opens on its usual choice.
import * as v from 'valibot'
import { MAX_SEATS_PER_ORDER } from '../../../contracts/seating-limits.ts'

export const BookingSearch = v.object({
  seats: v.fallback(
    v.optional(
      v.pipe(
        v.array(v.pipe(v.string(), v.regex(/^[a-z0-9]{1,32}$/))),
        v.minLength(1),
        v.maxLength(MAX_SEATS_PER_ORDER),
      ),
    ),
    undefined,
  ),
  ticketType: v.fallback(v.optional(v.pipe(v.string(), v.maxLength(64))), undefined),
  quantity: v.fallback(
    v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(100))),
    undefined,
  ),
})
export type BookingSearch = v.InferOutput<typeof BookingSearch>
