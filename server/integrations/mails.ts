// The integrations area's mails (issue 43): an endpoint turned off after failing too long.
import type { AccountQueries } from '../accounts/queries.ts'
import type { Mail } from '../mail/mailer.ts'
import type { WebhookEndpointDisabled } from './facts.ts'

export function webhookMails(parts: { accounts: Pick<AccountQueries, 'byId'>; publicUrl: string }) {
  return {
    async disabled(fact: WebhookEndpointDisabled['data']): Promise<Mail | null> {
      const owner = await parts.accounts.byId(fact.organizerId)
      if (!owner) return null
      return {
        to: owner.email,
        subject: 'A webhook of yours was turned off',
        text: [
          `Hello ${owner.username},`,
          '',
          `Your webhook to ${fact.url} was turned off: ${fact.reason}.`,
          'Nothing more is sent to it. Deliveries it missed are listed with your webhooks; once the',
          'receiver works again, ask for one of them again: that turns the webhook back on, and',
          'what happens from then on is sent to it too. Ask again for any other you need.',
          '',
          `Your webhooks: ${parts.publicUrl}/account/webhooks`,
        ].join('\n'),
      }
    },
  }
}
export type WebhookMails = ReturnType<typeof webhookMails>
