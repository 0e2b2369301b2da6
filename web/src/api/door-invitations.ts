// The signed-in account's invitations to door staff as a query (the check-in pages read it): its
// key, and the options every screen uses, so an acceptance anywhere refreshes them all.
import { queryOptions } from '@tanstack/react-query'
import { fetchInvitations } from './checkin.ts'

export const invitationsKey = ['door-invitations'] as const

export const invitationsQuery = () => queryOptions({ queryKey: invitationsKey, queryFn: fetchInvitations })
