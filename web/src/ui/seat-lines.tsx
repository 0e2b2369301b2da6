// A seated ticket's seats, as its cards and its confirmation show them (issue 40): one line each,
// "Stalls, Row F, Seat 12". Tickets of unseated types carry none and show nothing more.
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

/** a seated ticket's seats as a definition list's entry (none for others) */
export function SeatFacts({ ticket }: { ticket: object }) {
  const seats = seatsOf(ticket)
  if (seats.length === 0) return null
  return (
    <>
      <dt>{seats.length === 1 ? 'Seat:' : 'Seats:'}</dt>
      <dd>
        <ul className="seat-lines">
          {seats.map((seat) => (
            <li key={seat.id ?? seatLine(seat)}>{seatLine(seat)}</li>
          ))}
        </ul>
      </dd>
    </>
  )
}
