// given / when / then for the account decider.
import { describe, it } from 'vitest'
import {
  type AccountCommand,
  accountDecider,
  EMAIL_TAKEN,
  INVALID_RESET_LINK,
} from '../../server/accounts/decide.ts'
import type { AccountFact } from '../../server/accounts/facts.ts'
import { deciderSpec } from '../support/decider-spec.ts'

const { given } = deciderSpec(accountDecider)

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
const register = (emailTaken: boolean): Extract<AccountCommand, { type: 'Register' }> => ({
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
const requestReset = (tokenHash: string, expiresAt: string): AccountCommand => ({
  type: 'RequestPasswordReset',
  accountId: 'a1',
  tokenHash,
  expiresAt,
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
const wasReset = (tokenHash: string): AccountFact => ({
  type: 'PasswordReset',
  data: { accountId: 'a1', tokenHash, passwordHash: 'h2' },
})

describe('Register', () => {
  it('registers a new account', () => given([]).when(register(false)).then([registered]))
  it('registers an organizer with a phone, recording the admin who created it', () =>
    given([])
      .when({ ...register(false), role: 'organizers', phone: '+91 98765 43210', createdBy: 'admin1' })
      .then([
        {
          type: 'AccountRegistered',
          data: { ...registered.data, role: 'organizers', phone: '+91 98765 43210', createdBy: 'admin1' },
        },
      ]))
  it('refuses an e-mail that is taken', () =>
    given([]).when(register(true)).thenRefuses('conflict', EMAIL_TAKEN))
  it('refuses to register the same account twice', () =>
    given([registered]).when(register(false)).thenRefuses('conflict', EMAIL_TAKEN))
})

describe('RequestPasswordReset', () => {
  it('records the hash of a reset link', () =>
    given([registered])
      .when(requestReset('t1', '2030-01-01T00:00:00.000Z'))
      .then([requested('t1', '2030-01-01T00:00:00.000Z')]))
  it('records a newer link while an older one is still open', () =>
    given([registered, requested('t1', '2030-01-01T00:30:00.000Z')])
      .when(requestReset('t2', '2030-01-01T00:40:00.000Z'))
      .then([requested('t2', '2030-01-01T00:40:00.000Z')]))
  it('does nothing for an account that does not exist', () =>
    given([]).when(requestReset('t1', '2030-01-01T00:00:00.000Z')).thenNothingHappens())
})

describe('ResetPassword', () => {
  const link = requested('t1', '2030-01-01T00:30:00.000Z')
  it('resets with the newest link before it expires', () =>
    given([registered, link])
      .when(reset('t1', '2030-01-01T00:10:00.000Z'))
      .then([wasReset('t1')]))
  it('resets with the newer of two links', () =>
    given([registered, link, requested('t2', '2030-01-01T00:40:00.000Z')])
      .when(reset('t2', '2030-01-01T00:35:00.000Z'))
      .then([wasReset('t2')]))
  it('refuses an expired link', () =>
    given([registered, link])
      .when(reset('t1', '2030-01-01T00:30:00.000Z'))
      .thenRefuses('invalid', INVALID_RESET_LINK))
  it('refuses a link used once already', () =>
    given([registered, link, wasReset('t1')])
      .when(reset('t1', '2030-01-01T00:10:00.000Z'))
      .thenRefuses('invalid', INVALID_RESET_LINK))
  it('refuses an older link once a newer one was sent', () =>
    given([registered, link, requested('t2', '2030-01-01T00:40:00.000Z')])
      .when(reset('t1', '2030-01-01T00:10:00.000Z'))
      .thenRefuses('invalid', INVALID_RESET_LINK))
  it('refuses a link that was never sent', () =>
    given([registered, link])
      .when(reset('guessed', '2030-01-01T00:10:00.000Z'))
      .thenRefuses('invalid', INVALID_RESET_LINK))
  it('refuses a reset when no link was asked for', () =>
    given([registered])
      .when(reset('t1', '2030-01-01T00:10:00.000Z'))
      .thenRefuses('invalid', INVALID_RESET_LINK))
  it('refuses a reset of an account that does not exist', () =>
    given([]).when(reset('t1', '2030-01-01T00:10:00.000Z')).thenRefuses('invalid', INVALID_RESET_LINK))
})
