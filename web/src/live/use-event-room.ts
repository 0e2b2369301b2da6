// An event's public room, watched by the pages that show the event: its pushes (availability, the
// event's edits, its sale time) come there. A sale time read before the room was joined is read again
// when the join says it changed meanwhile (api/queue.ts, recheckOnSale).
import { useQueryClient } from '@tanstack/react-query'
import { useEffect, useRef } from 'react'
import { rooms } from '../../../contracts/live.ts'
import { recheckOnSale } from '../api/queue.ts'
import { useLiveRoom } from './use-live.ts'

export function useEventRoom(eventId: string): void {
  const client = useQueryClient()
  const recheck = useRef<() => void>(() => {})
  useEffect(() => () => recheck.current(), [])
  useLiveRoom(rooms.event(eventId), (_at, ack) => {
    recheck.current()
    recheck.current = recheckOnSale(client, eventId, ack.saleTime)
  })
}
