// /checkin: the signed-in account's invitations to door staff (the invitation mail links here). An
// invitation is accepted here, or declined; once accepted its event is listed with a link to its
// check-in screen, and the account may leave. An invitation to an address with no account yet waits
// for the account signed up with it. The door's own screen offers the same acceptance (its
// InvitationOffer) to an account that opens it invited but not yet accepted.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { Link } from '@tanstack/react-router'
import { useId } from 'react'
import { acceptInvitation, type DoorInvitation, declineInvitation } from '../../api/checkin.ts'
import { invitationsKey, invitationsQuery } from '../../api/door-invitations.ts'
import { keys } from '../../api/queries.ts'
import { Fetched, messageOr } from '../../ui/fetched.tsx'
import { formatDate } from '../../ui/format.ts'
import { notify } from '../../ui/toasts.ts'
import './checkin.css'

export const invitationTexts = {
  heading: 'Door staff invitations',
  intro:
    "As door staff you check people in at an event's door, scanning their tickets and seeing their names.",
  pending: 'Invitations',
  noPending: 'No invitations waiting.',
  working: 'Events you check people in at',
  noWorking: 'None yet.',
  accept: 'Accept',
  accepting: 'Accepting...',
  decline: 'Decline',
  leave: 'Leave',
  open: 'Open check-in screen',
  failed: 'Error fetching your invitations',
  acceptFailed: 'Could not accept the invitation.',
  declineFailed: 'Could not decline the invitation.',
} as const

/** what an invitation says of its event: when, where, who invited */
function About({ invitation }: { invitation: DoorInvitation }) {
  return (
    <p className="invitation-about">
      {formatDate(invitation.date)} at {invitation.time} · {invitation.location}
      {invitation.organizer && <> · invited by {invitation.organizer}</>}
    </p>
  )
}

/** accepting and declining, refreshing every list of invitations and the door's pass list */
function useInvitationActions(onAccepted?: (eventId: string) => void) {
  const queryClient = useQueryClient()
  const accept = useMutation({
    mutationFn: (invitation: DoorInvitation) => acceptInvitation(invitation._id),
    onSuccess: async (message, invitation) => {
      notify.success(message)
      onAccepted?.(invitation.eventId)
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: invitationsKey }),
        queryClient.invalidateQueries({ queryKey: keys.checkinManifest(invitation.eventId) }),
      ])
    },
    onError: (failure) => notify.error(messageOr(invitationTexts.acceptFailed)(failure)),
  })
  const decline = useMutation({
    mutationFn: (invitation: DoorInvitation) => declineInvitation(invitation._id),
    onSuccess: (message) => {
      notify.success(message)
      return queryClient.invalidateQueries({ queryKey: invitationsKey })
    },
    onError: (failure) => notify.error(messageOr(invitationTexts.declineFailed)(failure)),
  })
  return { accept, decline }
}

type Actions = ReturnType<typeof useInvitationActions>

function PendingInvitation({
  invitation,
  actions,
  level = 3,
}: {
  invitation: DoorInvitation
  actions: Actions
  /** the title's heading level: 3 under the invitations page's lists, 2 on the door's page */
  level?: 2 | 3
}) {
  const headingId = useId()
  const Heading = level === 2 ? 'h2' : 'h3'
  const { accept, decline } = actions
  const busy =
    (accept.isPending && accept.variables?._id === invitation._id) ||
    (decline.isPending && decline.variables?._id === invitation._id)
  return (
    <li className="card invitation" aria-labelledby={headingId}>
      <Heading id={headingId}>{invitation.title}</Heading>
      <About invitation={invitation} />
      <div className="invitation-actions">
        <button type="button" onClick={() => accept.mutate(invitation)} disabled={busy}>
          {accept.isPending && accept.variables?._id === invitation._id
            ? invitationTexts.accepting
            : invitationTexts.accept}
        </button>
        <button
          type="button"
          className="button-secondary"
          onClick={() => decline.mutate(invitation)}
          disabled={busy}
        >
          {invitationTexts.decline}
        </button>
      </div>
    </li>
  )
}

function WorkedEvent({ invitation, actions }: { invitation: DoorInvitation; actions: Actions }) {
  const headingId = useId()
  const { decline } = actions
  return (
    <li className="card invitation" aria-labelledby={headingId}>
      <h3 id={headingId}>{invitation.title}</h3>
      <About invitation={invitation} />
      <div className="invitation-actions">
        <Link to="/checkin/$eventId" params={{ eventId: invitation.eventId }} className="button">
          {invitationTexts.open}
        </Link>
        <button
          type="button"
          className="button-secondary"
          onClick={() => decline.mutate(invitation)}
          disabled={decline.isPending && decline.variables?._id === invitation._id}
        >
          {invitationTexts.leave}
        </button>
      </div>
    </li>
  )
}

export function InvitationsScreen() {
  const invitations = useQuery(invitationsQuery())
  const actions = useInvitationActions()
  const pendingId = useId()
  const workingId = useId()
  return (
    <section className="page checkin-invitations">
      <h1>{invitationTexts.heading}</h1>
      <p>{invitationTexts.intro}</p>
      <Fetched query={invitations} failed={invitationTexts.failed}>
        {(all) => {
          const pending = all.filter((invitation) => invitation.status === 'invited')
          const working = all.filter((invitation) => invitation.status === 'accepted')
          return (
            <>
              <section aria-labelledby={pendingId}>
                <h2 id={pendingId}>{invitationTexts.pending}</h2>
                {pending.length === 0 ? (
                  <p className="empty-text">{invitationTexts.noPending}</p>
                ) : (
                  <ul className="invitation-list">
                    {pending.map((invitation) => (
                      <PendingInvitation key={invitation._id} invitation={invitation} actions={actions} />
                    ))}
                  </ul>
                )}
              </section>
              <section aria-labelledby={workingId}>
                <h2 id={workingId}>{invitationTexts.working}</h2>
                {working.length === 0 ? (
                  <p className="empty-text">{invitationTexts.noWorking}</p>
                ) : (
                  <ul className="invitation-list">
                    {working.map((invitation) => (
                      <WorkedEvent key={invitation._id} invitation={invitation} actions={actions} />
                    ))}
                  </ul>
                )}
              </section>
            </>
          )
        }}
      </Fetched>
    </section>
  )
}

/**
 * On an event's door, for an account the server refused: its pending invitation to this event's
 * door staff, to accept there and then (the pass list then loads). Nothing when it has none.
 */
export function InvitationOffer({ eventId }: { eventId: string }) {
  const invitations = useQuery(invitationsQuery())
  const actions = useInvitationActions()
  const invitation = invitations.data?.find((one) => one.eventId === eventId && one.status === 'invited')
  if (!invitation) return null
  return (
    <ul className="invitation-list checkin-invitation-offer">
      <PendingInvitation invitation={invitation} actions={actions} level={2} />
    </ul>
  )
}
