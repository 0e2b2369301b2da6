// Create organizer (admin, SPEC §2, §8): name, e-mail and password of a new organizer account.
import { useNavigate } from '@tanstack/react-router'
import { type FormEvent, useState } from 'react'
import * as v from 'valibot'
import { CreateOrganizerBody } from '../../../../contracts/accounts.ts'
import { createOrganizer } from '../../api/accounts.ts'
import { ApiError } from '../../api/client.ts'
import { Field, FormError } from '../../ui/field.tsx'
import { notify } from '../../ui/toasts.ts'

const FAILED = 'Failed to create organizer.'

export function CreateOrganizerScreen() {
  const navigate = useNavigate()
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<string | null>(null)

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    if (busy) return
    const form = new FormData(event.currentTarget)
    const checked = v.safeParse(CreateOrganizerBody, {
      name: String(form.get('name') ?? ''),
      email: String(form.get('email') ?? ''),
      password: String(form.get('password') ?? ''),
    })
    if (!checked.success) {
      setError(checked.issues[0]?.message ?? FAILED)
      return
    }
    setBusy(true)
    setError(null)
    try {
      await createOrganizer(checked.output)
      notify.successShort('Organizer created successfully!')
      await navigate({ to: '/' })
    } catch (failure) {
      notify.errorShort(FAILED)
      setError(failure instanceof ApiError && failure.isRefusal ? `${FAILED} ${failure.message}` : FAILED)
      setBusy(false)
    }
  }

  return (
    <section className="page form-page">
      <form className="card form" onSubmit={submit} noValidate aria-busy={busy}>
        <h1>Create Organizer</h1>
        <Field label="Name" name="name" autoComplete="off" />
        <Field label="Email" name="email" type="email" autoComplete="off" />
        <Field label="Password" name="password" type="password" autoComplete="new-password" />
        <FormError message={error} />
        <button type="submit" disabled={busy}>
          {busy ? 'Creating...' : 'Create Organizer'}
        </button>
      </form>
    </section>
  )
}
