// What booking adds to the catalogue's event views (EventExtras: the seats available now and the
// attendees), made from the rows either store read for a list of events.
import type { EventExtra } from '../catalog/views.ts'

export { noExtras } from '../catalog/views.ts'

type Extras = EventExtra

/** from the seats taken (held + sold) per ticket type, and the owners of issued orders per event */
export function extrasOf(
  taken: Iterable<{ ticketTypeId: string; taken: number; waiting?: number | boolean }>,
  issued: Iterable<{ eventId: string; ownerId: string | null }>,
): Extras {
  const seats = new Map<string, number>()
  // a ticket type someone waits for has nothing on sale: its seats go to the waiting list
  const waited = new Set<string>()
  for (const row of taken) {
    seats.set(row.ticketTypeId, row.taken)
    if (row.waiting) waited.add(row.ticketTypeId)
  }
  const attendees = new Map<string, Set<string>>()
  for (const { eventId, ownerId } of issued) {
    if (!ownerId) continue
    const set = attendees.get(eventId) ?? new Set<string>()
    set.add(ownerId)
    attendees.set(eventId, set)
  }
  return {
    available: (t) => (waited.has(t.id) ? 0 : t.quantity - (seats.get(t.id) ?? 0)),
    candidates: (eventId) => [...(attendees.get(eventId) ?? [])],
  }
}
