// The login flow as a state machine, free of React and fetch: idle → submitting →
// fetchingProfile → done, or failed (from which a new attempt starts). The screen supplies the
// calls (login, fetchProfile) and the effects (store the token, save the user, toast, navigate).
import { assign, fromPromise, setup } from 'xstate'
import type { Profile } from '../../../contracts/accounts.ts'

export type Credentials = { email: string; password: string }
/** the server's answer to a login: the original contract's {status, token, message} */
export type LoginOutcome = { status: boolean; token?: string; message?: string }

export const loginMessages = {
  required: 'Email and Password are required',
  refused: 'Login failed',
  unexpected: 'Something went wrong. Please try again.',
  tokenMissing: 'Token missing. Please log in.',
  profileFailed: 'Failed to fetch profile.',
  success: 'Login successfully !',
} as const

export type LoginContext = {
  credentials: Credentials | null
  token: string | null
  user: Profile | null
  error: string | null
}

export type LoginEvent = { type: 'SUBMIT'; email: string; password: string } | { type: 'EDIT' }

const notProvided = (name: string) => () => Promise.reject(new Error(`${name} was not provided`))

export const loginMachine = setup({
  types: { context: {} as LoginContext, events: {} as LoginEvent },
  actors: {
    login: fromPromise<LoginOutcome, Credentials>(notProvided('login')),
    fetchProfile: fromPromise<Profile, { token: string }>(notProvided('fetchProfile')),
  },
  actions: {
    storeToken: (_, _params: { token: string }) => {},
    forgetToken: () => {},
    saveUser: (_, _params: { user: Profile }) => {},
    notifySuccess: (_, _params: { message: string }) => {},
    goHome: () => {},
    rememberCredentials: assign({
      credentials: ({ event }) =>
        event.type === 'SUBMIT' ? { email: event.email.trim(), password: event.password } : null,
      error: null,
    }),
    requireCredentials: assign({ error: loginMessages.required }),
  },
  guards: {
    credentialsMissing: ({ event }) =>
      event.type === 'SUBMIT' && (event.email.trim() === '' || event.password === ''),
    acceptedWithToken: (_, { outcome }: { outcome: LoginOutcome }) =>
      outcome.status === true && Boolean(outcome.token),
    accepted: (_, { outcome }: { outcome: LoginOutcome }) => outcome.status === true,
  },
}).createMachine({
  id: 'login',
  initial: 'idle',
  context: { credentials: null, token: null, user: null, error: null },
  states: {
    idle: {
      on: {
        SUBMIT: [
          { guard: 'credentialsMissing', target: 'failed', actions: 'requireCredentials' },
          { target: 'submitting', actions: 'rememberCredentials' },
        ],
      },
    },
    submitting: {
      invoke: {
        src: 'login',
        input: ({ context }) => context.credentials ?? { email: '', password: '' },
        onDone: [
          {
            guard: { type: 'acceptedWithToken', params: ({ event }) => ({ outcome: event.output }) },
            target: 'fetchingProfile',
            actions: [
              assign({ token: ({ event }) => event.output.token ?? null }),
              { type: 'storeToken', params: ({ event }) => ({ token: event.output.token ?? '' }) },
            ],
          },
          {
            guard: { type: 'accepted', params: ({ event }) => ({ outcome: event.output }) },
            target: 'failed',
            actions: assign({ error: loginMessages.tokenMissing }),
          },
          {
            target: 'failed',
            actions: assign({ error: ({ event }) => event.output.message || loginMessages.refused }),
          },
        ],
        onError: { target: 'failed', actions: assign({ error: loginMessages.unexpected }) },
      },
      // The password is needed for the call only.
      exit: assign({ credentials: null }),
    },
    fetchingProfile: {
      invoke: {
        src: 'fetchProfile',
        input: ({ context }) => ({ token: context.token ?? '' }),
        onDone: {
          target: 'done',
          actions: [
            assign({ user: ({ event }) => event.output }),
            { type: 'saveUser', params: ({ event }) => ({ user: event.output }) },
            { type: 'notifySuccess', params: { message: loginMessages.success } },
            'goHome',
          ],
        },
        onError: {
          target: 'failed',
          actions: [assign({ error: loginMessages.profileFailed, token: null }), 'forgetToken'],
        },
      },
    },
    failed: {
      on: {
        SUBMIT: [
          { guard: 'credentialsMissing', target: 'failed', actions: 'requireCredentials' },
          { target: 'submitting', actions: 'rememberCredentials' },
        ],
        EDIT: { target: 'idle', actions: assign({ error: null }) },
      },
    },
    done: { type: 'final' },
  },
})
