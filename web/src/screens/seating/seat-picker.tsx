// The buyer's seat picker on the event page (issue 40): the event's seat map, live (watching
// `seats-<eventId>`, joined before the map is read; each change set in the cached map: live/follow.ts), each section's price, the
// seats chosen with their total, Book seats (the booking page with those seats) and Best available
// (a section and a number of seats: the booking page asks the server for the best ones). An event
// without a seat map shows nothing here: its tickets are booked by count.
import { useQuery } from '@tanstack/react-query'
import { useNavigate } from '@tanstack/react-router'
import { type FormEvent, useEffect, useId, useMemo, useState } from 'react'
import type { EventView } from '../../../../contracts/catalog.ts'
import { MAX_SEATS_PER_ORDER, type SeatMapView } from '../../../../contracts/seating.ts'
import { myWaitlistQuery } from '../../api/queries.ts'
import { seatMapQuery } from '../../api/seating.ts'
import { useSeatMapRoom } from '../../live/use-seat-room.ts'
import { useSession } from '../../session/use-session.ts'
import { formatRupees } from '../../ui/rupees.ts'
import { seatLine } from '../../ui/seat-label.ts'
import { SeatKey, SeatPlan } from './seat-plan.tsx'
import {
  inPlanOrder,
  keepFree,
  noSelection,
  type OnSale,
  onSaleTo,
  pickedSeat,
  type Selection,
  selectionTexts,
  selectionTotal,
  toggleSelection,
} from './seat-selection.ts'

export const pickerTexts = {
  heading: 'Choose your seats',
  grid: 'Seat map',
  yourSeats: 'Your seats',
  none: 'No seats chosen yet: choose free seats on the map, or ask for the best available.',
  book: 'Book seats',
  best: 'Best available',
  taken: 'A seat you chose has just been taken by someone else, and was taken out of your choice.',
  takenSeats: (count: number) =>
    `${count} seats you chose have just been taken by someone else, and were taken out of your choice.`,
  kept: (count: number) => `(${count} kept for the waiting list)`,
} as const

/**
 * The event's seat map when it has one; `bookable`: its seats can be booked now. What each ticket
 * type has on sale to this buyer is the event's live count, and the seats its waiting list offers
 * them: free seats beyond that are kept for the waiting list.
 */
export function EventSeating({ event, bookable }: { event: EventView; bookable: boolean }) {
  // the room joined first, the map read after: one read of it (use-seat-room.ts)
  const readable = useSeatMapRoom(event._id)
  // kept current by the room once read after its join; read again when joined anew (a reconnection)
  const map = useQuery({ ...seatMapQuery(event._id), enabled: readable, staleTime: Number.POSITIVE_INFINITY })
  const { user } = useSession()
  const mine = useQuery({ ...myWaitlistQuery(), enabled: user !== null })
  const onSale = useMemo(() => onSaleTo(event, mine.data ?? []), [event, mine.data])
  // none (or not read): the event is booked by count, as ever
  if (!map.data) return null
  return <SeatPicker map={map.data} bookable={bookable} onSale={onSale} />
}

function SeatPicker({ map, bookable, onSale }: { map: SeatMapView; bookable: boolean; onSale: OnSale }) {
  const navigate = useNavigate()
  const [selection, setSelection] = useState<Selection>(noSelection)
  const [note, setNote] = useState<string | null>(null)

  // a seat taken meanwhile leaves the choice, and the buyer is told
  useEffect(() => {
    const kept = keepFree(selection, map)
    if (kept === selection) return
    setSelection(kept)
    const gone = selection.ids.length - kept.ids.length
    setNote(gone > 1 ? pickerTexts.takenSeats(gone) : pickerTexts.taken)
  }, [map, selection])

  const selected = useMemo(() => new Set(selection.ids), [selection])
  // listed in the plan's order, however they were chosen
  const picked = inPlanOrder(map, selection.ids).flatMap((id) => {
    const seat = pickedSeat(map, id)
    return seat ? [seat] : []
  })

  const activate = (id: string) => {
    const next = toggleSelection(selection, map, id, MAX_SEATS_PER_ORDER, onSale)
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
      <SectionPrices map={map} onSale={onSale} />
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
      {bookable && <BestAvailable map={map} onSale={onSale} />}
    </section>
  )
}

type Row = SeatMapView['sections'][number]['rows'][number]

/** each row's free seats, counted once per row: a live change makes new objects of its rows only */
const freeInRow = new WeakMap<Row, number>()

function freeSeats(row: Row): number {
  let free = freeInRow.get(row)
  if (free === undefined) {
    free = 0
    for (const seat of row.seats) if (seat.status === 'free') free += 1
    freeInRow.set(row, free)
  }
  return free
}

/** each section's price and free seats now: those on sale to the buyer, the rest kept for its
 * waiting list */
function SectionPrices({ map, onSale }: { map: SeatMapView; onSale: OnSale }) {
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
            <td>
              <FreeSeats free={free[s] ?? 0} onSale={onSale.get(section.ticketTypeId)} />
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  )
}

/** a section's free seats, and how many of them its waiting list keeps */
function FreeSeats({ free, onSale = free }: { free: number; onSale?: number | undefined }) {
  const kept = free - Math.max(0, Math.min(free, onSale))
  if (kept === 0) return <>{free}</>
  return (
    <>
      {free - kept} <span className="seat-kept">{pickerTexts.kept(kept)}</span>
    </>
  )
}

/** a section and a number of seats: the server picks the best ones together */
function BestAvailable({ map, onSale }: { map: SeatMapView; onSale: OnSale }) {
  const navigate = useNavigate()
  const id = useId()
  const [section, setSection] = useState(map.sections[0]?.name ?? '')
  const [quantity, setQuantity] = useState('2')
  const chosen = map.sections.find((each) => each.name === section) ?? map.sections[0]
  const count = Number(quantity)
  const forSale = chosen ? (onSale.get(chosen.ticketTypeId) ?? Number.POSITIVE_INFINITY) : 0
  const kept = chosen !== undefined && forSale <= 0
  const few = !kept && Number.isInteger(count) && count > forSale
  const countValid = Number.isInteger(count) && count >= 1 && count <= MAX_SEATS_PER_ORDER
  const valid = countValid && !kept && !few
  // why the button is off, said beside it and read with the field and the button
  const hint = !chosen
    ? null
    : kept
      ? selectionTexts.keptForWaitlist(chosen.name)
      : few
        ? selectionTexts.fewOnSale(chosen.name, forSale)
        : null
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
          aria-invalid={!countValid || few}
          aria-describedby={hint ? `${id}-hint` : undefined}
          onChange={(change) => setQuantity(change.target.value)}
        />
      </div>
      <button
        type="submit"
        className="button-secondary"
        disabled={!valid}
        aria-describedby={hint ? `${id}-hint` : undefined}
      >
        {pickerTexts.best}
      </button>
      <p id={`${id}-hint`} className="form-hint" role="status">
        {hint}
      </p>
    </form>
  )
}
