// Pure decisions about one account's stream.
import type { Role } from '../../contracts/accounts.ts'
import { conflict, invalid } from '../errors.ts'
import type { Decider } from '../ledger/decider.ts'
import type { AccountFact } from './facts.ts'

export type AccountState = {
  exists: boolean
  /** only the newest reset link works, once, until it expires */
  resetToken: { hash: string; expiresAt: string } | null
}

export type AccountCommand =
  | {
      type: 'Register'
      accountId: string
      username: string
      email: string
      passwordHash: string
      role: Role
      phone: string | null
      createdBy: string | null
      /** looked up in the same transaction as the decision */
      emailTaken: boolean
    }
  | { type: 'RequestPasswordReset'; accountId: string; tokenHash: string; expiresAt: string }
  | { type: 'ResetPassword'; accountId: string; tokenHash: string; passwordHash: string; now: string }

export const INVALID_RESET_LINK = 'This reset link is invalid or has expired.'
export const EMAIL_TAKEN = 'An account with this email already exists.'

export const accountDecider: Decider<AccountState, AccountCommand, AccountFact> = {
  initialState: () => ({ exists: false, resetToken: null }),

  evolve(state, fact) {
    switch (fact.type) {
      case 'AccountRegistered':
        return { ...state, exists: true }
      case 'PasswordResetRequested':
        return { ...state, resetToken: { hash: fact.data.tokenHash, expiresAt: fact.data.expiresAt } }
      case 'PasswordReset':
        return { ...state, resetToken: null }
      default:
        return fact satisfies never
    }
  },

  decide(command, state) {
    switch (command.type) {
      case 'Register': {
        if (state.exists || command.emailTaken) throw conflict(EMAIL_TAKEN)
        const { type: _, emailTaken: __, ...data } = command
        return [{ type: 'AccountRegistered', data }]
      }
      case 'RequestPasswordReset': {
        if (!state.exists) return []
        const { accountId, tokenHash, expiresAt } = command
        return [{ type: 'PasswordResetRequested', data: { accountId, tokenHash, expiresAt } }]
      }
      case 'ResetPassword': {
        const token = state.resetToken
        if (!token || token.hash !== command.tokenHash || token.expiresAt <= command.now) {
          throw invalid(INVALID_RESET_LINK)
        }
        const { accountId, tokenHash, passwordHash } = command
        return [{ type: 'PasswordReset', data: { accountId, tokenHash, passwordHash } }]
      }
      default:
        return command satisfies never
    }
  },
}
