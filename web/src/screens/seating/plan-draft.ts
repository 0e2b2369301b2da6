// The plan an organizer edits (issue 40): read from the saved map, changed a seat at a time (blocked,
// kept for a wheelchair or a companion, moved) or a section at a time (moved), and shown through the picker as a map of its own, each
// seat's status the saved map's live one where the seat is the same (its section, row and number).
import type {
  Box,
  SeatMapBody,
  SeatMapView,
  SeatStatus,
  SectionInput,
} from '../../../../contracts/seating.ts'
import { SEAT_PITCH } from './plan-layout.ts'

export type Draft = { stage: Box | null; sections: SectionInput[] }

/** what a click on a seat of the preview does: marks it, or chooses it to be moved */
export type SeatTool = 'blocked' | 'wheelchair' | 'companion' | 'move'

/** how far one press of a move button moves a seat or a section on a plan with no row of two seats
 * yet: half a seat of the editor's grids (moveStepOf) */
export const MOVE_STEP = SEAT_PITCH / 2

/**
 * How far one press of a move button moves a seat or a section on this plan: half the usual distance
 * between a row's neighbouring seats (the median), so that a plan drawn elsewhere with seats 30 units
 * apart moves by half a seat too, not by a sixtieth of one; MOVE_STEP when no row has two seats.
 */
export function moveStepOf(draft: Draft): number {
  const gaps: number[] = []
  for (const section of draft.sections)
    for (const row of section.rows)
      for (let i = 1; i < row.seats.length; i++) {
        const a = row.seats[i - 1]
        const b = row.seats[i]
        if (a?.x === undefined || b?.x === undefined) continue
        const gap = Math.hypot(b.x - a.x, (b.y ?? 0) - (a.y ?? 0))
        if (gap > 0) gaps.push(gap)
      }
  if (gaps.length === 0) return MOVE_STEP
  gaps.sort((a, b) => a - b)
  return units((gaps[Math.floor(gaps.length / 2)] as number) / 2)
}

/** a plan's units with a step's floating point error rounded away (0.1 + 0.2 is 0.3) */
const units = (n: number) => Math.round(n * 1000) / 1000

export const emptyDraft: Draft = { stage: null, sections: [] }

/** the seat a section, a row and a number name, across versions of a plan */
export const seatKey = (section: string, row: string, number: string | number) =>
  `${section}\u0000${row}\u0000${number}`

export function draftOf(map: SeatMapView): Draft {
  return {
    stage: map.stage,
    sections: map.sections.map((section) => ({
      name: section.name,
      ticketType: section.ticketType,
      rows: section.rows.map((row) => ({
        label: row.label,
        seats: row.seats.map((seat) => ({
          number: seat.number,
          x: seat.x,
          y: seat.y,
          ...(seat.status === 'blocked' ? { blocked: true } : {}),
          ...(seat.accessible ? { accessible: seat.accessible } : {}),
        })),
      })),
    })),
  }
}

/** what PUT /event/{id}/seatmap is sent */
export const bodyOf = (draft: Draft): SeatMapBody => ({ stage: draft.stage, sections: draft.sections })

/** a draft seat's id in the preview: its place in the draft */
export const previewId = (section: number, row: number, seat: number) => `p${section}-${row}-${seat}`

export function placeOf(id: string): { section: number; row: number; seat: number } | null {
  const match = /^p(\d+)-(\d+)-(\d+)$/.exec(id)
  return match ? { section: Number(match[1]), row: Number(match[2]), seat: Number(match[3]) } : null
}

/** the draft with one seat moved by (dx, dy); the same draft when no seat has that id */
export function moveSeat(draft: Draft, id: string, dx: number, dy: number): Draft {
  const place = placeOf(id)
  const seat = place && draft.sections[place.section]?.rows[place.row]?.seats[place.seat]
  if (!place || !seat) return draft
  return withSeat(draft, place, { ...seat, x: units((seat.x ?? 0) + dx), y: units((seat.y ?? 0) + dy) })
}

/** the draft with every seat of one section moved by (dx, dy) */
export function moveSection(draft: Draft, index: number, dx: number, dy: number): Draft {
  if (!draft.sections[index]) return draft
  return {
    ...draft,
    sections: draft.sections.map((section, s) =>
      s !== index
        ? section
        : {
            ...section,
            rows: section.rows.map((row) => ({
              ...row,
              seats: row.seats.map((seat) => ({
                ...seat,
                x: units((seat.x ?? 0) + dx),
                y: units((seat.y ?? 0) + dy),
              })),
            })),
          },
    ),
  }
}

/** the draft with the seat at `place` replaced */
function withSeat(
  draft: Draft,
  place: { section: number; row: number; seat: number },
  changed: SectionInput['rows'][number]['seats'][number],
): Draft {
  return {
    ...draft,
    sections: draft.sections.map((section, s) =>
      s !== place.section
        ? section
        : {
            ...section,
            rows: section.rows.map((row, r) =>
              r !== place.row
                ? row
                : { ...row, seats: row.seats.map((each, n) => (n === place.seat ? changed : each)) },
            ),
          },
    ),
  }
}

/** the draft with one seat's blocked or accessible mark switched ('move' changes nothing here) */
export function toggleSeat(draft: Draft, id: string, tool: SeatTool): Draft {
  const place = placeOf(id)
  if (!place || tool === 'move') return draft
  const seat = draft.sections[place.section]?.rows[place.row]?.seats[place.seat]
  if (!seat) return draft
  const { blocked: _b, accessible: _a, ...rest } = seat
  const changed =
    tool === 'blocked'
      ? {
          ...rest,
          ...(seat.accessible ? { accessible: seat.accessible } : {}),
          ...(seat.blocked ? {} : { blocked: true }),
        }
      : {
          ...rest,
          ...(seat.blocked ? { blocked: true } : {}),
          ...(seat.accessible === tool || (tool === 'wheelchair' && seat.accessible === true)
            ? {}
            : { accessible: tool }),
        }
  return withSeat(draft, place, changed)
}

/** the live statuses of the saved map's seats, by section, row and number */
export function statusesOf(map: SeatMapView | null | undefined): Map<string, SeatStatus> {
  const statuses = new Map<string, SeatStatus>()
  for (const section of map?.sections ?? [])
    for (const row of section.rows)
      for (const seat of row.seats) statuses.set(seatKey(section.name, row.label, seat.number), seat.status)
  return statuses
}

type PreviewRow = SeatMapView['sections'][number]['rows'][number]

/** each draft row's last preview, with the place it was drawn for: reused while it shows the same */
const previewRows = new WeakMap<SectionInput['rows'][number], { place: string; row: PreviewRow }>()

function previewRow(
  row: SectionInput['rows'][number],
  section: string,
  s: number,
  r: number,
  statuses: ReadonlyMap<string, SeatStatus>,
): PreviewRow {
  const place = `${s}/${r}/${section}`
  const cached = previewRows.get(row)
  const statusOf = (seat: SectionInput['rows'][number]['seats'][number]): SeatStatus => {
    if (seat.blocked) return 'blocked'
    const saved = statuses.get(seatKey(section, row.label, seat.number))
    return saved === 'held' || saved === 'sold' ? saved : 'free'
  }
  // the same row at the same place, its seats' statuses unchanged: the same object, so the map
  // does not redraw it (a click or a sale elsewhere in a stadium's plan redraws one row)
  if (
    cached &&
    cached.place === place &&
    row.seats.every((seat, n) => cached.row.seats[n]?.status === statusOf(seat))
  )
    return cached.row
  const drawn: PreviewRow = {
    label: row.label,
    seats: row.seats.map((seat, n) => ({
      id: previewId(s, r, n),
      number: seat.number,
      x: seat.x ?? 0,
      y: seat.y ?? 0,
      status: statusOf(seat),
      accessible: seat.accessible === true ? 'wheelchair' : seat.accessible || false,
    })),
  }
  previewRows.set(row, { place, row: drawn })
  return drawn
}

/**
 * The draft as a map the picker draws: blocked seats blocked, the others as the saved map has them
 * now (held, sold) or free; each section priced as its ticket type.
 */
export function previewOf(
  draft: Draft,
  eventId: string,
  prices: ReadonlyMap<string, number>,
  statuses: ReadonlyMap<string, SeatStatus>,
): SeatMapView {
  return {
    eventId,
    version: 0,
    stage: draft.stage,
    sections: draft.sections.map((section, s) => ({
      name: section.name,
      ticketType: section.ticketType,
      ticketTypeId: section.ticketType,
      price: prices.get(section.ticketType) ?? 0,
      rows: section.rows.map((row, r) => previewRow(row, section.name, s, r, statuses)),
    })),
  }
}

export const seatCount = (draft: Draft) =>
  draft.sections.reduce((sum, section) => sum + section.rows.reduce((n, row) => n + row.seats.length, 0), 0)
