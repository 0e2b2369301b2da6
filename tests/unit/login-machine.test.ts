// The login machine without React or a server: calls and effects are provided fakes.
import { describe, expect, it, vi } from 'vitest'
import { createActor, fromPromise, waitFor } from 'xstate'
import type { Profile } from '../../contracts/accounts.ts'
import { type LoginOutcome, loginMachine, loginMessages } from '../../web/src/machines/login.ts'

const profile: Profile = {
  _id: 'acc-1',
  username: 'asha',
  email: 'asha@example.com',
  role: 'user',
  phone: null,
  ticketId: [],
}

type Fakes = {
  login?: (credentials: { email: string; password: string }) => Promise<LoginOutcome>
  fetchProfile?: (input: { token: string }) => Promise<Profile>
}

function startLogin(fakes: Fakes = {}) {
  const effects = {
    storeToken: vi.fn<(token: string) => void>(),
    forgetToken: vi.fn(),
    saveUser: vi.fn<(user: Profile) => void>(),
    notifySuccess: vi.fn<(message: string) => void>(),
    goHome: vi.fn(),
  }
  const login = vi.fn(fakes.login ?? (async () => ({ status: true, token: 'jwt-1', message: 'ok' })))
  const fetchProfile = vi.fn(fakes.fetchProfile ?? (async () => profile))
  const machine = loginMachine.provide({
    actors: {
      login: fromPromise(({ input }) => login(input)),
      fetchProfile: fromPromise(({ input }) => fetchProfile(input)),
    },
    actions: {
      storeToken: (_, { token }) => effects.storeToken(token),
      forgetToken: () => effects.forgetToken(),
      saveUser: (_, { user }) => effects.saveUser(user),
      notifySuccess: (_, { message }) => effects.notifySuccess(message),
      goHome: () => effects.goHome(),
    },
  })
  const actor = createActor(machine).start()
  return { actor, effects, login, fetchProfile }
}

const submit = { type: 'SUBMIT', email: ' Asha@example.com ', password: 'secret-1' } as const

describe('login machine', () => {
  it('starts idle, ready to submit', () => {
    const { actor } = startLogin()
    expect(actor.getSnapshot().value).toBe('idle')
    expect(actor.getSnapshot().can(submit)).toBe(true)
  })

  it('logs in: stores the token, fetches the profile, saves the user, toasts and goes home', async () => {
    const { actor, effects, login, fetchProfile } = startLogin()
    actor.send(submit)
    expect(actor.getSnapshot().value).toBe('submitting')

    const done = await waitFor(actor, (snapshot) => snapshot.status === 'done')
    expect(done.value).toBe('done')
    expect(login).toHaveBeenCalledWith({ email: 'Asha@example.com', password: 'secret-1' })
    expect(effects.storeToken).toHaveBeenCalledWith('jwt-1')
    expect(fetchProfile).toHaveBeenCalledWith({ token: 'jwt-1' })
    expect(effects.saveUser).toHaveBeenCalledWith(profile)
    expect(effects.notifySuccess).toHaveBeenCalledWith('Login successfully !')
    expect(effects.goHome).toHaveBeenCalledOnce()
    expect(done.context.user).toEqual(profile)
    expect(done.context.error).toBeNull()
    expect(done.context.credentials).toBeNull()
  })

  it('shows the server message when the password is wrong, and lets the person try again', async () => {
    const { actor, effects, fetchProfile } = startLogin({
      login: async () => ({ status: false, message: 'Invalid email or password.' }),
    })
    actor.send(submit)
    const failed = await waitFor(actor, (snapshot) => snapshot.matches('failed'))
    expect(failed.context.error).toBe('Invalid email or password.')
    expect(effects.storeToken).not.toHaveBeenCalled()
    expect(fetchProfile).not.toHaveBeenCalled()
    expect(effects.goHome).not.toHaveBeenCalled()
    expect(failed.can(submit)).toBe(true)

    actor.send({ type: 'EDIT' })
    expect(actor.getSnapshot().value).toBe('idle')
    expect(actor.getSnapshot().context.error).toBeNull()
  })

  it("says 'Login failed' when the server refuses without a message", async () => {
    const { actor } = startLogin({ login: async () => ({ status: false }) })
    actor.send(submit)
    const failed = await waitFor(actor, (snapshot) => snapshot.matches('failed'))
    expect(failed.context.error).toBe(loginMessages.refused)
  })

  it('says something went wrong when the call itself fails', async () => {
    const { actor } = startLogin({
      login: async () => {
        throw new TypeError('Failed to fetch')
      },
    })
    actor.send(submit)
    const failed = await waitFor(actor, (snapshot) => snapshot.matches('failed'))
    expect(failed.context.error).toBe('Something went wrong. Please try again.')
  })

  it('requires both fields and calls nothing when one is empty', () => {
    const { actor, login } = startLogin()
    actor.send({ type: 'SUBMIT', email: '  ', password: 'secret-1' })
    expect(actor.getSnapshot().value).toBe('failed')
    expect(actor.getSnapshot().context.error).toBe('Email and Password are required')
    actor.send({ type: 'SUBMIT', email: 'asha@example.com', password: '' })
    expect(actor.getSnapshot().context.error).toBe('Email and Password are required')
    expect(login).not.toHaveBeenCalled()
  })

  it('fails with the profile message (and forgets the token) when the profile cannot be fetched', async () => {
    const { actor, effects } = startLogin({
      fetchProfile: async () => {
        throw new Error('401')
      },
    })
    actor.send(submit)
    const failed = await waitFor(actor, (snapshot) => snapshot.matches('failed'))
    expect(failed.context.error).toBe('Failed to fetch profile.')
    expect(effects.storeToken).toHaveBeenCalledWith('jwt-1')
    expect(effects.forgetToken).toHaveBeenCalledOnce()
    expect(effects.saveUser).not.toHaveBeenCalled()
    expect(effects.goHome).not.toHaveBeenCalled()
  })

  it('says the token is missing when a successful login carries none', async () => {
    const { actor, fetchProfile } = startLogin({ login: async () => ({ status: true, message: 'ok' }) })
    actor.send(submit)
    const failed = await waitFor(actor, (snapshot) => snapshot.matches('failed'))
    expect(failed.context.error).toBe('Token missing. Please log in.')
    expect(fetchProfile).not.toHaveBeenCalled()
  })

  it('does not submit twice while a login is under way', async () => {
    let answer: (outcome: LoginOutcome) => void = () => {}
    const { actor, login } = startLogin({
      login: () =>
        new Promise<LoginOutcome>((resolve) => {
          answer = resolve
        }),
    })
    actor.send(submit)
    expect(actor.getSnapshot().can(submit)).toBe(false)
    actor.send(submit)
    expect(login).toHaveBeenCalledOnce()

    answer({ status: true, token: 'jwt-1', message: 'ok' })
    await waitFor(actor, (snapshot) => snapshot.matches('fetchingProfile') || snapshot.status === 'done')
    expect(actor.getSnapshot().can(submit)).toBe(false)
    await waitFor(actor, (snapshot) => snapshot.status === 'done')
    expect(login).toHaveBeenCalledOnce()
  })
})
