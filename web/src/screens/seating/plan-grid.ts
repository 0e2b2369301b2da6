// A section drawn from a grid (issue 40): rows × seats, rows labelled on from the first label (A, B …
// Z, AA; or 1, 2 …), seats numbered from the left or from the right, aisles after given seat
// numbers, and an optional curve that bends a row's ends towards the stage (above the seats).
import type { SectionInput } from '../../../../contracts/seating.ts'
import { SEAT_PITCH } from './plan-layout.ts'

export const ROW_PITCH = 12
/** the room an aisle adds between two seats */
export const AISLE = SEAT_PITCH
/** the room between one section's last row and the next section's first (and its name) */
export const SECTION_GAP = 3 * ROW_PITCH

export type Numbering = 'left-to-right' | 'right-to-left'

export type GridSpec = {
  name: string
  ticketType: string
  rows: number
  seatsPerRow: number
  firstRow: string
  numbering: Numbering
  /** seat numbers an aisle follows (in numbering order) */
  aislesAfter: number[]
  /** how far a row's ends come towards the stage, in seats (0: straight rows) */
  curve: number
  /** where the first row is drawn, and the rows' centre across */
  top: number
  centre?: number
}

const letters = /^[A-Z]+$/

/** the label after a row's: B after A, AA after Z, 10 after 9 */
export function nextRowLabel(label: string): string {
  if (/^\d+$/.test(label)) return String(Number(label) + 1)
  const chars = label.split('')
  for (let i = chars.length - 1; i >= 0; i--) {
    if (chars[i] !== 'Z') {
      chars[i] = String.fromCharCode((chars[i] as string).charCodeAt(0) + 1)
      return chars.join('')
    }
    chars[i] = 'A'
  }
  return `A${chars.join('')}`
}

/** `count` row labels from `first` (letters are taken in capitals) */
export function rowLabels(first: string, count: number): string[] {
  const labels: string[] = []
  let label = first.trim().toUpperCase()
  for (let i = 0; i < count; i++) {
    labels.push(label)
    label = nextRowLabel(label)
  }
  return labels
}

/** why a first row label cannot start a grid, or null */
export const firstRowRefusal = (first: string): string | null => {
  const label = first.trim().toUpperCase()
  return letters.test(label) || /^\d+$/.test(label)
    ? label.length <= 3
      ? null
      : 'The first row label has at most 3 characters.'
    : 'The first row label is letters (A) or a number (1).'
}

/** "4, 12" → [4, 12]; null when it is not a list of whole numbers */
export function parseAisles(text: string): number[] | null {
  const parts = text
    .split(/[\s,;]+/)
    .map((part) => part.trim())
    .filter(Boolean)
  if (!parts.every((part) => /^\d+$/.test(part))) return null
  return [...new Set(parts.map(Number))].sort((a, b) => a - b)
}

const round = (value: number) => Math.round(value * 10) / 10

/** the seats' numbers and positions across, left to right, of one row of the grid */
export function rowColumns(spec: Pick<GridSpec, 'seatsPerRow' | 'numbering' | 'aislesAfter'>) {
  const n = spec.seatsPerRow
  const aisles = new Set(spec.aislesAfter)
  const numberAt = (column: number) => (spec.numbering === 'left-to-right' ? column + 1 : n - column)
  const columns: { number: number; x: number }[] = []
  let x = 0
  for (let column = 0; column < n; column++) {
    if (column > 0) {
      x += SEAT_PITCH
      // an aisle after seat g (in numbering order) lies between g and the seat numbered next
      const left = numberAt(column - 1)
      const right = numberAt(column)
      if (aisles.has(Math.min(left, right))) x += AISLE
    }
    columns.push({ number: numberAt(column), x })
  }
  return columns
}

/** the section the grid describes, each seat placed */
export function gridSection(spec: GridSpec): SectionInput {
  const columns = rowColumns(spec)
  const span = columns.length > 0 ? (columns[columns.length - 1] as { x: number }).x : 0
  const half = span / 2
  const centre = spec.centre ?? 0
  return {
    name: spec.name.trim(),
    ticketType: spec.ticketType,
    rows: rowLabels(spec.firstRow, spec.rows).map((label, r) => ({
      label,
      seats: columns.map(({ number, x }) => {
        const across = half > 0 ? (x - half) / half : 0
        return {
          number,
          x: round(centre + x - half),
          y: round(spec.top + r * ROW_PITCH - spec.curve * SEAT_PITCH * across * across),
        }
      }),
    })),
  }
}
