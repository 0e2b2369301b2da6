// Pure decisions about one event's stream: submission, the admin's review, and its door staff.
import type { ApprovalStatus } from '../../contracts/catalog.ts'
import { conflict, invalid, notFound } from '../errors.ts'
import type { Decider } from '../ledger/decider.ts'
import type { CatalogFact, EventSubmitted } from './facts.ts'

export type EventState = {
  status: ApprovalStatus | null
  organizerId: string | null
  /** the accounts that may scan its passes at the door */
  doorStaff: readonly string[]
}

export type EventCommand =
  | { type: 'Submit'; event: EventSubmitted['data']; today: string }
  | { type: 'Review'; eventId: string; decision: 'Approved' | 'Rejected'; by: string; reason?: string }
  /** an account let scan this event's passes (adding one that may already: nothing happens) */
  | { type: 'AddDoorStaff'; eventId: string; accountId: string; by: string }
  | { type: 'RemoveDoorStaff'; eventId: string; accountId: string; by: string }

export const EVENT_NOT_FOUND = 'Event not found.'
export const DATE_IN_PAST = 'The date cannot be in the past.'
export const NOT_DOOR_STAFF = 'This account is not door staff of this event.'

export const eventDecider: Decider<EventState, EventCommand, CatalogFact> = {
  initialState: () => ({ status: null, organizerId: null, doorStaff: [] }),

  evolve(state, fact) {
    switch (fact.type) {
      case 'EventSubmitted':
        return { ...state, status: 'Pending', organizerId: fact.data.organizerId }
      case 'EventApproved':
        return { ...state, status: 'Approved' }
      case 'EventRejected':
        return { ...state, status: 'Rejected' }
      case 'DoorStaffAdded':
        return { ...state, doorStaff: [...state.doorStaff, fact.data.accountId] }
      case 'DoorStaffRemoved':
        return { ...state, doorStaff: state.doorStaff.filter((id) => id !== fact.data.accountId) }
      default:
        return fact satisfies never
    }
  },

  decide(command, state) {
    switch (command.type) {
      case 'Submit': {
        if (state.status) throw conflict('This event exists already.')
        if (command.event.date < command.today) {
          throw invalid(DATE_IN_PAST, [{ field: 'date', message: DATE_IN_PAST }])
        }
        return [{ type: 'EventSubmitted', data: command.event }]
      }
      case 'Review': {
        if (!state.status || !state.organizerId) throw notFound(EVENT_NOT_FOUND)
        if (state.status === command.decision) {
          throw conflict(
            `This event is already ${command.decision === 'Approved' ? 'approved' : 'rejected'}.`,
          )
        }
        const data = {
          eventId: command.eventId,
          organizerId: state.organizerId,
          by: command.by,
          ...(command.reason ? { reason: command.reason } : {}),
        }
        return [
          command.decision === 'Approved'
            ? { type: 'EventApproved', data }
            : { type: 'EventRejected', data: { ...data, wasApproved: state.status === 'Approved' } },
        ]
      }
      case 'AddDoorStaff':
      case 'RemoveDoorStaff': {
        if (!state.status) throw notFound(EVENT_NOT_FOUND)
        const data = { eventId: command.eventId, accountId: command.accountId, by: command.by }
        const member = state.doorStaff.includes(command.accountId)
        if (command.type === 'AddDoorStaff') return member ? [] : [{ type: 'DoorStaffAdded', data }]
        if (!member) throw notFound(NOT_DOOR_STAFF)
        return [{ type: 'DoorStaffRemoved', data }]
      }
      default:
        return command satisfies never
    }
  },
}
