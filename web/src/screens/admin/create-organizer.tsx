// Create organizer (admin, SPEC §2, §8): name, e-mail and password of a new organizer account.
import { useNavigate } from '@tanstack/react-router'
import { CreateOrganizerBody } from '../../../../contracts/accounts.ts'
import { createOrganizer } from '../../api/accounts.ts'
import { Field, FormError } from '../../ui/field.tsx'
import { notify } from '../../ui/toasts.ts'
import { refusalOr, textOf, useCheckedForm } from '../../ui/use-checked-form.ts'

const FAILED = 'Failed to create organizer.'

export function CreateOrganizerScreen() {
  const navigate = useNavigate()
  const { busy, error, errorId, submit } = useCheckedForm(CreateOrganizerBody, {
    read: (form) => ({
      name: textOf(form, 'name'),
      email: textOf(form, 'email'),
      password: textOf(form, 'password'),
    }),
    invalid: FAILED,
    send: async (input) => {
      await createOrganizer(input)
      notify.successShort('Organizer created successfully!')
      await navigate({ to: '/' })
    },
    failed: (failure) => {
      notify.errorShort(FAILED)
      const refusal = refusalOr(failure, '')
      return refusal ? `${FAILED} ${refusal}` : FAILED
    },
  })

  return (
    <section className="page form-page">
      <form className="card form" onSubmit={submit} noValidate aria-busy={busy}>
        <h1>Create Organizer</h1>
        <Field label="Name" name="name" autoComplete="off" />
        <Field label="Email" name="email" type="email" autoComplete="off" />
        <Field label="Password" name="password" type="password" autoComplete="new-password" />
        <FormError id={errorId} message={error} />
        <button type="submit" disabled={busy}>
          {busy ? 'Creating...' : 'Create Organizer'}
        </button>
      </form>
    </section>
  )
}
