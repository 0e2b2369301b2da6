// The signed-in account and its live tickets, fetched together and again whenever one of its
// tickets changes (its user room) or the live connection comes back.
import { useCallback, useEffect, useState } from 'react'
import type { Profile } from '../../../../contracts/accounts.ts'
import type { Registration } from '../../../../contracts/booking.ts'
import { fetchProfile } from '../../api/accounts.ts'
import { fetchRegistrations } from '../../api/booking.ts'
import { useLiveConnected, useLiveFacts } from '../../live/use-live.ts'
import { useSessionStore } from '../../session/use-session.ts'

export type MyTickets =
  | { state: 'loading' }
  | { state: 'loaded'; profile: Profile; tickets: Registration[] }
  | { state: 'failed'; error: string }

/** the facts that change someone's list of tickets (contracts/live.ts TicketPush) */
const ticketFacts = new Set([
  'TicketsIssued',
  'PaymentFailed',
  'HoldExpired',
  'TicketCancelled',
  'TicketTransferred',
])

export function useMyTickets(fallbackError: string) {
  const session = useSessionStore()
  const [load, setLoad] = useState<MyTickets>({ state: 'loading' })
  const live = useLiveConnected()

  const reload = useCallback(async () => {
    try {
      const [profile, tickets] = await Promise.all([fetchProfile(), fetchRegistrations()])
      session.saveUser(profile)
      setLoad({ state: 'loaded', profile, tickets })
    } catch (error) {
      setLoad((previous) =>
        // a failed refetch keeps the list on screen
        previous.state === 'loaded'
          ? previous
          : {
              state: 'failed',
              error: error instanceof Error && error.message ? error.message : fallbackError,
            },
      )
    }
  }, [session, fallbackError])

  useEffect(() => {
    void reload()
  }, [reload])

  useLiveFacts({
    onConnect: () => void reload(),
    onFact(push) {
      if (ticketFacts.has(push.type)) void reload()
    },
  })

  return { load, reload, live }
}
