// given / when / then for the event decider: an organizer submits an event once; an admin approves
// or rejects it, and may change their mind.
import { describe, it } from 'vitest'
import {
  DATE_IN_PAST,
  EVENT_NOT_FOUND,
  type EventCommand,
  eventDecider,
  NOT_DOOR_STAFF,
} from '../../server/catalog/decide.ts'
import type { CatalogFact, EventSubmitted } from '../../server/catalog/facts.ts'
import { deciderSpec } from '../support/decider-spec.ts'

const { given } = deciderSpec(eventDecider)

const event: EventSubmitted['data'] = {
  eventId: 'e1',
  organizerId: 'org1',
  title: 'Sitar at Dusk',
  description: 'An evening of ragas.',
  date: '2030-03-15',
  time: '19:00',
  location: 'Delhi',
  category: 'Music',
  images: [{ url: '/uploads/poster.png' }],
  videos: [],
  ticketTypes: [{ ticketTypeId: 'vip', type: 'VIP', pricePaise: 149900, quantity: 100 }],
  salesEnd: '2030-03-15T12:00',
}
const TODAY = '2030-03-01'

const submit = (data = event, today = TODAY): EventCommand => ({ type: 'Submit', event: data, today })
const review = (decision: 'Approved' | 'Rejected', reason?: string): EventCommand => ({
  type: 'Review',
  eventId: 'e1',
  decision,
  by: 'admin1',
  ...(reason === undefined ? {} : { reason }),
})

const submitted: CatalogFact = { type: 'EventSubmitted', data: event }
const approved = (reason?: string): CatalogFact => ({
  type: 'EventApproved',
  data: { eventId: 'e1', organizerId: 'org1', by: 'admin1', ...(reason ? { reason } : {}) },
})
const rejected = (wasApproved: boolean, reason?: string): CatalogFact => ({
  type: 'EventRejected',
  data: { eventId: 'e1', organizerId: 'org1', by: 'admin1', ...(reason ? { reason } : {}), wasApproved },
})

describe('Submit', () => {
  it('submits a new event, pending review', () => given([]).when(submit()).then([submitted]))
  it('takes an event on the day it is submitted', () =>
    given([])
      .when(submit({ ...event, date: TODAY }))
      .then([{ type: 'EventSubmitted', data: { ...event, date: TODAY } }]))
  it('takes an event without a sales end of its own', () => {
    const { salesEnd: _, ...open } = event
    given([])
      .when(submit(open))
      .then([{ type: 'EventSubmitted', data: open }])
  })
  it('refuses a date in the past, naming the date field', () =>
    given([])
      .when(submit({ ...event, date: '2030-02-28' }))
      .thenRefuses('invalid', DATE_IN_PAST, { issues: [{ field: 'date', message: DATE_IN_PAST }] }))
  it('refuses to submit the same event twice', () =>
    given([submitted]).when(submit()).thenRefuses('conflict', 'This event exists already.'))
  it('refuses to submit an event again once it was reviewed', () =>
    given([submitted, approved()]).when(submit()).thenRefuses('conflict', 'This event exists already.'))
})

describe('Review', () => {
  it('approves a pending event, for its organizer', () =>
    given([submitted]).when(review('Approved')).then([approved()]))
  it("approves with the admin's words to the organizer", () =>
    given([submitted])
      .when(review('Approved', 'Lovely lineup.'))
      .then([approved('Lovely lineup.')]))
  it('leaves an empty reason out', () => given([submitted]).when(review('Approved', '')).then([approved()]))
  it('rejects a pending event, which was never public', () =>
    given([submitted])
      .when(review('Rejected', 'No venue yet.'))
      .then([rejected(false, 'No venue yet.')]))
  it('rejects an approved event, saying it was public until now', () =>
    given([submitted, approved()])
      .when(review('Rejected'))
      .then([rejected(true)]))
  it('approves a rejected event after all', () =>
    given([submitted, rejected(false)])
      .when(review('Approved'))
      .then([approved()]))
  it('refuses an event that was never submitted', () =>
    given([]).when(review('Approved')).thenRefuses('not-found', EVENT_NOT_FOUND))
  it('refuses to approve an approved event again', () =>
    given([submitted, approved()])
      .when(review('Approved'))
      .thenRefuses('conflict', 'This event is already approved.'))
  it('refuses to reject a rejected event again', () =>
    given([submitted, approved(), rejected(true)])
      .when(review('Rejected'))
      .thenRefuses('conflict', 'This event is already rejected.'))
})

// issue 16: the accounts that may scan the event's passes at the door
describe('Door staff', () => {
  const staff = (type: 'AddDoorStaff' | 'RemoveDoorStaff', accountId = 'acc1'): EventCommand => ({
    type,
    eventId: 'e1',
    accountId,
    by: 'org1',
  })
  const added = (accountId = 'acc1'): CatalogFact => ({
    type: 'DoorStaffAdded',
    data: { eventId: 'e1', accountId, by: 'org1' },
  })
  const removed = (accountId = 'acc1'): CatalogFact => ({
    type: 'DoorStaffRemoved',
    data: { eventId: 'e1', accountId, by: 'org1' },
  })
  it('adds an account', () => given([submitted]).when(staff('AddDoorStaff')).then([added()]))
  it('adds an account once (asked again: nothing happens)', () =>
    given([submitted, added()]).when(staff('AddDoorStaff')).thenNothingHappens())
  it('adds it again after it was removed', () =>
    given([submitted, added(), removed()]).when(staff('AddDoorStaff')).then([added()]))
  it('removes a member', () =>
    given([submitted, added(), added('acc2')])
      .when(staff('RemoveDoorStaff'))
      .then([removed()]))
  it('refuses to remove an account that is not door staff', () =>
    given([submitted, added('acc2')])
      .when(staff('RemoveDoorStaff'))
      .thenRefuses('not-found', NOT_DOOR_STAFF))
  it('refuses an event that was never submitted', () =>
    given([]).when(staff('AddDoorStaff')).thenRefuses('not-found', EVENT_NOT_FOUND))
})
