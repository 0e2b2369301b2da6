// A seat as tickets, passes and orders name it (issue 40), and how it is written: "Stalls, Row F,
// Seat 12".
import * as v from 'valibot'

export const TicketSeat = v.object({
  id: v.optional(v.string()),
  section: v.string(),
  row: v.string(),
  number: v.union([v.number(), v.string()]),
})
export type TicketSeat = v.InferOutput<typeof TicketSeat>

export const TicketSeats = v.array(TicketSeat)

/** "Stalls, Row F, Seat 12" */
export const seatLine = (seat: { section: string; row: string; number: string | number }) =>
  `${seat.section}, Row ${seat.row}, Seat ${seat.number}`

/** the seats a ticket (or an order) carries; none for a ticket of an unseated type */
export function seatsOf(ticket: object): TicketSeat[] {
  const seats = (ticket as { seats?: unknown }).seats
  if (seats === undefined) return []
  const parsed = v.safeParse(TicketSeats, seats)
  return parsed.success ? parsed.output : []
}
