// Login (SPEC §2, §4): the login machine drives the form; this screen supplies its calls and
// effects (token storage, the session's user, the toast, and the way on: back to the page that
// sent the visitor here (?redirect, a path of this site: routes/return-to.ts), else home).
import { getRouteApi, Link, useNavigate } from '@tanstack/react-router'
import { useMachine } from '@xstate/react'
import { type FormEvent, useEffect, useId, useMemo, useRef } from 'react'
import { fromPromise } from 'xstate'
import { fetchProfile, logIn } from '../../api/accounts.ts'
import { loginMachine } from '../../machines/login.ts'
import { useSessionStore } from '../../session/use-session.ts'
import { Field, FormError } from '../../ui/field.tsx'
import { focusLost } from '../../ui/focus.ts'
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
  // the refusal is about both fields: each is said invalid and described by it, and the focus the
  // disabled Login lost goes to the field to type again (the first empty one, else the password)
  const { error } = snapshot.context
  const errorId = useId()
  const form = useRef<HTMLFormElement>(null)
  useEffect(() => {
    if (!error || !focusLost()) return
    const fields = [...(form.current?.querySelectorAll('input') ?? [])]
    ;(fields.find((field) => field.value === '') ?? fields.at(-1))?.focus()
  }, [error])
  const refused = error ? { 'aria-invalid': true, 'aria-describedby': errorId } : {}

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
      <form ref={form} className="card form" onSubmit={submit} noValidate aria-busy={busy}>
        <h1>Login</h1>
        <Field
          label="Email"
          name="email"
          type="email"
          autoComplete="email"
          onChange={() => send({ type: 'EDIT' })}
          {...refused}
        />
        <Field
          label="Password"
          name="password"
          type="password"
          autoComplete="current-password"
          onChange={() => send({ type: 'EDIT' })}
          {...refused}
        />
        <FormError id={errorId} message={error} />
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
