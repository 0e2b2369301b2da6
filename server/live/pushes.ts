// Which audience hears of which fact, and what it sees: derived from ledger facts only, never
// carrying password hashes, reset tokens or payment secrets.
import { type AccountRegisteredPush, type EventStatusPush, rooms } from '../../contracts/live.ts'
import type { AccountFact } from '../accounts/facts.ts'
import type { CatalogFact } from '../catalog/facts.ts'
import type { StoredFact } from '../ledger/ledger.ts'

export type KnownFact = AccountFact | CatalogFact

export type Push = { room: string; data: Record<string, unknown> }

export function pushesOf(stored: StoredFact): Push[] {
  const fact = stored as unknown as StoredFact<KnownFact>
  switch (fact.type) {
    case 'AccountRegistered': {
      const { accountId, username, email, role } = fact.data
      const data: AccountRegisteredPush = { accountId, username, email, role }
      return [{ room: rooms.admins, data }]
    }
    case 'PasswordResetRequested':
    case 'PasswordReset':
      return []
    case 'EventSubmitted': {
      const { eventId, organizerId, title } = fact.data
      const data: EventStatusPush = { eventId, organizerId, title, approvalStatus: 'Pending' }
      return [rooms.admins, rooms.organizer(organizerId)].map((room) => ({ room, data }))
    }
    case 'EventApproved':
    case 'EventRejected': {
      const { eventId, organizerId } = fact.data
      const approvalStatus = fact.type === 'EventApproved' ? 'Approved' : 'Rejected'
      const data: EventStatusPush = { eventId, organizerId, approvalStatus }
      return [rooms.admins, rooms.organizer(organizerId), rooms.event(eventId), rooms.listing].map(
        (room) => ({
          room,
          data,
        }),
      )
    }
    default:
      return (fact satisfies never) && []
  }
}
