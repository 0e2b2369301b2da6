// The anchor of a ticket's card, so a link to /dashboard#ticket-<id> or /registrations#ticket-<id>
// opens on it (its short number: ui/ticket-number.ts).
import { useLocation } from '@tanstack/react-router'
import { useEffect } from 'react'

/** the element id of a ticket's card */
export const ticketAnchor = (ticketId: string): string => `ticket-${ticketId}`

/** Scrolls to the card the address names (#ticket-<id>) once the cards are there; its anchor. */
export function useScrollToTicket(loaded: boolean): string {
  const hash = useLocation({ select: (location) => location.hash })
  useEffect(() => {
    if (!loaded || !hash) return
    document.getElementById(hash)?.scrollIntoView({ block: 'center' })
  }, [loaded, hash])
  return hash
}
