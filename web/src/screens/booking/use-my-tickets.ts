// The signed-in account and its live tickets, fetched together and again whenever one of its
// tickets changes (its user room) or the live connection comes back (live/follow.ts). The account
// as fetched is the session's user too.
import { useQuery } from '@tanstack/react-query'
import { useEffect } from 'react'
import { myTicketsQuery } from '../../api/queries.ts'
import { useSessionStore } from '../../session/use-session.ts'

export function useMyTickets() {
  const session = useSessionStore()
  const query = useQuery(myTicketsQuery())
  const profile = query.data?.profile
  useEffect(() => {
    if (profile) session.saveUser(profile)
  }, [session, profile])
  return query
}
