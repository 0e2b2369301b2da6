// A seat map kept in step with the live room `seats-<eventId>` (issue 40): each change replaces
// only the seats it names, and only their rows and sections are new objects, so a map of 50,000
// seats redraws the rows that changed and no others. Where each seat lies is found once per plan.
import type { SeatsPush } from '../../../contracts/live.ts'
import type { SeatChanges, SeatMapView, SeatStatus } from '../../../contracts/seating.ts'

type Place = { section: number; row: number; seat: number }

/** a plan's seats as laid out, shared by every map made from it by changes (their seats stay put) */
export type SeatLayout = {
  /** how many seats the plan has */
  readonly seats: number
  /** where each seat lies (made when first asked for: a stadium's is a table of 50,000) */
  places(): Map<string, Place>
}

const layouts = new WeakMap<SeatMapView['sections'], SeatLayout>()

/** the map's layout: what stays the same while live changes come (a drawing's memos hang on it) */
export function seatLayout(map: SeatMapView): SeatLayout {
  const known = layouts.get(map.sections)
  if (known) return known
  let seats = 0
  for (const section of map.sections) for (const row of section.rows) seats += row.seats.length
  let index: Map<string, Place> | null = null
  // the map it was made from, until its index is (any later map has the same seats in the same places)
  let from: SeatMapView | null = map
  const layout: SeatLayout = {
    seats,
    places: () => {
      if (index) return index
      const { sections } = from as SeatMapView
      from = null
      index = new Map()
      for (let s = 0; s < sections.length; s++) {
        const rows = (sections[s] as SeatMapView['sections'][number]).rows
        for (let r = 0; r < rows.length; r++) {
          const row = (rows[r] as (typeof rows)[number]).seats
          for (let n = 0; n < row.length; n++)
            index.set((row[n] as (typeof row)[number]).id, { section: s, row: r, seat: n })
        }
      }
      return index
    },
  }
  layouts.set(map.sections, layout)
  return layout
}

/** where each seat of a map lies; shared by every map made from it by changes */
export const seatPlaces = (map: SeatMapView): Map<string, Place> => seatLayout(map).places()

/** the map with these seats' statuses; the same map when none of them changes anything */
export function applySeatChanges(map: SeatMapView, changes: SeatChanges['changes']): SeatMapView {
  const layout = seatLayout(map)
  const index = layout.places()
  const wanted = new Map<string, Map<number, SeatStatus>>()
  for (const { id, status } of changes) {
    const place = index.get(id)
    if (!place) continue
    const seat = map.sections[place.section]?.rows[place.row]?.seats[place.seat]
    if (!seat) continue
    const rowKey = `${place.section}/${place.row}`
    let row = wanted.get(rowKey)
    if (!row) {
      row = new Map()
      wanted.set(rowKey, row)
    }
    row.set(place.seat, status)
  }
  // keep only what differs from the map now (a later change to a seat wins)
  for (const [rowKey, row] of wanted) {
    const [s, r] = rowKey.split('/').map(Number) as [number, number]
    const seats = map.sections[s]?.rows[r]?.seats ?? []
    for (const [n, status] of row) if (seats[n]?.status === status) row.delete(n)
    if (row.size === 0) wanted.delete(rowKey)
  }
  if (wanted.size === 0) return map
  const sections = map.sections.map((section, s) => {
    let touched = false
    const rows = section.rows.map((row, r) => {
      const statuses = wanted.get(`${s}/${r}`)
      if (!statuses) return row
      touched = true
      return {
        ...row,
        seats: row.seats.map((seat, n) => {
          const status = statuses.get(n)
          return status === undefined ? seat : { ...seat, status }
        }),
      }
    })
    return touched ? { ...section, rows } : section
  })
  // the seats stay where they were: the new map shares the old one's layout
  layouts.set(sections, layout)
  return { ...map, sections }
}

export type SeatCounts = Record<SeatStatus, number>

export function seatCounts(map: SeatMapView): SeatCounts {
  const counts: SeatCounts = { free: 0, held: 0, sold: 0, blocked: 0 }
  for (const section of map.sections)
    for (const row of section.rows) for (const seat of row.seats) counts[seat.status] += 1
  return counts
}

const statusNames = new Set<string>(['free', 'held', 'sold', 'blocked'])

/** a `seats` message's data, or null when it is not one */
export function seatChangesOf(data: unknown): SeatsPush | null {
  if (typeof data !== 'object' || data === null) return null
  const { eventId, changes, version } = data as { eventId?: unknown; changes?: unknown; version?: unknown }
  if (typeof eventId !== 'string' || !Array.isArray(changes)) return null
  const valid = changes.filter(
    (change): change is SeatChanges['changes'][number] =>
      typeof change === 'object' &&
      change !== null &&
      typeof (change as { id?: unknown }).id === 'string' &&
      statusNames.has((change as { status?: unknown }).status as string),
  )
  return typeof version === 'number' ? { eventId, changes: valid, version } : { eventId, changes: valid }
}

/**
 * Gathers changes and hands them on once a frame (at most), each event's together: 500 seats a
 * second changing on a map is a few redraws a second of the rows they are in, not 500.
 */
export function seatChangeBatcher(apply: (eventId: string, changes: SeatChanges['changes']) => void) {
  const pending = new Map<string, SeatChanges['changes']>()
  let scheduled = false
  const later =
    typeof requestAnimationFrame === 'function'
      ? (run: () => void) => requestAnimationFrame(run)
      : (run: () => void) => setTimeout(run, 16)
  const flush = () => {
    scheduled = false
    const batches = [...pending]
    pending.clear()
    for (const [eventId, changes] of batches) apply(eventId, changes)
  }
  return (message: SeatsPush) => {
    const known = pending.get(message.eventId)
    if (known) known.push(...message.changes)
    else pending.set(message.eventId, [...message.changes])
    if (!scheduled) {
      scheduled = true
      later(flush)
    }
  }
}
