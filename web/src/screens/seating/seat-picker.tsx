// The buyer's seat picker on the event page (issue 40): the event's seat map, live (watching
// `seats-<eventId>`, joined before the map is read; each change set in the cached map: live/follow.ts), each section's price, the
// seats chosen with their total, Book seats (the booking page with those seats) and Best available
// (a section and a number of seats: the booking page asks the server for the best ones). An event
// without a seat map shows nothing here: its tickets are booked by count.
import { useQuery } from '@tanstack/react-query'
import { useNavigate } from '@tanstack/react-router'
import { type FormEvent, useEffect, useId, useMemo, useState } from 'react'
import { MAX_SEATS_PER_ORDER, type SeatMapView } from '../../../../contracts/seating.ts'
import { seatMapQuery } from '../../api/seating.ts'
import { formatRupees } from '../../ui/rupees.ts'
import { seatLine } from '../../ui/seat-label.ts'
import { SeatKey, SeatPlan } from './seat-plan.tsx'
import {
  keepFree,
  noSelection,
  pickedSeat,
  type Selection,
  selectionTotal,
  toggleSelection,
} from './seat-selection.ts'
import { useSeatMapRoom } from './use-seat-room.ts'

export const pickerTexts = {
  heading: 'Choose your seats',
  grid: 'Seat map',
  yourSeats: 'Your seats',
  none: 'No seats chosen yet: choose free seats on the map, or ask for the best available.',
  book: 'Book seats',
  best: 'Best available',
  taken: 'A seat you chose has just been taken by someone else, and was taken out of your choice.',
} as const

/** the event's seat map when it has one; `bookable`: its seats can be booked now */
export function EventSeating({ eventId, bookable }: { eventId: string; bookable: boolean }) {
  // the room joined first, the map read after: one read of it (use-seat-room.ts)
  const readable = useSeatMapRoom(eventId)
  // kept current by the room once read after its join; read again when joined anew (a reconnection)
  const map = useQuery({ ...seatMapQuery(eventId), enabled: readable, staleTime: Number.POSITIVE_INFINITY })
  // none (or not read): the event is booked by count, as ever
  if (!map.data) return null
  return <SeatPicker map={map.data} bookable={bookable} />
}

function SeatPicker({ map, bookable }: { map: SeatMapView; bookable: boolean }) {
  const navigate = useNavigate()
  const [selection, setSelection] = useState<Selection>(noSelection)
  const [note, setNote] = useState<string | null>(null)

  // a seat taken meanwhile leaves the choice, and the buyer is told
  useEffect(() => {
    const kept = keepFree(selection, map)
    if (kept === selection) return
    setSelection(kept)
    setNote(pickerTexts.taken)
  }, [map, selection])

  const selected = useMemo(() => new Set(selection.ids), [selection])
  const picked = selection.ids.flatMap((id) => {
    const seat = pickedSeat(map, id)
    return seat ? [seat] : []
  })

  const activate = (id: string) => {
    const next = toggleSelection(selection, map, id)
    setSelection(next.selection)
    setNote(next.note)
  }

  const book = () => {
    if (picked.length === 0) return
    void navigate({
      to: '/booking/$id',
      params: { id: map.eventId },
      search: { seats: picked.map((seat) => seat.id) },
    })
  }

  return (
    <section className="seat-picker" aria-labelledby="seat-picker-heading">
      <h2 id="seat-picker-heading">{pickerTexts.heading}</h2>
      <SectionPrices map={map} />
      <SeatKey mode="buy" />
      <SeatPlan map={map} label={pickerTexts.grid} selected={selected} onActivate={activate} mode="buy" />
      <p className="form-hint" role="status">
        {note}
      </p>
      <section className="seat-choice" aria-labelledby="seat-choice-heading">
        <h3 id="seat-choice-heading">{pickerTexts.yourSeats}</h3>
        {picked.length === 0 ? (
          <p>{pickerTexts.none}</p>
        ) : (
          <ul>
            {picked.map((seat) => (
              <li key={seat.id}>
                <span>
                  {seatLine(seat)} · {formatRupees(seat.price)}
                </span>
                <button
                  type="button"
                  className="button-secondary"
                  aria-label={`Remove ${seatLine(seat)}`}
                  onClick={() => activate(seat.id)}
                >
                  Remove
                </button>
              </li>
            ))}
          </ul>
        )}
        <p className="seat-total" aria-live="polite">
          {picked.length === 1 ? '1 seat' : `${picked.length} seats`} · Total:{' '}
          {formatRupees(selectionTotal(picked))}
        </p>
        {bookable && (
          <button type="button" onClick={book} disabled={picked.length === 0}>
            {pickerTexts.book}
          </button>
        )}
      </section>
      {bookable && <BestAvailable map={map} />}
    </section>
  )
}

type Row = SeatMapView['sections'][number]['rows'][number]

/** each row's free seats, counted once per row: a live change makes new objects of its rows only */
const freeInRow = new WeakMap<Row, number>()

function freeSeats(row: Row): number {
  let free = freeInRow.get(row)
  if (free === undefined) {
    free = row.seats.filter((seat) => seat.status === 'free').length
    freeInRow.set(row, free)
  }
  return free
}

/** each section's price and free seats now */
function SectionPrices({ map }: { map: SeatMapView }) {
  const free = useMemo(
    () => map.sections.map((section) => section.rows.reduce((sum, row) => sum + freeSeats(row), 0)),
    [map],
  )
  return (
    <table className="seat-prices">
      <caption className="visually-hidden">Prices by section</caption>
      <thead>
        <tr>
          <th scope="col">Section</th>
          <th scope="col">Price</th>
          <th scope="col">Free seats</th>
        </tr>
      </thead>
      <tbody>
        {map.sections.map((section, s) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: sections keep their places in a plan
          <tr key={s}>
            <th scope="row">{section.name}</th>
            <td>{formatRupees(section.price)}</td>
            <td>{free[s]}</td>
          </tr>
        ))}
      </tbody>
    </table>
  )
}

/** a section and a number of seats: the server picks the best ones together */
function BestAvailable({ map }: { map: SeatMapView }) {
  const navigate = useNavigate()
  const id = useId()
  const [section, setSection] = useState(map.sections[0]?.name ?? '')
  const [quantity, setQuantity] = useState('2')
  const chosen = map.sections.find((each) => each.name === section) ?? map.sections[0]
  const count = Number(quantity)
  const valid = Number.isInteger(count) && count >= 1 && count <= MAX_SEATS_PER_ORDER
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    if (!chosen || !valid) return
    void navigate({
      to: '/booking/$id',
      params: { id: map.eventId },
      search: { ticketType: chosen.ticketType, quantity: count },
    })
  }
  return (
    <form className="seat-best" onSubmit={submit} aria-labelledby={`${id}-heading`}>
      <h3 id={`${id}-heading`} className="visually-hidden">
        {pickerTexts.best}
      </h3>
      <div className="field">
        <label htmlFor={`${id}-section`}>Section</label>
        <select id={`${id}-section`} value={section} onChange={(change) => setSection(change.target.value)}>
          {map.sections.map((each) => (
            <option key={each.name} value={each.name}>
              {`${each.name} - ${formatRupees(each.price)}`}
            </option>
          ))}
        </select>
      </div>
      <div className="field">
        <label htmlFor={`${id}-quantity`}>Number of seats</label>
        <input
          id={`${id}-quantity`}
          type="number"
          min={1}
          max={MAX_SEATS_PER_ORDER}
          step={1}
          value={quantity}
          aria-invalid={!valid}
          onChange={(change) => setQuantity(change.target.value)}
        />
      </div>
      <button type="submit" className="button-secondary" disabled={!valid}>
        {pickerTexts.best}
      </button>
    </form>
  )
}
