// The dashboard's cancels, held for a grace period before they are sent (issue 12): the single
// click decides (SPEC), Undo within UNDO_MS takes it back and nothing reaches the server. Kept
// outside React so leaving the dashboard never loses a cancel silently: moving to another screen
// of the app leaves the timer running (it is sent when the grace period ends, its toast shows
// wherever the buyer is), and a page being left altogether (reload, another site, a closed tab)
// sends every held cancel at once, as a keepalive request that outlives the page.
import { useSyncExternalStore } from 'react'

export const UNDO_MS = 5000

/**
 * How a held cancel goes out: when its time comes (the promise settles once the outcome is
 * known), or at once because the page is going away.
 */
export type Send = (reason: 'due' | 'leaving') => Promise<unknown> | undefined

/** held: Undo still possible; sending: the request is out */
export type CancelPhase = 'held' | 'sending'

const held = new Map<string, { timer: ReturnType<typeof setTimeout>; send: Send }>()
const sending = new Set<string>()
let snapshot: ReadonlyMap<string, CancelPhase> = new Map()
const listeners = new Set<() => void>()

function changed() {
  snapshot = new Map<string, CancelPhase>([
    ...[...held.keys()].map((id) => [id, 'held'] as const),
    ...[...sending].map((id) => [id, 'sending'] as const),
  ])
  for (const listener of listeners) listener()
}

/** Holds a ticket's cancel for `ms`, then sends it (unless undone first). */
export function holdCancel(ticketId: string, send: Send, ms = UNDO_MS): void {
  if (held.has(ticketId) || sending.has(ticketId)) return
  const timer = setTimeout(() => {
    held.delete(ticketId)
    sending.add(ticketId)
    changed()
    void Promise.resolve()
      .then(() => send('due'))
      .catch(() => {})
      .finally(() => {
        sending.delete(ticketId)
        changed()
      })
  }, ms)
  held.set(ticketId, { timer, send })
  changed()
}

/** Undo: the held cancel is dropped before anything was sent. False when it is too late. */
export function undoCancel(ticketId: string): boolean {
  const entry = held.get(ticketId)
  if (!entry) return false
  clearTimeout(entry.timer)
  held.delete(ticketId)
  changed()
  return true
}

function sendAllNow() {
  const leaving = [...held.values()]
  for (const entry of leaving) clearTimeout(entry.timer)
  held.clear()
  changed()
  for (const entry of leaving) void entry.send('leaving')
}

if (typeof window !== 'undefined') window.addEventListener('pagehide', sendAllNow)

const subscribe = (listener: () => void) => {
  listeners.add(listener)
  return () => {
    listeners.delete(listener)
  }
}

/** the tickets whose cancel is held or on its way, right now */
export function useHeldCancels(): ReadonlyMap<string, CancelPhase> {
  return useSyncExternalStore(subscribe, () => snapshot)
}
