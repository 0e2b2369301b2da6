// Which seats of a section sit side by side: runs of free seats in a row, broken by taken or
// blocked seats, the row's ends and its aisles. What best.ts reads a section through.
import type { SeatStatus } from '../../contracts/seating.ts'

export type RowOfSeats = {
  label: string
  /** in the row's order */
  seats: Array<{ id: string; x: number; y: number; status: SeatStatus }>
}
export type SeatOfRow = RowOfSeats['seats'][number]

/** a stretch of free seats side by side in one row: seats [start, end) of rows[row] */
export type Run = { row: number; start: number; end: number }

/**
 * The widest gap in x between two seats still side by side: half again the row's usual gap between
 * consecutive seats, so an aisle, however the plan is scaled, is any wider gap. The usual gap is the
 * narrowest when at least half the gaps are within half again of it (a plan's rows, whatever their
 * aisles), else the lower median of the gaps: one seat moved a little towards its neighbour does not
 * make every ordinary gap of its row an aisle, and the row a line of single seats.
 */
function widestNeighbourGap(seats: SeatOfRow[]): number {
  let narrowest = Number.POSITIVE_INFINITY
  for (let i = 1; i < seats.length; i++) {
    const gap = Math.abs((seats[i] as SeatOfRow).x - (seats[i - 1] as SeatOfRow).x)
    if (gap > 0 && gap < narrowest) narrowest = gap
  }
  if (narrowest === Number.POSITIVE_INFINITY) return narrowest
  const gapAt = (i: number) => Math.abs((seats[i] as SeatOfRow).x - (seats[i - 1] as SeatOfRow).x)
  let counted = 0
  let wider = 0
  for (let i = 1; i < seats.length; i++) {
    const gap = gapAt(i)
    if (gap > 0) counted++
    if (gap > 1.5 * narrowest) wider++
  }
  if (2 * wider <= counted) return 1.5 * narrowest
  const gaps: number[] = []
  for (let i = 1; i < seats.length; i++) if (gapAt(i) > 0) gaps.push(gapAt(i))
  gaps.sort((a, b) => a - b)
  return 1.5 * (gaps[(gaps.length - 1) >> 1] as number)
}

/** The runs of one row's seats that `isFree` takes for free, added to `into` in the row's order. */
function addRunsOfRow(rows: RowOfSeats[], r: number, isFree: (seat: SeatOfRow) => boolean, into: Run[]) {
  const seats = (rows[r] as RowOfSeats).seats
  const widest = widestNeighbourGap(seats)
  let start = -1
  for (let i = 0; i < seats.length; i++) {
    const seat = seats[i] as SeatOfRow
    const free = isFree(seat)
    const joined = free && start >= 0 && Math.abs(seat.x - (seats[i - 1] as SeatOfRow).x) <= widest
    if (start >= 0 && !joined) {
      into.push({ row: r, start, end: i })
      start = -1
    }
    if (free && start < 0) start = i
  }
  if (start >= 0) into.push({ row: r, start, end: seats.length })
}

/** The runs of free seats of the given rows (all by default), in row order. */
export function freeRuns(
  rows: RowOfSeats[],
  isFree: (seat: SeatOfRow) => boolean = (seat) => seat.status === 'free',
  only?: Iterable<number>,
): Run[] {
  const runs: Run[] = []
  if (only) for (const r of only) addRunsOfRow(rows, r, isFree, runs)
  else for (let r = 0; r < rows.length; r++) addRunsOfRow(rows, r, isFree, runs)
  return runs
}

/** Whether n seats side by side fit in a run of `length` without leaving one seat of it alone. */
export const fitsWithoutSingle = (length: number, n: number) => length === n || length >= n + 2

/**
 * The free seats that taking `chosen` leaves on their own (a single free seat between taken or
 * blocked seats, a row's end or an aisle) and that were not already alone before. In row order.
 *
 * Only a chosen seat's neighbour can be left alone by the choice: a seat is alone when neither seat
 * beside it (within the row's widest gap) is free, and only chosen seats change. So each touched
 * row's gap is measured once and the chosen seats' neighbours alone are looked at, not the row's
 * runs (a stadium's row has 250 seats; a choice has a few). The same as freeRuns' runs of one seat.
 */
export function singlesLeft(rows: RowOfSeats[], chosen: ReadonlySet<string>): string[] {
  const left: string[] = []
  for (const row of rows) {
    const seats = row.seats
    const places: number[] = []
    for (let i = 0; i < seats.length; i++) if (chosen.has((seats[i] as SeatOfRow).id)) places.push(i)
    if (places.length === 0) continue
    const widest = widestNeighbourGap(seats)
    const seat = (i: number) => seats[i] as SeatOfRow
    /** the seat beside i on that side (-1 or +1) when side by side with it, else -1 */
    const beside = (i: number, side: -1 | 1) => {
      const j = i + side
      return j >= 0 && j < seats.length && Math.abs(seat(j).x - seat(i).x) <= widest ? j : -1
    }
    const freeBefore = (i: number) => i >= 0 && seat(i).status === 'free'
    const freeAfter = (i: number) => freeBefore(i) && !chosen.has(seat(i).id)
    // the chosen seats' neighbours, in the row's order, each once
    const candidates = [...new Set(places.flatMap((i) => [i - 1, i + 1]))]
      .filter((i) => i >= 0 && i < seats.length)
      .sort((a, b) => a - b)
    for (const candidate of candidates) {
      if (!freeAfter(candidate)) continue
      const before = beside(candidate, -1)
      const after = beside(candidate, 1)
      // alone once the choice is taken, and not alone before it
      if (!freeAfter(before) && !freeAfter(after) && (freeBefore(before) || freeBefore(after)))
        left.push(seat(candidate).id)
    }
  }
  return left
}
