// Calls of the accounts area: /auth/* and the admin's account routes (API.md).
import * as v from 'valibot'
import {
  AccountList,
  type AccountSummary,
  type CreateOrganizerBody,
  type LoginBody,
  type Profile,
  ProfileReply,
  type RegisterBody,
} from '../../../contracts/accounts.ts'
import type { StatusReply } from '../../../contracts/common.ts'
import { ApiError, api } from './client.ts'

/** What the login form needs to know: the original contract's {status, token, message}. */
export type LoginOutcome = { status: boolean; token?: string; message?: string }

export async function logIn(credentials: LoginBody): Promise<LoginOutcome> {
  try {
    return await api.post<LoginOutcome>('/auth/login', credentials, { token: null })
  } catch (error) {
    // A refusal (wrong password, too many attempts) is an answer, not a failure of the call.
    if (error instanceof ApiError && error.isRefusal) return { status: false, message: error.message }
    throw error
  }
}

export async function fetchProfile(token?: string): Promise<Profile> {
  const reply = await api.get<unknown>('/auth/profile', token === undefined ? {} : { token })
  return v.parse(ProfileReply, reply).user
}

export const register = (body: RegisterBody) => api.post<StatusReply>('/auth/register', body, { token: null })

export const requestPasswordReset = (email: string) =>
  api.post<StatusReply>('/auth/forgotpassword', { email }, { token: null })

export const resetPassword = (token: string, password: string) =>
  api.post<StatusReply>(`/auth/reset-password/${encodeURIComponent(token)}`, { password }, { token: null })

export const createOrganizer = (body: CreateOrganizerBody) =>
  api.post<StatusReply>('/admin/create-organizer', body)

export async function fetchAccounts(): Promise<AccountSummary[]> {
  return v.parse(AccountList, await api.get<unknown>('/admin/getalluser'))
}
