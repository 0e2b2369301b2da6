// A seated order's seats (issue 40), chosen before the provider is asked: the seats a buyer named,
// checked (one section, each on the map and free, no single seat stranded), or the best ones of a
// seated type for a quantity. The hold decides again, each seat free, under the event's lock.
import {
  type Box,
  NO_SEATS_TOGETHER,
  SEATS_TAKEN,
  type SeatLabel,
  SINGLE_SEAT_LEFT,
} from '../../contracts/seating.ts'
import type { TicketTypeRow } from '../catalog/queries.ts'
import { runLater, type Step, type StepQueries, wait } from '../db/store.ts'
import { conflict, invalid, seatsConflict } from '../errors.ts'
import { bestSeats, choiceWithoutSingle, type RowOfSeats, singlesLeft } from '../seating/best.ts'
import { type MapSeat, rowsOf, type SeatingQueries, seatInRow } from '../seating/queries.ts'

export const SEATS_NOT_ON_MAP = 'Some of the seats you chose are not on this event’s seat map.'
export const SEATS_OF_ONE_SECTION = 'Choose seats of one section at a time.'
export const SEATS_NOT_OF_TYPE = 'The seats you chose are not of that ticket type.'

const labelOf = (seat: MapSeat): SeatLabel => ({
  id: seat.id,
  section: seat.section,
  row: seat.row,
  number: seat.number,
})

/** rows read to choose the best seats from: the nearest the stage with room enough */
const CANDIDATE_ROWS = 4

/**
 * The rows a choice that strands a seat is compared with, at most: the likeliest few, then more
 * (a plan whose aisles split every run is not read whole, under the event's lock, at every hold).
 */
const ROWS_COMPARED = [CANDIDATE_ROWS, 64] as const

/**
 * The seats of the order and their ticket type on an event with a seat map (`plan`); null when the
 * order is not seated (no seats named, and the type named has no section on the map). `ownOrders`:
 * the buyer's unpaid holds of the event, which this checkout replaces (their seats count as free
 * for them).
 */
export async function seatsChosen(
  seating: Pick<SeatingQueries, 'named' | 'rowsNow' | 'rowsWithRun' | 'seatsOfHolds'>,
  eventId: string,
  plan: { stage: Box | null; sections: ReadonlyArray<{ ticketTypeId: string }> },
  types: readonly TicketTypeRow[],
  ticketType: string | undefined,
  ids: readonly string[] | undefined,
  ownOrders: readonly Hold[],
  /** the holds of a type past their deadline, not yet released: their seats are given back */
  lapsedOrders: (ticketTypeId: string) => Promise<readonly Hold[]> = async () => [],
): Promise<{ ticketType: TicketTypeRow; seats: SeatLabel[] | null } | null> {
  const named = (t: TicketTypeRow) =>
    ticketType !== undefined && (t.id === ticketType || t.type.toLowerCase() === ticketType.toLowerCase())
  if (!ids) {
    // the best seats are chosen under the event's lock, by the hold (bestSeatsNow)
    const type = types.find(named)
    if (!type || !plan.sections.some((s) => s.ticketTypeId === type.id)) return null
    return { ticketType: type, seats: null }
  }
  const seats = await seating.named(eventId, ids)
  if (seats.length < ids.length)
    throw invalid(SEATS_NOT_ON_MAP, [{ field: 'seats', message: SEATS_NOT_ON_MAP }])
  const typeIds = new Set(seats.map((s) => s.ticketTypeId))
  if (typeIds.size > 1)
    throw invalid(SEATS_OF_ONE_SECTION, [{ field: 'seats', message: SEATS_OF_ONE_SECTION }])
  const type = types.find((t) => typeIds.has(t.id))
  if (!type) throw invalid(SEATS_NOT_ON_MAP, [{ field: 'seats', message: SEATS_NOT_ON_MAP }])
  if (ticketType !== undefined && !named(type))
    throw invalid(SEATS_NOT_OF_TYPE, [{ field: 'ticketType', message: SEATS_NOT_OF_TYPE }])
  // Whether the choice strands a single seat is decided by the hold, under the event's lock
  // (strandsNow): decided here alone, two buyers choosing at once could each leave one seat
  // beside the other's. It is looked at here first too, as the rows are now with the buyer's own
  // held seats free: a choice refused by them is refused before the checkout goes on (its hourly
  // budget, the payment provider's order, the release of the buyer's last hold).
  /** why the choice is refused with the seats of `freeOrders` free, if it is */
  const refusal = async (freeOrders: readonly Hold[]) => {
    const orderIds = new Set(freeOrders.map((o) => o.id))
    const taken = seats.filter((s) => !isFreeFor(s, orderIds)).map((s) => s.id)
    if (taken.length > 0) return seatsConflict(SEATS_TAKEN, taken)
    const freeSeats = freeOrders.length > 0 ? await seating.seatsOfHolds(freeOrders) : new Set<string>()
    return (await runLater(strandsNow(seating, eventId, type.id, seats, freeSeats)))
      ? conflict(SINGLE_SEAT_LEFT)
      : null
  }
  const refused = await refusal(ownOrders)
  if (refused) {
    // a hold past its deadline still holds its seats until it is released (the hold releases it)
    const lapsed = await lapsedOrders(type.id)
    if (lapsed.length === 0) throw refused
    const still = await refusal([...ownOrders, ...lapsed])
    if (still) throw still
  }
  return { ticketType: type, seats: seats.map(labelOf) }
}

/** an unpaid hold, with the seats it named (orders.seats_held) */
type Hold = { id: string; seatsHeld: string | null }

/** free, or held by one of `orders` (the buyer's own last hold, a lapsed one) */
const isFreeFor = (seat: MapSeat, orders: ReadonlySet<string>) =>
  seat.status === 'free' || (seat.status === 'held' && seat.orderId !== null && orders.has(seat.orderId))

/**
 * Whether named seats would leave a single seat between taken ones or at a row's end, when a choice
 * of as many seats without one exists, as the rows are now: read in the hold's transaction under
 * the event's lock, once the buyer's last hold gave its own seats back. Two buyers choosing at once
 * are decided one after the other, the second against the first's seats (SINGLE_SEAT_LEFT).
 */
export function* strandsNow(
  seating: StepQueries<Pick<SeatingQueries, 'rowsNow' | 'rowsWithRun'>>,
  eventId: string,
  ticketTypeId: string,
  chosen: ReadonlyArray<{ id: string; row: string }>,
  /** seats that count as free (the buyer's own last hold's, before the hold gives it back) */
  freeSeats: ReadonlySet<string> = new Set(),
  /** the chosen seats' rows as they are now, when already read (namedNow) */
  read?: RowOfSeats[],
): Step<boolean> {
  const n = chosen.length
  const ids = new Set(chosen.map((seat) => seat.id))
  // the chosen seats' rows first: a choice that leaves no seat alone there is never refused, and
  // no other row need be read
  const own = [...new Set(chosen.map((seat) => seat.row))]
  const chosenRows = read ?? (yield* wait(seating.rowsNow(eventId, ticketTypeId, own, freeSeats)))
  if (singlesLeft(chosenRows, ids).length === 0) return false
  // it leaves one: refused when a choice leaving none exists, in these rows or in the rows where as
  // many seats side by side may fit, the likeliest first: the first few, then more when an aisle
  // splits all of those (the record that finds them knows no aisles)
  if (choiceWithoutSingle(chosenRows, n)) return true
  const seen = new Set(own)
  for (const limit of ROWS_COMPARED) {
    const found = yield* wait(seating.rowsWithRun(eventId, ticketTypeId, n, limit))
    const near = found.filter((label) => !seen.has(label))
    for (const label of near) seen.add(label)
    if (choiceWithoutSingle(yield* wait(seating.rowsNow(eventId, ticketTypeId, near, freeSeats)), n))
      return true
    if (found.length < limit) break
  }
  return false
}

/**
 * The best `n` seats of a seated type as they are now, read in the hold's transaction under the
 * event's lock (so buyers asking at once never pick the same ones): from the rows nearest the stage
 * with room for all of them, else the best split from the whole section.
 */
export function* bestSeatsNow(
  seating: StepQueries<Pick<SeatingQueries, 'placesOf' | 'section' | 'roomNow'>>,
  eventId: string,
  ticketTypeId: string,
  n: number,
  stage: Box | null,
): Step<SeatLabel[]> {
  const room = yield* wait(seating.roomNow(eventId, ticketTypeId, n, CANDIDATE_ROWS))
  if (room.version === null) {
    // no row has room for all of them: the best split, from the whole section
    const section = yield* wait(seating.section(eventId, ticketTypeId))
    const best = bestSeats(rowsOf(section), n, stage)
    if (!best) throw conflict(NO_SEATS_TOGETHER)
    return inPlanOrder([{ seats: section.map((seat, ord) => ({ ...seat, ord })) }], best)
  }
  // the rows with room: their places kept per plan version, each seat free or not as its row's
  // record has it now (a character a seat, at its slot)
  const records = new Map<string, string>()
  for (const row of room.rows) records.set(row.label, row.taken)
  const read = yield* wait(seating.placesOf(eventId, ticketTypeId, room.version, [...records.keys()]))
  const rows: RowOfSeats[] = []
  for (const row of read) {
    const record = records.get(row.label) ?? ''
    const seats: RowOfSeats['seats'] = []
    for (const seat of row.seats) {
      // free only as the record says: a seat it does not name is not offered
      seats.push({ id: seat.id, x: seat.x, y: seat.y, status: seatInRow(record, seat.slot) })
    }
    rows.push({ label: row.label, seats })
  }
  const best = bestSeats(rows, n, stage)
  if (!best) throw conflict(NO_SEATS_TOGETHER)
  return inPlanOrder(read, best)
}

/** the seats of `ids` in the plan's order, as a named choice is: admission n is the order's n-th seat everywhere */
function inPlanOrder(
  rows: ReadonlyArray<{ seats: ReadonlyArray<SeatLabel & { ord: number }> }>,
  ids: readonly string[],
): SeatLabel[] {
  const chosen = new Set(ids)
  const picked: Array<SeatLabel & { ord: number }> = []
  for (const row of rows) for (const seat of row.seats) if (chosen.has(seat.id)) picked.push(seat)
  picked.sort((a, b) => a.ord - b.ord)
  return picked.map((seat) => ({ id: seat.id, section: seat.section, row: seat.row, number: seat.number }))
}
