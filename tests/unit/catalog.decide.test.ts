// given / when / then for the event decider: an organizer submits an event once; an admin approves
// or rejects it, and may change their mind.
import { describe, it } from 'vitest'
import {
  DATE_IN_PAST,
  EVENT_NOT_FOUND,
  type EventCommand,
  eventDecider,
  INVITATION_NOT_FOUND,
  MAX_DOOR_STAFF,
  NOT_DOOR_STAFF,
  TIME_IN_PAST,
  TOO_MANY_DOOR_STAFF,
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
/** 10:00 on TODAY in Asia/Kolkata */
const NOW = '2030-03-01T04:30:00.000Z'

const submit = (data = event, now = NOW, timeZone = 'Asia/Kolkata'): EventCommand => ({
  type: 'Submit',
  event: data,
  now,
  timeZone,
})
/** the event without a sales end of its own, on another day and time */
const at = (date: string, time: string) => {
  const { salesEnd: _, ...open } = event
  return { ...open, date, time }
}
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
  it('takes an event later on the day it is submitted', () =>
    given([])
      .when(submit(at(TODAY, '10:01')))
      .then([{ type: 'EventSubmitted', data: at(TODAY, '10:01') }]))
  it('refuses a start earlier on the day it is submitted, or at that very minute, naming the time field', () => {
    for (const time of ['09:59', '10:00', '00:00']) {
      given([])
        .when(submit(at(TODAY, time)))
        .thenRefuses('invalid', TIME_IN_PAST, { issues: [{ field: 'time', message: TIME_IN_PAST }] })
    }
  })
  it('judges the start in the zone given: 09:00 on TODAY has gone by in Kolkata, not yet in Honolulu', () => {
    const early = at(TODAY, '09:00')
    given([])
      .when(submit(early))
      .thenRefuses('invalid', TIME_IN_PAST, { issues: [{ field: 'time', message: TIME_IN_PAST }] })
    given([])
      .when(submit(early, NOW, 'Pacific/Honolulu'))
      .then([{ type: 'EventSubmitted', data: early }])
  })
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

// issue 16: the accounts that may scan the event's passes at the door, invited by e-mail
describe('Door staff', () => {
  const invite = (email = 'gate@example.com', invitationId = 'inv1'): EventCommand => ({
    type: 'InviteDoorStaff',
    eventId: 'e1',
    invitationId,
    email,
    by: 'org1',
  })
  const accept = (invitationId = 'inv1', accountId = 'acc1', email = 'gate@example.com'): EventCommand => ({
    type: 'AcceptDoorStaff',
    eventId: 'e1',
    invitationId,
    accountId,
    email,
  })
  const leave = (invitationId = 'inv1', accountId = 'acc1', email = 'gate@example.com'): EventCommand => ({
    type: 'LeaveDoorStaff',
    eventId: 'e1',
    invitationId,
    accountId,
    email,
  })
  const remove = (invitationId = 'inv1'): EventCommand => ({
    type: 'RemoveDoorStaff',
    eventId: 'e1',
    invitationId,
    by: 'org1',
  })
  const invited = (email = 'gate@example.com', invitationId = 'inv1'): CatalogFact => ({
    type: 'DoorStaffInvited',
    data: { eventId: 'e1', invitationId, email, by: 'org1' },
  })
  const accepted = (invitationId = 'inv1', accountId = 'acc1'): CatalogFact => ({
    type: 'DoorStaffAccepted',
    data: { eventId: 'e1', invitationId, accountId },
  })
  const removed = (invitationId = 'inv1', accountId: string | null = null, by = 'org1'): CatalogFact => ({
    type: 'DoorStaffRemoved',
    data: { eventId: 'e1', invitationId, accountId, by },
  })
  /** an account named door staff before invitations existed */
  const addedOfOld = (accountId = 'acc1'): CatalogFact => ({
    type: 'DoorStaffAdded',
    data: { eventId: 'e1', accountId, by: 'org1' },
  })

  it('invites an e-mail (lower-cased)', () =>
    given([submitted]).when(invite('Gate@Example.COM')).then([invited()]))
  it('sends a pending invitation again, under its own id', () =>
    given([submitted, invited()]).when(invite('gate@example.com', 'inv2')).then([invited()]))
  it('leaves an accepted invitation as it is', () =>
    given([submitted, invited(), accepted()]).when(invite('gate@example.com', 'inv2')).thenNothingHappens())
  it(`invites at most ${MAX_DOOR_STAFF} an event; a removed one frees its place`, () => {
    const crowd = Array.from({ length: MAX_DOOR_STAFF }, (_, i) => invited(`p${i}@example.com`, `i${i}`))
    given([submitted, ...crowd])
      .when(invite('one-more@example.com', 'inv-x'))
      .thenRefuses('conflict', TOO_MANY_DOOR_STAFF)
    given([submitted, ...crowd])
      .when(invite('p3@example.com', 'inv-x'))
      .then([invited('p3@example.com', 'i3')])
    given([submitted, ...crowd, removed('i0')])
      .when(invite('one-more@example.com', 'inv-x'))
      .then([invited('one-more@example.com', 'inv-x')])
  })
  it('is accepted by the account with its e-mail, once', () => {
    given([submitted, invited()])
      .when(accept('inv1', 'acc1', 'GATE@example.com'))
      .then([accepted()])
    given([submitted, invited(), accepted()]).when(accept()).thenNothingHappens()
  })
  it('is not accepted by another account, nor once withdrawn', () => {
    given([submitted, invited()])
      .when(accept('inv1', 'acc2', 'other@example.com'))
      .thenRefuses('not-found', INVITATION_NOT_FOUND)
    given([submitted, invited(), removed()]).when(accept()).thenRefuses('not-found', INVITATION_NOT_FOUND)
    given([submitted, invited()]).when(accept('nope')).thenRefuses('not-found', INVITATION_NOT_FOUND)
  })
  it('reads an account named before invitations as invited, accepted by that account alone', () => {
    given([submitted, addedOfOld()])
      .when(accept('acc1', 'acc1', 'any@example.com'))
      .then([accepted('acc1')])
    given([submitted, addedOfOld()])
      .when(accept('acc1', 'acc2', 'any@example.com'))
      .thenRefuses('not-found', INVITATION_NOT_FOUND)
    given([submitted, addedOfOld(), removed('acc1', 'acc1')])
      .when(accept('acc1', 'acc1', 'any@example.com'))
      .thenRefuses('not-found', INVITATION_NOT_FOUND)
  })
  it('is withdrawn, or its member removed, by the organizer', () => {
    given([submitted, invited()]).when(remove()).then([removed()])
    given([submitted, invited(), accepted()])
      .when(remove())
      .then([removed('inv1', 'acc1')])
    given([submitted, invited(), removed()]).when(remove()).thenRefuses('not-found', NOT_DOOR_STAFF)
  })
  it('is declined, or left, by its account', () => {
    given([submitted, invited()])
      .when(leave())
      .then([removed('inv1', 'acc1', 'acc1')])
    given([submitted, invited(), accepted()])
      .when(leave())
      .then([removed('inv1', 'acc1', 'acc1')])
    given([submitted, invited()])
      .when(leave('inv1', 'acc2', 'other@example.com'))
      .thenRefuses('not-found', INVITATION_NOT_FOUND)
  })
  it('refuses an event that was never submitted', () =>
    given([]).when(invite()).thenRefuses('not-found', EVENT_NOT_FOUND))
})

describe('Edit and Cancel (issue 17)', () => {
  const edit = (change: Partial<Extract<EventCommand, { type: 'Edit' }>>): EventCommand => ({
    type: 'Edit',
    eventId: 'e1',
    by: 'org1',
    details: {},
    taken: { vip: 40 },
    newId: () => 'new-type',
    now: '2030-03-01T00:00:00.000Z',
    timeZone: 'Asia/Kolkata',
    ...change,
  })
  const cancel = (by = 'org1', now = '2030-03-01T00:00:00.000Z', asAdmin = false): EventCommand => ({
    type: 'Cancel',
    eventId: 'e1',
    by,
    asAdmin,
    reason: 'Rain.',
    now,
    timeZone: 'Asia/Kolkata',
  })
  const cancelled: CatalogFact = {
    type: 'EventCancelled',
    data: { eventId: 'e1', organizerId: 'org1', by: 'org1', reason: 'Rain.' },
  }

  it('records only what changed, and tells holders when an approved event moves', () =>
    given([submitted, approved()])
      .when(edit({ details: { title: event.title, location: 'Mumbai' } }))
      .then([
        {
          type: 'EventEdited',
          data: {
            eventId: 'e1',
            organizerId: 'org1',
            by: 'org1',
            details: { location: 'Mumbai' },
            moved: { date: event.date, time: event.time, location: event.location },
          },
        },
      ]))
  it('changes nothing when nothing differs', () =>
    given([submitted])
      .when(edit({ details: { title: event.title } }))
      .thenNothingHappens())
  it('keeps a capacity at or above the seats sold and held', () =>
    given([submitted])
      .when(edit({ ticketTypes: [{ type: 'VIP', pricePaise: 149900, quantity: 39 }] }))
      .thenRefuses('conflict', 'VIP cannot have fewer than 40 seats: that many are sold or held.'))
  it('refuses to drop a type with sales, and adds a new one with an id of its own', () => {
    given([submitted])
      .when(edit({ ticketTypes: [{ type: 'General Admission', pricePaise: 0, quantity: 5 }] }))
      .thenRefuses('conflict', 'VIP has seats sold or held, so it cannot be removed.')
    given([submitted])
      .when(
        edit({
          taken: {},
          ticketTypes: [
            { type: 'VIP', pricePaise: 149900, quantity: 100 },
            { type: 'General Admission', pricePaise: 0, quantity: 5 },
          ],
        }),
      )
      .then([
        {
          type: 'EventEdited',
          data: {
            eventId: 'e1',
            organizerId: 'org1',
            by: 'org1',
            details: {},
            ticketTypes: [
              { ticketTypeId: 'vip', type: 'VIP', pricePaise: 149900, quantity: 100 },
              { ticketTypeId: 'new-type', type: 'General Admission', pricePaise: 0, quantity: 5 },
            ],
          },
        },
      ])
  })
  it("refuses another organizer's edit, and any once cancelled", () => {
    given([submitted])
      .when(edit({ by: 'org2' }))
      .thenRefuses('forbidden', 'You can only change your own events.')
    given([submitted, cancelled])
      .when(edit({ details: { title: 'Back' } }))
      .thenRefuses('conflict', 'This event has been cancelled.')
  })
  it('cancels once, by its organizer or an admin, before it starts', () => {
    given([submitted, approved()]).when(cancel()).then([cancelled])
    given([submitted, approved()])
      .when(cancel('admin1', '2030-03-01T00:00:00.000Z', true))
      .then([{ ...cancelled, data: { ...cancelled.data, by: 'admin1' } } as CatalogFact])
    given([submitted, cancelled]).when(cancel()).thenRefuses('conflict', 'This event is already cancelled.')
    given([submitted]).when(cancel('org2')).thenRefuses('forbidden', 'You can only change your own events.')
    // 19:00 in Kolkata is 13:30 UTC
    given([submitted])
      .when(cancel('org1', '2030-03-15T13:30:00.000Z'))
      .thenRefuses('conflict', 'This event has started, so it can no longer be cancelled.')
  })
})
