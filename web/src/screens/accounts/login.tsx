// Login (SPEC §2, §4): the login machine drives the form; this screen supplies its calls and
// effects (token storage, the session's user, the toast, and the way on: back to the page that
// sent the visitor here (?redirect, a path of this site: routes/return-to.ts), else home).
import { getRouteApi, Link, useNavigate } from '@tanstack/react-router'
import { useMachine } from '@xstate/react'
import { type FormEvent, useMemo } from 'react'
import { fromPromise } from 'xstate'
import { fetchProfile, logIn } from '../../api/accounts.ts'
import { loginMachine } from '../../machines/login.ts'
import { useSessionStore } from '../../session/use-session.ts'
import { Field, FormError } from '../../ui/field.tsx'
import { notify } from '../../ui/toasts.ts'

const loginRoute = getRouteApi('/_visitors/login')

export function LoginScreen() {
  const session = useSessionStore()
  const navigate = useNavigate()
  const { redirect } = loginRoute.useSearch()
  const machine = useMemo(
    () =>
      loginMachine.provide({
        actors: {
          login: fromPromise(({ input }) => logIn(input)),
          fetchProfile: fromPromise(({ input }) => fetchProfile(input.token)),
        },
        actions: {
          storeToken: (_, { token }) => session.storeToken(token),
          forgetToken: () => session.signOut(),
          saveUser: (_, { user }) => session.saveUser(user),
          notifySuccess: (_, { message }) => notify.success(message),
          goHome: () => {
            void (redirect ? navigate({ href: redirect }) : navigate({ to: '/' }))
          },
        },
      }),
    [session, navigate, redirect],
  )
  const [snapshot, send] = useMachine(machine)
  const busy = snapshot.matches('submitting') || snapshot.matches('fetchingProfile')

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    const form = new FormData(event.currentTarget)
    send({
      type: 'SUBMIT',
      email: String(form.get('email') ?? ''),
      password: String(form.get('password') ?? ''),
    })
  }

  return (
    <section className="page form-page">
      <form className="card form" onSubmit={submit} noValidate aria-busy={busy}>
        <h1>Login</h1>
        <Field
          label="Email"
          name="email"
          type="email"
          autoComplete="email"
          onChange={() => send({ type: 'EDIT' })}
        />
        <Field
          label="Password"
          name="password"
          type="password"
          autoComplete="current-password"
          onChange={() => send({ type: 'EDIT' })}
        />
        <FormError message={snapshot.context.error} />
        <button type="submit" disabled={busy}>
          {busy ? 'Logging in...' : 'Login'}
        </button>
        <p className="form-links">
          <Link to="/forgot-password">Forgot Password</Link>
          <span>
            New here? <Link to="/signup">Create an account</Link>
          </span>
        </p>
      </form>
    </section>
  )
}
