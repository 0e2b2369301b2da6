// Forgot password (SPEC §2, §8): asks for a reset link by e-mail. The answer is the same whether
// or not an account exists, so the screen always sends the visitor on to the login.
import { useNavigate } from '@tanstack/react-router'
import { ForgotPasswordBody } from '../../../../contracts/accounts.ts'
import { requestPasswordReset } from '../../api/accounts.ts'
import { Field, FormError } from '../../ui/field.tsx'
import { notify } from '../../ui/toasts.ts'
import { textOf, useCheckedForm } from '../../ui/use-checked-form.ts'

const FAILED = 'Something went wrong. Please try again.'

export function ForgotPasswordScreen() {
  const navigate = useNavigate()
  const { busy, error, errorId, submit } = useCheckedForm(ForgotPasswordBody, {
    read: (form) => ({ email: textOf(form, 'email') }),
    invalid: 'Email required',
    send: async ({ email }) => {
      await requestPasswordReset(email)
      notify.successShort('Check your email for the reset password link')
      await navigate({ to: '/login' })
    },
    failed: () => {
      notify.errorShort(FAILED)
      return FAILED
    },
  })

  return (
    <section className="page form-page">
      <form className="card form" onSubmit={submit} noValidate aria-busy={busy}>
        <h1>Forgot Password</h1>
        <p className="form-hint">Enter the e-mail of your account and we will send you a reset link.</p>
        <Field label="Email" name="email" type="email" autoComplete="email" />
        <FormError id={errorId} message={error} />
        <button type="submit" disabled={busy}>
          {busy ? 'Sending...' : 'Send Reset Link'}
        </button>
      </form>
    </section>
  )
}
