// Who may scan an event's passes besides its organizer (issue 16): e-mail addresses invited, each
// listed as invited until the account with that address accepts (then with its name), withdrawn or
// removed. The server answers an invitation the same for any address: nothing here says whether an
// address has an account before it accepts.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { type FormEvent, useId, useState } from 'react'
import * as v from 'valibot'
import { Email } from '../../../../contracts/common.ts'
import { type DoorStaffMember, inviteDoorStaff, removeDoorStaff } from '../../api/checkin.ts'
import { doorStaffQuery, keys } from '../../api/queries.ts'
import { FetchError, messageOr } from '../../ui/fetched.tsx'
import { formatInstant } from '../../ui/format.ts'
import { notify } from '../../ui/toasts.ts'
import './door-staff.css'

export const doorStaffTexts = {
  heading: 'Door staff',
  email: 'Door staff email',
  hint: "An invitation is mailed to the address. Once its account accepts, it can check people in and see the guests' names.",
  invite: 'Invite',
  inviting: 'Inviting...',
  withdraw: 'Withdraw',
  remove: 'Remove',
  invited: 'Invited',
  accepted: 'Accepted',
  none: 'No door staff yet: only you can check people in.',
  failed: 'Error fetching door staff',
  inviteFailed: 'Could not send the invitation.',
  withdrawn: 'Invitation withdrawn.',
  removed: 'Door staff removed.',
  removeFailed: 'Could not remove door staff.',
} as const

/** how often the list asks again while shown: an acceptance shows without a reload */
const REFRESH_MS = 30_000

export function DoorStaff({ eventId }: { eventId: string }) {
  const headingId = useId()
  const emailId = useId()
  const hintId = useId()
  const queryClient = useQueryClient()
  const staff = useQuery({ ...doorStaffQuery(eventId), refetchInterval: REFRESH_MS })
  const [email, setEmail] = useState('')
  const [error, setError] = useState<string | null>(null)
  const refetch = () => queryClient.invalidateQueries({ queryKey: keys.doorStaff(eventId) })

  const invite = useMutation({
    mutationFn: (address: string) => inviteDoorStaff(eventId, address),
    onSuccess: (message) => {
      setEmail('')
      notify.success(message)
      return refetch()
    },
    onError: (failure) => setError(messageOr(doorStaffTexts.inviteFailed)(failure)),
  })
  const remove = useMutation({
    mutationFn: (member: DoorStaffMember) => removeDoorStaff(eventId, member._id),
    onSuccess: (_, member) => {
      notify.success(member.status === 'accepted' ? doorStaffTexts.removed : doorStaffTexts.withdrawn)
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
    invite.mutate(checked.output)
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
            aria-describedby={hintId}
            aria-invalid={error ? true : undefined}
            onChange={(change) => {
              setEmail(change.target.value)
              setError(null)
            }}
            disabled={invite.isPending}
          />
          <button type="submit" disabled={invite.isPending}>
            {invite.isPending ? doorStaffTexts.inviting : doorStaffTexts.invite}
          </button>
        </div>
        <p id={hintId} className="form-hint">
          {doorStaffTexts.hint}
        </p>
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
            <li key={member._id} data-status={member.status}>
              <span>
                {member.username && <strong>{member.username}</strong>} {member.email}{' '}
                <span className={`door-staff-status door-staff-${member.status}`}>
                  {member.status === 'accepted'
                    ? `${doorStaffTexts.accepted}${member.acceptedAt ? ` ${formatInstant(member.acceptedAt)}` : ''}`
                    : `${doorStaffTexts.invited} ${formatInstant(member.invitedAt)}`}
                </span>
              </span>
              <button
                type="button"
                className="button-secondary"
                onClick={() => remove.mutate(member)}
                disabled={remove.isPending && remove.variables?._id === member._id}
              >
                {member.status === 'accepted' ? doorStaffTexts.remove : doorStaffTexts.withdraw}
              </button>
            </li>
          ))}
        </ul>
      )}
    </section>
  )
}
