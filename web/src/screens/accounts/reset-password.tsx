// Reset password (SPEC §2, §8): the link's token and a new password.
import { getRouteApi, useNavigate } from '@tanstack/react-router'
import { ResetPasswordBody } from '../../../../contracts/accounts.ts'
import { resetPassword } from '../../api/accounts.ts'
import { Field, FormError } from '../../ui/field.tsx'
import { notify } from '../../ui/toasts.ts'
import { refusalOr, textOf, useCheckedForm } from '../../ui/use-checked-form.ts'

const FAILED = 'Something went wrong. Please try again.'
const route = getRouteApi('/reset-password/$token')

export function ResetPasswordScreen() {
  const { token } = route.useParams()
  const navigate = useNavigate()
  const { busy, error, errorId, submit } = useCheckedForm(ResetPasswordBody, {
    read: (form) => ({ password: textOf(form, 'password') }),
    invalid: 'Password is required.',
    send: async ({ password }) => {
      await resetPassword(token, password)
      notify.successShort('Your password has been reset successfully.')
      await navigate({ to: '/login' })
    },
    failed: (failure) => {
      const message = refusalOr(failure, FAILED)
      notify.errorShort(message)
      return message
    },
  })

  return (
    <section className="page form-page">
      <form className="card form" onSubmit={submit} noValidate aria-busy={busy}>
        <h1>Reset Password</h1>
        <Field label="New Password" name="password" type="password" autoComplete="new-password" />
        <FormError id={errorId} message={error} />
        <button type="submit" disabled={busy}>
          {busy ? 'Resetting...' : 'Reset Password'}
        </button>
      </form>
    </section>
  )
}
