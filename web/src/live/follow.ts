// Keeps the cached server state (api/queries.ts) in step with the ledger: each push updates the
// queries it carries enough for (availability, a new account, the dashboards' rows and attendees,
// an event's check-in summary: no request) and refetches the ones it changed otherwise, each at
// most once a second however fast the facts come (a sale is watched, never slowed); every
// (re)connection refetches whatever is on screen, so facts pushed while offline are caught up (the
// first leaves what no push could have changed since the page read it).
// Screens only read their queries and watch their public rooms.
import type { Query, QueryClient } from '@tanstack/react-query'
import * as v from 'valibot'
import { AccountSummary } from '../../../contracts/accounts.ts'
import type { EventView } from '../../../contracts/catalog.ts'
import type { AvailabilityPush, FactPush } from '../../../contracts/live.ts'
import type { SeatMapView } from '../../../contracts/seating.ts'
import type { CheckinSummary } from '../api/checkin.ts'
import { keys } from '../api/keys.ts'
import { keptAtFirstConnect } from '../api/query-client.ts'
import { followDashboards } from './dashboard-pushes.ts'
import type { Live } from './live.ts'
import { placeOfPush } from './queue-pushes.ts'
import { coalescedRefresh } from './refresh.ts'
import { applySeatChanges, seatChangeBatcher } from './seat-changes.ts'

/** the least time between two refetches of one query that pushes ask for */
export const LIVE_REFETCH_MS = 1000

const withAvailability = (event: EventView, push: AvailabilityPush): EventView => ({
  ...event,
  ticketTypes: event.ticketTypes.map((type) =>
    type._id === push.ticketTypeId ? { ...type, available: push.available, quantity: push.available } : type,
  ),
})

const notKeptAtFirstConnect = (query: Query) => !keptAtFirstConnect(query)

const withAccount = (accounts: AccountSummary[], account: AccountSummary) =>
  accounts.some((known) => known._id === account._id) ? accounts : [...accounts, account]

export function followLive(live: Live, client: QueryClient): () => void {
  const refresh = coalescedRefresh(client)
  const refetch = (queryKey: readonly unknown[]) => refresh({ queryKey, minInterval: LIVE_REFETCH_MS })
  const dashboards = followDashboards(client, refetch)
  /** the position of the latest availability applied per ticket type, so an older one never wins */
  const applied = new Map<string, number>()
  /** the position of the latest check-in summary set per event */
  const summaries = new Map<string, number>()

  /** a ticket type's live count as pushed, unless a newer one was applied already */
  const applyAvailability = (data: AvailabilityPush, position: number) => {
    if (position < (applied.get(data.ticketTypeId) ?? -1)) return
    applied.set(data.ticketTypeId, position)
    client.setQueryData<EventView>(
      keys.event(data.eventId),
      (event) => event && withAvailability(event, data),
    )
  }

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
      case 'EventApproved':
      case 'EventRejected': {
        const { data } = push
        // The organizer's and the admins' dashboards hear the event's row as of the review.
        if ('figures' in data) {
          dashboards.figures(data.figures, data)
          return
        }
        if (push.type === 'EventSubmitted') return
        refetch(keys.events)
        refetch(keys.event(data.eventId))
        return
      }
      case 'TicketsHeld':
      case 'TicketsIssued':
      case 'PaymentFailed':
      case 'HoldExpired':
      case 'TicketCancelled':
      case 'TicketTransferred':
      case 'PaymentRefunded': {
        const { data } = push
        // The event's room hears the ticket type's availability: applied as it is.
        if ('available' in data) {
          applyAvailability(data, push.position)
          return
        }
        // The organizer's and the admins' dashboards hear the event's row: set in place; an open
        // analytics panel (per ticket type, charts) and list of promo codes (their uses) are
        // fetched again, at most once a second.
        if ('figures' in data) {
          dashboards.figures(data.figures, data)
          refetch(keys.analytics(data.eventId))
          refetch(keys.promoCodes(data.eventId))
          return
        }
        // a holder told their event is cancelled: a toast (notice-listener.tsx); the ticket's own
        // state arrives as its own push
        if ('change' in data) return
        // ... and each person whose attendance changed: set in the attendee lists shown.
        if ('attendees' in data) {
          for (const attendee of data.attendees)
            dashboards.attendee({ eventId: data.eventId, attendee }, push.position)
          return
        }
        // The order's people (buyer, owner, organizer, admins) hear its new state.
        refetch(keys.ticket(data.orderId))
        // a hold is not a ticket yet: the holder's list changes when it is issued or released
        if (push.type !== 'TicketsHeld') refetch(keys.myTickets)
        return
      }
      case 'SeatMapPlaced':
      case 'EventEdited':
      case 'EventCancelled': {
        const { data } = push
        if ('figures' in data) {
          dashboards.figures(data.figures, data)
          return
        }
        // a holder's notice is a toast (schedule/notice-listener.tsx); their tickets show it too
        if ('change' in data) {
          refetch(keys.myTickets)
          return
        }
        refetch(keys.events)
        refetch(keys.event(data.eventId))
        return
      }
      case 'WaitlistJoined':
      case 'WaitlistLeft':
      case 'WaitlistOffered':
      case 'WaitlistOfferLapsed':
      case 'WaitlistServed': {
        const { data } = push
        // the ticket type's seats on sale, as with an order's facts
        if ('available' in data) {
          applyAvailability(data, push.position)
          return
        }
        // places in line moved (an offer is toasted: waitlist-listener.tsx): fetched again if shown
        refetch(keys.myWaitlist)
        return
      }
      case 'OnSaleSet':
        // the event's sale time or waiting room changed: read again where it is shown
        refetch(keys.onSale(push.data.eventId))
        return
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
      case 'checkin-summary': {
        // An event's door as of this push, from whichever device scanned: set as it is, unless a
        // newer one was set already.
        const { data } = push
        if (push.position < (summaries.get(data.eventId) ?? -1)) return
        summaries.set(data.eventId, push.position)
        client.setQueryData<CheckinSummary>(keys.checkinSummary(data.eventId), data)
        return
      }
      default:
        push satisfies never
    }
  }

  // A seat map's changes (issue 40), set in the cached map as they are, a frame's together: a seat
  // taken anywhere turns taken at once on every map shown. A new plan (its version) is read again.
  const seatChanges = seatChangeBatcher((eventId, changes) =>
    client.setQueryData<SeatMapView | null>(keys.seatMap(eventId), (map) =>
      map ? applySeatChanges(map, changes) : map,
    ),
  )
  const stopSeats = live.onSeats((message) => {
    if (message.version !== undefined) {
      const cached = client.getQueryData<SeatMapView | null>(keys.seatMap(message.eventId))
      if (cached?.version !== message.version) refetch(keys.seatMap(message.eventId))
    }
    if (message.changes.length > 0) seatChanges(message)
  })

  // a place in a waiting room and the organizer's figures come whole: set as they are (issue 41)
  const stopQueue = live.onQueue((push) => {
    client.setQueryData(keys.queuePlace(push.eventId), placeOfPush(push))
    // past the pre-queue the sale has opened: its time, if moved meanwhile, is read again
    if (push.state !== 'pre-queue') refetch(keys.onSale(push.eventId))
  })
  const stopQueueStats = live.onQueueStats(({ eventId, ...stats }) =>
    client.setQueryData(keys.queueStats(eventId), stats),
  )

  const stopFacts = live.onFact(onPush)
  // Every connection reads again what is shown, but the first leaves what the page read as it
  // opened, a moment before, when no push could have changed it (api/query-client.ts: an event's
  // sale time, a buyer not in its line): asked for once, not twice (each "none" a 404 on the console).
  let connectedBefore = false
  const stopConnect = live.onConnect(() => {
    const first = !connectedBefore
    connectedBefore = true
    refresh({ queryKey: [], stale: true, ...(first && { predicate: notKeptAtFirstConnect }) })
  })
  return () => {
    stopFacts()
    stopSeats()
    stopQueue()
    stopQueueStats()
    stopConnect()
    dashboards.stop()
  }
}
