// Moves every waiting room on (issue 41): each process, every QUEUE_TICK_MS, opens the rooms whose
// sale is due, closes those sold out and admits the next in line. The decisions are taken under each
// room's lock and against the time, so processes ticking at once admit no one twice and no faster
// than the rate: the ones that come second find nothing due.
import type { CatalogQueries } from '../catalog/queries.ts'
import type { QueueCommands } from './commands.ts'
import type { QueueQueries } from './queries.ts'

export function startAdmitter(parts: {
  queue: Pick<QueueQueries, 'dueRooms'>
  events: Pick<CatalogQueries, 'ticketTypesOf'>
  commands: Pick<QueueCommands, 'tick'>
  tickMs: number
  warn: (message: string, error: unknown) => void
}): { stop(): void } {
  if (parts.tickMs <= 0) return { stop() {} }
  let busy = false
  const tick = async () => {
    if (busy) return
    busy = true
    try {
      const now = new Date().toISOString()
      const due = await parts.queue.dueRooms(now)
      if (due.length === 0) return
      const types = await parts.events.ticketTypesOf(due)
      for (const eventId of due) {
        const ids = (types.get(eventId) ?? []).map((t) => t.id)
        await parts.commands
          .tick(eventId, ids, now)
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
  return { stop: () => clearInterval(timer) }
}
