// Pure decisions about one ticket type's waiting list (issue 17). Entries are served in the order
// they joined; an entry for a group keeps its place, and a later, smaller entry is offered seats
// only while the group's do not fit. An offer holds its seats for that person alone until it lapses.
import { conflict, notFound } from '../errors.ts'
import type { Decider } from '../ledger/decider.ts'
import type { WaitlistFact } from './facts.ts'

export type EntryStatus = 'waiting' | 'offered' | 'served' | 'left' | 'lapsed'
export type EntryState = {
  entryId: string
  accountId: string
  quantity: number
  status: EntryStatus
  offerUntil: string | null
}
export type WaitlistState = { eventId: string | null; entries: readonly EntryState[] }

export type WaitlistCommand =
  | {
      type: 'Join'
      eventId: string
      ticketTypeId: string
      ticketType: string
      entryId: string
      accountId: string
      quantity: number
      /** seats on sale now, read under the write lock: none, or joining is refused */
      onSale: number
      eventCancelled: boolean
    }
  | { type: 'Leave'; ticketTypeId: string; accountId: string }
  /** seats free for the list (read under the lock): overdue offers lapse, then entries that fit are offered */
  | { type: 'Serve'; ticketTypeId: string; free: number; now: string; offerMinutes: number }
  /** the account books with its offer (orderId: its new hold) */
  | { type: 'Use'; ticketTypeId: string; accountId: string; orderId: string }

export const ON_SALE = 'Tickets of this type are on sale: book them instead of joining the waiting list.'
export const WAITLIST_BEFORE_SALE =
  'These tickets are not on sale yet: a waiting list is for tickets that have sold out.'
export const ALREADY_WAITING = 'You are already on the waiting list for this ticket type.'
export const NOT_WAITING = 'You are not on the waiting list for this event.'
export const WAITLIST_EVENT_CANCELLED = 'This event has been cancelled.'

const active = (entry: EntryState) => entry.status === 'waiting' || entry.status === 'offered'

/** an account's place in line (1 is next), counting the entries still waiting or offered before it */
export function positionOf(state: WaitlistState, entryId: string): number | null {
  let position = 0
  for (const entry of state.entries) {
    if (!active(entry)) continue
    position++
    if (entry.entryId === entryId) return position
  }
  return null
}

export const waitlistDecider: Decider<WaitlistState, WaitlistCommand, WaitlistFact> = {
  initialState: () => ({ eventId: null, entries: [] }),

  evolve(state, fact) {
    const set = (entryId: string, change: Partial<EntryState>) => ({
      ...state,
      entries: state.entries.map((e) => (e.entryId === entryId ? { ...e, ...change } : e)),
    })
    switch (fact.type) {
      case 'WaitlistJoined': {
        const { entryId, accountId, quantity, eventId } = fact.data
        return {
          eventId,
          entries: [...state.entries, { entryId, accountId, quantity, status: 'waiting', offerUntil: null }],
        }
      }
      case 'WaitlistLeft':
        return set(fact.data.entryId, { status: 'left' })
      case 'WaitlistOffered':
        return set(fact.data.entryId, { status: 'offered', offerUntil: fact.data.offerUntil })
      case 'WaitlistOfferLapsed':
        return set(fact.data.entryId, { status: 'lapsed' })
      case 'WaitlistServed':
        return set(fact.data.entryId, { status: 'served' })
      default:
        return fact satisfies never
    }
  },

  decide(command, state) {
    const entryOf = (accountId: string) => state.entries.find((e) => e.accountId === accountId && active(e))
    const base = (entry: EntryState, ticketTypeId: string) => ({
      eventId: state.eventId ?? '',
      ticketTypeId,
      entryId: entry.entryId,
      accountId: entry.accountId,
    })
    switch (command.type) {
      case 'Join': {
        if (command.eventCancelled) throw conflict(WAITLIST_EVENT_CANCELLED)
        if (command.onSale > 0) throw conflict(ON_SALE)
        if (entryOf(command.accountId)) throw conflict(ALREADY_WAITING)
        const { eventId, ticketTypeId, ticketType, entryId, accountId, quantity } = command
        return [
          {
            type: 'WaitlistJoined',
            data: { eventId, ticketTypeId, ticketType, entryId, accountId, quantity },
          },
        ]
      }
      case 'Leave': {
        const entry = entryOf(command.accountId)
        if (!entry) throw notFound(NOT_WAITING)
        return [
          {
            type: 'WaitlistLeft',
            data: { ...base(entry, command.ticketTypeId), wasOffered: entry.status === 'offered' },
          },
        ]
      }
      case 'Serve': {
        const facts: WaitlistFact[] = []
        let free = command.free
        for (const entry of state.entries) {
          if (entry.status === 'offered' && entry.offerUntil !== null && entry.offerUntil <= command.now) {
            facts.push({ type: 'WaitlistOfferLapsed', data: base(entry, command.ticketTypeId) })
            free += entry.quantity
          }
        }
        const offerUntil = new Date(Date.parse(command.now) + command.offerMinutes * 60_000).toISOString()
        for (const entry of state.entries) {
          if (free <= 0) break
          // in the order joined; a group that does not fit keeps its place, a smaller one after it may
          if (entry.status !== 'waiting' || entry.quantity > free) continue
          facts.push({
            type: 'WaitlistOffered',
            data: { ...base(entry, command.ticketTypeId), quantity: entry.quantity, offerUntil },
          })
          free -= entry.quantity
        }
        return facts
      }
      case 'Use': {
        const entry = state.entries.find((e) => e.accountId === command.accountId && e.status === 'offered')
        if (!entry) return []
        return [
          {
            type: 'WaitlistServed',
            data: { ...base(entry, command.ticketTypeId), orderId: command.orderId },
          },
        ]
      }
      default:
        return command satisfies never
    }
  },
}
