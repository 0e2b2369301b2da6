// Forgot password (SPEC §2, §8): asks for a reset link by e-mail. The answer is the same whether
// or not an account exists, so the screen always sends the visitor on to the login.
import { useNavigate } from '@tanstack/react-router'
import { type FormEvent, useState } from 'react'
import * as v from 'valibot'
import { ForgotPasswordBody } from '../../../../contracts/accounts.ts'
import { requestPasswordReset } from '../../api/accounts.ts'
import { Field, FormError } from '../../ui/field.tsx'
import { notify } from '../../ui/toasts.ts'

const FAILED = 'Something went wrong. Please try again.'

export function ForgotPasswordScreen() {
  const navigate = useNavigate()
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<string | null>(null)

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    if (busy) return
    const checked = v.safeParse(ForgotPasswordBody, {
      email: String(new FormData(event.currentTarget).get('email') ?? ''),
    })
    if (!checked.success) {
      setError(checked.issues[0]?.message ?? 'Email required')
      return
    }
    setBusy(true)
    setError(null)
    try {
      await requestPasswordReset(checked.output.email)
      notify.successShort('Check your email for the reset password link')
      await navigate({ to: '/login' })
    } catch {
      setError(FAILED)
      notify.errorShort(FAILED)
      setBusy(false)
    }
  }

  return (
    <section className="page form-page">
      <form className="card form" onSubmit={submit} noValidate aria-busy={busy}>
        <h1>Forgot Password</h1>
        <p className="form-hint">Enter the e-mail of your account and we will send you a reset link.</p>
        <Field label="Email" name="email" type="email" autoComplete="email" />
        <FormError message={error} />
        <button type="submit" disabled={busy}>
          {busy ? 'Sending...' : 'Send Reset Link'}
        </button>
      </form>
    </section>
  )
}
