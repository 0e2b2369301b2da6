// Which rooms a socket may watch, and how many. A refused watch joins nothing: a socket asking for
// made-up rooms must not make the server keep anything for it (issue 11: one socket watching
// random rooms grew the server by 130 MB in 8 s).
import { attendeesOfRoom, eventOfRoom, publicRoom, seatsOfRoom, type WatchAck } from '../../contracts/live.ts'
import type { CatalogQueries } from '../catalog/queries.ts'

/** The account in a socket's handshake token; null for a visitor. */
export type Watcher = { id: string; role: string } | null

export type Watches = {
  /** the room to join, or why not */
  watch(requested: unknown): Promise<WatchAck>
  /** the room to leave, if it was watched */
  unwatch(requested: unknown): string | null
}

export function watchRules(events: Pick<CatalogQueries, 'byId'>, roomsPerSocket: number) {
  // An event's room carries its availability and sessions: the public's once the event is
  // approved, its organizer's and the admins' before that. Its attendee list is only ever theirs.
  const maySee = async (room: string, watcher: Watcher): Promise<boolean> => {
    const listOf = attendeesOfRoom(room)
    const eventId = eventOfRoom(room) ?? seatsOfRoom(room) ?? listOf
    if (!eventId) return true
    const event = await events.byId(eventId)
    if (!event) return false
    const own = watcher?.role === 'admin' || event.organizerId === watcher?.id
    return own || (listOf === null && event.approvalStatus === 'Approved')
  }

  /** The rooms one socket watches. The rooms the server joins it to (its account's) are not counted. */
  return function watchesOf(watcher: Watcher): Watches {
    const watched = new Set<string>()
    return {
      async watch(requested) {
        const room = publicRoom(requested)
        if (!room) return { ok: false, message: 'Unknown room.' }
        if (watched.has(room)) return { ok: true, room }
        // The same answer for an event that does not exist and one not yet public, so a visitor
        // cannot learn of pending events by asking for their rooms.
        if (!(await maySee(room, watcher))) return { ok: false, message: 'No such event.' }
        // checked again after the read: another watch of this socket may have taken the room (or
        // the last place) meanwhile
        if (watched.has(room)) return { ok: true, room }
        if (watched.size >= roomsPerSocket)
          return {
            ok: false,
            message: `A connection may watch ${roomsPerSocket} rooms at most; stop watching one first.`,
          }
        watched.add(room)
        return { ok: true, room }
      },
      unwatch(requested) {
        const room = publicRoom(requested)
        return room && watched.delete(room) ? room : null
      },
    }
  }
}
