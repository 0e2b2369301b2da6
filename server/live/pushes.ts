// Which audience hears of which fact, and what it sees: derived from ledger facts only, never
// carrying password hashes, reset tokens or payment secrets.
import { type AccountRegisteredPush, rooms } from '../../contracts/live.ts'
import type { AccountFact } from '../accounts/facts.ts'
import type { StoredFact } from '../ledger/ledger.ts'

export type KnownFact = AccountFact

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
    default:
      return (fact satisfies never) && []
  }
}
