// given / when / then for the account decider.
import { describe, expect, it } from 'vitest'
import {
  type AccountCommand,
  accountDecider,
  EMAIL_TAKEN,
  INVALID_RESET_LINK,
} from '../../server/accounts/decide.ts'
import type { AccountFact } from '../../server/accounts/facts.ts'
import { fold } from '../../server/ledger/decider.ts'

const given = (facts: AccountFact[]) => ({
  when: (command: AccountCommand) => {
    const run = () => accountDecider.decide(command, fold(accountDecider, facts))
    return {
      thenAppends: (expected: AccountFact[]) => expect(run()).toEqual(expected),
      thenRefuses: (message: string) => expect(run).toThrow(message),
    }
  },
})

const registered: AccountFact = {
  type: 'AccountRegistered',
  data: {
    accountId: 'a1',
    username: 'Asha',
    email: 'asha@example.com',
    passwordHash: 'h1',
    role: 'user',
    phone: null,
    createdBy: null,
  },
}
const register = (emailTaken: boolean): AccountCommand => ({
  type: 'Register',
  accountId: 'a1',
  username: 'Asha',
  email: 'asha@example.com',
  passwordHash: 'h1',
  role: 'user',
  phone: null,
  createdBy: null,
  emailTaken,
})
const requested = (tokenHash: string, expiresAt: string): AccountFact => ({
  type: 'PasswordResetRequested',
  data: { accountId: 'a1', tokenHash, expiresAt },
})
const reset = (tokenHash: string, now: string): AccountCommand => ({
  type: 'ResetPassword',
  accountId: 'a1',
  tokenHash,
  passwordHash: 'h2',
  now,
})

describe('Register', () => {
  it('registers a new account', () => given([]).when(register(false)).thenAppends([registered]))
  it('refuses an e-mail that is taken', () => given([]).when(register(true)).thenRefuses(EMAIL_TAKEN))
  it('refuses to register the same account twice', () =>
    given([registered]).when(register(false)).thenRefuses(EMAIL_TAKEN))
})

describe('RequestPasswordReset', () => {
  it('records the hash of a reset link', () =>
    given([registered])
      .when({
        type: 'RequestPasswordReset',
        accountId: 'a1',
        tokenHash: 't1',
        expiresAt: '2030-01-01T00:00:00.000Z',
      })
      .thenAppends([requested('t1', '2030-01-01T00:00:00.000Z')]))
  it('does nothing for an account that does not exist', () =>
    given([])
      .when({
        type: 'RequestPasswordReset',
        accountId: 'a1',
        tokenHash: 't1',
        expiresAt: '2030-01-01T00:00:00.000Z',
      })
      .thenAppends([]))
})

describe('ResetPassword', () => {
  const link = requested('t1', '2030-01-01T00:30:00.000Z')
  it('resets with the newest link before it expires', () =>
    given([registered, link])
      .when(reset('t1', '2030-01-01T00:10:00.000Z'))
      .thenAppends([
        { type: 'PasswordReset', data: { accountId: 'a1', tokenHash: 't1', passwordHash: 'h2' } },
      ]))
  it('refuses an expired link', () =>
    given([registered, link]).when(reset('t1', '2030-01-01T00:30:00.000Z')).thenRefuses(INVALID_RESET_LINK))
  it('refuses a link used once already', () =>
    given([
      registered,
      link,
      { type: 'PasswordReset', data: { accountId: 'a1', tokenHash: 't1', passwordHash: 'h2' } },
    ])
      .when(reset('t1', '2030-01-01T00:10:00.000Z'))
      .thenRefuses(INVALID_RESET_LINK))
  it('refuses an older link once a newer one was sent', () =>
    given([registered, link, requested('t2', '2030-01-01T00:40:00.000Z')])
      .when(reset('t1', '2030-01-01T00:10:00.000Z'))
      .thenRefuses(INVALID_RESET_LINK))
})
