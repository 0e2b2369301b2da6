// given / when / then for a ticket type's waiting list (issue 17): joined only when sold out and
// once per person; served in the order joined, a group keeping its place while a later, smaller
// entry gets the seats that fit; overdue offers lapse first and their seats pass on; an offer is
// used once.
import { describe, it } from 'vitest'
import {
  ALREADY_WAITING,
  NOT_WAITING,
  ON_SALE,
  WAITLIST_EVENT_CANCELLED,
  type WaitlistCommand,
  waitlistDecider,
} from '../../server/waitlist/decide.ts'
import type { WaitlistFact } from '../../server/waitlist/facts.ts'
import { deciderSpec } from '../support/decider-spec.ts'

const { given } = deciderSpec(waitlistDecider)
const at = { eventId: 'e1', ticketTypeId: 'vip' }
const NOW = '2030-03-01T10:00:00.000Z'
const LATER = '2030-03-01T10:30:00.000Z'

const joinCommand = (accountId: string, quantity: number, onSale = 0): WaitlistCommand => ({
  type: 'Join',
  ...at,
  ticketType: 'VIP',
  entryId: `entry-${accountId}`,
  accountId,
  quantity,
  onSale,
  eventCancelled: false,
})
const joined = (accountId: string, quantity: number): WaitlistFact => ({
  type: 'WaitlistJoined',
  data: { ...at, ticketType: 'VIP', entryId: `entry-${accountId}`, accountId, quantity },
})
const offered = (accountId: string, quantity: number, offerUntil = LATER): WaitlistFact => ({
  type: 'WaitlistOffered',
  data: { ...at, entryId: `entry-${accountId}`, accountId, quantity, offerUntil },
})
const serve = (free: number, now = NOW): WaitlistCommand => ({
  type: 'Serve',
  ticketTypeId: 'vip',
  free,
  now,
  offerMinutes: 30,
})

describe('Join', () => {
  it('joins a sold-out type', () =>
    given([])
      .when(joinCommand('a', 2))
      .then([joined('a', 2)]))
  it('is refused while seats are on sale', () =>
    given([])
      .when(joinCommand('a', 1, 3))
      .thenRefuses('conflict', ON_SALE))
  it('is refused for a cancelled event', () =>
    given([])
      .when({ ...joinCommand('a', 1), eventCancelled: true } as WaitlistCommand)
      .thenRefuses('conflict', WAITLIST_EVENT_CANCELLED))
  it('is refused twice for one person', () =>
    given([joined('a', 1)])
      .when(joinCommand('a', 1))
      .thenRefuses('conflict', ALREADY_WAITING))
})

describe('Serve', () => {
  it('offers in the order joined, the group first when it fits', () =>
    given([joined('group', 3), joined('one', 1)])
      .when(serve(4))
      .then([offered('group', 3), offered('one', 1)]))
  it('lets a later, smaller entry have the seats a group does not fit, the group keeping its place', () =>
    given([joined('group', 3), joined('one', 1), joined('two', 2)])
      .when(serve(2))
      .then([offered('one', 1)]))
  it('offers nothing when no entry fits', () =>
    given([joined('group', 3)])
      .when(serve(2))
      .thenNothingHappens())
  it('lapses an overdue offer first, and its seats pass on to the next in line', () =>
    given([joined('a', 1), joined('b', 1), offered('a', 1, NOW)])
      .when(serve(0, LATER))
      .then([
        { type: 'WaitlistOfferLapsed', data: { ...at, entryId: 'entry-a', accountId: 'a' } },
        offered('b', 1, '2030-03-01T11:00:00.000Z'),
      ]))
  it('keeps an offer still running', () =>
    given([joined('a', 1), joined('b', 1), offered('a', 1)])
      .when(serve(0))
      .thenNothingHappens())
})

describe('Use and Leave', () => {
  it('serves the entry that books with its offer', () =>
    given([joined('a', 1), offered('a', 1)])
      .when({ type: 'Use', ticketTypeId: 'vip', accountId: 'a', orderId: 'o1' })
      .then([{ type: 'WaitlistServed', data: { ...at, entryId: 'entry-a', accountId: 'a', orderId: 'o1' } }]))
  it('changes nothing for a buyer without an offer', () =>
    given([joined('a', 1)])
      .when({ type: 'Use', ticketTypeId: 'vip', accountId: 'a', orderId: 'o1' })
      .thenNothingHappens())
  it('leaves, giving back an offer', () =>
    given([joined('a', 1), offered('a', 1)])
      .when({ type: 'Leave', ticketTypeId: 'vip', accountId: 'a' })
      .then([
        { type: 'WaitlistLeft', data: { ...at, entryId: 'entry-a', accountId: 'a', wasOffered: true } },
      ]))
  it('refuses to leave a list one is not on', () =>
    given([joined('a', 1)])
      .when({ type: 'Leave', ticketTypeId: 'vip', accountId: 'b' })
      .thenRefuses('not-found', NOT_WAITING))
})
