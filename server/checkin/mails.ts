// The mail an e-mail address invited to an event's door staff gets: who invited it, to which event,
// and how to accept (signed in with that address, or once signed up with it). It says nothing of
// whether the address has an account: the same mail goes to every address.
import type { AccountQueries } from '../accounts/queries.ts'
import type { DoorStaffInvited } from '../catalog/facts.ts'
import type { CatalogQueries } from '../catalog/queries.ts'
import type { Mail } from '../mail/mailer.ts'

export type DoorMails = ReturnType<typeof doorMails>

export function doorMails(parts: {
  accounts: Pick<AccountQueries, 'byId'>
  catalog: Pick<CatalogQueries, 'byId'>
  publicUrl: string
}) {
  const { accounts, catalog, publicUrl } = parts
  return {
    async invited(invitation: DoorStaffInvited['data']): Promise<Mail | null> {
      const event = await catalog.byId(invitation.eventId)
      if (!event) return null
      const inviter = (await accounts.byId(invitation.by))?.username ?? 'The organizer'
      return {
        to: invitation.email,
        subject: `You are invited to the door staff of ${event.title}`,
        text: [
          'Hello,',
          '',
          `${inviter} invited you to check people in at the door of ${event.title} (${event.date} at ${event.time}, ${event.location}).`,
          "As door staff you scan the guests' tickets and see their names.",
          '',
          `To accept, sign in with this e-mail address (${invitation.email}) and open ${publicUrl}/checkin`,
          `No account yet? Sign up with this address at ${publicUrl}/signup, then open ${publicUrl}/checkin`,
          '',
          'Not for you? Ignore this mail: nothing happens until the invitation is accepted.',
        ].join('\n'),
      }
    },
  }
}
