// Moves every waiting room on (issue 41): each process, every QUEUE_TICK_MS, opens the rooms whose
// sale is due, closes those sold out and admits the next in line. The decisions are taken under each
// room's lock and against the time, so processes ticking at once admit no one twice and no faster
// than the rate: the ones that come second find nothing due.
//
// A room that follows capacity (no set rate) is also moved on as soon as something here may have
// freed a checkout or filled its line: an order's facts appended by this process (paid, failed,
// released, expired), or its own stream growing (the opening's draw, a join, a resumption). Those
// ticks are gathered, at most one a room every SOON_MS, and decided exactly as the regular tick's
// (under the room's lock, against its read model); other processes' orders are seen by their own
// regular ticks. Rooms with a set rate are left to the regular tick: their admissions are earned
// by time, not by checkouts.
import type { CatalogQueries } from '../catalog/queries.ts'
import type { LedgerPort } from '../db/store.ts'
import { streams } from '../ids.ts'
import type { QueueCommands } from './commands.ts'
import type { QueueQueries } from './queries.ts'

/** the least time between two extra ticks of one room */
export const SOON_MS = 50

/** what the admitter knows of a room (refreshed on each regular tick, read when unknown) */
type Known = { followsCapacity: boolean; opensAt: string; closed: boolean }

const ORDER = streams.order('')
const ROOM = streams.room('')

export function startAdmitter(parts: {
  queue: Pick<QueueQueries, 'dueRooms' | 'room'>
  events: Pick<CatalogQueries, 'ticketTypesOf'>
  commands: Pick<QueueCommands, 'tick'>
  tickMs: number
  /** this process's appends: what moves a room following capacity on between ticks */
  ledger?: Pick<LedgerPort<unknown>, 'onAppend'>
  warn: (message: string, error: unknown) => void
  soonMs?: number
}): { stop(): Promise<void> } {
  if (parts.tickMs <= 0) return { stop: async () => {} }
  const soonMs = parts.soonMs ?? SOON_MS
  let stopped = false
  let known = new Map<string, Known>()
  let busy = false
  const tick = async () => {
    if (busy) return
    busy = true
    try {
      const now = new Date().toISOString()
      const due = await parts.queue.dueRooms(now)
      known = new Map(
        due.map((r) => [
          r.eventId,
          { followsCapacity: r.followsCapacity, opensAt: r.opensAt, closed: false },
        ]),
      )
      forget()
      if (due.length === 0) return
      const ids = due.map((r) => r.eventId)
      const types = await parts.events.ticketTypesOf(ids)
      for (const eventId of ids) {
        const typeIds = (types.get(eventId) ?? []).map((t) => t.id)
        await parts.commands
          .tick(eventId, typeIds, now)
          .catch((error) => parts.warn('a waiting room did not move on', error))
      }
    } catch (error) {
      parts.warn('the waiting rooms were not read', error)
    } finally {
      busy = false
    }
  }
  const timer = setInterval(tick, parts.tickMs)
  timer.unref()

  /** each room's extra ticks: the one waiting for its turn, the one running, when the last began */
  type Soon = { timer?: NodeJS.Timeout; running: boolean; again: boolean; last: number }
  const soon = new Map<string, Soon>()
  /** rooms quiet for a while are forgotten, so the map holds only rooms moving now */
  const forget = () => {
    const before = Date.now() - 10_000
    for (const [eventId, s] of soon) if (!s.timer && !s.running && s.last < before) soon.delete(eventId)
  }

  const active = (room: Known | undefined, now: string) =>
    room?.followsCapacity === true && !room.closed && room.opensAt <= now

  /** the room as the admitter knows it, read when unknown */
  const roomOf = async (eventId: string): Promise<Known | undefined> => {
    const kept = known.get(eventId)
    if (kept) return kept
    const row = await parts.queue.room(eventId)
    if (!row?.waitingRoom) return undefined
    const room = {
      followsCapacity: row.admitPerMinute === null,
      opensAt: row.opensAt,
      closed: row.closedAt !== null,
    }
    known.set(eventId, room)
    return room
  }

  const moveOn = async (eventId: string) => {
    const now = new Date().toISOString()
    if (!active(await roomOf(eventId), now)) return
    const types = await parts.events.ticketTypesOf([eventId])
    const typeIds = (types.get(eventId) ?? []).map((t) => t.id)
    const facts = await parts.commands.tick(eventId, typeIds, now, { capacityOnly: true })
    const room = known.get(eventId)
    if (room && facts.some((f) => f.type === 'QueueClosed')) room.closed = true
  }

  /** the extra ticks under way (stop waits for them) */
  const running = new Set<Promise<void>>()
  const run = async (eventId: string, s: Soon) => {
    s.timer = undefined
    s.running = true
    s.last = Date.now()
    const moving = moveOn(eventId).catch((error) => parts.warn('a waiting room did not move on', error))
    running.add(moving)
    try {
      await moving
    } finally {
      running.delete(moving)
      s.running = false
      if (s.again && !stopped) {
        s.again = false
        schedule(eventId)
      }
    }
  }

  /** a tick of this room soon: at once after a quiet while, else gathered with the others */
  const schedule = (eventId: string) => {
    let s = soon.get(eventId)
    if (!s) {
      s = { running: false, again: false, last: 0 }
      soon.set(eventId, s)
    }
    if (s.timer) return
    if (s.running) {
      s.again = true
      return
    }
    const state = s
    state.timer = setTimeout(() => run(eventId, state), Math.max(0, state.last + soonMs - Date.now()))
    state.timer.unref()
  }

  const unsubscribe = parts.ledger?.onAppend((_head, grown) => {
    if (stopped) return
    let orders = false
    for (const stream of grown) {
      if (stream.startsWith(ROOM)) {
        const eventId = stream.slice(ROOM.length)
        const room = known.get(eventId)
        // a room known to have a set rate (or none) is the regular tick's
        if (!room || room.followsCapacity) schedule(eventId)
      } else if (stream.startsWith(ORDER)) orders = true
    }
    if (!orders) return
    const now = new Date().toISOString()
    for (const [eventId, room] of known) if (active(room, now)) schedule(eventId)
  })

  return {
    stop: async () => {
      stopped = true
      clearInterval(timer)
      unsubscribe?.()
      for (const s of soon.values()) if (s.timer) clearTimeout(s.timer)
      await Promise.all(running)
    },
  }
}
