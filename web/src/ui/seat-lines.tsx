// A seated ticket's seats, as its cards and its confirmation show them (issue 40): one line each,
// "Stalls, Row F, Seat 12". Tickets of unseated types carry none and show nothing more.
import { seatLine, seatsOf } from './seat-label.ts'

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
