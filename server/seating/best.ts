// Which free seats of a section to offer together (issue 40), and when a buyer's own choice strands
// a single empty seat nobody will buy. Linear passes over runs of free seats: a stadium's section
// of 50,000 seats is answered within a request.
import type { Box, SeatStatus } from '../../contracts/seating.ts'

export type RowOfSeats = {
  label: string
  /** in the row's order */
  seats: Array<{ id: string; x: number; y: number; status: SeatStatus }>
}

/**
 * Whether each seat of the row sits next to the following one. Consecutive seats are apart across
 * an aisle: a gap in x more than half again the row's narrowest gap between seats.
 */
function nextToNext(row: RowOfSeats): boolean[] {
  const { seats } = row
  let narrowest = Number.POSITIVE_INFINITY
  for (let i = 1; i < seats.length; i++) {
    const gap = Math.abs((seats[i]?.x ?? 0) - (seats[i - 1]?.x ?? 0))
    if (gap > 0 && gap < narrowest) narrowest = gap
  }
  const beside: boolean[] = []
  for (let i = 0; i + 1 < seats.length; i++) {
    const gap = Math.abs((seats[i + 1]?.x ?? 0) - (seats[i]?.x ?? 0))
    beside.push(gap <= 1.5 * narrowest)
  }
  return beside
}

/** a stretch of free seats side by side in one row: seats [start, end) of rows[row] */
type Run = { row: number; start: number; end: number }

function freeRuns(rows: RowOfSeats[], isFree: (row: number, seat: number) => boolean): Run[] {
  const runs: Run[] = []
  rows.forEach((row, r) => {
    const beside = nextToNext(row)
    let start = -1
    for (let i = 0; i <= row.seats.length; i++) {
      const free = i < row.seats.length && isFree(r, i)
      const joined = free && start >= 0 && beside[i - 1] === true
      if (start >= 0 && !joined) {
        runs.push({ row: r, start, end: i })
        start = -1
      }
      if (free && start < 0) start = i
    }
  })
  return runs
}

/** the free seats with no free neighbour on either side */
function loneSeats(rows: RowOfSeats[], isFree: (row: number, seat: number) => boolean): Set<string> {
  const lone = new Set<string>()
  for (const run of freeRuns(rows, isFree)) {
    if (run.end - run.start === 1) lone.add(rows[run.row]?.seats[run.start]?.id ?? '')
  }
  return lone
}

/**
 * The free seats that taking `chosen` leaves on their own (a single free seat between taken or
 * blocked seats, a row's end or an aisle) and that were not already alone before. In row order.
 */
export function singlesLeft(rows: RowOfSeats[], chosen: ReadonlySet<string>): string[] {
  const freeBefore = (r: number, i: number) => rows[r]?.seats[i]?.status === 'free'
  const freeAfter = (r: number, i: number) => freeBefore(r, i) && !chosen.has(rows[r]?.seats[i]?.id ?? '')
  const before = loneSeats(rows, freeBefore)
  return [...loneSeats(rows, freeAfter)].filter((id) => !before.has(id))
}

/** Whether n seats side by side fit in a run of `length` without leaving one seat of it alone. */
const fitsWithoutSingle = (length: number, n: number) => length === n || length >= n + 2

/**
 * How good a group of seats is: lower is better. Distances are counted in rows (the section's
 * narrowest gap between rows' y) and seats (its narrowest gap between seats' x); each row further
 * from the stage weighs as two seats further from its centre line, so the middle of the second row
 * beats the far end of the first, yet the front rows still go first for most of their width.
 */
const ROW_WEIGHT = 2

type Geometry = { centreX: number; front: (y: number) => number; seatPitch: number; rowPitch: number }

function geometryOf(rows: RowOfSeats[], stage: Box | null): Geometry {
  let minX = Number.POSITIVE_INFINITY
  let maxX = Number.NEGATIVE_INFINITY
  let minY = Number.POSITIVE_INFINITY
  let seatPitch = Number.POSITIVE_INFINITY
  const rowYs: number[] = []
  for (const row of rows) {
    let sumY = 0
    row.seats.forEach((seat, i) => {
      minX = Math.min(minX, seat.x)
      maxX = Math.max(maxX, seat.x)
      minY = Math.min(minY, seat.y)
      sumY += seat.y
      const gap = i > 0 ? Math.abs(seat.x - (row.seats[i - 1]?.x ?? seat.x)) : 0
      if (gap > 0) seatPitch = Math.min(seatPitch, gap)
    })
    if (row.seats.length > 0) rowYs.push(sumY / row.seats.length)
  }
  rowYs.sort((a, b) => a - b)
  let rowPitch = Number.POSITIVE_INFINITY
  for (let i = 1; i < rowYs.length; i++) {
    const gap = (rowYs[i] ?? 0) - (rowYs[i - 1] ?? 0)
    if (gap > 0) rowPitch = Math.min(rowPitch, gap)
  }
  // a stage above the seats or below them: the distance to its nearer edge
  const front = stage
    ? (y: number) => Math.max(stage.y - y, y - (stage.y + stage.h), 0)
    : (y: number) => y - minY
  return {
    centreX: stage ? stage.x + stage.w / 2 : (minX + maxX) / 2,
    front,
    seatPitch: Number.isFinite(seatPitch) ? seatPitch : 1,
    rowPitch: Number.isFinite(rowPitch) ? rowPitch : 1,
  }
}

/** a candidate group: seats [start, start + size) of rows[row], and its score */
type Group = { row: number; start: number; size: number; score: number }

/**
 * The best group of `size` seats side by side within the runs, by `scoreOf`; with `noSingle` only
 * groups that leave no run with one seat. Ties go to the earlier row, then the earlier seat.
 */
function bestGroup(
  rows: RowOfSeats[],
  runs: Run[],
  size: number,
  noSingle: boolean,
  scoreOf: (row: RowOfSeats, first: number, last: number) => number,
): Group | null {
  let best: Group | null = null
  for (const run of runs) {
    const length = run.end - run.start
    if (length < size || (noSingle && !fitsWithoutSingle(length, size))) continue
    const row = rows[run.row] as RowOfSeats
    for (let start = run.start; start + size <= run.end; start++) {
      const before = start - run.start
      const after = run.end - start - size
      if (noSingle && (before === 1 || after === 1)) continue
      const score = scoreOf(row, start, start + size - 1)
      if (
        best === null ||
        score < best.score ||
        (score === best.score && (run.row < best.row || (run.row === best.row && start < best.start)))
      ) {
        best = { row: run.row, start, size, score }
      }
    }
  }
  return best
}

const idsOf = (rows: RowOfSeats[], group: Group) =>
  (rows[group.row] as RowOfSeats).seats.slice(group.start, group.start + group.size).map((seat) => seat.id)

/**
 * The best n free seats of a section: n side by side in one row leaving no single seat, nearest
 * the stage and its centre line; else n side by side even if one is left alone; else split into
 * as few groups as the runs allow, each as large as it can be, the later ones near the first.
 * Null when the section has fewer than n free seats.
 */
export function bestSeats(rows: RowOfSeats[], n: number, stage: Box | null): string[] | null {
  if (n <= 0) return []
  const runs = freeRuns(rows, (r, i) => rows[r]?.seats[i]?.status === 'free')
  const free = runs.reduce((sum, run) => sum + run.end - run.start, 0)
  if (free < n) return null

  const geometry = geometryOf(rows, stage)
  const centreOf = (row: RowOfSeats, first: number, last: number) => {
    const a = row.seats[first] as RowOfSeats['seats'][number]
    const b = row.seats[last] as RowOfSeats['seats'][number]
    return { x: (a.x + b.x) / 2, y: (a.y + b.y) / 2 }
  }
  const fromStage = (row: RowOfSeats, first: number, last: number) => {
    const { x, y } = centreOf(row, first, last)
    return (
      (ROW_WEIGHT * geometry.front(y)) / geometry.rowPitch +
      Math.abs(x - geometry.centreX) / geometry.seatPitch
    )
  }

  const together = bestGroup(rows, runs, n, true, fromStage) ?? bestGroup(rows, runs, n, false, fromStage)
  if (together) return idsOf(rows, together)

  // no run holds n: the largest group first, then what is left, each near the first group
  let left = runs
  const chosen: string[] = []
  let first: { x: number; y: number } | null = null
  while (chosen.length < n) {
    const largest = left.reduce((most, run) => Math.max(most, run.end - run.start), 0)
    const size = Math.min(n - chosen.length, largest)
    const anchor = first
    const score = (row: RowOfSeats, a: number, b: number) => {
      if (anchor === null) return fromStage(row, a, b)
      const { x, y } = centreOf(row, a, b)
      const apart =
        (ROW_WEIGHT * Math.abs(y - anchor.y)) / geometry.rowPitch +
        Math.abs(x - anchor.x) / geometry.seatPitch
      return fromStage(row, a, b) + apart
    }
    const group = (bestGroup(rows, left, size, true, score) ??
      bestGroup(rows, left, size, false, score)) as Group
    first ??= centreOf(rows[group.row] as RowOfSeats, group.start, group.start + group.size - 1)
    chosen.push(...idsOf(rows, group))
    // the group's run becomes what is left of it on either side
    left = left.flatMap((run) =>
      run.row === group.row && run.start <= group.start && group.start < run.end
        ? [
            { row: run.row, start: run.start, end: group.start },
            { row: run.row, start: group.start + group.size, end: run.end },
          ].filter((part) => part.end > part.start)
        : [run],
    )
  }
  return chosen
}

/**
 * Refuses a buyer's own seats that leave a single empty seat, unless the section offers no n seats
 * side by side that leave none: then stranding one is the only way to seat them.
 */
export function selectionRefusal(
  rows: RowOfSeats[],
  chosen: ReadonlySet<string>,
  n: number = chosen.size,
): null | { reason: 'single' } {
  if (singlesLeft(rows, chosen).length === 0) return null
  const runs = freeRuns(rows, (r, i) => rows[r]?.seats[i]?.status === 'free')
  const otherwise = runs.some((run) => fitsWithoutSingle(run.end - run.start, n))
  return otherwise ? { reason: 'single' } : null
}
