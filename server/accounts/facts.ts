import type { Role } from '../../contracts/accounts.ts'

export type AccountRegistered = {
  type: 'AccountRegistered'
  data: {
    accountId: string
    username: string
    email: string
    /** argon2id; stays in the ledger so a rebuild restores sign-in, never leaves the server */
    passwordHash: string
    role: Role
    phone: string | null
    /** the admin who created it, for organizer and seeded accounts */
    createdBy: string | null
  }
}

export type PasswordResetRequested = {
  type: 'PasswordResetRequested'
  data: { accountId: string; tokenHash: string; expiresAt: string }
}

export type PasswordReset = {
  type: 'PasswordReset'
  data: { accountId: string; tokenHash: string | null; passwordHash: string }
}

export type AccountFact = AccountRegistered | PasswordResetRequested | PasswordReset
