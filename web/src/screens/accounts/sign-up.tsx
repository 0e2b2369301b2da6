// Sign Up (SPEC §2, §5): checked with the same schema as the server (password of 6 or more).
import { useNavigate } from '@tanstack/react-router'
import { type FormEvent, useState } from 'react'
import * as v from 'valibot'
import { RegisterBody } from '../../../../contracts/accounts.ts'
import { register } from '../../api/accounts.ts'
import { ApiError } from '../../api/client.ts'
import { Field, FormError } from '../../ui/field.tsx'
import { notify } from '../../ui/toasts.ts'

const SIGNUP_FAILED = 'Signup failed. Please try again.'

export function SignUpScreen() {
  const navigate = useNavigate()
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<string | null>(null)

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    if (busy) return
    const form = new FormData(event.currentTarget)
    const checked = v.safeParse(RegisterBody, {
      username: String(form.get('username') ?? ''),
      email: String(form.get('email') ?? ''),
      password: String(form.get('password') ?? ''),
    })
    if (!checked.success) {
      setError(checked.issues[0]?.message ?? SIGNUP_FAILED)
      return
    }
    setBusy(true)
    setError(null)
    try {
      await register(checked.output)
      notify.success('Sign Up successfully!')
      await navigate({ to: '/login' })
    } catch (failure) {
      setError(failure instanceof ApiError && failure.isRefusal ? failure.message : SIGNUP_FAILED)
      setBusy(false)
    }
  }

  return (
    <section className="page form-page">
      <form className="card form" onSubmit={submit} noValidate aria-busy={busy}>
        <h1>Sign Up</h1>
        <Field label="Username" name="username" autoComplete="username" />
        <Field label="Email" name="email" type="email" autoComplete="email" />
        <Field label="Password" name="password" type="password" autoComplete="new-password" minLength={6} />
        <FormError message={error} />
        <button type="submit" disabled={busy}>
          {busy ? 'Signing Up...' : 'Sign Up'}
        </button>
      </form>
    </section>
  )
}
