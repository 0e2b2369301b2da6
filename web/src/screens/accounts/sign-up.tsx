// Sign Up (SPEC §2, §5): checked with the same schema as the server (password of 6 or more).
import { useNavigate } from '@tanstack/react-router'
import { RegisterBody } from '../../../../contracts/accounts.ts'
import { register } from '../../api/accounts.ts'
import { Field, FormError } from '../../ui/field.tsx'
import { notify } from '../../ui/toasts.ts'
import { refusalOr, textOf, useCheckedForm } from '../../ui/use-checked-form.ts'

const SIGNUP_FAILED = 'Signup failed. Please try again.'

export function SignUpScreen() {
  const navigate = useNavigate()
  const { busy, error, errorId, submit } = useCheckedForm(RegisterBody, {
    read: (form) => ({
      username: textOf(form, 'username'),
      email: textOf(form, 'email'),
      password: textOf(form, 'password'),
    }),
    invalid: SIGNUP_FAILED,
    send: async (input) => {
      await register(input)
      notify.success('Sign Up successfully!')
      await navigate({ to: '/login' })
    },
    failed: (failure) => refusalOr(failure, SIGNUP_FAILED),
  })

  return (
    <section className="page form-page">
      <form className="card form" onSubmit={submit} noValidate aria-busy={busy}>
        <h1>Sign Up</h1>
        <Field label="Username" name="username" autoComplete="username" />
        <Field label="Email" name="email" type="email" autoComplete="email" />
        <Field label="Password" name="password" type="password" autoComplete="new-password" minLength={6} />
        <FormError id={errorId} message={error} />
        <button type="submit" disabled={busy}>
          {busy ? 'Signing Up...' : 'Sign Up'}
        </button>
      </form>
    </section>
  )
}
