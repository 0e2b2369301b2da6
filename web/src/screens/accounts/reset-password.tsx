// Reset password (SPEC §2, §8): the link's token and a new password.
import { getRouteApi, useNavigate } from '@tanstack/react-router'
import { type FormEvent, useState } from 'react'
import * as v from 'valibot'
import { ResetPasswordBody } from '../../../../contracts/accounts.ts'
import { resetPassword } from '../../api/accounts.ts'
import { ApiError } from '../../api/client.ts'
import { Field, FormError } from '../../ui/field.tsx'
import { notify } from '../../ui/toasts.ts'

const FAILED = 'Something went wrong. Please try again.'
const route = getRouteApi('/reset-password/$token')

export function ResetPasswordScreen() {
  const { token } = route.useParams()
  const navigate = useNavigate()
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<string | null>(null)

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    if (busy) return
    const checked = v.safeParse(ResetPasswordBody, {
      password: String(new FormData(event.currentTarget).get('password') ?? ''),
    })
    if (!checked.success) {
      setError(checked.issues[0]?.message ?? 'Password is required.')
      return
    }
    setBusy(true)
    setError(null)
    try {
      await resetPassword(token, checked.output.password)
      notify.successShort('Your password has been reset successfully.')
      await navigate({ to: '/login' })
    } catch (failure) {
      const message = failure instanceof ApiError && failure.isRefusal ? failure.message : FAILED
      setError(message)
      notify.errorShort(message)
      setBusy(false)
    }
  }

  return (
    <section className="page form-page">
      <form className="card form" onSubmit={submit} noValidate aria-busy={busy}>
        <h1>Reset Password</h1>
        <Field label="New Password" name="password" type="password" autoComplete="new-password" />
        <FormError message={error} />
        <button type="submit" disabled={busy}>
          {busy ? 'Resetting...' : 'Reset Password'}
        </button>
      </form>
    </section>
  )
}
