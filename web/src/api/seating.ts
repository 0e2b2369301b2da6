// Calls of seat maps (issue 40, API.md "Seat maps"): an event's map with each seat's status (none:
// a 404), the organizer's save of a plan, and what a refusal names (the seats that were taken, or
// that a new plan would move).
import { type QueryClient, queryOptions } from '@tanstack/react-query'
import * as v from 'valibot'
import { SeatHolderView, type SeatMapBody, SeatMapView, seatStatuses } from '../../../contracts/seating.ts'
import { ApiError, api, bodyOf, reply } from './client.ts'
import { keys } from './keys.ts'
import { onceAnswered } from './query-client.ts'

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
/** the server's tag of the map each event's was read as last (its ETag) */
const tags = new Map<string, string>()

/**
 * The event's seat map, or null when it has none. Given the map held now, the server is asked
 * whether it changed since it was read (If-None-Match): a map read before its room was joined is
 * kept, not read whole again, when no seat moved meanwhile.
 */
export async function fetchSeatMap(eventId: string, held?: SeatMapView | null): Promise<SeatMapView | null> {
  const tag = held ? tags.get(eventId) : undefined
  const { response, askedAt: asked } = await reply(
    'GET',
    `/event/${path(eventId)}/seatmap`,
    tag ? { headers: { 'If-None-Match': tag } } : {},
  )
  if (response.status === 304 && held) {
    askedAt.set(eventId, asked)
    return held
  }
  try {
    const map = seatMapOf(await bodyOf<unknown>(response))
    askedAt.set(eventId, asked)
    const etag = response.headers.get('etag')
    if (etag) tags.set(eventId, etag)
    else tags.delete(eventId)
    return map
  } catch (error) {
    if (!(error instanceof ApiError) || error.status !== 404) throw error
    askedAt.set(eventId, asked)
    tags.delete(eventId)
    return null
  }
}

/**
 * Once the map's room is joined (`joinedAt`, performance.now()): a map cached that was asked for
 * before then may have missed a push, and is asked for again (conditionally: kept when nothing
 * moved), when it has come if it is still on its way. Answers what stops the wait.
 *
 * A "none" (the 404 of an event without a map) read before the join is kept when the join's answer
 * says the event still has no map (`mapNow` null: any map placed from then on is pushed to the
 * room, live/follow.ts): an event without a map is asked for once, not again at every join.
 */
export function recheckSeatMap(
  queryClient: QueryClient,
  eventId: string,
  joinedAt: number,
  /** the map's version the join's answer gave (null: none; undefined: not said) */
  mapNow?: number | null,
): () => void {
  const key = keys.seatMap(eventId)
  return onceAnswered<SeatMapView | null>(queryClient, key, (state) => {
    const asked = askedAt.get(eventId)
    const stillNone = state.status === 'success' && state.data === null && mapNow === null
    if (state.status === 'error' || asked === undefined || (asked < joinedAt && !stillNone))
      void queryClient.invalidateQueries({ queryKey: key })
  })
}

// Live changes make a new map that shares every unchanged row and section with the last
// (live/seat-changes.ts), and the seats' index is kept per map's sections: the query's own
// structural sharing would copy the sections again, compare 50,000 seats, and lose that index on
// every change (a phone's whole frame, each frame).
export const seatMapQuery = (eventId: string) =>
  queryOptions({
    queryKey: keys.seatMap(eventId),
    queryFn: ({ client }) =>
      fetchSeatMap(eventId, client.getQueryData<SeatMapView | null>(keys.seatMap(eventId))),
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
