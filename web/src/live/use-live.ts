// React access to the live connection: a screen watches the public room of what it shows (the
// cached queries follow the pushes by themselves: live/follow.ts), hears the facts it toasts, and
// tells whether the connection is up.
import { createContext, useContext, useEffect, useRef, useSyncExternalStore } from 'react'
import type { FactPush } from '../../../contracts/live.ts'
import type { JoinedAck, Live, LiveStatus } from './live.ts'

export const LiveContext = createContext<Live | null>(null)

function useLive(): Live {
  const live = useContext(LiveContext)
  if (!live) throw new Error('the live hooks need a LiveContext provider')
  return live
}

/**
 * watches a room ('events', 'event-<id>', 'schedule', 'attendees-<id>', 'seats-<id>') while the
 * screen is shown; `onJoined` whenever the server says it was joined
 */
export function useLiveRoom(room: string, onJoined?: (at: number, ack: JoinedAck) => void): void {
  const live = useLive()
  const joined = useRef(onJoined)
  joined.current = onJoined
  useEffect(() => live.watch(room, (at, ack) => joined.current?.(at, ack)), [live, room])
}

/** hears every fact pushed to this account's rooms and the rooms watched */
export function useLiveFacts(onFact: (push: FactPush) => void): void {
  const live = useLive()
  const latest = useRef(onFact)
  latest.current = onFact
  useEffect(() => live.onFact((push) => latest.current(push)), [live])
}

/** true while the live connection is up */
export function useLiveConnected(): boolean {
  const live = useLive()
  return useSyncExternalStore(live.onStatus, live.connected, live.connected)
}

/** idle, connected, reconnecting or refused (then live counts on screen may be out of date) */
export function useLiveStatus(): LiveStatus {
  const live = useLive()
  return useSyncExternalStore(live.onStatus, live.status, live.status)
}

/** why the server refused the live connection for now (too many tabs or messages), else null */
export function useLiveRefusal(): string | null {
  const live = useLive()
  return useSyncExternalStore(live.onStatus, live.refusal, live.refusal)
}
