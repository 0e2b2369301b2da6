// The seat grid's keyboard order (issue 40): rows in the plan's order (section by section), the
// seats of a row from left to right as drawn. Left and Right move along a row, Up and Down to the
// seat of the row before or after that is nearest across, Home and End to a row's ends, Ctrl+Home
// and Ctrl+End to the plan's first and last seat. Every seat can be reached, taken ones included,
// so that a screen reader can hear the whole plan.
import type { SeatMapView } from '../../../../contracts/seating.ts'

export type NavRow = { ids: string[]; xs: number[] }

export type SeatGridNav = {
  /** the grid's rows: the plan's rows that have seats */
  rowCount: number
  /** the plan's first seat in this order, and the section and row it is in */
  first: { id: string; section: number; row: number } | null
  /** a plan row's place in the grid (from 0), null for a row without seats */
  gridRowOf(section: number, row: number): number | null
  /** each grid row's seats from left to right (made when first asked for) */
  readonly rows: NavRow[]
  /** each seat's grid row and place in it (made when first asked for) */
  readonly at: Map<string, { row: number; seat: number }>
}

type NavPlan = {
  sections: ReadonlyArray<{
    rows: ReadonlyArray<{
      seats: ReadonlyArray<Pick<SeatMapView['sections'][number]['rows'][number]['seats'][number], 'id' | 'x'>>
    }>
  }>
}

/**
 * The plan's keyboard order. What a first drawing needs (the rows' count, the first seat, a row's
 * place) is found at once; each row's order and each seat's place in it, which a stadium's 50,000
 * seats make two big tables of, only once the keyboard moves.
 */
export function seatNavigation(plan: NavPlan): SeatGridNav {
  const offsets: number[][] = []
  let rowCount = 0
  let first: SeatGridNav['first'] = null
  plan.sections.forEach((section, s) => {
    const places: number[] = []
    section.rows.forEach((row, r) => {
      if (row.seats.length === 0) {
        places.push(-1)
        return
      }
      places.push(rowCount)
      rowCount += 1
      if (first === null) {
        let left = row.seats[0] as (typeof row.seats)[number]
        for (const seat of row.seats) if (seat.x < left.x) left = seat
        first = { id: left.id, section: s, row: r }
      }
    })
    offsets.push(places)
  })
  let made: { rows: NavRow[]; at: Map<string, { row: number; seat: number }> } | null = null
  const make = () => {
    if (made) return made
    const rows: NavRow[] = []
    const at = new Map<string, { row: number; seat: number }>()
    for (const section of plan.sections) {
      for (const row of section.rows) {
        if (row.seats.length === 0) continue
        const seats = [...row.seats].sort((a, b) => a.x - b.x)
        const index = rows.length
        seats.forEach((seat, place) => {
          at.set(seat.id, { row: index, seat: place })
        })
        rows.push({ ids: seats.map((seat) => seat.id), xs: seats.map((seat) => seat.x) })
      }
    }
    made = { rows, at }
    return made
  }
  return {
    rowCount,
    first,
    gridRowOf: (section, row) => {
      const index = offsets[section]?.[row]
      return index === undefined || index < 0 ? null : index
    },
    get rows() {
      return make().rows
    },
    get at() {
      return make().at
    },
  }
}

export const firstSeat = (nav: SeatGridNav): string | null => nav.first?.id ?? null

/** the seat of a row nearest to x across */
function nearest(row: NavRow, x: number): string {
  let best = 0
  for (let i = 1; i < row.xs.length; i++) {
    if (Math.abs((row.xs[i] as number) - x) < Math.abs((row.xs[best] as number) - x)) best = i
  }
  return row.ids[best] as string
}

export type NavKey = { key: string; ctrlKey?: boolean; metaKey?: boolean }

/** the seat a key moves the focus to from `from`, or null when the key is not a move (or goes nowhere) */
export function moveFocus(nav: SeatGridNav, from: string, { key, ctrlKey, metaKey }: NavKey): string | null {
  const place = nav.at.get(from)
  if (!place) return firstSeat(nav)
  const row = nav.rows[place.row] as NavRow
  const x = row.xs[place.seat] as number
  const whole = ctrlKey || metaKey
  switch (key) {
    case 'ArrowLeft':
      return place.seat > 0 ? (row.ids[place.seat - 1] as string) : null
    case 'ArrowRight':
      return place.seat < row.ids.length - 1 ? (row.ids[place.seat + 1] as string) : null
    case 'ArrowUp': {
      const above = nav.rows[place.row - 1]
      return above ? nearest(above, x) : null
    }
    case 'ArrowDown': {
      const below = nav.rows[place.row + 1]
      return below ? nearest(below, x) : null
    }
    case 'Home':
      return whole ? firstSeat(nav) : (row.ids[0] as string)
    case 'End': {
      const last = whole ? nav.rows[nav.rows.length - 1] : row
      return last ? (last.ids[last.ids.length - 1] as string) : null
    }
    default:
      return null
  }
}
