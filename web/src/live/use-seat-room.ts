// Watches an event's seat map room (issue 40) while a map is shown. A map asked for before the room
// was joined may have missed a change made in between: once joined, the server is asked whether it
// changed (api/seating.ts's recheckSeatMap: a 304 keeps it, else it is read again); one asked for
// after the join is kept current by the room. At boot the map is asked for at once (web/public/
// early.js, routes/prefetch.ts); otherwise the picker joins first and reads the map after
// (useSeatMapRoom's answer): a stadium's map is read whole once, not twice, on opening the page. It
// does not wait while the live connection is lost or refused, nor longer than JOIN_WAIT_MS: a map
// read before the join is asked for again once joined.
import { useQueryClient } from '@tanstack/react-query'
import { useEffect, useRef, useState } from 'react'
import { rooms } from '../../../contracts/live.ts'
import { recheckSeatMap } from '../api/seating.ts'
import { useLiveRoom, useLiveStatus } from './use-live.ts'

const JOIN_WAIT_MS = 1000

/** watches the room; true once it is joined (or there is no waiting for it): the map may be read */
export function useSeatMapRoom(eventId: string): boolean {
  const queryClient = useQueryClient()
  const status = useLiveStatus()
  const [joined, setJoined] = useState<string | null>(null)
  const [waited, setWaited] = useState<string | null>(null)
  const recheck = useRef<() => void>(() => {})
  useEffect(() => {
    const timer = setTimeout(() => setWaited(eventId), JOIN_WAIT_MS)
    return () => {
      clearTimeout(timer)
      recheck.current()
    }
  }, [eventId])
  useLiveRoom(rooms.seats(eventId), (at, ack) => {
    setJoined(eventId)
    recheck.current()
    recheck.current = recheckSeatMap(queryClient, eventId, at, ack.seatMap)
  })
  // while connecting, the join is a moment away; a connection lost or refused is not waited for
  return joined === eventId || waited === eventId || status === 'reconnecting' || status === 'refused'
}
