// React access to the live connection: a screen hears the facts it cares about and refetches on
// every (re)connection.
import { createContext, useContext, useEffect, useRef, useSyncExternalStore } from 'react'
import type { LivePush } from '../../../contracts/live.ts'
import type { Live, LiveStatus } from './live.ts'

export const LiveContext = createContext<Live | null>(null)

function useLive(): Live {
  const live = useContext(LiveContext)
  if (!live) throw new Error('useLiveFacts needs a LiveContext provider')
  return live
}

export function useLiveFacts(options: {
  onFact: (push: LivePush) => void
  /** refetch here: runs on every connection, so facts missed while offline are caught up */
  onConnect?: () => void
  room?: string
}): void {
  const live = useLive()
  const latest = useRef(options)
  latest.current = options
  const { room } = options

  useEffect(() => {
    const stopFacts = live.onFact((push) => latest.current.onFact(push))
    const stopConnect = live.onConnect(() => latest.current.onConnect?.())
    const stopWatching = room ? live.watch(room) : () => {}
    return () => {
      stopFacts()
      stopConnect()
      stopWatching()
    }
  }, [live, room])
}

/** true while the live connection is up */
export function useLiveConnected(): boolean {
  const live = useLive()
  return useSyncExternalStore(live.onStatus, live.connected, live.connected)
}

/** idle, connected, or reconnecting (then live counts on screen may be out of date) */
export function useLiveStatus(): LiveStatus {
  const live = useLive()
  return useSyncExternalStore(live.onStatus, live.status, live.status)
}
