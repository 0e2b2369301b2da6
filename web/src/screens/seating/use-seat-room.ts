// Watches an event's seat map room (issue 40) while a map is shown. A map read before the room was
// joined may have missed a change made in between: once joined, a map already read is read again.
import { useQueryClient } from '@tanstack/react-query'
import { rooms } from '../../../../contracts/live.ts'
import { keys } from '../../api/keys.ts'
import { useLiveRoom } from '../../live/use-live.ts'

export function useSeatMapRoom(eventId: string): void {
  const queryClient = useQueryClient()
  useLiveRoom(rooms.seats(eventId), () => {
    const state = queryClient.getQueryState(keys.seatMap(eventId))
    if (state?.status === 'success' && state.fetchStatus === 'idle')
      void queryClient.invalidateQueries({ queryKey: keys.seatMap(eventId) })
  })
}
