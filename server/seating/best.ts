// Which free seats of a section to offer together (issue 40), and when a buyer's own choice strands
// a single empty seat nobody will buy. Linear passes over runs of free seats: a stadium's section
// of 50,000 seats is answered within a request.
import type { Box } from '../../contracts/seating.ts'
import {
  fitsWithoutSingle,
  freeRuns,
  type RowOfSeats,
  type Run,
  type SeatOfRow,
  singlesLeft,
} from './runs.ts'

export { type RowOfSeats, singlesLeft }

/**
 * How good a group of seats is: lower is better. Distances are counted in rows (the section's
 * narrowest gap between rows' y) and seats (its narrowest gap between seats' x); each row further
 * from the stage weighs as two seats further from its centre line, so the middle of the second row
 * beats the far end of the first, yet the front rows still go first for most of their width.
 */
const ROW_WEIGHT = 2

/** where the section's rows stand: what scores a group of seats, and bounds a row's scores */
type Geometry = {
  centreX: number
  seatPitch: number
  rowPitch: number
  /** the distance of a y from the stage's nearer edge (from the front row's, without a stage) */
  front: (y: number) => number
  /** each row's least and greatest y (a row may curve) */
  rowLo: number[]
  rowHi: number[]
  /** the least distance from the stage of a y in [lo, hi] */
  frontOfSpan: (lo: number, hi: number) => number
}

function geometryOf(rows: RowOfSeats[], stage: Box | null): Geometry {
  let minX = Number.POSITIVE_INFINITY
  let maxX = Number.NEGATIVE_INFINITY
  let seatPitch = Number.POSITIVE_INFINITY
  const rowLo: number[] = []
  const rowHi: number[] = []
  for (const row of rows) {
    let lo = Number.POSITIVE_INFINITY
    let hi = Number.NEGATIVE_INFINITY
    for (let i = 0; i < row.seats.length; i++) {
      const seat = row.seats[i] as SeatOfRow
      if (seat.x < minX) minX = seat.x
      if (seat.x > maxX) maxX = seat.x
      if (seat.y < lo) lo = seat.y
      if (seat.y > hi) hi = seat.y
      const gap = i > 0 ? Math.abs(seat.x - (row.seats[i - 1] as SeatOfRow).x) : 0
      if (gap > 0 && gap < seatPitch) seatPitch = gap
    }
    rowLo.push(lo)
    rowHi.push(hi)
  }
  const mids: number[] = []
  for (let r = 0; r < rows.length; r++) {
    if (rows[r]?.seats.length) mids.push(((rowLo[r] ?? 0) + (rowHi[r] ?? 0)) / 2)
  }
  mids.sort((a, b) => a - b)
  let rowPitch = Number.POSITIVE_INFINITY
  for (let i = 1; i < mids.length; i++) {
    const gap = (mids[i] as number) - (mids[i - 1] as number)
    if (gap > 0 && gap < rowPitch) rowPitch = gap
  }
  const minY = rowLo.reduce((least, lo) => Math.min(least, lo), Number.POSITIVE_INFINITY)
  // a stage above the seats or below them: the distance to its nearer edge
  const front = stage
    ? (y: number) => Math.max(stage.y - y, y - (stage.y + stage.h), 0)
    : (y: number) => y - minY
  const frontOfSpan = stage
    ? (lo: number, hi: number) => Math.max(stage.y - hi, lo - (stage.y + stage.h), 0)
    : (lo: number) => lo - minY
  return {
    centreX: stage ? stage.x + stage.w / 2 : (minX + maxX) / 2,
    seatPitch: Number.isFinite(seatPitch) ? seatPitch : 1,
    rowPitch: Number.isFinite(rowPitch) ? rowPitch : 1,
    front,
    rowLo,
    rowHi,
    frontOfSpan,
  }
}

/** a group of seats [start, start + size) of rows[row], taken from `run`, and its score */
type Group = { run: Run; row: number; start: number; size: number; score: number }

/** a group's place: the midpoint of its end seats */
type Point = { x: number; y: number }

/**
 * How a search ranks groups: a group's score by its midpoint; no group of row r scores below
 * floor[r]; the rows by their floor, lowest first (sorted once, read by every search).
 */
type Ranking = { score: (x: number, y: number) => number; floor: number[]; order: number[] }

const ranking = (score: Ranking['score'], floor: number[]): Ranking => ({
  score,
  floor,
  order: floor.map((_, r) => r).sort((a, b) => (floor[a] as number) - (floor[b] as number) || a - b),
})

/**
 * The best group of `size` seats side by side within the runs (by row): the best that leaves no
 * run with one seat, else the best of all. Ties go to the earlier row, then the earlier seat. Rows
 * are read from the lowest floor up, and no further once a floor exceeds the best found: in a
 * stadium's section only the rows near the best are read.
 */
function bestGroup(rows: RowOfSeats[], runsByRow: Run[][], size: number, by: Ranking): Group | null {
  const { score: scoreOf, floor, order } = by
  let leavingNone: Group | null = null
  let any: Group | null = null
  const beats = (score: number, row: number, start: number, best: Group | null) =>
    best === null ||
    score < best.score ||
    (score === best.score && (row < best.row || (row === best.row && start < best.start)))
  for (const r of order) {
    // a group that strands a seat is taken only when none avoids it: until one does, read on
    if (leavingNone !== null && (floor[r] as number) > leavingNone.score) break
    const seats = (rows[r] as RowOfSeats).seats
    for (const run of runsByRow[r] as Run[]) {
      for (let start = run.start; start + size <= run.end; start++) {
        const a = seats[start] as SeatOfRow
        const b = seats[start + size - 1] as SeatOfRow
        const score = scoreOf((a.x + b.x) / 2, (a.y + b.y) / 2)
        if (beats(score, r, start, any)) any = { run, row: r, start, size, score }
        const strands = start - run.start === 1 || run.end - start - size === 1
        if (!strands && beats(score, r, start, leavingNone)) leavingNone = { run, row: r, start, size, score }
      }
    }
  }
  return leavingNone ?? any
}

const idsOf = (rows: RowOfSeats[], group: Group) =>
  (rows[group.row] as RowOfSeats).seats.slice(group.start, group.start + group.size).map((seat) => seat.id)

const midpointOf = (rows: RowOfSeats[], group: Group): Point => {
  const seats = (rows[group.row] as RowOfSeats).seats
  const a = seats[group.start] as SeatOfRow
  const b = seats[group.start + group.size - 1] as SeatOfRow
  return { x: (a.x + b.x) / 2, y: (a.y + b.y) / 2 }
}

/**
 * The best n free seats of a section: n side by side in one row leaving no single seat, nearest
 * the stage and its centre line; else n side by side even if one is left alone; else split into
 * groups each as large as the runs left allow, the later ones near the first. Null when the
 * section has fewer than n free seats.
 */
export function bestSeats(rows: RowOfSeats[], n: number, stage: Box | null): string[] | null {
  if (n <= 0) return []
  const runsByRow: Run[][] = rows.map(() => [])
  let free = 0
  for (const run of freeRuns(rows)) {
    runsByRow[run.row]?.push(run)
    free += run.end - run.start
  }
  if (free < n) return null

  const { centreX, seatPitch, rowPitch, front, rowLo, rowHi, frontOfSpan } = geometryOf(rows, stage)
  const fromStage = (x: number, y: number) =>
    (ROW_WEIGHT * front(y)) / rowPitch + Math.abs(x - centreX) / seatPitch
  const stageFloor = rows.map((_, r) => (ROW_WEIGHT * frontOfSpan(rowLo[r] ?? 0, rowHi[r] ?? 0)) / rowPitch)
  const byStage = ranking(fromStage, stageFloor)

  const together = bestGroup(rows, runsByRow, n, byStage)
  if (together) return idsOf(rows, together)

  // no run holds n: the largest group first, then what is left, each near the first group
  const largest = (): number => {
    let most = 0
    for (const runs of runsByRow) for (const run of runs) most = Math.max(most, run.end - run.start)
    return most
  }
  const chosen: string[] = []
  const take = (group: Group) => {
    chosen.push(...idsOf(rows, group))
    // the group's run becomes what is left of it on either side
    const { run } = group
    runsByRow[group.row]?.push({ row: run.row, start: group.start + group.size, end: run.end })
    run.end = group.start
  }
  const first = bestGroup(rows, runsByRow, largest(), byStage) as Group
  take(first)
  const anchor = midpointOf(rows, first)
  const nearFirst = ranking(
    (x, y) =>
      fromStage(x, y) + (ROW_WEIGHT * Math.abs(y - anchor.y)) / rowPitch + Math.abs(x - anchor.x) / seatPitch,
    rows.map((_, r) => {
      const lo = rowLo[r] ?? 0
      const hi = rowHi[r] ?? 0
      const apart = Math.max(anchor.y - hi, lo - anchor.y, 0)
      return (stageFloor[r] as number) + (ROW_WEIGHT * apart) / rowPitch
    }),
  )
  while (chosen.length < n) {
    take(bestGroup(rows, runsByRow, Math.min(n - chosen.length, largest()), nearFirst) as Group)
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
  return choiceWithoutSingle(rows, n) ? { reason: 'single' } : null
}

/** Whether n seats side by side fit somewhere in these rows without leaving one seat alone. */
export const choiceWithoutSingle = (rows: RowOfSeats[], n: number) =>
  freeRuns(rows).some((run) => fitsWithoutSingle(run.end - run.start, n))
