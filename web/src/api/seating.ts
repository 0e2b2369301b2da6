// Calls of seat maps (issue 40, API.md "Seat maps"): an event's map with each seat's status (none:
// a 404), the organizer's save of a plan, and what a refusal names (the seats that were taken, or
// that a new plan would move).
import { queryOptions } from '@tanstack/react-query'
import * as v from 'valibot'
import { SeatHolderView, type SeatMapBody, SeatMapView, seatStatuses } from '../../../contracts/seating.ts'
import { ApiError, api } from './client.ts'
import { keys } from './keys.ts'

export type { SeatHolderView, SeatMapBody, SeatMapView }

const path = (id: string) => encodeURIComponent(id)

// A stadium's map is 100,000 seats: the map's frame is checked by its schema, each seat by hand
// (a schema's union checks for every seat cost a phone a noticeable part of a second).
const SeatMapFrame = v.object({
  ...SeatMapView.entries,
  sections: v.array(
    v.object({
      ...SeatMapView.entries.sections.item.entries,
      rows: v.array(v.object({ label: v.string(), seats: v.array(v.unknown()) })),
    }),
  ),
})

const statuses = new Set<string>(seatStatuses)

function isSeat(seat: unknown): boolean {
  if (typeof seat !== 'object' || seat === null) return false
  const { id, number, x, y, status, accessible } = seat as Record<string, unknown>
  return (
    typeof id === 'string' &&
    (typeof number === 'number' || typeof number === 'string') &&
    typeof x === 'number' &&
    typeof y === 'number' &&
    typeof status === 'string' &&
    statuses.has(status) &&
    (accessible === false || accessible === 'wheelchair' || accessible === 'companion')
  )
}

/** a reply checked to be a seat map (ApiError-free: a malformed reply is a plain error) */
export function seatMapOf(reply: unknown): SeatMapView {
  const frame = v.parse(SeatMapFrame, reply)
  for (const section of frame.sections)
    for (const row of section.rows)
      for (const seat of row.seats) if (!isSeat(seat)) throw new Error('The seat map could not be read.')
  return frame as SeatMapView
}

/** when the map cached of each event was asked for (performance.now()): its room's pushes keep it
 * current only if the room was joined before then */
const askedAt = new Map<string, number>()

export const seatMapAskedAt = (eventId: string): number | undefined => askedAt.get(eventId)

/** the event's seat map, or null when it has none */
export async function fetchSeatMap(eventId: string): Promise<SeatMapView | null> {
  const asked = performance.now()
  try {
    const map = seatMapOf(await api.get<unknown>(`/event/${path(eventId)}/seatmap`))
    askedAt.set(eventId, asked)
    return map
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return null
    throw error
  }
}

// Live changes make a new map that shares every unchanged row and section with the last
// (live/seat-changes.ts), and the seats' index is kept per map's sections: the query's own
// structural sharing would copy the sections again, compare 50,000 seats, and lose that index on
// every change (a phone's whole frame, each frame).
export const seatMapQuery = (eventId: string) =>
  queryOptions({
    queryKey: keys.seatMap(eventId),
    queryFn: () => fetchSeatMap(eventId),
    structuralSharing: false,
  })

const SaveReply = v.object({ message: v.string(), seatmap: v.optional(v.unknown()) })

/** saves a plan: the server's message, and the map as saved when it sent it */
export async function saveSeatMap(
  eventId: string,
  body: SeatMapBody,
): Promise<{ message: string; seatmap: SeatMapView | null }> {
  const reply = v.parse(SaveReply, await api.put<unknown>(`/event/${path(eventId)}/seatmap`, body))
  let seatmap: SeatMapView | null = null
  try {
    seatmap = reply.seatmap === undefined ? null : seatMapOf(reply.seatmap)
  } catch {
    // the message is what matters; the map is fetched again
  }
  return { message: reply.message, seatmap }
}

/** the seats a 409 names (`{message, seats:[ids]}`): taken ones, or held and sold ones a plan would move */
export function refusedSeats(error: unknown): string[] {
  if (!(error instanceof ApiError) || error.status !== 409) return []
  const seats = (error.body as { seats?: unknown } | null)?.seats
  return Array.isArray(seats) ? seats.filter((id): id is string => typeof id === 'string') : []
}

/** who holds a seat of the organizer's event (its organizer, admins): none when free or blocked */
export const fetchSeatHolder = async (eventId: string, seatId: string): Promise<SeatHolderView> =>
  v.parse(
    SeatHolderView,
    await api.get<unknown>(`/event/${path(eventId)}/seats/${encodeURIComponent(seatId)}`),
  )

/** a seat's holder, asked again when the seat's status changes (`status`, from the live map) */
export const seatHolderQuery = (eventId: string, seatId: string, status: string) =>
  queryOptions({
    queryKey: keys.seatHolder(eventId, seatId, status),
    queryFn: () => fetchSeatHolder(eventId, seatId),
  })
