// Keeps the cached server state (api/queries.ts) in step with the ledger: each push updates the
// queries it carries enough for (availability, a new account: no request) and refetches the ones
// it changed otherwise; every (re)connection refetches whatever is on screen, so facts pushed
// while offline are caught up. Screens only read their queries and watch their public rooms.
import type { QueryClient } from '@tanstack/react-query'
import * as v from 'valibot'
import { AccountSummary } from '../../../contracts/accounts.ts'
import type { EventView } from '../../../contracts/catalog.ts'
import type { AvailabilityPush, FactPush } from '../../../contracts/live.ts'
import { keys } from '../api/keys.ts'
import type { Live } from './live.ts'
import { coalescedRefresh } from './refresh.ts'

const withAvailability = (event: EventView, push: AvailabilityPush): EventView => ({
  ...event,
  ticketTypes: event.ticketTypes.map((type) =>
    type._id === push.ticketTypeId ? { ...type, available: push.available, quantity: push.available } : type,
  ),
})

const withAccount = (accounts: AccountSummary[], account: AccountSummary) =>
  accounts.some((known) => known._id === account._id) ? accounts : [...accounts, account]

export function followLive(live: Live, client: QueryClient): () => void {
  const refresh = coalescedRefresh(client)
  const refetch = (queryKey: readonly unknown[]) => refresh({ queryKey })
  /** the position of the latest availability applied per ticket type, so an older one never wins */
  const applied = new Map<string, number>()

  const onPush = (push: FactPush): void => {
    switch (push.type) {
      case 'AccountRegistered': {
        const pushed = v.safeParse(AccountSummary, {
          _id: push.data.accountId,
          username: push.data.username,
          email: push.data.email,
          role: push.data.role,
        })
        if (pushed.success)
          client.setQueryData<AccountSummary[]>(
            keys.accounts,
            (accounts) => accounts && withAccount(accounts, pushed.output),
          )
        return
      }
      case 'EventSubmitted':
        refetch(keys.eventsForReview)
        refetch(keys.attendeesByEvent)
        return
      case 'EventApproved':
      case 'EventRejected':
        refetch(keys.events)
        refetch(keys.event(push.data.eventId))
        refetch(keys.eventsForReview)
        refetch(keys.attendeesByEvent)
        return
      case 'TicketsHeld':
      case 'TicketsIssued':
      case 'PaymentFailed':
      case 'HoldExpired':
      case 'TicketCancelled':
      case 'TicketTransferred': {
        const { data } = push
        // The event's room hears the ticket type's availability: applied as it is.
        if ('available' in data) {
          if (push.position < (applied.get(data.ticketTypeId) ?? -1)) return
          applied.set(data.ticketTypeId, push.position)
          client.setQueryData<EventView>(
            keys.event(data.eventId),
            (event) => event && withAvailability(event, data),
          )
          return
        }
        // The dashboards' rows and attendee lists (contracts/dashboards.ts): not shown yet.
        if ('figures' in data || 'attendee' in data) return
        // The order's people (buyer, owner, organizer, admins) hear its new state.
        refetch(keys.analytics(data.eventId))
        refetch(keys.attendeesByEvent)
        refetch(keys.ticket(data.orderId))
        // a hold is not a ticket yet: the holder's list changes when it is issued or released
        if (push.type !== 'TicketsHeld') refetch(keys.myTickets)
        return
      }
      case 'SessionScheduled':
        refetch(keys.sessions(push.data.eventId))
        refetch(keys.sessions())
        return
      case 'ScheduleNoticePosted':
        // a toast only (schedule/notice-listener.tsx): nothing cached shows notices
        return
      case 'InquiryOpened':
      case 'InquiryAnswered':
        refetch(keys.inquiries)
        return
      default:
        push satisfies never
    }
  }

  const stopFacts = live.onFact(onPush)
  const stopConnect = live.onConnect(() => refresh({ queryKey: [], stale: true }))
  return () => {
    stopFacts()
    stopConnect()
  }
}
