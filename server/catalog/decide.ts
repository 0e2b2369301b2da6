// Pure decisions about one event's stream: submission and the admin's review.
import type { ApprovalStatus } from '../../contracts/catalog.ts'
import { conflict, invalid, notFound } from '../errors.ts'
import type { Decider } from '../ledger/decider.ts'
import type { CatalogFact, EventSubmitted } from './facts.ts'

export type EventState = { status: ApprovalStatus | null; organizerId: string | null }

export type EventCommand =
  | { type: 'Submit'; event: EventSubmitted['data']; today: string }
  | { type: 'Review'; eventId: string; decision: 'Approved' | 'Rejected'; by: string; reason?: string }

export const EVENT_NOT_FOUND = 'Event not found.'
export const DATE_IN_PAST = 'The date cannot be in the past.'

export const eventDecider: Decider<EventState, EventCommand, CatalogFact> = {
  initialState: () => ({ status: null, organizerId: null }),

  evolve(state, fact) {
    switch (fact.type) {
      case 'EventSubmitted':
        return { status: 'Pending', organizerId: fact.data.organizerId }
      case 'EventApproved':
        return { ...state, status: 'Approved' }
      case 'EventRejected':
        return { ...state, status: 'Rejected' }
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
      default:
        return command satisfies never
    }
  },
}
