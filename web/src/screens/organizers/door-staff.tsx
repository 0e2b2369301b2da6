// Who may scan an event's passes besides its organizer (issue 16): accounts added by e-mail, listed,
// removed. The server says whether an e-mail names an account ("No account found with that email.").
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { type FormEvent, useId, useState } from 'react'
import * as v from 'valibot'
import { Email } from '../../../../contracts/common.ts'
import { addDoorStaff, removeDoorStaff } from '../../api/checkin.ts'
import { doorStaffQuery, keys } from '../../api/queries.ts'
import { FetchError, messageOr } from '../../ui/fetched.tsx'
import { notify } from '../../ui/toasts.ts'

export const doorStaffTexts = {
  heading: 'Door staff',
  email: 'Door staff email',
  add: 'Add',
  adding: 'Adding...',
  remove: 'Remove',
  none: 'No door staff yet: only you can check people in.',
  failed: 'Error fetching door staff',
  added: 'Door staff added.',
  addFailed: 'Could not add door staff.',
  removed: 'Door staff removed.',
  removeFailed: 'Could not remove door staff.',
} as const

export function DoorStaff({ eventId }: { eventId: string }) {
  const headingId = useId()
  const emailId = useId()
  const queryClient = useQueryClient()
  const staff = useQuery(doorStaffQuery(eventId))
  const [email, setEmail] = useState('')
  const [error, setError] = useState<string | null>(null)
  const refetch = () => queryClient.invalidateQueries({ queryKey: keys.doorStaff(eventId) })

  const add = useMutation({
    mutationFn: (address: string) => addDoorStaff(eventId, address),
    onSuccess: () => {
      setEmail('')
      notify.success(doorStaffTexts.added)
      return refetch()
    },
    onError: (failure) => setError(messageOr(doorStaffTexts.addFailed)(failure)),
  })
  const remove = useMutation({
    mutationFn: (accountId: string) => removeDoorStaff(eventId, accountId),
    onSuccess: () => {
      notify.success(doorStaffTexts.removed)
      return refetch()
    },
    onError: (failure) => notify.error(messageOr(doorStaffTexts.removeFailed)(failure)),
  })

  const submit = (event: FormEvent) => {
    event.preventDefault()
    const checked = v.safeParse(Email, email)
    if (!checked.success) {
      setError(checked.issues[0].message)
      return
    }
    setError(null)
    add.mutate(checked.output)
  }

  return (
    <section className="door-staff" aria-labelledby={headingId}>
      <h4 id={headingId}>{doorStaffTexts.heading}</h4>
      <form className="door-staff-form" onSubmit={submit} noValidate>
        <label htmlFor={emailId}>{doorStaffTexts.email}</label>
        <div className="door-staff-row">
          <input
            id={emailId}
            type="email"
            value={email}
            autoComplete="off"
            aria-invalid={error ? true : undefined}
            onChange={(change) => {
              setEmail(change.target.value)
              setError(null)
            }}
            disabled={add.isPending}
          />
          <button type="submit" disabled={add.isPending}>
            {add.isPending ? doorStaffTexts.adding : doorStaffTexts.add}
          </button>
        </div>
        {error && (
          <p className="form-error" role="alert">
            {error}
          </p>
        )}
      </form>
      {staff.data === undefined ? (
        staff.isError ? (
          <FetchError message={doorStaffTexts.failed} />
        ) : (
          <p className="analytics-empty">Loading door staff...</p>
        )
      ) : staff.data.length === 0 ? (
        <p className="analytics-empty">{doorStaffTexts.none}</p>
      ) : (
        <ul className="door-staff-list" aria-labelledby={headingId}>
          {staff.data.map((member) => (
            <li key={member.accountId}>
              <span>
                {member.username && <strong>{member.username}</strong>} {member.email}
              </span>
              <button
                type="button"
                className="button-secondary"
                onClick={() => remove.mutate(member.accountId)}
                disabled={remove.isPending && remove.variables === member.accountId}
              >
                {doorStaffTexts.remove}
              </button>
            </li>
          ))}
        </ul>
      )}
    </section>
  )
}
