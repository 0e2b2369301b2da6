// A ticket's short number, enough to tell two orders apart on a card or at the door (the last
// 8 characters of its id, the random part, upper-case), and the anchor of its card, so a link to
// /dashboard#ticket-<id> or /registrations#ticket-<id> opens on it.
import { useLocation } from '@tanstack/react-router'
import { useEffect } from 'react'

export const ticketNumber = (ticketId: string): string => ticketId.slice(-8).toUpperCase()

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
