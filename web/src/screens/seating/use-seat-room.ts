// Watches an event's seat map room (issue 40) while a map is shown. A map asked for before the room
// was joined may have missed a change made in between: once joined, such a map is read again; one
// asked for after the join (at boot: routes/prefetch.ts, or by the picker) is kept current by the
// room. The picker joins first and reads the map after (useSeatMapRoom's answer): a stadium's map
// is read once, not twice, on opening the page. It does not wait while the live connection is lost or
// refused, nor longer than JOIN_WAIT_MS: a map read before the join is read again once joined.
import { useQueryClient } from '@tanstack/react-query'
import { useEffect, useState } from 'react'
import { rooms } from '../../../../contracts/live.ts'
import { keys } from '../../api/keys.ts'
import { seatMapAskedAt } from '../../api/seating.ts'
import { useLiveRoom, useLiveStatus } from '../../live/use-live.ts'

const JOIN_WAIT_MS = 1000

/** watches the room; true once it is joined (or there is no waiting for it): the map may be read */
export function useSeatMapRoom(eventId: string): boolean {
  const queryClient = useQueryClient()
  const status = useLiveStatus()
  const [joined, setJoined] = useState<string | null>(null)
  const [waited, setWaited] = useState<string | null>(null)
  useEffect(() => {
    const timer = setTimeout(() => setWaited(eventId), JOIN_WAIT_MS)
    return () => clearTimeout(timer)
  }, [eventId])
  useLiveRoom(rooms.seats(eventId), (at) => {
    setJoined(eventId)
    const state = queryClient.getQueryState(keys.seatMap(eventId))
    const asked = seatMapAskedAt(eventId)
    if (state?.status === 'success' && state.fetchStatus === 'idle' && (asked === undefined || asked < at))
      void queryClient.invalidateQueries({ queryKey: keys.seatMap(eventId) })
  })
  // while connecting, the join is a moment away; a connection lost or refused is not waited for
  return joined === eventId || waited === eventId || status === 'reconnecting' || status === 'refused'
}
